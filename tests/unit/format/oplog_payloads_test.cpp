// struct_pack payloads: the worked bytes of oplog-format.md §18.2 and §18.6, both forms, and the
// undecodable cases of §8.1.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "format/oplog_base64.hpp"
#include "format/oplog_payloads.hpp"

namespace moonquota::format {
namespace {

std::string unhex(std::string_view hex) {
  std::string out;
  std::string digits;
  for (char c : hex) {
    if (std::isxdigit(static_cast<unsigned char>(c))) digits.push_back(c);
  }
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  }
  return out;
}

SegmentMountOp worked_mount() { return {"seg-node1", "10.0.0.5:17812", 1073741824, true, ""}; }

MetadataPayload worked_put_end() {
  MetadataPayload p;
  p.client_first = 0x0123456789ABCDEFULL;
  p.client_second = 0xFEDCBA9876543210ULL;
  p.size = 4096;
  PayloadReplica r;
  r.id = 12;
  r.variant = payload_variant::memory;
  r.buffer_size = 4096;
  r.buffer_address = 0x00007F3A5C000000ULL;
  r.protocol = "tcp";
  r.transport_endpoint = "10.0.0.5:17812";
  r.status = 3;
  p.replicas.push_back(r);
  p.group_id = "";
  p.data_type = 1;
  p.hard_pinned = false;
  return p;
}

TEST(OpLogPayloads, SegmentMountCompactMatchesWorkedBytes) {
  const std::string expected = unhex(
      "44 04 47 7b 09 73 65 67 2d 6e 6f 64 65 31 0e 31 30 2e 30 2e 30 2e 35 3a 31 37 38 31 32"
      "00 00 00 40 00 00 00 00 01 00");
  EXPECT_EQ(encode_segment_mount(worked_mount(), PayloadForm::compact), expected);
  EXPECT_EQ(base64_encode(expected), "RARHewlzZWctbm9kZTEOMTAuMC4wLjU6MTc4MTIAAABAAAAAAAEA");
  PayloadShape shape;
  auto decoded = decode_segment_mount(expected, &shape);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, worked_mount());
  EXPECT_EQ(shape.form, PayloadForm::compact);
}

TEST(OpLogPayloads, SegmentMountTypeLiteralMatchesWorkedBase64) {
  const std::string bytes = encode_segment_mount(worked_mount(), PayloadForm::type_literal);
  EXPECT_EQ(bytes.size(), 51u);
  EXPECT_EQ(base64_encode(bytes), "RQRHewT9gAyADAQLgAz/AAlzZWctbm9kZTEOMTAuMC4wLjU6MTc4MTIAAABAAAAAAAEA");
  PayloadShape shape;
  auto decoded = decode_segment_mount(bytes, &shape);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, worked_mount());
  EXPECT_EQ(shape.form, PayloadForm::type_literal);
}

