#include "fuzz/shard_diff_entry.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "format/msgpack_writer.hpp"
#include "format/shard_decoder.hpp"
#include "fuzz/canonical_entry_entry.hpp"
#include "inspect/shard_diff.hpp"

namespace moonquota::fuzz {

namespace {

constexpr std::uint32_t k_shard = 5;
constexpr std::uint64_t k_restore_time_ms = 1787375520123ULL;

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
  std::uint8_t next() { return m_pos < m_size ? m_data[m_pos++] : 0; }
  // The next `n` bytes (fewer at the end).
  std::pair<const std::uint8_t*, std::size_t> take(std::size_t n) {
    n = std::min(n, m_size - m_pos);
    const std::uint8_t* p = m_data + m_pos;
    m_pos += n;
    return {p, n};
  }
  [[nodiscard]] bool empty() const { return m_pos >= m_size; }

 private:
  const std::uint8_t* m_data;
  std::size_t m_size;
  std::size_t m_pos = 0;
};

struct PoolEntry {
  std::string bytes;
  std::string tenant;
  std::string key;
};

// Every entry decode_shard delivers from a shard (up to a rejection), with its bytes.
class Pool final : public format::ShardVisitor {
 public:
  explicit Pool(std::string_view raw) : m_raw(raw) {}
  void on_entry(const format::ShardEntry& e) override {
    entries.push_back({std::string(m_raw.substr(e.offset, e.end_offset - e.offset)), std::string(e.object->tenant_id),
                       std::string(e.object->key)});
  }
  std::vector<PoolEntry> entries;

 private:
  std::string_view m_raw;
};

format::SegmentTable table() {  // canonical_entry_entry.cpp's: OK, not OK, without allocator
  format::SegmentTable t;
  t.add({3, 4}, {model::segment_status::ok, true});
  t.add({5, 6}, {2, true});
  t.add({7, 8}, {model::segment_status::ok, false});
  return t;
}

// Side B's table, picked by the input: 0 the same; 1 with one more usable segment (9-10, which
// the entries use and A's table lacks) and a second key for 3-4 that is not OK (first wins: no
// effect); 2 with 5-6 usable; 3 without 3-4 (A's usable segment lost: no walk).
const format::SegmentTable& table_b(std::uint8_t which) {
  static const format::SegmentTable tables[] = {
      table(),
      [] {
        format::SegmentTable t = table();
        t.add("9-10", {9, 10}, {model::segment_status::ok, true});
        t.add("003-4", {3, 4}, {2, true});
        return t;
      }(),
      [] {
        format::SegmentTable t;
        t.add({3, 4}, {model::segment_status::ok, true});
        t.add({5, 6}, {model::segment_status::ok, true});
        t.add({7, 8}, {model::segment_status::ok, false});
        return t;
      }(),
      [] {
        format::SegmentTable t;
        t.add({5, 6}, {2, true});
        t.add({7, 8}, {model::segment_status::ok, false});
        return t;
      }(),
  };
  return tables[which % 4];
}

std::vector<PoolEntry> pool(Input& in) {
  const auto [data, size] = in.take(in.next());
  const std::string raw = canonical_entry_shard(data, size);
  static const format::SegmentTable segments = table();
  format::ObjectView view;
  model::Findings ignored;
  Pool out(raw);
  (void)format::decode_shard(raw, k_shard, segments, view, out, ignored);
  return std::move(out.entries);
}

// {"metadata": [entries]} with the array header in the width `form` picks (0: the smallest),
// and an extra key (form 4) or a trailing byte (form 5).
std::string shard_of(const std::vector<PoolEntry>& entries, std::uint8_t form) {
  std::string out;
  out.append(form == 4 ? "\x82" : "\x81");
  out.append("\xa8metadata");
  const auto n = static_cast<std::uint32_t>(entries.size());
  if (form == 1 || (form != 2 && n > 15 && n <= 0xffff)) {
    out.push_back('\xdc');
    out.push_back(static_cast<char>(n >> 8));
    out.push_back(static_cast<char>(n));
  } else if (form == 2 || n > 0xffff) {
    out.push_back('\xdd');
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<char>(n >> s));
  } else {
    out.push_back(static_cast<char>(0x90 | n));
  }
  for (const auto& e : entries) out.append(e.bytes);
  if (form == 4)
    out.append(
        "\xa5"
        "extra\x01");
  if (form == 5) out.push_back('\0');
  return out;
}

