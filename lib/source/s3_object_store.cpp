#include "source/s3_object_store.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <thread>

#include "source/s3_url.hpp"
#include "util/crc32c.hpp"
#include "util/file_reader.hpp"

namespace moonquota::source {

using util::Status;

namespace {

constexpr std::uint64_t k_crc_read_bytes = 1 << 20;

// The CRC32C (base64) of the whole file read from `file`'s current offset.
util::Result<std::string> file_crc32c(util::FileReader& file) {
  util::Crc32c crc;
  std::string piece;
  while (file.remaining() > 0) {
    piece.clear();
    MQ_RETURN_IF_ERROR(file.read_exact(std::min(k_crc_read_bytes, file.remaining()), &piece));
    crc.update(piece);
  }
  return crc.base64();
}

// An object read front to back through ranged GETs that one background thread issues ahead of
// the reader: at most `window` bytes downloaded and not yet consumed. Every byte consumed goes
// through a CRC32C, reported to `on_complete` when the reader reaches the end.
class S3StreamSource final : public util::ByteSource {
 public:
  S3StreamSource(S3Client& client, S3Location where, std::string name, std::uint64_t size,
                 std::function<void(const std::string&)> on_complete)
      : m_client(client),
        m_where(std::move(where)),
        m_name(std::move(name)),
        m_size(size),
        m_chunk(std::max<std::uint64_t>(1 << 16, std::min(client.config().chunk_bytes, client.config().window_bytes))),
        m_window(std::max(client.config().window_bytes, m_chunk)),
        m_on_complete(std::move(on_complete)) {
    if (m_size > 0) m_thread = std::thread([this] { download(); });
  }

  ~S3StreamSource() override {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable()) m_thread.join();
  }

  Status read_exact(std::uint64_t n, std::string* out) override {
    return read(n, [out](std::string_view piece) {
      if (out != nullptr) out->append(piece);
    });
  }

  Status read_exact(std::uint64_t n, util::ByteBuffer& out) override {
    out.resize_uninitialized(n);
    std::size_t at = 0;
    return read(n, [&](std::string_view piece) {
      std::memcpy(out.data() + at, piece.data(), piece.size());
      at += piece.size();
    });
  }

  [[nodiscard]] std::uint64_t offset() const override { return m_offset; }
  [[nodiscard]] std::uint64_t size() const override { return m_size; }
  [[nodiscard]] const std::string& name() const override { return m_name; }

 private:
  struct Chunk {
    util::ByteBuffer bytes;
    std::size_t used = 0;
  };

  Status read(std::uint64_t n, const std::function<void(std::string_view)>& sink) {
    // util::FileReader's words (util::read_past_end): reports from S3 equal local ones.
    if (n > m_size - m_offset) return util::read_past_end(m_name, m_size, n, m_offset);
    while (n > 0) {
      std::unique_lock lock(m_mutex);
      m_changed.wait(lock, [this] { return !m_chunks.empty() || !m_error.ok(); });
      if (m_chunks.empty()) return m_error;
      Chunk& chunk = m_chunks.front();
      const std::size_t take = std::min<std::uint64_t>(n, chunk.bytes.size() - chunk.used);
      const std::string_view piece(chunk.bytes.data() + chunk.used, take);
      sink(piece);
      m_crc.update(piece);
      chunk.used += take;
      m_offset += take;
      n -= take;
      if (chunk.used == chunk.bytes.size()) {
        m_buffered -= chunk.bytes.size();
        m_chunks.pop_front();
        lock.unlock();
        m_changed.notify_all();
      }
    }
    if (m_offset == m_size && m_on_complete && !m_reported) {
      m_reported = true;
      m_on_complete(m_crc.base64());
    }
    return {};
  }

  void download() {
    for (std::uint64_t at = 0; at < m_size;) {
      const std::uint64_t bytes = std::min(m_chunk, m_size - at);
      {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_stop || m_buffered + bytes <= m_window; });
        if (m_stop) return;
      }
      Chunk chunk;
      Status s = m_client.get_range(m_where, at, bytes, chunk.bytes);
      {
        std::lock_guard lock(m_mutex);
        if (!s.ok()) {
          m_error = s;
        } else {
          m_buffered += bytes;
          m_chunks.push_back(std::move(chunk));
        }
      }
      m_changed.notify_all();
      if (!s.ok()) return;
      at += bytes;
    }
  }

  S3Client& m_client;
  S3Location m_where;
  std::string m_name;
  std::uint64_t m_size;
  std::uint64_t m_chunk;
  std::uint64_t m_window;
  std::function<void(const std::string&)> m_on_complete;
  std::uint64_t m_offset = 0;
  util::Crc32c m_crc;
  bool m_reported = false;

  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Chunk> m_chunks;
  std::uint64_t m_buffered = 0;
  Status m_error;
  bool m_stop = false;
  std::thread m_thread;
};

}  // namespace

S3ObjectStore::S3ObjectStore(S3Config config, util::NetConfig net) : m_client(std::move(config), std::move(net)) {}

