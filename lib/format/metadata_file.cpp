#include "format/metadata_file.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "format/msgpack_convert.hpp"
#include "util/byte_buffer.hpp"
#include "util/byte_source.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::format {

namespace {

using util::Status;

// Bytes that follow the first byte of a msgpack header (lengths, integer bodies), not payloads.
std::size_t header_tail_bytes(unsigned char b) {
  switch (b) {
    case 0xc4:
    case 0xd9:
    case 0xcc:
    case 0xd0: return 1;
    case 0xc5:
    case 0xda:
    case 0xdc:
    case 0xde:
    case 0xcd:
    case 0xd1: return 2;
    case 0xc6:
    case 0xdb:
    case 0xdd:
    case 0xdf:
    case 0xce:
    case 0xd2:
    case 0xca: return 4;
    case 0xcf:
    case 0xd3:
    case 0xcb: return 8;
    case 0xc7: return 2;
    case 0xc8: return 3;
    case 0xc9: return 5;
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8: return 1;
    default: return 0;
  }
}

class MetadataScanner {
 public:
  MetadataScanner(util::ByteSource& file, const SegmentTable& segments, const MetadataScanOptions& options,
                  const ShardHandler& handler, model::Findings& findings)
      : m_file(file), m_segments(segments), m_options(options), m_handler(handler), m_findings(findings) {}

  util::Result<MetadataFileInfo> run();

 private:
  Status fail(const std::string& message) { return Status::corruption("metadata: " + message); }
  // Reads one header (no payload). Container lengths are checked against the file size.
  Status read_header(MpHeader& h, std::string* capture);
  // Reads one complete value; appends its bytes to `capture` unless null.
  Status read_value(std::string* capture, std::size_t limit);
  Status read_shards();
  Status dispatch_shard(std::uint32_t shard, util::ByteBuffer blob);
  Status decode_discarded(const std::string& bytes, std::uint64_t base);
  void worker_loop(unsigned worker);
  Status finish_workers();

  struct Job {
    std::uint64_t sequence;
    std::uint32_t shard;
    util::ByteBuffer blob;
    std::uint64_t file_offset;
  };
  // Blob buffers are recycled between jobs (no allocation or page faults per shard).
  util::ByteBuffer take_buffer();
  std::vector<util::ByteBuffer> m_free_buffers;

