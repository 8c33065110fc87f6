// snapshot-forge --out s3://: the publish order, the refusal of a non-empty prefix, the bytes
// uploaded, and the private temporary directory, against the real server of with-services.sh.
#include "forge/s3_publish.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "source/s3_client.hpp"
#include "source/s3_object_store.hpp"
#include "support/run_tool.hpp"
#include "support/s3_test_env.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::forge {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

// Every file below `dir` by relative path, with its bytes.
std::map<std::string, std::string> files_below(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) out[fs::relative(entry.path(), dir).generic_string()] = test::read_file(entry.path());
  }
  return out;
}

// Every object below `prefix` (keys relative to it), with its bytes.
std::map<std::string, std::string> objects_below(source::S3Client& client, const std::string& bucket,
                                                 const std::string& prefix) {
  std::map<std::string, std::string> out;
  auto listed = client.list(bucket, prefix);
  EXPECT_TRUE(listed.ok()) << listed.status().message();
  if (!listed.ok()) return out;
  for (const auto& object : *listed) {
    auto bytes = client.get({bucket, object.key}, 1ull << 30);
    EXPECT_TRUE(bytes.ok()) << bytes.status().message();
    if (bytes.ok()) out[object.key.substr(prefix.size())] = *bytes;
  }
  return out;
}

// TMPDIR set for the tools this test runs, restored after.
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const std::string& dir) {
    if (const char* old = std::getenv("TMPDIR")) m_old = old;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (m_old.empty()) {
      ::unsetenv("TMPDIR");
    } else {
      ::setenv("TMPDIR", m_old.c_str(), 1);
    }
  }
  ScopedTmpdir(const ScopedTmpdir&) = delete;
  ScopedTmpdir& operator=(const ScopedTmpdir&) = delete;

 private:
  std::string m_old;
};

TEST(S3Publish, UploadsInTheMastersOrderWithTheLocalKeys) {
  MQ_REQUIRE_S3(endpoint);
  TempDir dir;
  ForgeRequest request;
  request.out_dir = dir.str() + "/store";
  request.scenario_path = test::source_path("snapshots/sample/scenario.json");
  ASSERT_TRUE(run_forge(request).ok());

  std::mutex mutex;
  std::vector<std::string> puts;
  util::NetConfig net;
  net.log = [&](util::NetLogLevel, const std::string& line) {
    if (line.rfind("PUT ", 0) != 0) return;
    std::lock_guard lock(mutex);
    puts.push_back(line.substr(4, line.find(' ', 4) - 4));
  };
  source::S3ObjectStore store(test::s3_test_config(endpoint), net);
  source::S3Client client(test::s3_test_config(endpoint), {});
  const std::string bucket = test::fresh_bucket("publish");
  const std::string url = "s3://" + bucket + "/copies/sample";
  ASSERT_TRUE(prepare_s3_destination(store, url, false).ok());
  auto summary = publish_store_to_s3(store, request.out_dir, url);
  ASSERT_TRUE(summary.ok()) << summary.status().message();

  const auto local = files_below(request.out_dir);
  EXPECT_EQ(summary->objects, local.size());
  EXPECT_EQ(summary->checksummed, local.size());
  std::uint64_t bytes = 0;
  for (const auto& [name, content] : local) bytes += content.size();
  EXPECT_EQ(summary->bytes, bytes);
  EXPECT_EQ(objects_below(client, bucket, "copies/sample/"), local);

  // The order: the bucket, every payload, then the descriptor, latest.txt last.
  ASSERT_EQ(puts.size(), local.size() + 1);
  EXPECT_EQ(puts.front().substr(puts.front().rfind('/') + 1), bucket);
  EXPECT_NE(puts.back().find("/copies/sample/mooncake_master_snapshot/mooncake_cluster/latest.txt"), std::string::npos)
      << puts.back();
  EXPECT_NE(puts[puts.size() - 2].find("/descriptor.txt"), std::string::npos) << puts[puts.size() - 2];
  for (std::size_t i = 1; i + 2 < puts.size(); ++i) {
    EXPECT_EQ(puts[i].find("descriptor.txt"), std::string::npos) << puts[i];
    EXPECT_EQ(puts[i].find("latest.txt"), std::string::npos) << puts[i];
  }
}

TEST(S3Publish, ANonEmptyPrefixIsRefusedWithoutForce) {
  MQ_REQUIRE_S3(endpoint);
  source::S3ObjectStore store(test::s3_test_config(endpoint), {});
  source::S3Client client(test::s3_test_config(endpoint), {});
  const std::string bucket = test::fresh_bucket("refuse");
  ASSERT_TRUE(prepare_s3_destination(store, "s3://" + bucket + "/p", false).ok()) << "creates the bucket";
  ASSERT_TRUE(client.put({bucket, "p/mooncake_master_snapshot/c/latest.txt"}, "x").ok());
  ASSERT_TRUE(client.put({bucket, "p/mooncake_master_snapshot/c/old/metadata"}, "y").ok());
  util::Status refused = prepare_s3_destination(store, "s3://" + bucket + "/p", false);
  EXPECT_EQ(refused.code(), util::StatusCode::invalid_argument);
  EXPECT_EQ(refused.message(), "output 's3://" + bucket + "/p' is not empty: 2 objects below s3://" + bucket +
                                   "/p/mooncake_master_snapshot/ (use --force to overwrite its snapshot store)");
  EXPECT_TRUE(prepare_s3_destination(store, "s3://" + bucket + "/p", true).ok());
  // Other prefixes and other keys do not count.
  EXPECT_TRUE(prepare_s3_destination(store, "s3://" + bucket + "/q", false).ok());
  ASSERT_TRUE(client.put({bucket, "r/notes.txt"}, "z").ok());
  EXPECT_TRUE(prepare_s3_destination(store, "s3://" + bucket + "/r", false).ok());
}

