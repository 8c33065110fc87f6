#include "source/memory_object_store.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "source/local_object_store.hpp"
#include "util/file_reader.hpp"

namespace moonquota::source {

using util::Status;

namespace {

// One object's bytes read front to back; it holds them, so the store may change meanwhile.
class MemorySource final : public util::ByteSource {
 public:
  MemorySource(std::string key, std::shared_ptr<const std::string> bytes)
      : m_key(std::move(key)), m_bytes(std::move(bytes)) {}

  Status read_exact(std::uint64_t n, std::string* out) override {
    MQ_RETURN_IF_ERROR(check(n));
    if (out != nullptr) out->append(*m_bytes, static_cast<std::size_t>(m_offset), static_cast<std::size_t>(n));
    m_offset += n;
    return {};
  }
  Status read_exact(std::uint64_t n, util::ByteBuffer& out) override {
    MQ_RETURN_IF_ERROR(check(n));
    out.resize_uninitialized(static_cast<std::size_t>(n));
    if (n > 0) std::memcpy(out.data(), m_bytes->data() + m_offset, static_cast<std::size_t>(n));
    m_offset += n;
    return {};
  }
  [[nodiscard]] std::uint64_t offset() const override { return m_offset; }
  [[nodiscard]] std::uint64_t size() const override { return m_bytes->size(); }
  [[nodiscard]] const std::string& name() const override { return m_key; }

 private:
  [[nodiscard]] Status check(std::uint64_t n) const {
    if (n <= remaining()) return {};
    return util::read_past_end(m_key, size(), n, m_offset);
  }

  std::string m_key;
  std::shared_ptr<const std::string> m_bytes;
  std::uint64_t m_offset = 0;
};

}  // namespace

util::Result<MemoryObjectStore::Bytes> MemoryObjectStore::find(const std::string& key) {
  std::lock_guard lock(m_mutex);
  auto it = m_objects.find(key);
  if (it == m_objects.end()) return Status::not_found("object not found: " + key);
  return it->second;
}

util::Result<std::string> MemoryObjectStore::get(const std::string& key, std::uint64_t max_bytes) {
  MQ_ASSIGN_OR_RETURN(Bytes bytes, find(key));
  if (bytes->size() > max_bytes) {
    return Status::limit_exceeded("'" + key + "' is " + std::to_string(bytes->size()) +
                                  " bytes, more than the limit of " + std::to_string(max_bytes));
  }
  return *bytes;
}

util::Result<std::unique_ptr<util::ByteSource>> MemoryObjectStore::open(const std::string& key) {
  MQ_ASSIGN_OR_RETURN(Bytes bytes, find(key));
  return std::unique_ptr<util::ByteSource>(std::make_unique<MemorySource>(key, std::move(bytes)));
}

Status MemoryObjectStore::get_range(const std::string& key, std::uint64_t offset, std::uint64_t bytes,
                                    util::ByteBuffer& out) {
  MQ_ASSIGN_OR_RETURN(Bytes object, find(key));
  if (offset > object->size()) return util::offset_past_end(key, object->size(), offset);
  MemorySource source(key, std::move(object));
  MQ_RETURN_IF_ERROR(source.read_exact(offset, nullptr));
  return source.read_exact(bytes, out);
}

util::Result<std::uint64_t> MemoryObjectStore::size(const std::string& key) {
  MQ_ASSIGN_OR_RETURN(Bytes bytes, find(key));
  return std::uint64_t{bytes->size()};
}

util::Result<std::vector<std::string>> MemoryObjectStore::list(const std::string& prefix) {
  const std::string below = prefix.empty() || prefix.back() == '/' ? prefix : prefix + "/";
  std::vector<std::string> keys;
  {
    std::lock_guard lock(m_mutex);
    for (auto it = m_objects.lower_bound(below); it != m_objects.end() && it->first.starts_with(below); ++it) {
      keys.push_back(it->first);
    }
  }
  if (keys.empty()) return Status::not_found("nothing stored under '" + prefix + "'");
  return keys;  // sorted: the map's order
}

Status MemoryObjectStore::prepare(const std::string& /*prefix*/) { return {}; }

util::Result<bool> MemoryObjectStore::put_file(const std::string& key, const std::string& path) {
  MQ_ASSIGN_OR_RETURN(std::string bytes, util::read_small_file(path, std::numeric_limits<std::uint64_t>::max()));
  put(key, std::move(bytes));
  return false;
}

void MemoryObjectStore::put(const std::string& key, std::string bytes) {
  auto shared = std::make_shared<const std::string>(std::move(bytes));
  std::lock_guard lock(m_mutex);
  m_objects[key] = std::move(shared);
}

void MemoryObjectStore::erase(const std::string& key) {
  std::lock_guard lock(m_mutex);
  m_objects.erase(key);
}

Status MemoryObjectStore::copy_from(ObjectStore& from, const std::string& prefix) {
  MQ_ASSIGN_OR_RETURN(std::vector<std::string> keys, from.list(prefix));
  for (const auto& key : keys) {
    MQ_ASSIGN_OR_RETURN(const std::uint64_t bytes, from.size(key));
    MQ_ASSIGN_OR_RETURN(std::string object, from.get(key, bytes));
    put(key, std::move(object));
  }
  return {};
}

Status MemoryObjectStore::load_directory(const std::string& dir) {
  LocalObjectStore files;
  return copy_from(files, dir);
}

}  // namespace moonquota::source