  util::ByteSource& m_file;
  const SegmentTable& m_segments;
  const MetadataScanOptions& m_options;
  const ShardHandler& m_handler;
  model::Findings& m_findings;
  MetadataFileInfo m_info;

  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::deque<Job> m_queue;
  bool m_closed = false;
  std::vector<std::thread> m_workers;
  std::map<std::uint64_t, Status> m_errors;  // by sequence: the first in file order is reported
};

Status MetadataScanner::read_header(MpHeader& h, std::string* capture) {
  std::uint64_t at = m_file.offset();
  std::string bytes;
  MQ_RETURN_IF_ERROR(m_file.read_exact(1, &bytes).with_context("metadata"));
  MQ_RETURN_IF_ERROR(
      m_file.read_exact(header_tail_bytes(static_cast<unsigned char>(bytes[0])), &bytes).with_context("metadata"));
  MsgpackReader r(bytes, at);
  r.disable_length_checks();
  if (!r.read_header(h)) return fail(r.error());
  std::uint64_t per = h.type == MpType::map ? 2 : 1;
  if ((h.type == MpType::array || h.type == MpType::map) && h.length > m_file.remaining() / per) {
    return fail(std::string(mp_type_name(h.type)) + " of " + std::to_string(h.length) + " elements at byte offset " +
                std::to_string(at) + " exceeds the rest of the file");
  }
  if ((h.type == MpType::str || h.type == MpType::bin || h.type == MpType::ext) && h.length > m_file.remaining()) {
    return fail("truncated msgpack " + std::string(mp_type_name(h.type)) + " of " + std::to_string(h.length) +
                " bytes at byte offset " + std::to_string(at));
  }
  if (capture != nullptr) capture->append(bytes);
  return {};
}

Status MetadataScanner::read_value(std::string* capture, std::size_t limit) {
  std::uint64_t pending = 1;
  while (pending > 0) {
    --pending;
    MpHeader h;
    MQ_RETURN_IF_ERROR(read_header(h, capture));
    if (h.type == MpType::str || h.type == MpType::bin || h.type == MpType::ext) {
      MQ_RETURN_IF_ERROR(m_file.read_exact(h.length, capture).with_context("metadata"));
    } else if (h.type == MpType::array) {
      pending += h.length;
    } else if (h.type == MpType::map) {
      pending += 2ULL * h.length;
    }
    if (capture != nullptr && capture->size() > limit) {
      return Status::limit_exceeded("metadata: a value at byte offset " + std::to_string(m_file.offset()) +
                                    " is larger than the limit of " + std::to_string(limit) + " bytes");
    }
  }
  return {};
}

void MetadataScanner::worker_loop(unsigned worker) {
  util::ByteBuffer raw;
  while (true) {
    Job job;
    {
      std::unique_lock lock(m_mutex);
      m_cv.wait(lock, [&] { return !m_queue.empty() || m_closed; });
      if (m_queue.empty()) return;
      job = std::move(m_queue.front());
      m_queue.pop_front();
    }
    m_cv.notify_all();
    Status s = util::zstd_decompress(job.blob.view(), m_options.max_shard_bytes, raw);
    if (!s.ok()) {
      s = util::payload_error(s, shard_blob_context(job.shard, job.file_offset));
    } else {
      {
        std::lock_guard lock(m_mutex);
        m_info.decompressed_shard_bytes += raw.size();
      }
      s = m_handler(worker, job.shard, job.sequence, raw.view());
      if (!s.ok()) {
        // Name the blob's place in the file: "metadata: shard N (BIN at byte offset M): ...".
        const std::string own = "shard " + std::to_string(job.shard) + ": ";
        std::string message = s.message();
        if (message.rfind(own, 0) == 0) message.erase(0, own.size());
        s = Status(s.code(), shard_blob_context(job.shard, job.file_offset) + ": " + message);
      }
    }
    std::lock_guard lock(m_mutex);
    if (!s.ok()) m_errors.emplace(job.sequence, std::move(s));
    m_free_buffers.push_back(std::move(job.blob));
  }
}

util::ByteBuffer MetadataScanner::take_buffer() {
  std::lock_guard lock(m_mutex);
  if (m_free_buffers.empty()) return {};
  util::ByteBuffer b = std::move(m_free_buffers.back());
  m_free_buffers.pop_back();
  return b;
}

Status MetadataScanner::dispatch_shard(std::uint32_t shard, util::ByteBuffer blob) {
  const std::uint64_t offset = m_file.offset() - blob.size();
  Job job{m_info.shard_entries++, shard, std::move(blob), offset};
  if (m_workers.empty()) {  // single-threaded: run inline
    m_queue.push_back(std::move(job));
    m_closed = true;
    worker_loop(0);
    m_closed = false;
  } else {
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return m_queue.size() < 2 * m_workers.size() || !m_errors.empty(); });
    m_queue.push_back(std::move(job));
    lock.unlock();
    m_cv.notify_all();
  }
  std::lock_guard lock(m_mutex);
  return m_errors.empty() ? Status{} : m_errors.begin()->second;
}

Status MetadataScanner::finish_workers() {
  {
    std::lock_guard lock(m_mutex);
    m_closed = true;
  }
  m_cv.notify_all();
  for (auto& t : m_workers) t.join();
  m_workers.clear();
  return m_errors.empty() ? Status{} : m_errors.begin()->second;
}