TEST(S3Publish, SnapshotForgeToS3) {
  MQ_REQUIRE_S3(endpoint);
  test::export_s3_settings(endpoint);
  TempDir dir;
  TempDir scratch;  // the tool's TMPDIR: empty again after every run
  ScopedTmpdir tmpdir(scratch.str());
  const std::string bucket = test::fresh_bucket("forge-tool");
  const std::string url = "s3://" + bucket + "/demo";
  const std::string scenario = test::source_path("snapshots/sample/scenario.json");

  auto first = test::run_tool("snapshot-forge", {scenario, "--out", url + "/"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, "");
  EXPECT_NE(first.err.find("snapshot-forge: wrote 6 objects ("), std::string::npos) << first.err;
  EXPECT_NE(first.err.find(" B) to " + url + "\n"), std::string::npos) << first.err;
  EXPECT_TRUE(fs::is_empty(scratch.path()));

  auto local = test::run_tool("snapshot-forge", {scenario, "--out", dir.str() + "/local"});
  ASSERT_EQ(local.exit_code, 0) << local.err;
  source::S3Client client(test::s3_test_config(endpoint), {});
  auto expected = files_below(dir.str() + "/local");
  expected.erase("oplog.jsonl");
  EXPECT_EQ(objects_below(client, bucket, "demo/"), expected);

  auto again = test::run_tool("snapshot-forge", {scenario, "--out", url});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("is not empty: 6 objects below " + url + "/mooncake_master_snapshot/"), std::string::npos)
      << again.err;
  EXPECT_TRUE(fs::is_empty(scratch.path()));
  auto forced = test::run_tool("snapshot-forge", {scenario, "--out", url, "--force", "-q"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(forced.err, "");

  // A failure after the temporary store was started leaves nothing behind either.
  test::write_file(dir.path() / "bad.json", "{not json");
  auto bad = test::run_tool("snapshot-forge", {(dir.path() / "bad.json").string(), "--out", url + "-bad"});
  EXPECT_EQ(bad.exit_code, 3) << bad.err;
  EXPECT_TRUE(fs::is_empty(scratch.path()));

  // --large: the same bytes as the local store of the same seed.
  auto large = test::run_tool("snapshot-forge", {"--large", "3000", "--seed", "5", "--out", "s3://" + bucket});
  ASSERT_EQ(large.exit_code, 0) << large.err;
  EXPECT_NE(large.err.find("snapshot-forge: wrote 3000 objects, "), std::string::npos) << large.err;
  EXPECT_NE(large.err.find(" to s3://" + bucket + "\n"), std::string::npos) << large.err;
  auto large_local =
      test::run_tool("snapshot-forge", {"--large", "3000", "--seed", "5", "--out", dir.str() + "/large"});
  ASSERT_EQ(large_local.exit_code, 0) << large_local.err;
  auto at_root = objects_below(client, bucket, "mooncake_master_snapshot/");
  std::map<std::string, std::string> local_root;
  for (auto& [name, bytes] : files_below(dir.str() + "/large/mooncake_master_snapshot")) local_root[name] = bytes;
  EXPECT_EQ(at_root, local_root);

  // A usage error before any request: --oplog-large has no store to upload.
  auto oplog = test::run_tool("snapshot-forge", {"--oplog-large", "10", "--out", url});
  EXPECT_EQ(oplog.exit_code, 2);
  EXPECT_EQ(oplog.err, "snapshot-forge: --oplog-large writes no snapshot store: give a local --out directory\n");
}

TEST(S3Publish, ASignalRemovesTheTemporaryStore) {
  MQ_REQUIRE_S3(endpoint);
  test::export_s3_settings(endpoint);
  TempDir scratch;
  ScopedTmpdir tmpdir(scratch.str());
  const std::string tool = test::binary_path("tools/snapshot-forge");
  const std::string out = "s3://" + test::fresh_bucket("signal");
  std::vector<std::string> args = {tool, "--large", "3000000", "--out", out, "-q"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawnattr_t attr;
  ASSERT_EQ(posix_spawnattr_init(&attr), 0);
  sigset_t defaults;  // SIGTERM with its default action, whatever the test runner set
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, tool.c_str(), nullptr, &attr, argv.data(), environ), 0);
  posix_spawnattr_destroy(&attr);
  // Wait until the store is being forged into its temporary directory.
  bool forging = false;
  for (int i = 0; i < 300 && !forging; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (const auto& entry : fs::directory_iterator(scratch.path())) {
      forging = forging || fs::exists(entry.path() / "mooncake_master_snapshot");
    }
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(forging) << "the forge never started";
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run ended before the signal: status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::is_empty(scratch.path()));
}

}  // namespace
}  // namespace moonquota::forge