[[noreturn]] void fail(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "shard_diff: %s\n", what);
  for (const std::string* s : {&a, &b}) {
    std::fprintf(stderr, "shard (%zu bytes):", s->size());
    for (unsigned char c : *s) std::fprintf(stderr, " %02x", c);
    std::fprintf(stderr, "\n");
  }
  std::abort();
}

struct Run {
  std::string status;
  inspect::ShardDiff diff;
  model::Findings findings;
};

// The walk is allowed when `walk` and the tables permit it (as snapshot_diff.cpp decides).
Run run(const std::string& a, const format::SegmentTable& segments_a, const std::string& b,
        const format::SegmentTable& segments_b, bool walk) {
  inspect::ShardDiffScratch scratch;
  Run out;
  inspect::ShardDiffOptions options;
  options.restore_time_ms = k_restore_time_ms;
  options.a_usable_segments_usable_in_b = walk && segments_a.usable_segments_usable_in(segments_b);
  for (int pass = 0; pass < 2; ++pass) {  // the second pass starts from the first's scratch state
    out.findings.clear();
    options.findings = &out.findings;
    auto r = inspect::diff_shard(k_shard, a, segments_a, b, segments_b, options, scratch);
    if (r.ok()) {
      out.status = "ok";
      out.diff = std::move(r).value();
    } else {
      out.status = std::to_string(static_cast<int>(r.status().code())) + " " + r.status().message();
    }
  }
  return out;
}

bool same_evidence(const restore::TenantEvidence& x, const restore::TenantEvidence& y) {
  if (x.in_flight.size() != y.in_flight.size()) return false;
  for (std::size_t i = 0; i < x.in_flight.size(); ++i) {
    const auto& p = x.in_flight[i];
    const auto& q = y.in_flight[i];
    if (p.put_start_time_ms != q.put_start_time_ms || p.size != q.size || p.processing_memory != q.processing_memory) {
      return false;
    }
  }
  return x.in_flight_bytes == y.in_flight_bytes && x.in_flight_objects == y.in_flight_objects &&
         x.removed_bytes == y.removed_bytes && x.removed_objects == y.removed_objects &&
         x.dropped_lease_expired_bytes == y.dropped_lease_expired_bytes &&
         x.dropped_non_complete_bytes == y.dropped_non_complete_bytes && x.upserts.objects == y.upserts.objects &&
         x.upserts.old_bytes == y.upserts.old_bytes && x.upserts.new_bytes == y.upserts.new_bytes &&
         x.in_flight_unlisted == y.in_flight_unlisted;
}

bool same_drops(const restore::DropCounts& x, const restore::DropCounts& y) {
  return x.non_complete == y.non_complete && x.lease_expired == y.lease_expired && x.undecodable == y.undecodable;
}

bool same_tally(const restore::ShardTally& x, const restore::ShardTally& y) {
  if (x.sequence != y.sequence || x.objects != y.objects || !same_drops(x.dropped, y.dropped) ||
      x.tenants.size() != y.tenants.size()) {
    return false;
  }
  for (auto i = x.tenants.begin(), j = y.tenants.begin(); i != x.tenants.end(); ++i, ++j) {
    const auto& p = i->second;
    const auto& q = j->second;
    if (i->first != j->first || p.objects != q.objects || p.charged_bytes != q.charged_bytes || p.shards != q.shards ||
        !same_drops(p.dropped, q.dropped) || !same_evidence(p.evidence, q.evidence)) {
      return false;
    }
  }
  return true;
}