TEST(OpLogPayloads, PutEndBothFormsMatchWorkedBase64) {
  const std::string compact = encode_metadata_payload(worked_put_end(), PayloadForm::compact);
  EXPECT_EQ(compact.size(), 86u);
  EXPECT_EQ(
      base64_encode(compact),
      "wzhHwAFWAO/"
      "Nq4lnRSMBEDJUdpi63P4AEAAAAAAAAAEMAAAAAAAAAAAAEAAAAAAAAAAAAFw6fwAAA3RjcA4xMC4wLjAuNToxNzgxMgMAAAABAAEBAQA=");
  const std::string literal = encode_metadata_payload(worked_put_end(), PayloadForm::type_literal);
  EXPECT_EQ(literal.size(), 147u);
  EXPECT_EQ(
      base64_encode(literal),
      "wzhHwAWTAP39BASJif8EhP0Ehv39BASADIAM///9/QQEgAyADP///YAMBP/9/QQEiYn/BIAM//2ADAQEBAH//wH//wDvzauJZ0UjARAyVHaY"
      "utz+ABAAAAAAAAABDAAAAAAAAAAAABAAAAAAAAAAAABcOn8AAAN0Y3AOMTAuMC4wLjU6MTc4MTIDAAAAAQABAQEA");
  for (const auto& bytes : {compact, literal}) {
    auto decoded = decode_metadata_payload(bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.status().message();
    EXPECT_EQ(*decoded, worked_put_end());
  }
}

TEST(OpLogPayloads, UnmountRoundTripsInBothForms) {
  for (auto form : {PayloadForm::compact, PayloadForm::type_literal}) {
    const std::string bytes = encode_segment_unmount({"10.0.0.5:17812"}, form);
    EXPECT_EQ(bytes.substr(0, 4), form == PayloadForm::compact ? unhex("6a5b783c") : unhex("6b5b783c"));
    auto decoded = decode_segment_unmount(bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.status().message();
    EXPECT_EQ(decoded->transport_endpoint, "10.0.0.5:17812");
  }
}

TEST(OpLogPayloads, LongNameUsesTwoByteLengths) {
  SegmentMountOp op = worked_mount();
  op.segment_name.assign(300, 'n');
  const std::string bytes = encode_segment_mount(op, PayloadForm::compact);
  EXPECT_EQ(bytes.substr(0, 5), unhex("45 04 47 7b 08"));
  auto decoded = decode_segment_mount(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, op);
}

TEST(OpLogPayloads, UndecodableInputsAreErrors) {
  const std::string good = encode_metadata_payload(worked_put_end(), PayloadForm::compact);
  std::string wrong_type = good;
  wrong_type[1] = 0x00;
  EXPECT_NE(decode_metadata_payload(wrong_type).status().message().find("type code"), std::string::npos);
  std::string reserved = good;
  reserved[4] = static_cast<char>(0x21);
  EXPECT_NE(decode_metadata_payload(reserved).status().message().find("reserved"), std::string::npos);
  std::string bad_literal = encode_metadata_payload(worked_put_end(), PayloadForm::type_literal);
  bad_literal[8] = 0x00;
  EXPECT_NE(decode_metadata_payload(bad_literal).status().message().find("hash conflict"), std::string::npos);
  std::string bad_variant = good;
  bad_variant[4 + 1 + 2 + 16 + 8 + 1 + 8] = 7;  // variant index of replica 0
  EXPECT_NE(decode_metadata_payload(bad_variant).status().message().find("variant index 7"), std::string::npos);
  std::string bad_bool = good;
  bad_bool[bad_bool.size() - 1] = 2;  // hard_pinned value
  EXPECT_NE(decode_metadata_payload(bad_bool).status().message().find("neither 0 nor 1"), std::string::npos);
  for (std::size_t cut = 0; cut < 4 + 1 + 2 + 16 + 8 + 1; ++cut) {
    EXPECT_FALSE(decode_metadata_payload(good.substr(0, cut)).ok()) << cut;
  }
  EXPECT_FALSE(decode_segment_mount("").ok());
}

TEST(OpLogPayloads, CompatFieldsBeyondTheBufferReadAsAbsent) {
  MetadataPayload p = worked_put_end();
  std::string bytes = encode_metadata_payload(p, PayloadForm::compact);
  // Drop the three compatible fields and fix total_len: an older writer.
  bytes.resize(bytes.size() - 6);
  bytes[5] = static_cast<char>(bytes.size());
  auto decoded = decode_metadata_payload(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_FALSE(decoded->group_id.has_value());
  EXPECT_FALSE(decoded->data_type.has_value());
  EXPECT_FALSE(decoded->hard_pinned.has_value());
  PayloadShape shape;
  std::string trailing = encode_metadata_payload(p, PayloadForm::compact) + "xyz";
  ASSERT_TRUE(decode_metadata_payload(trailing, &shape).ok());
  EXPECT_EQ(shape.trailing_bytes, 3u);
}

// The fast path against the general decoder: whatever it accepts, the general decoder accepts with
// the same value and shape. `reused` carries the previous input's value (stale fields, capacity).
void expect_fast_path_agrees(std::string_view bytes, MetadataPayload& reused, std::size_t& accepted) {
  PayloadShape fast_shape;
  if (!decode_compact_metadata_payload(bytes, reused, fast_shape)) return;
  ++accepted;
  PayloadShape shape;
  auto general = decode_metadata_payload(bytes, &shape);
  ASSERT_TRUE(general.ok()) << general.status().message();
  EXPECT_TRUE(*general == reused);
  EXPECT_EQ(shape.form, fast_shape.form);
  EXPECT_EQ(shape.trailing_bytes, fast_shape.trailing_bytes);
}

std::vector<MetadataPayload> fast_path_payloads() {
  std::vector<MetadataPayload> out;
  out.push_back(worked_put_end());
  MetadataPayload none = worked_put_end();
  none.replicas.clear();
  none.group_id = "group-7";
  none.data_type.reset();
  none.hard_pinned = true;
  out.push_back(none);
  MetadataPayload two = worked_put_end();
  PayloadReplica nof = two.replicas.front();
  nof.id = 13;
  nof.variant = payload_variant::nof;
  nof.protocol = "rdma";
  nof.transport_endpoint = "a-very-long-endpoint-name.example:17812";
  nof.status = -2;
  two.replicas.push_back(nof);
  two.group_id.reset();
  two.data_type = 255;
  two.hard_pinned.reset();
  out.push_back(two);
  MetadataPayload disk = worked_put_end();  // a disk replica: the general decoder's only
  PayloadReplica d;
  d.id = 14;
  d.variant = payload_variant::disk;
  d.file_path = "/mnt/f";
  d.object_size = 4096;
  disk.replicas.push_back(d);
  out.push_back(disk);
  MetadataPayload wide = worked_put_end();  // 2-byte lengths: the general decoder's only
  wide.group_id = std::string(300, 'g');
  out.push_back(wide);
  return out;
}

TEST(OpLogPayloads, CompactFastPathMatchesTheGeneralDecoder) {
  const auto payloads = fast_path_payloads();
  MetadataPayload reused;
  std::size_t accepted = 0;
  // The writer's shape is taken; type-literal, disk replicas and 2-byte lengths are not.
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    PayloadShape shape;
    EXPECT_EQ(
        decode_compact_metadata_payload(encode_metadata_payload(payloads[i], PayloadForm::compact), reused, shape),
        i < 3)
        << i;
    EXPECT_FALSE(decode_compact_metadata_payload(encode_metadata_payload(payloads[i], PayloadForm::type_literal),
                                                 reused, shape));
  }
  // Every truncation, every byte changed to each of 11 values, one byte appended, total_len fixed
  // up or not, on every payload in both forms; the previous input's value is reused throughout.
  std::mt19937_64 random(15);
  for (const auto& payload : payloads) {
    for (auto form : {PayloadForm::compact, PayloadForm::type_literal}) {
      const std::string bytes = encode_metadata_payload(payload, form);
      for (std::size_t cut = 0; cut <= bytes.size(); ++cut) {
        expect_fast_path_agrees(bytes.substr(0, cut), reused, accepted);
        std::string fixed = bytes.substr(0, cut);
        if (fixed.size() >= 7)
          fixed[5] = static_cast<char>(fixed.size()), fixed[6] = static_cast<char>(fixed.size() >> 8);
        expect_fast_path_agrees(fixed, reused, accepted);
      }
      for (std::size_t at = 0; at < bytes.size(); ++at) {
        const auto b = static_cast<unsigned char>(bytes[at]);
        for (unsigned v : {0U, 1U, 2U, 3U, 4U, 5U, 0x7fU, 0x80U, 0xffU, (b + 1) & 0xffU, (b + 0xffU) & 0xffU}) {
          std::string mutated = bytes;
          mutated[at] = static_cast<char>(v);
          expect_fast_path_agrees(mutated, reused, accepted);
        }
      }
      for (char extra : {'\0', '\1', 'x'}) {
        std::string longer = bytes + extra;
        expect_fast_path_agrees(longer, reused, accepted);
        longer[5] = static_cast<char>(longer.size());
        longer[6] = static_cast<char>(longer.size() >> 8);
        expect_fast_path_agrees(longer, reused, accepted);
      }
      for (int k = 0; k < 2000; ++k) {  // a few random bytes changed at once
        std::string mutated = bytes;
        const int flips = 1 + static_cast<int>(random() % 3);
        for (int f = 0; f < flips; ++f) mutated[random() % mutated.size()] = static_cast<char>(random());
        expect_fast_path_agrees(mutated, reused, accepted);
      }
    }
  }
  // Many mutants stay in the accepted shape (data bytes, statuses, flags 0/1): the test compares.
  EXPECT_GT(accepted, 1000u);
}

TEST(OpLogBase64, CanonicalRoundTripOnly) {
  EXPECT_EQ(base64_decode_canonical("").value(), "");
  EXPECT_EQ(base64_decode_canonical("YWJj").value(), "abc");
  EXPECT_EQ(base64_decode_canonical("YWI=").value(), "ab");
  EXPECT_EQ(base64_decode_canonical("YQ==").value(), "a");
  for (const char* bad : {"YQ", "YQ=", "YR==", "YWJ=", "Y WJ", "YWJj\n", "YW-j", "====", "YQ==YQ=="}) {
    EXPECT_FALSE(base64_decode_canonical(bad).has_value()) << bad;
  }
}

// The byte-at-a-time decoder the table-driven one replaced, kept as the reference.
std::optional<std::string> reference_base64_decode(std::string_view text, std::size_t max_decoded_bytes) {
  auto value_of = [](char c) -> int {
    constexpr std::string_view k_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const auto at = k_alphabet.find(c);
    return at == std::string_view::npos ? -1 : static_cast<int>(at);
  };
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const int a = value_of(text[i]), b = value_of(text[i + 1]);
    if (a < 0 || b < 0) return std::nullopt;
    if (last && text[i + 2] == '=' && text[i + 3] == '=') {
      if ((b & 0x0F) != 0) return std::nullopt;
      out.push_back(static_cast<char>((a << 2) | (b >> 4)));
      break;
    }
    const int c = value_of(text[i + 2]);
    if (c < 0) return std::nullopt;
    if (last && text[i + 3] == '=') {
      if ((c & 0x03) != 0) return std::nullopt;
      out.push_back(static_cast<char>((a << 2) | (b >> 4)));
      out.push_back(static_cast<char>(((b & 0x0F) << 4) | (c >> 2)));
      break;
    }
    const int d = value_of(text[i + 3]);
    if (d < 0) return std::nullopt;
    out.push_back(static_cast<char>((a << 2) | (b >> 4)));
    out.push_back(static_cast<char>(((b & 0x0F) << 4) | (c >> 2)));
    out.push_back(static_cast<char>(((c & 0x03) << 6) | d));
  }
  if (out.size() > max_decoded_bytes) return std::nullopt;
  return out;
}

// Every 4- and 8-character text over letters that reach each branch (valid digits with zero and
// non-zero low bits, '=', bytes outside the alphabet), random longer ones and mutations of
// valid encodings, each with the decoded-size limit at, below and above its size.
TEST(OpLogBase64, SameAsTheByteAtATimeDecoder) {
  const std::string letters = std::string("AQgwBRhx+/9=-") + '\0' + '\xff';
  std::vector<std::string> texts = {""};
  std::vector<std::string> groups;
  for (char a : letters)
    for (char b : letters)
      for (char c : letters)
        for (char d : letters) groups.push_back({a, b, c, d});
  for (const std::string& g : groups) {
    texts.push_back(g);
    texts.push_back(g + "QUJD");  // a bad first group
    texts.push_back("QUJD" + g);  // every last group after a good one
  }
  std::mt19937_64 rng(15);
  for (int i = 0; i < 20000; ++i) {
    std::string bytes(rng() % 40, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string t = base64_encode(bytes);
    if (!t.empty() && rng() % 2 == 0) t[rng() % t.size()] = letters[rng() % letters.size()];
    if (!t.empty() && rng() % 8 == 0) t.pop_back();
    texts.push_back(t);
  }
  for (const std::string& t : texts) {
    for (std::size_t limit : {std::size_t{0}, t.size() / 4 * 3 - (t.size() >= 4 ? 2 : 0),
                              t.size() / 4 * 3 - (t.size() >= 4 ? 1 : 0), t.size(), SIZE_MAX}) {
      ASSERT_EQ(base64_decode_canonical(t, limit), reference_base64_decode(t, limit)) << t << " limit " << limit;
    }
  }
}

}  // namespace
}  // namespace moonquota::format