void S3ObjectStore::remember(const S3Location& where, S3ObjectInfo info) {
  std::lock_guard lock(m_mutex);
  m_known[s3_url(where)] = std::move(info);
}

void S3ObjectStore::record_read(const std::string& key, const std::string& crc32c_base64) {
  std::lock_guard lock(m_mutex);
  m_read_crc32c[key] = crc32c_base64;
}

util::Result<S3ObjectInfo> S3ObjectStore::info(const std::string& key, const S3Location& where) {
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_known.find(key); it != m_known.end() && it->second.crc32c) return it->second;
  }
  MQ_ASSIGN_OR_RETURN(S3ObjectInfo info, m_client.head(where));
  remember(where, info);
  return info;
}

util::Result<std::string> S3ObjectStore::get(const std::string& key, std::uint64_t max_bytes) {
  MQ_ASSIGN_OR_RETURN(S3Location where, parse_s3_url(key));
  S3ObjectInfo object;
  MQ_ASSIGN_OR_RETURN(std::string bytes, m_client.get(where, max_bytes, &object));
  remember(where, object);
  util::Crc32c crc;
  crc.update(bytes);
  record_read(key, crc.base64());
  return bytes;
}

util::Result<std::unique_ptr<util::ByteSource>> S3ObjectStore::open(const std::string& key) {
  MQ_ASSIGN_OR_RETURN(S3Location where, parse_s3_url(key));
  MQ_ASSIGN_OR_RETURN(S3ObjectInfo object, info(key, where));
  auto source = std::make_unique<S3StreamSource>(m_client, where, key, object.size,
                                                 [this, key](const std::string& crc) { record_read(key, crc); });
  return std::unique_ptr<util::ByteSource>(std::move(source));
}

Status S3ObjectStore::get_range(const std::string& key, std::uint64_t offset, std::uint64_t bytes,
                                util::ByteBuffer& out) {
  MQ_ASSIGN_OR_RETURN(S3Location where, parse_s3_url(key));
  // The object's size first: a range a corrupt index claims is never allocated.
  MQ_ASSIGN_OR_RETURN(const std::uint64_t object_size, size(key));
  if (offset > object_size) return util::offset_past_end(key, object_size, offset);
  if (bytes > object_size - offset) return util::read_past_end(key, object_size, bytes, offset);
  return m_client.get_range(where, offset, bytes, out);
}

util::Result<std::uint64_t> S3ObjectStore::size(const std::string& key) {
  MQ_ASSIGN_OR_RETURN(S3Location where, parse_s3_url(key));
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_known.find(key); it != m_known.end()) return it->second.size;
  }
  MQ_ASSIGN_OR_RETURN(S3ObjectInfo object, info(key, where));
  return object.size;
}

util::Result<std::vector<std::string>> S3ObjectStore::list(const std::string& prefix) {
  MQ_ASSIGN_OR_RETURN(S3Location where, parse_s3_url(prefix));
  std::string key_prefix = where.key;
  if (!key_prefix.empty() && key_prefix.back() != '/') key_prefix += '/';
  MQ_ASSIGN_OR_RETURN(auto objects, m_client.list(where.bucket, key_prefix));
  if (objects.empty()) return Status::not_found("nothing stored under '" + prefix + "'");
  std::vector<std::string> keys;
  keys.reserve(objects.size());
  std::lock_guard lock(m_mutex);
  for (auto& object : objects) {
    std::string url = s3_url({where.bucket, object.key});
    keys.push_back(url);
    auto& known = m_known[url];
    if (!known.crc32c) known = std::move(object);
  }
  return keys;
}

std::optional<ObjectDetails> S3ObjectStore::details(const std::string& key) {
  std::lock_guard lock(m_mutex);
  ObjectDetails out;
  auto known = m_known.find(key);
  if (known == m_known.end()) return std::nullopt;
  out.size = known->second.size;
  out.etag = known->second.etag;
  out.server_crc32c = known->second.crc32c;
  if (auto read = m_read_crc32c.find(key); read != m_read_crc32c.end()) out.read_crc32c = read->second;
  return out;
}

util::Status S3ObjectStore::prepare(const std::string& prefix) {
  MQ_ASSIGN_OR_RETURN(S3Location where, parse_s3_url(prefix));
  return m_client.ensure_bucket(where.bucket);
}

util::Result<bool> S3ObjectStore::put_file(const std::string& key, const std::string& path) {
  MQ_ASSIGN_OR_RETURN(S3Location where, parse_s3_url(key));
  std::optional<std::string> crc;
  {
    util::FileReader file;
    MQ_RETURN_IF_ERROR(file.open(path));
    if (file.size() <= m_client.config().multipart_threshold) { MQ_ASSIGN_OR_RETURN(crc, file_crc32c(file)); }
  }
  MQ_RETURN_IF_ERROR(m_client.put_file(where, path, crc));
  return crc.has_value();
}

}  // namespace moonquota::source
