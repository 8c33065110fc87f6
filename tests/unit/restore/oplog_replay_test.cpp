// Reader rules (oplog-format.md §11.5) and the applier table (§13.2): one failing input per
// reader rule, asserting its message; applier effects on a small log.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "format/oplog_batch.hpp"
#include "format/oplog_payloads.hpp"
#include "restore/oplog_replay.hpp"
#include "restore/page_decoder.hpp"
#include "restore/promotion_validation.hpp"
#include "source/oplog_keys.hpp"

namespace moonquota::restore {
namespace {

using format::OpLogEntry;
namespace op = format::op_type;

const std::string k_root = "/oplog/t/";

std::string put_end(std::uint64_t size, const std::string& endpoint, std::uint64_t address, std::int32_t status = 3) {
  format::MetadataPayload p;
  p.size = size;
  format::PayloadReplica r;
  r.id = address;
  r.buffer_size = size;
  r.buffer_address = address;
  r.protocol = "tcp";
  r.transport_endpoint = endpoint;
  r.status = status;
  p.replicas.push_back(r);
  p.group_id = "";
  p.data_type = 1;
  p.hard_pinned = false;
  return format::encode_metadata_payload(p, format::PayloadForm::compact);
}

std::string mount(const std::string& name, const std::string& endpoint, std::uint64_t capacity) {
  return format::encode_segment_mount({name, endpoint, capacity, true, ""}, format::PayloadForm::compact);
}

struct LogBuilder {
  source::OpLogKeySet set;
  LogBuilder() {
    set.origin = "test";
    set.root = k_root;
  }
  LogBuilder& batch(std::uint64_t id, std::uint64_t first, std::vector<OpLogEntry> entries) {
    set.kvs.push_back({k_root + "batches/" + source::d20(id), format::encode_batch_record(id, first, entries)});
    return *this;
  }
  LogBuilder& raw(const std::string& suffix, const std::string& value) {
    set.kvs.push_back({k_root + suffix, value});
    return *this;
  }
  LogBuilder& prefix(std::uint64_t id, std::uint64_t seq) {
    return raw("durable_prefix", format::encode_durable_prefix({id, seq}));
  }
  source::OpLogKeySet build() {
    std::sort(set.kvs.begin(), set.kvs.end(), [](auto& a, auto& b) { return a.key < b.key; });
    return set;
  }
};

OpLogEntry e(std::uint32_t type, std::string key, std::string payload = "", std::string tenant = "default") {
  return {0, type, std::move(tenant), std::move(key), std::move(payload)};
}

LogBuilder good_log() {
  LogBuilder b;
  b.batch(1, 1, {e(op::segment_mount, "10.0.0.5:1", mount("seg", "10.0.0.5:1", 1 << 20))})
      .batch(2, 2,
             {e(op::put_end, "a", put_end(100, "10.0.0.5:1", 0)), e(op::put_end, "b", put_end(50, "10.0.0.5:1", 4096))})
      .batch(3, 4, {e(op::remove, "b"), e(op::put_end, "c", "")})
      .prefix(3, 5);
  return b;
}

// Everything a replay produced, as text: its error, or its result and the objects it left.
std::string replay_text(const util::Result<ReplayResult>& r, const StandbyStore& store) {
  if (!r.ok()) return "error: " + r.status().message();
  std::ostringstream out;
  out << "applied " << r->applied_seq << " batches " << r->batches_decoded << " entries " << r->entries_seen
      << " until " << r->stopped_by_until_seq << " orphans " << r->orphan_batches << " placeholders "
      << r->counters.empty_placeholders << " skipped " << r->counters.skipped_already_applied << "\n";
  for (const auto& f : r->findings)
    out << static_cast<int>(f.severity) << " " << f.location << ": " << f.message << "\n";
  std::vector<std::string> objects;
  for (const auto& entry : store.entries()) {
    objects.push_back(std::string(store.tenant_name(entry.tenant)) + "/" + entry.key + " " +
                      std::to_string(entry.object.size) + " " + std::to_string(entry.object.replicas.size()));
  }
  std::sort(objects.begin(), objects.end());
  for (const auto& o : objects) out << o << "\n";
  for (const auto& [endpoint, segment] : store.registry()) out << endpoint << " " << segment.capacity << "\n";
  return out.str();
}

// Every replay here runs twice, decoding on the caller's thread and one batch ahead on a thread of
// its own: both must give the same result, findings, error and objects.
util::Result<ReplayResult> replay(source::OpLogKeySet set, StandbyStore& store, std::uint64_t baseline = 0,
                                  ReplayOptions options = {}) {
  StandbyStore ahead_store = store;
  ReplayOptions ahead = options;
  ahead.decode_ahead = true;
  options.decode_ahead = false;
  auto ahead_result = replay_oplog(set, ahead_store, baseline, ahead);
  auto result = replay_oplog(set, store, baseline, options);
  EXPECT_EQ(replay_text(ahead_result, ahead_store), replay_text(result, store));
  return result;
}

TEST(OpLogReplay, AppliesTheWholeLog) {
  StandbyStore store;
  auto r = replay(good_log().build(), store);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->applied_seq, 5u);
  EXPECT_EQ(store.size(), 2u);  // a and the placeholder c
  EXPECT_EQ(store.registry().size(), 1u);
  EXPECT_EQ(r->counters.empty_placeholders, 1u);
  auto v = validate_promotion(store);
  ASSERT_TRUE(v.ok) << v.failure;
  EXPECT_EQ(v.tenants["default"].objects, 2u);
  EXPECT_EQ(static_cast<std::uint64_t>(v.tenants["default"].charged_bytes), 100u);
  EXPECT_EQ(v.registry_memory_capacity_bytes, 1u << 20);
}

TEST(OpLogReplay, UntilSeqStopsEarly) {
  StandbyStore store;
  ReplayOptions options;
  options.until_seq = 3;
  auto r = replay(good_log().build(), store, 0, options);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->stopped_by_until_seq);
  EXPECT_EQ(r->applied_seq, 3u);
  EXPECT_EQ(store.size(), 2u);  // a and b
}

