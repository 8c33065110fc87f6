// Batch record codec: the worked batch of oplog-format.md §18.3/§18.6 byte for byte, and one
// failing input per rejection rule of §6.6, each asserting its message.
#include <gtest/gtest.h>

#include <optional>

#include "format/oplog_base64.hpp"
#include "format/oplog_batch.hpp"
#include "format/oplog_canonical.hpp"

namespace moonquota::format {
namespace {

constexpr const char* k_worked_record =
    R"([1,7,42,44,[[5,"default","10.0.0.5:17812","RARHewlzZWctbm9kZTEOMTAuMC4wLjU6MTc4MTIAAABAAAAAAAEA"],)"
    R"([1,"default","kv/blk-0001","wzhHwAFWAO/Nq4lnRSMBEDJUdpi63P4AEAAAAAAAAAEMAAAAAAAAAAAAEAAAAAAAAAAAAFw6fwAAA3RjcA4xMC4wLjAuNToxNzgxMgMAAAABAAEBAQA="],)"
    R"([3,"default","kv/blk-0001",""]],2077838908])";

std::vector<OpLogEntry> worked_entries(bool literal) {
  const char* mount = literal ? "RQRHewT9gAyADAQLgAz/AAlzZWctbm9kZTEOMTAuMC4wLjU6MTc4MTIAAABAAAAAAAEA"
                              : "RARHewlzZWctbm9kZTEOMTAuMC4wLjU6MTc4MTIAAABAAAAAAAEA";
  const char* put = literal
                        ? "wzhHwAWTAP39BASJif8EhP0Ehv39BASADIAM///9/QQEgAyADP///YAMBP/9/QQEiYn/BIAM//2ADAQEBAH//wH//"
                          "wDvzauJZ0UjARAyVHaYutz+ABAAAAAAAAABDAAAAAAAAAAAABAAAAAAAAAAAABcOn8AAAN0Y3AOMTAuMC4wLjU6MTc4"
                          "MTIDAAAAAQABAQEA"
                        : "wzhHwAFWAO/Nq4lnRSMBEDJUdpi63P4AEAAAAAAAAAEMAAAAAAAAAAAAEAAAAAAAAAAAAFw6fwAAA3RjcA4xMC4wLjAu"
                          "NToxNzgxMgMAAAABAAEBAQA=";
  return {{0, op_type::segment_mount, "default", "10.0.0.5:17812", *base64_decode_canonical(mount)},
          {0, op_type::put_end, "default", "kv/blk-0001", *base64_decode_canonical(put)},
          {0, op_type::remove, "default", "kv/blk-0001", ""}};
}

TEST(OpLogBatch, XxHashVectors) {
  EXPECT_EQ(xxh32(""), 0x02CC5D05u);
  EXPECT_EQ(xxh32("abc"), 0x32D153FFu);
}

TEST(OpLogBatch, WorkedBatchIsReproducedByteForByte) {
  const std::string text = encode_batch_record(7, 42, worked_entries(false));
  EXPECT_EQ(text, k_worked_record);
  EXPECT_EQ(text.size(), 288u);
  const std::string literal = encode_batch_record(7, 42, worked_entries(true));
  EXPECT_EQ(literal.size(), 384u);
  EXPECT_NE(literal.find(",1380059472]"), std::string::npos);
}

TEST(OpLogBatch, WorkedBatchDecodes) {
  model::Findings findings;
  auto batch = decode_batch_record(k_worked_record, "/oplog/prod-a/batches/00000000000000000007", findings);
  ASSERT_TRUE(batch.ok()) << batch.status().message();
  EXPECT_TRUE(findings.empty());
  EXPECT_EQ(batch->batch_id, 7u);
  EXPECT_EQ(batch->checksum, 2077838908u);
  ASSERT_EQ(batch->entries.size(), 3u);
  EXPECT_EQ(batch->entries[2].sequence, 44u);
  EXPECT_EQ(batch->entries[1].payload.size(), 86u);
}

TEST(OpLogBatch, NonCanonicalSpacingIsAcceptedAndReported) {
  std::string spaced = k_worked_record;
  spaced.insert(1, " ");
  model::Findings findings;
  auto batch = decode_batch_record(spaced, "k", findings);
  ASSERT_TRUE(batch.ok()) << batch.status().message();
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings.back().message, "stored text is not byte-identical to its canonical serialization");
  findings.clear();
  // Trailing text is ignored by jsoncpp's default reader (failIfExtra off).
  std::string trailing = std::string(k_worked_record) + " trailing-text";
  ASSERT_TRUE(decode_batch_record(trailing, "k", findings).ok());
  ASSERT_GE(findings.size(), 2u);
  EXPECT_NE(findings[0].message.find("leniency"), std::string::npos);
}

struct RuleCase {
  const char* name;
  std::string text;
  const char* message;
};

std::string record(const std::string& head, const std::string& entries) {
  // A record whose checksum is right for whatever head/entries are given.
  std::string body = "[" + head + ",[" + entries + "]]";
  return body.substr(0, body.size() - 1) + "," + std::to_string(xxh32(body)) + "]";
}

TEST(OpLogBatch, CollectedCommentsEnterTheReserializationAndBreakTheChecksum) {
  // jsoncpp's default reader attaches comments to values and its writer emits them again, so a
  // comment inside the first five elements changes the checksum input, as in the real reader.
  std::string commented = k_worked_record;
  commented.insert(1, "/* c */");
  model::Findings findings;
  auto r = decode_batch_record(commented, "K", findings);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("rule 6: K: checksum mismatch", 0), 0u) << r.status().message();
}

