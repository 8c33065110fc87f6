// snapshot-golden's fixtures on disk (docs/golden.md). A fixture is a folder holding `store/` (a
// snapshot store in Mooncake's layout) and `args` (the quota-rebuild flags that reproduce it:
// restore time, path, OpLog; may be empty), beside `policy.yaml`, `expected.json`,
// `fingerprint.json` and, optionally, `master.json`. A fixture set is a folder whose sub-folders
// (at any depth up to 4, not inside a fixture) are fixtures, with an optional
// `allowed-changes.yaml` at its top.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace moonquota::golden {

inline constexpr const char* k_allowed_changes_file = "allowed-changes.yaml";
inline constexpr std::uint64_t k_max_args_file_bytes = 64 * 1024;

struct Fixture {
  std::string name;  // the path below its set ("genuine/s1_single_segment_basic"), or the folder's name
  std::string dir;   // the folder, as reachable from the working directory
};

struct FixtureSet {
  std::string name;  // the set folder's own name
  std::string dir;
  std::vector<Fixture> fixtures;                  // by name
  std::optional<std::string> allowed_changes;     // the set's allowed-changes.yaml, when there is one
  std::vector<std::string> folders_without_args;  // below the set: a store/ but no args (not fixtures)
};

// Whether `dir` is a fixture folder (holds store/ and, unless `args_optional`, an args file).
[[nodiscard]] bool is_fixture_dir(const std::string& dir, bool args_optional);

// `dir` as a set: itself when it is a fixture (store/ inside; args optional), else the fixtures
// below it. Errors: not_found (no such directory, or no fixture in it).
[[nodiscard]] util::Result<FixtureSet> find_fixture_set(const std::string& dir);

// The words of an args file's text: split at white space, '#' at a word's start a comment to the
// line's end (no quoting: a word holds no blank).
[[nodiscard]] std::vector<std::string> split_args_words(std::string_view text);

// The words of an args file: split at white space, '#' to the line's end a comment (no quoting:
// a word holds no blank). Errors: those of reading the file (at most k_max_args_file_bytes).
[[nodiscard]] util::Result<std::vector<std::string>> read_args_words(const std::string& path);

}  // namespace moonquota::golden