TEST(OpLogReplay, BaselineSkipsCoveredEntriesAndToleratesMissingHead) {
  LogBuilder b;
  b.batch(3, 4, {e(op::remove, "x"), e(op::put_end, "y", put_end(10, "e", 0))}).prefix(3, 5);
  StandbyStore store;
  store.registry()["e"] = {"s", "e", 100, true, ""};
  auto r = replay(b.build(), store, 4);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->counters.skipped_already_applied, 1u);
  EXPECT_EQ(r->applied_seq, 5u);
}

struct ReaderCase {
  const char* name;
  LogBuilder log;
  std::uint64_t baseline;
  const char* message;
};

TEST(OpLogReplay, EveryReaderRuleFailsWithItsMessage) {
  std::vector<ReaderCase> cases;
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a")});
    cases.push_back({"prefix missing with a baseline", b, 7,
                     "durable_prefix: missing while the snapshot baseline is at sequence 7"});
  }
  {
    LogBuilder b;
    b.raw("durable_prefix", "{\"batch_id\":1}");
    cases.push_back({"prefix undecodable", b, 0,
                     "prefix: /oplog/t/durable_prefix: durable_prefix: member \"schema_version\" missing"});
  }
  {
    LogBuilder b;
    b.prefix(0, 3);
    cases.push_back({"zero prefix", b, 0, "zero prefix: /oplog/t/durable_prefix: batch_id 0 with last_seq 3"});
  }
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a")}).prefix(2, 2);
    cases.push_back({"terminal batch missing", b, 0, "terminal batch: /oplog/t/batches/00000000000000000002: missing"});
  }
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a")}).prefix(1, 2);
    cases.push_back(
        {"terminal mismatch", b, 0,
         "terminal batch: /oplog/t/batches/00000000000000000001: ends at sequence 1 but durable_prefix.last_seq is 2"});
  }
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a")})
        .raw("batches/" + source::d20(2), "[1,2,2,2,[[3,\"default\",\"a\",\"\"]],1]")
        .prefix(1, 1);
    cases.push_back({"decode failure (even above the prefix, same page)", b, 0,
                     "decode: /oplog/t/batches/00000000000000000002: rule 6: /oplog/t/batches/00000000000000000002: "
                     "checksum mismatch"});
  }
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a")});
    b.set.kvs.push_back(
        {k_root + "batches/" + source::d20(2), format::encode_batch_record(5, 2, {e(op::remove, "b")})});
    b.prefix(2, 2);
    cases.push_back({"key id != record id", b, 0, "terminal batch: /oplog/t/batches/00000000000000000002"});
  }
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a")});
    b.set.kvs.push_back(
        {k_root + "batches/" + source::d20(2), format::encode_batch_record(5, 2, {e(op::remove, "b")})});
    b.batch(3, 2, {e(op::remove, "c")}).prefix(3, 2);
    cases.push_back(
        {"rule 13 on a walked batch", b, 0,
         "rule 13: /oplog/t/batches/00000000000000000002: record batch_id 5 differs from the id in its key"});
  }
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a")}).batch(3, 2, {e(op::remove, "b")}).prefix(3, 2);
    cases.push_back({"batch id gap", b, 0,
                     "contiguity: /oplog/t/batches/00000000000000000003 sequence 2: batch 3 starting at sequence 2 "
                     "does not follow batch 1"});
  }
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a")}).batch(2, 3, {e(op::remove, "b")}).prefix(2, 3);
    cases.push_back(
        {"sequence gap across batches", b, 0, "contiguity: /oplog/t/batches/00000000000000000002 sequence 3"});
  }
  {
    LogBuilder b;
    b.batch(2, 2, {e(op::remove, "a")}).prefix(2, 2);
    cases.push_back({"missing head without a baseline", b, 0,
                     "gap: /oplog/t/batches/00000000000000000002 sequence 2: expected sequence 1"});
  }
  {
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a"), e(op::lease_renew, "a")}).prefix(1, 2);
    cases.push_back(
        {"LEASE_RENEW stops", b, 0,
         "applier: /oplog/t/batches/00000000000000000001 sequence 2: op type 4 (LEASE_RENEW) is not applied"});
  }
  {
    // The reader decodes the whole page before applying: a batch of the page that does not decode
    // is the error even when an earlier batch would be refused by the applier.
    LogBuilder b;
    b.batch(1, 1, {e(op::remove, "a"), e(op::lease_renew, "a")})
        .batch(2, 3, {e(op::remove, "b")})
        .raw("batches/" + source::d20(3), "[1,3,4,4,[[3,\"default\",\"a\",\"\"]],1]")
        .prefix(2, 3);
    cases.push_back({"decode failure after an applier refusal, same page", b, 0,
                     "decode: /oplog/t/batches/00000000000000000003: rule 6"});
  }
  for (auto& c : cases) {
    StandbyStore store;
    auto r = replay(c.log.build(), store, c.baseline);
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(r.status().message().rfind(c.message, 0), 0u) << c.name << ": " << r.status().message();
    if (std::string(c.name).rfind("prefix missing", 0) != 0) {
      EXPECT_NE(r.status().message().find("enters FAILED"), std::string::npos) << c.name;
    }
  }
}

