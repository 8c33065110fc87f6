// Where OpLog keys come from (oplog-format.md §3.4): every key under "/oplog/<cluster_id>/",
// with its value exactly as stored, read from etcd (v3 JSON gateway, paged) or from an export
// file. Both sources yield the same OpLogKeySet, sorted by key bytes as etcd orders them.
//
// Export file grammar (cli-contract.md), one JSON object per line, UTF-8:
//   line = {"key": "<full etcd key>", "value": "<value as stored>"}      other members ignored
// Empty lines are skipped. Keys outside the root are counted and left out; a key given twice is
// an error (etcd cannot hold it twice).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "util/file_reader.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::source {

struct KeyValue {
  std::string key;
  std::string value;
};

// Where the values of a key set read without them lie in its export file (one line per key,
// parallel to OpLogKeySet::kvs): oplog_value reads and parses the line again when it is needed.
struct ExportLines {
  std::string path;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> lines;  // offset and length of each kv's line
  util::FileReader reader;
};

struct OpLogKeySet {
  std::string origin;              // "file <path>" or "etcd <host:port>"
  std::string root;                // "/oplog/<cluster_id>/"
  std::vector<KeyValue> kvs;       // under root, sorted by key bytes
  std::uint64_t outside_root = 0;  // export lines whose key is not under root (ignored)
  // Cluster ids that hold keys under "/oplog/" but outside root, sorted, at most
  // k_max_other_clusters. From a file: every such line; from etcd: looked up only when root holds
  // no key (so that "no key" can say which cluster ids exist instead).
  std::vector<std::string> other_clusters;
  model::Findings findings;
  // Set when the values were left in the export file (OpLogReadLimits::keep_values false): every
  // kvs[i].value is then empty and oplog_value reads it.
  std::shared_ptr<ExportLines> export_lines;
};

inline constexpr std::size_t k_max_other_clusters = 32;

struct OpLogReadLimits {
  std::uint64_t max_total_bytes = 8ULL << 30;  // keys + values held in memory
  std::uint64_t max_keys = 50'000'000;
  // false: an export file's values are checked while reading but not held (memory independent of
  // the log's length); oplog_value reads each again. etcd's values are always held.
  bool keep_values = true;
};

// The value of set.kvs[index]: the held value, or (export_lines set) the value read again from its
// line into `scratch`. Errors: io_error / corruption when the file changed since it was read.
[[nodiscard]] util::Result<std::string_view> oplog_value(const OpLogKeySet& set, std::size_t index,
                                                         std::string& scratch);

// Which OpLog a tool reads: --oplog-etcd HOST:PORT or --oplog-file FILE (the file wins when both
// are set; the tools make them exclusive).
struct OpLogSelection {
  std::string etcd;     // --oplog-etcd HOST:PORT
  std::string file;     // --oplog-file FILE
  util::NetConfig net;  // etcd timeouts (--timeout-ms) and logging hook
  [[nodiscard]] bool given() const { return !etcd.empty() || !file.empty(); }
};

// Errors: invalid_argument (cluster id not valid for OpLog keys), not_found / io_error (file),
// corruption naming the line, limit_exceeded.
[[nodiscard]] util::Result<OpLogKeySet> read_oplog_export_file(const std::string& path, const std::string& cluster_id,
                                                               const OpLogReadLimits& limits = {});

// Errors: unavailable (etcd unreachable or answering errors after bounded retries),
// invalid_argument, limit_exceeded.
[[nodiscard]] util::Result<OpLogKeySet> read_oplog_etcd(const std::string& host_port, const std::string& cluster_id,
                                                        const OpLogReadLimits& limits = {},
                                                        const util::NetConfig& net = {});

// Reads the OpLog key set from the selected source: read_oplog_export_file or read_oplog_etcd,
// with their errors.
[[nodiscard]] util::Result<OpLogKeySet> read_oplog(const OpLogSelection& oplog, const std::string& cluster_id,
                                                   const OpLogReadLimits& limits = {});

// One export line per key value, in the given order, written atomically. Errors: io_error,
// invalid_argument when a key or value is not valid UTF-8 (an export line cannot carry it).
[[nodiscard]] util::Status write_oplog_export_file(const std::string& path, const std::vector<KeyValue>& kvs);

// Replaces the OpLog of `cluster_id` in etcd HOST:PORT: every key under its root deleted, then
// `kvs` put in order. Errors: invalid_argument (endpoint or cluster id), unavailable (etcd).
[[nodiscard]] util::Status write_oplog_etcd(const std::string& host_port, const std::string& cluster_id,
                                            const std::vector<KeyValue>& kvs, const util::NetConfig& net = {});

// The same lines as text (for --output - and tests).
[[nodiscard]] util::Result<std::string> format_oplog_export(const std::vector<KeyValue>& kvs);

}  // namespace moonquota::source
