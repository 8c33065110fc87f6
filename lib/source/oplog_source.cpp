#include "source/oplog_source.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "format/oplog_canonical.hpp"
#include "source/etcd_gateway.hpp"
#include "source/oplog_keys.hpp"
#include "util/atomic_file.hpp"
#include "util/file_reader.hpp"

namespace moonquota::source {

namespace {

using nlohmann::json;
using util::Status;

util::Result<std::string> root_for(const std::string& cluster_id) {
  auto root = oplog_root(cluster_id);
  if (!root) {
    return Status::invalid_argument("cluster id '" + cluster_id +
                                    "' is not valid for OpLog keys (1-128 characters of [A-Za-z0-9_.-])");
  }
  return *root;
}

Status sort_and_check(OpLogKeySet& set) {
  std::sort(set.kvs.begin(), set.kvs.end(), [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
  for (std::size_t i = 1; i < set.kvs.size(); ++i) {
    if (set.kvs[i].key == set.kvs[i - 1].key) {
      return Status::corruption(set.origin + ": key '" + set.kvs[i].key + "' appears twice");
    }
  }
  return {};
}

constexpr std::string_view k_oplog_prefix = "/oplog/";

// Records the cluster id of an OpLog key outside the chosen root ("/oplog/<id>/...").
void note_other_cluster(const std::string& key, std::vector<std::string>& clusters) {
  if (key.rfind(k_oplog_prefix, 0) != 0) return;
  const std::size_t slash = key.find('/', k_oplog_prefix.size());
  if (slash == std::string::npos) return;
  std::string id = key.substr(k_oplog_prefix.size(), slash - k_oplog_prefix.size());
  auto at = std::lower_bound(clusters.begin(), clusters.end(), id);
  if (at != clusters.end() && *at == id) return;
  if (clusters.size() >= k_max_other_clusters) return;
  clusters.insert(at, std::move(id));
}

// The line exactly as format_oplog_export writes it for printable ASCII: {"key":"K","value":"V"}
// with no escape but \" and \\. Such a line is a JSON object with exactly these two string
// members, so nlohmann's reading of it gives the same strings; any other line (whitespace, more
// members, other escapes, bytes outside 0x20-0x7e) returns false and is parsed by nlohmann.
// Bytes that end a plain run: '"', '\\', and everything outside 0x20-0x7e (format::skip_plain_ascii).
// `out` null: the string is checked and measured (`length`, its unescaped size) but not copied.
// Otherwise, once the string is known good, it is copied into `out` sized exactly: the runs
// between backslashes (found by memchr) in one memcpy each.
bool scan_plain_string(std::string_view line, std::size_t& pos, std::string* out, std::size_t& length) {
  if (pos >= line.size() || line[pos] != '"') return false;
  ++pos;
  const std::size_t begin = pos;
  length = 0;
  std::size_t run = pos;
  const std::size_t size = line.size();
  while (pos < size) {
    pos = format::skip_plain_ascii(line, pos);
    if (pos >= size) break;
    const char c = line[pos];
    if (c == '"') {
      length += pos - run;
      if (out != nullptr) {
        out->resize(length);
        char* dst = out->data();
        const char* src = line.data() + begin;
        const char* const end = line.data() + pos;
        while (src < end) {
          const void* slash = std::memchr(src, '\\', static_cast<std::size_t>(end - src));
          const char* stop = slash == nullptr ? end : static_cast<const char*>(slash);
          std::memcpy(dst, src, static_cast<std::size_t>(stop - src));
          dst += stop - src;
          if (stop == end) break;
          *dst++ = stop[1];  // \" or \\ (checked above)
          src = stop + 2;
        }
      }
      ++pos;
      return true;
    }
    if (c != '\\' || pos + 1 >= size || (line[pos + 1] != '"' && line[pos + 1] != '\\')) return false;
    length += pos - run + 1;
    pos += 2;
    run = pos;
  }
  return false;
}

// `value` null: the value is checked and measured only.
bool scan_plain_line(std::string_view line, std::string& key, std::string* value, std::size_t& value_length) {
  constexpr std::string_view k_open = "{\"key\":";
  constexpr std::string_view k_middle = ",\"value\":";
  if (line.substr(0, k_open.size()) != k_open) return false;
  std::size_t pos = k_open.size();
  std::size_t key_length = 0;
  if (!scan_plain_string(line, pos, &key, key_length)) return false;
  if (line.substr(pos, k_middle.size()) != k_middle) return false;
  pos += k_middle.size();
  if (!scan_plain_string(line, pos, value, value_length)) return false;
  return pos + 1 == line.size() && line[pos] == '}';
}

// One export line: its key and value, or false when it is not an object with string members "key"
// and "value".
bool parse_export_line(std::string_view line, std::string& key, std::string& value) {
  std::size_t value_length = 0;
  if (scan_plain_line(line, key, &value, value_length)) return true;
  json object = json::parse(line, nullptr, false);
  if (object.is_discarded() || !object.is_object()) return false;
  auto k = object.find("key");
  auto v = object.find("value");
  if (k == object.end() || !k->is_string() || v == object.end() || !v->is_string()) return false;
  key = k->get<std::string>();
  value = v->get<std::string>();
  return true;
}

constexpr std::size_t k_export_chunk_bytes = std::size_t{4} << 20;

}  // namespace

util::Result<OpLogKeySet> read_oplog_export_file(const std::string& path, const std::string& cluster_id,
                                                 const OpLogReadLimits& limits) {
  MQ_ASSIGN_OR_RETURN(std::string root, root_for(cluster_id));
  // Read in chunks (never the whole file at once); the size limit is read_small_file's.
  util::FileReader reader;
  MQ_RETURN_IF_ERROR(reader.open(path));
  if (reader.size() > limits.max_total_bytes * 2) {
    return Status::limit_exceeded("'" + path + "' is " + std::to_string(reader.size()) +
                                  " bytes, more than the limit of " + std::to_string(limits.max_total_bytes * 2));
  }
  OpLogKeySet set;
  set.origin = "file " + path;
  set.root = root;
  std::uint64_t line_number = 0;
  std::uint64_t bytes = 0;
  std::string key;
  std::string value;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> line_refs;  // keep_values false: where each kv's line is
  std::uint64_t line_offset = 0;                                   // of the line being taken
  auto take_line = [&](std::string_view line) -> Status {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::uint64_t line_bytes = line.size();
    if (line.empty()) return {};
    std::size_t value_length = 0;
    // The value is copied only when it is kept.
    const bool plain = scan_plain_line(line, key, limits.keep_values ? &value : nullptr, value_length);
    if (!plain) {
      const std::string where = path + " line " + std::to_string(line_number);
      json object = json::parse(line, nullptr, false);
      if (object.is_discarded() || !object.is_object()) return Status::corruption(where + ": not a JSON object");
      auto k = object.find("key");
      auto v = object.find("value");
      if (k == object.end() || !k->is_string() || v == object.end() || !v->is_string()) {
        return Status::corruption(where + ": needs string members \"key\" and \"value\"");
      }
      key = k->get<std::string>();
      value = v->get<std::string>();
      value_length = value.size();
    }
    if (key.rfind(root, 0) != 0) {
      ++set.outside_root;
      note_other_cluster(key, set.other_clusters);
      return {};
    }
    bytes += key.size() + value_length;
    if (bytes > limits.max_total_bytes || set.kvs.size() >= limits.max_keys) {
      return Status::limit_exceeded(path + " line " + std::to_string(line_number) +
                                    ": the export exceeds the read limit");
    }
    if (limits.keep_values) {
      set.kvs.push_back({std::move(key), std::move(value)});
    } else {
      set.kvs.push_back({std::move(key), std::string()});
      line_refs.emplace_back(line_offset, line_bytes);
    }
    return {};
  };
  std::string buffer;  // the unfinished line, then the next chunk
  std::string chunk;
  while (reader.offset() < reader.size()) {
    chunk.clear();
    MQ_RETURN_IF_ERROR(
        reader.read_exact(std::min<std::uint64_t>(k_export_chunk_bytes, reader.size() - reader.offset()), &chunk));
    const std::uint64_t buffer_offset = reader.offset() - chunk.size() - buffer.size();
    buffer += chunk;
    std::size_t pos = 0;
    for (std::size_t end = buffer.find('\n'); end != std::string::npos; end = buffer.find('\n', pos)) {
      line_offset = buffer_offset + pos;
      MQ_RETURN_IF_ERROR(take_line(std::string_view(buffer).substr(pos, end - pos)));
      pos = end + 1;
    }
    buffer.erase(0, pos);
  }
  if (!buffer.empty()) {
    line_offset = reader.size() - buffer.size();
    MQ_RETURN_IF_ERROR(take_line(buffer));
  }
  if (set.outside_root > 0) {
    set.findings.push_back({model::Severity::warning, path,
                            std::to_string(set.outside_root) + " lines hold keys outside " + root + " (ignored)"});
  }
  if (!limits.keep_values) {
    // Sort the line references with their keys: a permutation by key, applied to both.
    std::vector<std::size_t> order(set.kvs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return set.kvs[a].key < set.kvs[b].key; });
    auto lines = std::make_shared<ExportLines>();
    lines->path = path;
    std::vector<KeyValue> sorted;
    sorted.reserve(order.size());
    for (std::size_t i : order) {
      sorted.push_back(std::move(set.kvs[i]));
      lines->lines.push_back(line_refs[i]);
    }
    set.kvs = std::move(sorted);
    MQ_RETURN_IF_ERROR(lines->reader.open(path));
    set.export_lines = std::move(lines);
  }
  MQ_RETURN_IF_ERROR(sort_and_check(set));
  return set;
}

util::Result<OpLogKeySet> read_oplog_etcd(const std::string& host_port, const std::string& cluster_id,
                                          const OpLogReadLimits& limits, const util::NetConfig& net) {
  MQ_ASSIGN_OR_RETURN(std::string root, root_for(cluster_id));
  MQ_ASSIGN_OR_RETURN(HostPort endpoint, parse_host_port(host_port, "--oplog-etcd"));
  EtcdOptions options;
  options.net = net;
  EtcdGateway gateway(endpoint, options);
  OpLogKeySet set;
  set.origin = "etcd " + gateway.name();
  set.root = root;
  MQ_ASSIGN_OR_RETURN(set.kvs, gateway.range_prefix(root, limits.max_total_bytes, limits.max_keys));
  if (set.kvs.empty()) {
    // Which cluster ids exist instead: one key per cluster, skipping over each cluster's range.
    std::string from = std::string(k_oplog_prefix);
    const std::string end = std::string(k_oplog_prefix.substr(0, k_oplog_prefix.size() - 1)) + "0";
    while (set.other_clusters.size() < k_max_other_clusters) {
      MQ_ASSIGN_OR_RETURN(RangePage page, gateway.range(from, end, 1, 0));
      if (page.kvs.empty()) break;
      const std::string& key = page.kvs.front().key;
      const std::size_t slash = key.find('/', k_oplog_prefix.size());
      if (slash == std::string::npos) break;  // a key directly under /oplog/: nothing follows it in a cluster
      set.other_clusters.push_back(key.substr(k_oplog_prefix.size(), slash - k_oplog_prefix.size()));
      from = key.substr(0, slash) + "0";  // '0' follows '/': past every key of this cluster
    }
  }
  MQ_RETURN_IF_ERROR(sort_and_check(set));
  return set;
}

util::Result<std::string> format_oplog_export(const std::vector<KeyValue>& kvs) {
  std::string out;
  for (const auto& kv : kvs) {
    try {
      out += json{{"key", kv.key}, {"value", kv.value}}.dump();
    } catch (const json::exception&) {
      return Status::invalid_argument("key '" + kv.key + "': key or value is not valid UTF-8 and cannot be exported");
    }
    out += '\n';
  }
  return out;
}

util::Status write_oplog_export_file(const std::string& path, const std::vector<KeyValue>& kvs) {
  MQ_ASSIGN_OR_RETURN(std::string text, format_oplog_export(kvs));
  return util::write_file_atomically(path, text);
}

util::Status write_oplog_etcd(const std::string& host_port, const std::string& cluster_id,
                              const std::vector<KeyValue>& kvs, const util::NetConfig& net) {
  MQ_ASSIGN_OR_RETURN(std::string root, root_for(cluster_id));
  MQ_ASSIGN_OR_RETURN(HostPort endpoint, parse_host_port(host_port, "--oplog-etcd"));
  EtcdOptions options;
  options.net = net;
  EtcdGateway gateway(endpoint, options);
  MQ_RETURN_IF_ERROR(gateway.delete_prefix(root));
  for (const auto& kv : kvs) MQ_RETURN_IF_ERROR(gateway.put(kv.key, kv.value));
  return {};
}

util::Result<OpLogKeySet> read_oplog(const OpLogSelection& oplog, const std::string& cluster_id,
                                     const OpLogReadLimits& limits) {
  if (!oplog.file.empty()) return read_oplog_export_file(oplog.file, cluster_id, limits);
  return read_oplog_etcd(oplog.etcd, cluster_id, limits, oplog.net);
}

util::Result<std::string_view> oplog_value(const OpLogKeySet& set, std::size_t index, std::string& scratch) {
  if (!set.export_lines) return std::string_view(set.kvs[index].value);
  ExportLines& lines = *set.export_lines;
  const auto [offset, length] = lines.lines[index];
  std::string line;
  MQ_RETURN_IF_ERROR(lines.reader.seek(offset));
  MQ_RETURN_IF_ERROR(lines.reader.read_exact(length, &line));
  std::string key;
  if (!parse_export_line(line, key, scratch) || key != set.kvs[index].key) {
    return Status::corruption(lines.path + ": the line of key '" + set.kvs[index].key +
                              "' changed while it was being read");
  }
  return std::string_view(scratch);
}

}  // namespace moonquota::source