// Stopping at --until-seq does not stop the decoding of the page: a later batch of it that does
// not decode is still the error, as for the reader.
TEST(OpLogReplay, UntilSeqStillDecodesTheRestOfThePage) {
  LogBuilder b;
  b.batch(1, 1, {e(op::remove, "a")})
      .batch(2, 2, {e(op::remove, "b")})
      .raw("batches/" + source::d20(3), "[1,3,3,3,[[3,\"default\",\"a\",\"\"]],1]")
      .prefix(2, 2);
  StandbyStore store;
  ReplayOptions options;
  options.until_seq = 1;
  auto r = replay(b.build(), store, 0, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("decode: /oplog/t/batches/00000000000000000003: rule 6", 0), 0u)
      << r.status().message();
}

// The findings of applying a page (here: the missing head) follow the decode findings of every
// batch of the page (here: batch 4's empty tenant), as when the page is decoded before it is applied.
TEST(OpLogReplay, ApplyFindingsFollowThePagesDecodeFindings) {
  LogBuilder b;
  b.batch(3, 1, {e(op::remove, "x"), e(op::remove, "y")}).batch(4, 3, {e(op::remove, "z", "", "")}).prefix(4, 3);
  StandbyStore store;
  auto r = replay(b.build(), store, 0, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::size_t head = r->findings.size(), tenant = r->findings.size();
  for (std::size_t i = 0; i < r->findings.size(); ++i) {
    if (r->findings[i].message.find("missing head") != std::string::npos) head = i;
    if (r->findings[i].message.find("empty tenant id") != std::string::npos) tenant = std::min(tenant, i);
  }
  ASSERT_LT(head, r->findings.size());
  ASSERT_LT(tenant, r->findings.size());
  EXPECT_LT(tenant, head);
}

// Pages of three batches over a long log, decoded ahead or not (replay() compares the two): the
// same objects; then a batch in the middle whose record names another id stops both at its key.
TEST(OpLogReplay, DecodeAheadAgreesOverManyPages) {
  LogBuilder b;
  b.batch(1, 1, {e(op::segment_mount, "10.0.0.5:1", mount("seg", "10.0.0.5:1", 1 << 30))});
  for (std::uint64_t id = 2; id <= 40; ++id) {
    b.batch(id, id, {e(op::put_end, "k" + std::to_string(id % 7), put_end(id, "10.0.0.5:1", id << 12))});
  }
  b.prefix(40, 40);
  ReplayOptions options;
  options.page_batches = 3;
  StandbyStore store;
  auto r = replay(b.build(), store, 0, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->applied_seq, 40u);
  EXPECT_EQ(r->batches_decoded, 40u);
  EXPECT_EQ(store.size(), 7u);

  auto log = b.build();
  const auto twenty = std::find_if(log.kvs.begin(), log.kvs.end(),
                                   [](const auto& kv) { return kv.key == k_root + "batches/" + source::d20(20); });
  ASSERT_NE(twenty, log.kvs.end());
  twenty->value = format::encode_batch_record(21, 20, {e(op::remove, "k1")});
  StandbyStore again;
  auto bad = replay(log, again, 0, options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("rule 13: /oplog/t/batches/00000000000000000020", 0), 0u)
      << bad.status().message();
}

// A decoder left after its first batch (the replay returns on an error) stops its thread.
TEST(PageDecoder, StopsWhenLeftEarlyAndKeepsKeyOrder) {
  LogBuilder b;
  for (std::uint64_t id = 1; id <= 9; ++id) b.batch(id, id, {e(op::remove, "k")});
  b.raw("batches/x", "[]");
  const auto log = b.build();
  std::vector<const source::KeyValue*> page;
  for (const auto& kv : log.kvs) page.push_back(&kv);
  {
    PageDecoder decoder(log, page, true);
    EXPECT_EQ(decoder.next().batch.batch_id, 1u);
  }
  PageDecoder decoder(log, page, true);
  for (std::uint64_t id = 1; id <= 9; ++id) {
    DecodedBatch& d = decoder.next();
    ASSERT_EQ(d.outcome, DecodedBatch::Outcome::decoded);
    EXPECT_EQ(d.batch.batch_id, id);
    EXPECT_EQ(d.key_id, id);
  }
  EXPECT_EQ(decoder.next().outcome, DecodedBatch::Outcome::malformed_key);
}

TEST(OpLogReplay, EndOfPollMissingBatches) {
  // Terminal batch present but an intermediate one missing with a small page: batches 1 and 3.
  LogBuilder b;
  b.batch(1, 1, {e(op::remove, "a")}).batch(3, 3, {e(op::remove, "c")}).prefix(3, 3);
  StandbyStore store;
  auto r = replay(b.build(), store);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("contiguity"), std::string::npos) << r.status().message();
}

