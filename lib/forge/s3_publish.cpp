#include "forge/s3_publish.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <tuple>
#include <vector>

#include "source/object_store.hpp"
#include "source/s3_url.hpp"
#include "util/interrupt_signals.hpp"

namespace moonquota::forge {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_store_root = "mooncake_master_snapshot";

// The scratch directory of this process, for a SIGINT, SIGTERM or SIGHUP that ends it meanwhile
// (a store of millions of objects takes a while): the handler removes it with `rm -rf` in a child
// (fork and execve are async-signal-safe, a recursive removal in the handler would not be), then
// restores the signal's previous action and raises it again. Installed only for a signal whose
// action is the default one (util/interrupt_signals), and only while the directory exists.
std::array<char, 4096> g_scratch_path{};
std::array<struct sigaction, util::k_interrupt_signals.size()> g_previous_actions{};
std::array<bool, util::k_interrupt_signals.size()> g_installed{};

extern "C" void remove_scratch_and_reraise(int signal_number) {
  const int saved_errno = errno;
  if (g_scratch_path[0] == '/') {
    const pid_t child = ::fork();
    if (child == 0) {
      char rm[] = "rm";
      char force[] = "-rf";
      char end_of_options[] = "--";
      char* argv[] = {rm, force, end_of_options, g_scratch_path.data(), nullptr};
      char* envp[] = {nullptr};
      ::execve("/bin/rm", argv, envp);
      ::_exit(127);
    }
    int status = 0;
    while (child > 0 && ::waitpid(child, &status, 0) < 0 && errno == EINTR) {}
  }
  for (std::size_t i = 0; i < util::k_interrupt_signals.size(); ++i) {
    if (util::k_interrupt_signals[i] == signal_number) util::restore_signal(signal_number, g_previous_actions[i]);
  }
  errno = saved_errno;
  ::raise(signal_number);
}

// A directory only this run uses, removed with its contents when the object goes away or a
// signal ends the process (above).
class ScratchDirectory {
 public:
  ScratchDirectory() = default;
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    if (m_path.empty()) return;
    std::error_code ec;
    fs::remove_all(m_path, ec);
    g_scratch_path[0] = '\0';
    for (std::size_t i = 0; i < util::k_interrupt_signals.size(); ++i) {
      if (g_installed[i]) util::restore_signal(util::k_interrupt_signals[i], g_previous_actions[i]);
      g_installed[i] = false;
    }
  }

  util::Status create() {
    const char* tmp = std::getenv("TMPDIR");  // NOLINT(concurrency-mt-unsafe): read once, single-threaded
    std::string pattern = (tmp != nullptr && *tmp != '\0' ? std::string(tmp) : std::string("/tmp"));
    while (pattern.size() > 1 && pattern.back() == '/') pattern.pop_back();
    pattern += "/snapshot-forge-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
      return util::Status::io_error("cannot create a temporary directory '" + pattern + "': " + std::strerror(errno));
    }
    std::error_code ec;
    m_path = fs::absolute(buffer.data(), ec).string();
    if (ec) m_path = buffer.data();
    if (m_path.size() < g_scratch_path.size() && m_path[0] == '/' && g_scratch_path[0] == '\0') {
      std::copy(m_path.begin(), m_path.end(), g_scratch_path.begin());
      g_scratch_path[m_path.size()] = '\0';
      for (std::size_t i = 0; i < util::k_interrupt_signals.size(); ++i) {
        g_installed[i] =
            util::take_over_signal(util::k_interrupt_signals[i], remove_scratch_and_reraise, g_previous_actions[i]);
      }
    }
    return {};
  }

  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

// 0: payloads, 1: descriptor.txt, 2: latest.txt (the master's publish order).
int publish_rank(const std::string& relative) {
  const std::string name = fs::path(relative).filename().string();
  if (name == "latest.txt") return 2;
  if (name == "descriptor.txt") return 1;
  return 0;
}

}  // namespace

util::Status prepare_s3_destination(source::WritableObjectStore& store, const std::string& store_url, bool force) {
  MQ_ASSIGN_OR_RETURN(source::S3Location where, source::parse_s3_url(store_url));
  MQ_RETURN_IF_ERROR(store.prepare(store_url));
  const std::string root = source::s3_url({where.bucket, source::join_key(where.key, std::string(k_store_root)) + "/"});
  auto existing = store.list(root);
  if (!existing.ok() && existing.status().code() != util::StatusCode::not_found) return existing.status();
  const std::size_t objects = existing.ok() ? existing->size() : 0;
  if (objects > 0 && !force) {
    return util::Status::invalid_argument("output '" + store_url + "' is not empty: " + std::to_string(objects) +
                                          (objects == 1 ? " object" : " objects") + " below " + root +
                                          " (use --force to overwrite its snapshot store)");
  }
  return {};
}

util::Result<S3PublishSummary> publish_store_to_s3(source::WritableObjectStore& store, const std::string& local_dir,
                                                   const std::string& store_url) {
  MQ_ASSIGN_OR_RETURN(source::S3Location where, source::parse_s3_url(store_url));
  std::vector<std::tuple<int, std::string, std::uint64_t>> files;  // rank, relative path, bytes
  std::error_code ec;
  for (fs::recursive_directory_iterator it(local_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string relative = fs::relative(it->path(), local_dir, ec).generic_string();
    const std::uint64_t bytes = it->file_size(ec);
    if (ec) break;
    files.emplace_back(publish_rank(relative), relative, bytes);
  }
  if (ec) return util::Status::io_error("cannot list '" + local_dir + "': " + ec.message());
  std::sort(files.begin(), files.end());
  S3PublishSummary summary;
  for (const auto& [rank, relative, bytes] : files) {
    const std::string key = source::s3_url({where.bucket, source::join_key(where.key, relative)});
    MQ_ASSIGN_OR_RETURN(const bool checksummed, store.put_file(key, source::join_key(local_dir, relative)));
    if (checksummed) ++summary.checksummed;
    ++summary.objects;
    summary.bytes += bytes;
  }
  return summary;
}

util::Result<S3ForgeOutcome> run_forge_to_s3(const ForgeRequest& request, source::WritableObjectStore& store) {
  if (request.oplog) {
    return util::Status::invalid_argument("--oplog-large writes no snapshot store: give a local --out directory");
  }
  MQ_RETURN_IF_ERROR(prepare_s3_destination(store, request.out_dir, request.force));
  ScratchDirectory scratch;
  MQ_RETURN_IF_ERROR(scratch.create());
  ForgeRequest local = request;
  local.out_dir = scratch.path();
  local.force = false;
  S3ForgeOutcome outcome;
  MQ_ASSIGN_OR_RETURN(outcome.forge, run_forge(local));
  MQ_ASSIGN_OR_RETURN(outcome.upload, publish_store_to_s3(store, scratch.path(), request.out_dir));
  return outcome;
}

}  // namespace moonquota::forge