// Compares the walk with the reference on (a, b); true when the walk was taken.
bool compare(const std::string& a, const format::SegmentTable& segments_a, const std::string& b,
             const format::SegmentTable& segments_b) {
  const Run walk = run(a, segments_a, b, segments_b, true);
  const Run whole = run(a, segments_a, b, segments_b, false);
  if (walk.status != whole.status) fail("statuses differ", a, b);
  if (whole.diff.b_reused) fail("the reference walked side B", a, b);
  const inspect::ShardDiff& x = walk.diff;
  const inspect::ShardDiff& y = whole.diff;
  if (x.counts.added != y.counts.added || x.counts.removed != y.counts.removed ||
      x.counts.changed != y.counts.changed || x.counts.unchanged != y.counts.unchanged) {
    fail("counts differ", a, b);
  }
  if (x.changes.size() != y.changes.size()) fail("change counts differ", a, b);
  inspect::ObjectChange p;
  inspect::ObjectChange q;
  for (std::size_t i = 0; i < x.changes.size(); ++i) {
    x.changes.get(i, k_shard, p);
    y.changes.get(i, k_shard, q);
    if (p.kind != q.kind || p.tenant_id != q.tenant_id || p.key != q.key || p.fields != q.fields || p.a != q.a ||
        p.b != q.b) {
      fail("changes differ", a, b);
    }
  }
  if (!same_tally(x.tally_a, y.tally_a)) fail("restore models of A differ", a, b);
  if (!same_tally(x.tally_b, y.tally_b)) fail("restore models of B differ", a, b);
  if (walk.findings.size() != whole.findings.size()) fail("finding counts differ", a, b);
  for (std::size_t i = 0; i < walk.findings.size(); ++i) {
    const model::Finding& f = walk.findings[i];
    const model::Finding& g = whole.findings[i];
    if (f.severity != g.severity || f.location != g.location || f.message != g.message || f.rule != g.rule ||
        f.shard != g.shard || f.entry != g.entry) {
      fail("findings differ", a, b);
    }
  }
  return x.b_reused;
}

}  // namespace

bool walk_matches_whole_decode(const std::string& a, const format::SegmentTable& segments_a, const std::string& b,
                               const format::SegmentTable& segments_b) {
  return compare(a, segments_a, b, segments_b);
}

int compare_shard_diff(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const std::uint8_t mode = in.next();
  std::vector<PoolEntry> first = pool(in);
  const std::vector<PoolEntry> second = pool(in);
  auto less = [](const PoolEntry& x, const PoolEntry& y) {
    return std::tie(x.tenant, x.key) < std::tie(y.tenant, y.key);
  };
  if (mode % 8 != 0) std::stable_sort(first.begin(), first.end(), less);  // writers sort; 1 in 8 does not
  std::vector<PoolEntry> edited = first;
  while (!in.empty()) {
    const std::uint8_t op = in.next() % 8;
    const std::size_t at = in.next();
    const std::uint8_t value = in.next();
    const std::size_t n = edited.size();
    if (op == 0 && n > 0) edited.erase(edited.begin() + static_cast<std::ptrdiff_t>(at % n));
    if ((op == 1 || op == 2) && !second.empty()) {
      const PoolEntry& e = second[value % second.size()];
      if (op == 2 && n > 0) {
        edited[at % n] = e;
      } else {
        edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(at % (n + 1)), e);
      }
    }
    if (op == 3 && !first.empty()) {
      edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(at % (n + 1)), first[value % first.size()]);
    }
    if (op == 4 && n > 1) std::swap(edited[at % (n - 1)], edited[at % (n - 1) + 1]);
    if (op == 5 && n > 0) {
      std::string& bytes = edited[at % n].bytes;
      if (!bytes.empty()) bytes[value % bytes.size()] = static_cast<char>(in.next());
    }
    if (op == 6 && n > 0) edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(at % n), edited[at % n]);
    if (op == 7 && mode % 8 == 0) std::stable_sort(edited.begin(), edited.end(), less);
  }
  const std::string a = shard_of(first, 0);
  const std::string b = shard_of(edited, (mode >> 3) % 8);
  const format::SegmentTable& ta = table_b(0);
  const format::SegmentTable& tb = table_b(static_cast<std::uint8_t>(mode >> 6));
  return (compare(a, ta, b, tb) ? 1 : 0) + (compare(b, tb, a, ta) ? 1 : 0);
}

int run_shard_diff(const std::uint8_t* data, std::size_t size) {
  (void)compare_shard_diff(data, size);
  return 0;
}

}  // namespace moonquota::fuzz