TEST(OpLogReplay, NoPrefixNoBaselineAppliesNothingAndReportsOrphans) {
  LogBuilder b;
  b.batch(1, 1, {e(op::remove, "a")});
  StandbyStore store;
  auto r = replay(b.build(), store);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->applied_seq, 0u);
  EXPECT_EQ(r->orphan_batches, 1u);
}

TEST(OpLogApplier, TableEffects) {
  StandbyStore store;
  OpLogApplier applier(store, 0);
  std::string why;
  auto apply = [&](std::uint64_t seq, OpLogEntry entry) {
    entry.sequence = seq;
    return applier.apply(entry, why);
  };
  EXPECT_EQ(apply(1, e(op::segment_mount, "name-key", mount("seg", "ep", 10))), ApplyOutcome::applied);
  EXPECT_EQ(store.registry().count("ep"), 1u);
  EXPECT_EQ(apply(2, e(op::put_end, "k", "garbage")), ApplyOutcome::applied);
  EXPECT_TRUE(store.entries().front().object.placeholder);
  EXPECT_EQ(applier.counters().undecodable_placeholders, 1u);
  EXPECT_EQ(apply(3, e(op::put_end, "k", put_end(8, "ep", 0, 2))), ApplyOutcome::applied);
  EXPECT_EQ(store.entries().front().object.replicas[0].status, 2);  // PROCESSING kept verbatim
  EXPECT_EQ(apply(4, e(op::segment_unmount, "ep", "zz")), ApplyOutcome::applied);
  EXPECT_EQ(applier.counters().segment_noops, 1u);
  EXPECT_EQ(apply(5, e(op::put_revoke, "k")), ApplyOutcome::applied);
  EXPECT_TRUE(store.empty());
  EXPECT_EQ(apply(5, e(op::remove, "k")), ApplyOutcome::skipped);
  EXPECT_EQ(apply(7, e(op::remove, "k")), ApplyOutcome::refused);
  EXPECT_EQ(apply(6, e(op::lease_renew, "k")), ApplyOutcome::refused);
  EXPECT_EQ(applier.expected(), 6u);
}