TEST(OpLogBatch, EveryRejectionRuleHasItsMessage) {
  const std::string ok_entry = R"([3,"default","k",""])";
  const std::vector<RuleCase> cases = {
      {"not json", "[1,7,", "rule 1: K: not JSON"},
      {"not array of 6", "[1,7,42,42,[]]", "rule 2: K: the root is not an array of exactly 6 elements"},
      {"object root", R"({"a":1})", "rule 2: K"},
      {"negative schema", "[-1,7,42,42,[" + ok_entry + "],0]", "rule 3: K: wrong element types"},
      {"u32 overflow", "[4294967296,7,42,42,[" + ok_entry + "],0]", "rule 3: K"},
      {"entries not array", "[1,7,42,42,{},0]", "rule 3: K"},
      {"schema 2", "[2,7,42,42,[" + ok_entry + "],0]", "rule 4: K: schema_version 2 is not 1"},
      {"empty", "[1,7,42,42,[],0]", "rule 5: K: no entries"},
      {"first 0", "[1,7,0,0,[" + ok_entry + "],0]", "rule 5: K: first_seq is 0"},
      {"last<first", "[1,7,42,41,[" + ok_entry + "],0]", "rule 5: K: last_seq 41 < first_seq 42"},
      {"count", "[1,7,42,43,[" + ok_entry + "],0]", "rule 5: K: sequences 42..43 do not match 1 entries"},
      {"checksum", "[1,7,42,42,[" + ok_entry + "],1]", "rule 6: K: checksum mismatch: stored 1, computed"},
      {"entry shape", record("1,7,42,42", R"([3,"default","k"])"), "rule 7: K entry 0 (sequence 42)"},
      {"entry types", record("1,7,42,42", R"([3,1,"k",""])"), "rule 7: K entry 0 (sequence 42)"},
      {"op 0", record("1,7,42,42", R"([0,"default","k",""])"), "rule 8: K entry 0 (sequence 42): op_type 0 is not 1-7"},
      {"op 8", record("1,7,42,42", R"([8,"default","k",""])"), "rule 8: K entry 0 (sequence 42): op_type 8"},
      {"base64", record("1,7,42,42", R"([1,"default","k","YQ"])"),
       "rule 9: K entry 0 (sequence 42): payload is not canonical base64"},
      {"tenant _", record("1,7,42,42", R"([3,"_x","k",""])"), "rule 10: K entry 0 (sequence 42): invalid tenant id"},
      {"tenant ctl", record("1,7,42,42", R"([3,"a\u0001","k",""])"), "rule 10"},
      {"key size", record("1,7,42,42", "[3,\"default\",\"" + std::string(4097, 'k') + "\",\"\"]"),
       "rule 11: K entry 0 (sequence 42): object key of 4097 bytes exceeds 4096"},
      {"batch 0", record("1,0,42,42", ok_entry), "rule 12: K: batch_id is 0"},
  };
  for (const auto& c : cases) {
    model::Findings findings;
    auto r = decode_batch_record(c.text, "K", findings);
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(r.status().message().rfind(c.message, 0), 0u) << c.name << ": " << r.status().message();
  }
}