Status MetadataScanner::read_shards() {
  MpHeader h;
  MQ_RETURN_IF_ERROR(read_header(h, nullptr));
  if (h.type != MpType::map) {
    return fail("\"shards\" at byte offset " + std::to_string(h.offset) + " is a " + mp_type_name(h.type) +
                ", not a map");
  }
  for (std::uint32_t i = 0; i < h.length; ++i) {
    MpHeader key;
    MQ_RETURN_IF_ERROR(read_header(key, nullptr));
    if (key.type != MpType::pos_int || key.u >= 1024) {
      return fail("shard key at byte offset " + std::to_string(key.offset) +
                  (key.type == MpType::pos_int ? " is " + std::to_string(key.u) + ", not below 1024"
                                               : std::string(" is a ") + mp_type_name(key.type)));
    }
    MpHeader value;
    MQ_RETURN_IF_ERROR(read_header(value, nullptr));
    if (value.type != MpType::bin) {
      return fail("shard " + std::to_string(key.u) + " value at byte offset " + std::to_string(value.offset) +
                  " is a " + mp_type_name(value.type) + ", not BIN");
    }
    m_info.shard_blobs.push_back(
        {static_cast<std::uint32_t>(key.u), m_info.shard_blobs.size(), m_file.offset(), value.length});
    if (!m_options.decode_shards) {
      ++m_info.shard_entries;
      m_info.compressed_shard_bytes += value.length;
      MQ_RETURN_IF_ERROR(m_file.read_exact(value.length, nullptr).with_context("metadata"));
      continue;
    }
    util::ByteBuffer blob = take_buffer();
    MQ_RETURN_IF_ERROR(m_file.read_exact(value.length, blob).with_context("metadata"));
    m_info.compressed_shard_bytes += blob.size();
    ++m_info.shard_frame_forms[util::zstd_frame_form(blob.view())];
    MQ_RETURN_IF_ERROR(dispatch_shard(static_cast<std::uint32_t>(key.u), std::move(blob)));
  }
  return {};
}

Status MetadataScanner::decode_discarded(const std::string& bytes, std::uint64_t base) {
  MsgpackReader reader(bytes, base);
  ValueReader values(reader);
  std::uint32_t n = 0;
  if (!values.array(n, "\"discarded_replicas\"")) return fail(values.error());
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::string where = "discarded_replicas[" + std::to_string(i) + "]";
    MpHeader h;
    if (!values.header(h)) return fail(where + ": " + values.error());
    if (h.type != MpType::array || h.length < 3) {
      return fail(where + " at byte offset " + std::to_string(h.offset) + " is not an array of at least 3");
    }
    model::DiscardedItem item;
    std::uint32_t r = 0;
    if (!values.i64(item.ttl_ms, "ttl_ms") || !values.u64(item.mem_size, "mem_size") ||
        !values.u32(r, "replica count")) {
      return fail(where + ": " + values.error());
    }
    if (h.length != 3ULL + r) {
      return fail(where + " has " + std::to_string(h.length) + " elements for " + std::to_string(r) + " replicas");
    }
    for (std::uint32_t k = 0; k < r; ++k) {
      ReplicaView view;
      std::string reason;
      bool nof = false;
      DecodeOutcome o = decode_replica(values, m_segments, view, reason, nof);
      if (o != DecodeOutcome::decoded) {
        return fail(where + " replica " + std::to_string(k) + ": " +
                    (o == DecodeOutcome::rejected ? values.error() : reason));
      }
      ObjectView holder;
      holder.replicas.push_back(view);
      item.replicas.push_back(to_record(holder).replicas.front());
    }
    m_info.discarded.push_back(std::move(item));
  }
  return {};
}