TEST(PromotionValidation, ChecksAndNulScopedKeys) {
  auto object = [](std::uint64_t size, std::string endpoint, std::uint64_t address, std::int32_t status = 3) {
    StandbyObject o;
    o.size = size;
    format::PayloadReplica r;
    r.buffer_size = size;
    r.buffer_address = address;
    r.transport_endpoint = std::move(endpoint);
    r.status = status;
    o.replicas.push_back(r);
    return o;
  };
  {
    StandbyStore s;
    s.registry()["ep"] = {"seg", "ep", 100, true, ""};
    s.put("default", std::string("ten\0k", 5), object(10, "seg", 0));  // by name, NUL-scoped
    s.put("ten", "j", object(10, "ep", 10));
    auto v = validate_promotion(s);
    ASSERT_TRUE(v.ok) << v.failure;
    EXPECT_EQ(v.tenants.count("ten"), 1u);
    EXPECT_EQ(v.tenants["ten"].objects, 2u);
    EXPECT_EQ(v.legacy_scoped_keys, 1u);
  }
  const std::vector<std::pair<std::string, std::function<void(StandbyStore&)>>> failing = {
      {"OBJECT_ALREADY_EXISTS",
       [&](StandbyStore& s) {
         s.put("default", std::string("ten\0k", 5), object(10, "ep", 0));
         s.put("ten", "k", object(10, "ep", 20));
       }},
      {"not a registry memory segment", [&](StandbyStore& s) { s.put("default", "k", object(10, "nowhere", 0)); }},
      {"differs from the object size",
       [&](StandbyStore& s) {
         auto o = object(10, "ep", 0);
         o.replicas[0].buffer_size = 9;
         s.put("default", "k", o);
       }},
      {"overflows", [&](StandbyStore& s) { s.put("default", "k", object(10, "ep", UINT64_MAX - 5)); }},
      {"more than its capacity",
       [&](StandbyStore& s) {
         s.put("default", "a", object(60, "ep", 0));
         s.put("default", "b", object(60, "ep", 100));
       }},
      {"overlap",
       [&](StandbyStore& s) {
         s.put("default", "a", object(10, "ep", 0));
         s.put("default", "b", object(10, "ep", 5));
       }},
      {"invalid tenant", [&](StandbyStore& s) { s.put("default", std::string("_x\0k", 4), object(10, "ep", 0)); }},
      {"capacity > 0",
       [&](StandbyStore& s) {
         s.registry()["e2"] = {"s2", "e2", 0, true, ""};
       }},
      {"claimed by two",
       [&](StandbyStore& s) {
         s.registry()["e2"] = {"ep", "e2", 5, true, ""};
       }},
  };
  for (const auto& [needle, setup] : failing) {
    StandbyStore s;
    s.registry()["ep"] = {"seg", "ep", 100, true, ""};
    setup(s);
    auto v = validate_promotion(s);
    EXPECT_FALSE(v.ok) << needle;
    EXPECT_NE(v.failure.find(needle), std::string::npos) << needle << ": " << v.failure;
    EXPECT_TRUE(v.tenants.empty());
  }
  {  // REMOVED replicas are exempt from capacity and overlap
    StandbyStore s;
    s.registry()["ep"] = {"seg", "ep", 100, true, ""};
    s.put("default", "a", object(60, "ep", 0));
    s.put("default", "b", object(60, "ep", 0, 4));
    auto v = validate_promotion(s);
    EXPECT_TRUE(v.ok) << v.failure;
    EXPECT_EQ(v.non_complete["MEMORY REMOVED"], 1u);
  }
}

}  // namespace
}  // namespace moonquota::restore
