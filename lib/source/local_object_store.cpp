#include "source/local_object_store.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "util/file_reader.hpp"

namespace moonquota::source {

namespace fs = std::filesystem;

namespace {

// Regular files below `dir` (following links to files, not into linked directories), as keys.
void collect_files(const fs::path& dir, const std::string& key_prefix, std::vector<std::string>& out) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_symlink(ec) ? fs::is_regular_file(it->path(), ec) : it->is_regular_file(ec)) {
      out.push_back(key_prefix + name);
    } else if (it->is_directory(ec)) {
      collect_files(it->path(), key_prefix + name + "/", out);
    }
  }
}

}  // namespace

util::Result<std::string> LocalObjectStore::get(const std::string& key, std::uint64_t max_bytes) {
  return util::read_small_file(key, max_bytes);
}

util::Result<std::unique_ptr<util::ByteSource>> LocalObjectStore::open(const std::string& key) {
  auto file = std::make_unique<util::FileReader>();
  MQ_RETURN_IF_ERROR(file->open(key));
  return std::unique_ptr<util::ByteSource>(std::move(file));
}

util::Status LocalObjectStore::get_range(const std::string& key, std::uint64_t offset, std::uint64_t bytes,
                                         util::ByteBuffer& out) {
  util::FileReader file;
  MQ_RETURN_IF_ERROR(file.open(key));
  MQ_RETURN_IF_ERROR(file.seek(offset));
  return file.read_exact(bytes, out);
}

util::Result<std::uint64_t> LocalObjectStore::size(const std::string& key) {
  util::FileReader file;
  MQ_RETURN_IF_ERROR(file.open(key));
  return file.size();
}

util::Result<std::vector<std::string>> LocalObjectStore::list(const std::string& prefix) {
  std::error_code ec;
  const fs::path dir(prefix);
  if (!fs::is_directory(dir, ec)) return util::Status::not_found("no directory '" + prefix + "'");
  fs::directory_iterator probe(dir, ec);
  if (ec) return util::Status::io_error("cannot list '" + prefix + "': " + ec.message());
  std::vector<std::string> keys;
  collect_files(dir, prefix.empty() || prefix.back() == '/' ? prefix : prefix + "/", keys);
  std::sort(keys.begin(), keys.end());
  return keys;
}

util::Status LocalObjectStore::prepare(const std::string& prefix) {
  std::error_code ec;
  fs::create_directories(prefix, ec);
  if (ec) return util::Status::io_error("cannot create '" + prefix + "': " + ec.message());
  return {};
}

util::Result<bool> LocalObjectStore::put_file(const std::string& key, const std::string& path) {
  std::error_code ec;
  if (const fs::path parent = fs::path(key).parent_path(); !parent.empty()) fs::create_directories(parent, ec);
  if (!ec) fs::copy_file(path, key, fs::copy_options::overwrite_existing, ec);
  if (ec) return util::Status::io_error("cannot copy '" + path + "' to '" + key + "': " + ec.message());
  return false;
}

}  // namespace moonquota::source