TEST(OpLogBatch, PayloadLimitIsRule11) {
  std::string big(k_max_oplog_payload_bytes + 1, 'x');
  model::Findings findings;
  auto r =
      decode_batch_record(record("1,7,42,42", "[1,\"default\",\"k\",\"" + base64_encode(big) + "\"]"), "K", findings);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("rule 11"), std::string::npos) << r.status().message();
}

TEST(OpLogBatch, DurablePrefix) {
  model::Findings findings;
  auto p = decode_durable_prefix(R"({"batch_id":7,"last_seq":44,"schema_version":1})", findings);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, (DurablePrefix{7, 44}));
  EXPECT_TRUE(findings.empty());
  auto extra =
      decode_durable_prefix(R"({"batch_id":7,"last_seq":44,"producer_view_version":3,"schema_version":1})", findings);
  ASSERT_TRUE(extra.ok());
  EXPECT_FALSE(findings.empty());
  EXPECT_FALSE(decode_durable_prefix(R"({"batch_id":7,"last_seq":44,"schema_version":2})", findings).ok());
  EXPECT_FALSE(decode_durable_prefix(R"({"batch_id":7,"schema_version":1})", findings).ok());
  EXPECT_FALSE(decode_durable_prefix(R"([7,44,1])", findings).ok());
  EXPECT_FALSE(decode_durable_prefix(R"({"batch_id":-7,"last_seq":44,"schema_version":1})", findings).ok());
  EXPECT_EQ(encode_durable_prefix({7, 44}), R"({"batch_id":7,"last_seq":44,"schema_version":1})");
}

// Issue 11 item 23: jsoncpp throws (instead of failing the parse) past its nesting limit of 1000;
// both decoders must turn that into corruption naming the value, not let it escape.
TEST(OpLogBatch, DeepNestingIsCorruptionNotAnException) {
  const std::string deep(1000, '[');
  model::Findings findings;
  std::optional<util::Result<DurablePrefix>> p;
  ASSERT_NO_THROW(p.emplace(decode_durable_prefix(deep, findings)));
  ASSERT_FALSE(p->ok());
  EXPECT_EQ(p->status().code(), util::StatusCode::corruption);
  EXPECT_EQ(p->status().message().rfind("durable_prefix: not JSON: ", 0), 0u) << p->status().message();
  EXPECT_NE(p->status().message().find("stackLimit"), std::string::npos) << p->status().message();
  for (const std::string& text : {deep, "[1,7,42,42,[" + deep, "[1,7,42,42,[[3,\"default\",\"k\",\"\"]]," + deep}) {
    std::optional<util::Result<BatchRecord>> b;
    ASSERT_NO_THROW(b.emplace(decode_batch_record(text, "K", findings)));
    ASSERT_FALSE(b->ok());
    EXPECT_EQ(b->status().code(), util::StatusCode::corruption);
    EXPECT_EQ(b->status().message().rfind("rule 1: K: not JSON: ", 0), 0u) << b->status().message();
  }
}

// skip_plain_ascii (eight bytes at a time) against a byte loop: every byte value at every
// position of texts of 0-24 bytes, from every start.
TEST(OpLogCanonical, SkipPlainAsciiStopsAtTheFirstSpecialByte) {
  auto reference = [](std::string_view t, std::size_t pos) {
    while (pos < t.size()) {
      const auto c = static_cast<unsigned char>(t[pos]);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') break;
      ++pos;
    }
    return pos;
  };
  for (std::size_t n = 0; n <= 24; ++n) {
    for (std::size_t at = 0; at <= n; ++at) {
      for (int b = 0; b < 256; ++b) {
        std::string t(n, 'a');
        for (std::size_t i = 0; i < n; ++i)
          t[i] = static_cast<char>(0x20 + (i * 7) % 95 == '"' ? 'x' : 0x20 + (i * 7) % 95);
        for (char& c : t)
          if (c == '\\') c = 'y';
        if (at < n) t[at] = static_cast<char>(b);
        for (std::size_t start = 0; start <= n; ++start) {
          ASSERT_EQ(skip_plain_ascii(t, start), reference(t, start)) << "n " << n << " at " << at << " byte " << b;
        }
      }
    }
  }
}

