#include "golden/fixture_set.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "util/file_reader.hpp"

namespace moonquota::golden {

namespace {

namespace fs = std::filesystem;
using util::Status;

constexpr int k_max_depth = 4;

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::string folder_name(const fs::path& dir) {
  const fs::path normal = dir.lexically_normal();
  const std::string name = (normal.has_filename() ? normal.filename() : normal.parent_path().filename()).string();
  return name.empty() || name == "." ? fs::absolute(normal).lexically_normal().filename().string() : name;
}

void walk(const fs::path& dir, const fs::path& relative, int depth, FixtureSet& set) {
  std::error_code ec;
  std::vector<fs::path> children;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.' || name == "store") continue;
    if (is_dir(it->path())) children.push_back(it->path());
  }
  std::sort(children.begin(), children.end());
  for (const auto& child : children) {
    const fs::path rel = relative / child.filename();
    if (is_fixture_dir(child.string(), false)) {
      set.fixtures.push_back({rel.generic_string(), child.string()});
    } else if (is_dir(child / "store")) {
      set.folders_without_args.push_back(rel.generic_string());
    } else if (depth + 1 < k_max_depth) {
      walk(child, rel, depth + 1, set);
    }
  }
}

}  // namespace

bool is_fixture_dir(const std::string& dir, bool args_optional) {
  return is_dir(fs::path(dir) / "store") && (args_optional || is_file(fs::path(dir) / "args"));
}

util::Result<FixtureSet> find_fixture_set(const std::string& dir) {
  if (!is_dir(dir)) return Status::not_found("'" + dir + "' is not a directory");
  FixtureSet set;
  set.dir = dir;
  set.name = folder_name(dir);
  if (is_fixture_dir(dir, true)) {
    set.fixtures.push_back({set.name, dir});
    return set;
  }
  walk(dir, {}, 0, set);
  const auto by_name = [](const Fixture& a, const Fixture& b) { return a.name < b.name; };
  std::sort(set.fixtures.begin(), set.fixtures.end(), by_name);
  std::sort(set.folders_without_args.begin(), set.folders_without_args.end());
  if (set.fixtures.empty()) {
    return Status::not_found("'" + dir + "' holds no fixture (a folder with store/ and an args file)" +
                             (set.folders_without_args.empty()
                                  ? std::string()
                                  : "; these have a store/ but no args: " + set.folders_without_args.front() +
                                        (set.folders_without_args.size() > 1 ? ", ..." : "")));
  }
  if (is_file(fs::path(dir) / k_allowed_changes_file)) {
    set.allowed_changes = (fs::path(dir) / k_allowed_changes_file).string();
  }
  return set;
}

std::vector<std::string> split_args_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool comment = false;
  for (char c : text) {
    if (c == '\n') comment = false;
    if (comment) continue;
    if (c == '#' && word.empty()) {
      comment = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      continue;
    }
    word += c;
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

util::Result<std::vector<std::string>> read_args_words(const std::string& path) {
  auto text = util::read_small_file(path, k_max_args_file_bytes);
  if (!text.ok()) return text.status();
  return split_args_words(*text);
}

}  // namespace moonquota::golden
