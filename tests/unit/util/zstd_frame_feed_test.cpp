// ZstdFrameFeed gives, piece by piece, the verdict zstd_check_frame gives the whole frame, message
// for message: every cut, flipped byte, trailing byte and wrong expected size, in pieces of every
// size from one byte; and its sink gets exactly the content.
#include "util/zstd_frame_feed.hpp"

#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>

#include "util/zstd_codec.hpp"

namespace moonquota::util {
namespace {

std::string feed_verdict(std::string_view frame, std::uint64_t expected, std::size_t piece, std::string* content) {
  ZstdFrameFeed::Sink sink;
  if (content != nullptr) sink = [content](std::string_view p) { content->append(p); };
  ZstdFrameFeed feed(frame.size(), expected, sink);
  std::size_t at = 0;
  Status s;
  while (at < frame.size() && s.ok()) {
    // The first piece holds the frame header, as the decoder guarantees.
    const std::size_t step = at == 0 ? std::max(piece, ZstdFrameFeed::k_first_piece_bytes) : piece;
    const std::size_t take = std::min(step, frame.size() - at);
    s = feed.feed(frame.substr(at, take));
    at += take;
  }
  if (s.ok()) s = feed.finish();
  return s.ok() ? "ok" : std::string(status_code_name(s.code())) + ": " + s.message();
}

std::string whole_verdict(std::string_view frame, std::uint64_t expected) {
  const Status s = zstd_check_frame(frame, expected);
  return s.ok() ? "ok" : std::string(status_code_name(s.code())) + ": " + s.message();
}

std::string sample_content() {
  std::string raw;
  std::mt19937 rng(7);
  for (int i = 0; i < 300000; ++i) raw.push_back(static_cast<char>(i % 7 == 0 ? rng() : i / 25));
  return raw;
}

TEST(ZstdFrameFeed, HandsOutExactlyTheContentInPieces) {
  const std::string raw = sample_content();
  const std::string frame = zstd_compress(raw, 3);
  for (std::size_t piece : {1u, 7u, 4096u, 1u << 20}) {
    std::string content;
    EXPECT_EQ(feed_verdict(frame, raw.size(), piece, &content), "ok") << piece;
    EXPECT_EQ(content, raw) << piece;
  }
}

TEST(ZstdFrameFeed, ChecksumFramesAndEmptyInput) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ASSERT_EQ(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)), 0u);
  const std::string raw = sample_content();
  std::string frame(ZSTD_compressBound(raw.size()), '\0');
  const std::size_t n = ZSTD_compress2(cctx, frame.data(), frame.size(), raw.data(), raw.size());
  ZSTD_freeCCtx(cctx);
  ASSERT_FALSE(ZSTD_isError(n));
  frame.resize(n);
  EXPECT_EQ(feed_verdict(frame, raw.size(), 100, nullptr), "ok");
  frame.back() = static_cast<char>(frame.back() ^ 1);  // the checksum
  EXPECT_EQ(feed_verdict(frame, raw.size(), 100, nullptr), whole_verdict(frame, raw.size()));
  EXPECT_EQ(feed_verdict("", 0, 1, nullptr), whole_verdict("", 0));
}

// Damage of every kind: the verdicts agree whatever the piece size.
TEST(ZstdFrameFeed, DamagedFramesGetTheWholeFramesVerdict) {
  const std::string raw = sample_content();
  const std::string frame = zstd_compress(raw, 1);
  std::mt19937 rng(11);
  std::size_t damaged = 0;
  auto agree = [&](const std::string& f, std::uint64_t expected, const std::string& what) {
    const std::string whole = whole_verdict(f, expected);
    for (std::size_t piece : {1u, 3u, 1000u, 1u << 20}) {
      ASSERT_EQ(feed_verdict(f, expected, piece, nullptr), whole) << what << ", pieces of " << piece;
    }
    damaged += whole != "ok" ? 1 : 0;
  };
  agree(frame, raw.size() + 1, "expected one more");
  agree(frame + "x", raw.size(), "a trailing byte");
  agree(frame + frame, raw.size(), "two frames");
  for (std::size_t cut = 1; cut < frame.size(); cut += 1 + cut / 3) agree(frame.substr(0, cut), raw.size(), "cut");
  for (int i = 0; i < 300; ++i) {
    std::string f = frame;
    const std::size_t at = rng() % f.size();
    f[at] = static_cast<char>(f[at] ^ (1 + rng() % 255));
    agree(f, raw.size(), "byte " + std::to_string(at) + " flipped");
  }
  EXPECT_GT(damaged, 50u);  // many flips land in literals: a frame without checksum still decodes
}

}  // namespace
}  // namespace moonquota::util