// decode_batch_view against decode_batch_record: the same status, findings and entries on the
// writer's own text (the scanner's path, payloads in one buffer), on the same batch as
// non-canonical text (the jsoncpp path), and on every truncation and every one-byte change of
// both. A BatchView reused across all of them must not carry anything from one to the next.
TEST(OpLogBatch, ViewDecodeMatchesTheRecordDecode) {
  std::vector<OpLogEntry> entries = worked_entries(false);
  entries.push_back({0, op_type::put_end, "", "kv/empty-tenant", ""});
  entries.push_back({0, op_type::put_end, "t1", "kv/one", "x"});
  entries.push_back({0, op_type::put_end, "t2", "kv/two", "xy"});
  const std::string canonical = encode_batch_record(9, 100, entries);
  std::string spaced = canonical;
  spaced.insert(1, " ");
  std::vector<std::string> inputs = {canonical, spaced, k_worked_record};
  for (const std::string& base : {canonical, spaced}) {
    for (std::size_t n = 0; n < base.size(); ++n) inputs.push_back(base.substr(0, n));
    for (std::size_t i = 0; i < base.size(); ++i) {
      for (char c : {'0', '9', '"', ',', '[', ']', 'A', '=', ' ', '\\', '\x80'}) {
        if (base[i] == c) continue;
        std::string m = base;
        m[i] = c;
        inputs.push_back(std::move(m));
      }
    }
  }
  BatchView view;
  std::size_t accepted = 0;
  for (const std::string& text : inputs) {
    model::Findings record_findings;
    model::Findings view_findings;
    auto record = decode_batch_record(text, "K", record_findings);
    const util::Status status = decode_batch_view(text, "K", view_findings, view);
    ASSERT_EQ(status.ok(), record.ok()) << text;
    ASSERT_EQ(view_findings.size(), record_findings.size()) << text;
    for (std::size_t i = 0; i < view_findings.size(); ++i) {
      EXPECT_EQ(view_findings[i].message, record_findings[i].message) << text;
      EXPECT_EQ(view_findings[i].location, record_findings[i].location) << text;
    }
    if (!record.ok()) {
      EXPECT_EQ(status.message(), record.status().message()) << text;
      continue;
    }
    ++accepted;
    EXPECT_EQ(view.batch_id, record->batch_id);
    EXPECT_EQ(view.first_seq, record->first_seq);
    EXPECT_EQ(view.last_seq, record->last_seq);
    EXPECT_EQ(view.checksum, record->checksum);
    ASSERT_EQ(view.entries.size(), record->entries.size()) << text;
    for (std::size_t i = 0; i < view.entries.size(); ++i) {
      const OpLogEntryView& v = view.entries[i];
      const OpLogEntry& r = record->entries[i];
      EXPECT_EQ(v.sequence, r.sequence);
      EXPECT_EQ(v.op_type, r.op_type);
      EXPECT_EQ(v.tenant_id, r.tenant_id);
      EXPECT_EQ(v.key, r.key);
      EXPECT_EQ(v.payload, r.payload);
    }
  }
  EXPECT_GE(accepted, 3u);
  // The canonical text and its spaced form decode to the same entries by the two paths.
  model::Findings findings;
  auto a = decode_batch_record(canonical, "K", findings);
  auto b = decode_batch_record(spaced, "K", findings);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->entries.size(), entries.size());
  ASSERT_EQ(b->entries.size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(a->entries[i].payload, entries[i].payload);
    EXPECT_EQ(b->entries[i].payload, entries[i].payload);
    EXPECT_EQ(a->entries[i].tenant_id, entries[i].tenant_id.empty() ? "default" : entries[i].tenant_id);
    EXPECT_EQ(b->entries[i].tenant_id, a->entries[i].tenant_id);
  }
}

}  // namespace
}  // namespace moonquota::format