util::Result<MetadataFileInfo> MetadataScanner::run() {
  m_info.file_bytes = m_file.size();
  if (m_file.size() == 0) return fail("the file is empty");
  MpHeader top;
  MQ_RETURN_IF_ERROR(read_header(top, nullptr));
  if (top.type != MpType::map) {
    return fail(std::string("the top level is a ") + mp_type_name(top.type) + ", not a map");
  }
  for (unsigned w = 1; w < m_options.threads; ++w) m_workers.emplace_back([this, w] { worker_loop(w); });
  if (!m_workers.empty()) m_workers.emplace_back([this] { worker_loop(0); });
  bool seen_shards = false;
  bool seen_discarded = false;
  bool seen_next_id = false;
  Status status;
  for (std::uint32_t i = 0; i < top.length && status.ok(); ++i) {
    MpHeader key;
    status = read_header(key, nullptr);
    if (!status.ok()) break;
    std::string name;
    if (key.type != MpType::str) m_info.top_level_keys.push_back(std::string("<") + mp_type_name(key.type) + " key>");
    if (key.type == MpType::str) {
      status = m_file.read_exact(key.length, &name).with_context("metadata");
      m_info.top_level_keys.push_back(name);
    } else if (key.type == MpType::bin || key.type == MpType::ext) {
      status = m_file.read_exact(key.length, nullptr).with_context("metadata");
      name = "\x01non-string";
    } else {
      // A non-string key (array/map keys included) is skipped with its value.
      if (key.type == MpType::array || key.type == MpType::map) {
        // Re-reading is not possible: read the key's contents as a value of their own.
        std::uint64_t items = key.length * (key.type == MpType::map ? 2ULL : 1ULL);
        for (std::uint64_t k = 0; k < items && status.ok(); ++k) status = read_value(nullptr, 0);
      }
      name = "\x01non-string";
    }
    if (!status.ok()) break;
    const bool duplicate = (name == "shards" && seen_shards) || (name == "discarded_replicas" && seen_discarded) ||
                           (name == "replica_next_id" && seen_next_id);
    if (duplicate) {
      m_findings.push_back({model::Severity::error, "metadata", "duplicate top-level key \"" + name + "\" ignored"});
      status = read_value(nullptr, 0);
    } else if (name == "shards") {
      seen_shards = true;
      status = read_shards();
    } else if (name == "discarded_replicas") {
      seen_discarded = true;
      std::string bytes;
      std::uint64_t base = m_file.offset();
      status = read_value(&bytes, m_options.max_value_bytes);
      if (status.ok() && m_options.before_segment_table_use) status = m_options.before_segment_table_use();
      if (status.ok()) status = decode_discarded(bytes, base);
    } else if (name == "replica_next_id") {
      seen_next_id = true;
      MpHeader v;
      status = read_header(v, nullptr);
      if (status.ok() && v.type != MpType::pos_int) {
        status = fail("\"replica_next_id\" at byte offset " + std::to_string(v.offset) + " is a " +
                      mp_type_name(v.type) + ", not an unsigned integer");
      } else if (status.ok()) {
        m_info.replica_next_id = v.u;
      }
      if (status.ok() && (v.type == MpType::array || v.type == MpType::map)) status = read_value(nullptr, 0);
    } else {
      if (name[0] != '\x01') {
        m_findings.push_back({model::Severity::info, "metadata", "unknown top-level key \"" + name + "\" ignored"});
      }
      status = read_value(nullptr, 0);
    }
  }
  Status workers = finish_workers();
  if (!workers.ok()) return workers;
  if (!status.ok()) return status;
  if (!seen_shards) return fail("no \"shards\" key");
  if (!seen_discarded) return fail("no \"discarded_replicas\" key");
  if (!seen_next_id) return fail("no \"replica_next_id\" key");
  if (m_file.remaining() > 0) {
    m_findings.push_back({model::Severity::warning, "metadata",
                          std::to_string(m_file.remaining()) +
                              " trailing bytes after the top-level map at byte offset " +
                              std::to_string(m_file.offset()) + " ignored"});
  }
  return std::move(m_info);
}

}  // namespace

std::string shard_blob_context(std::uint32_t shard_index, std::uint64_t file_offset) {
  return "metadata: shard " + std::to_string(shard_index) + " (BIN at byte offset " + std::to_string(file_offset) + ")";
}

util::Result<MetadataFileInfo> scan_metadata(util::ByteSource& file, const SegmentTable& segments,
                                             const MetadataScanOptions& options, const ShardHandler& handler,
                                             model::Findings& findings) {
  MetadataScanner scanner(file, segments, options, handler, findings);
  return scanner.run();
}

}  // namespace moonquota::format
