#include "support/master_stand_in_process.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "support/run_tool.hpp"
#include "support/tree_paths.hpp"

namespace moonquota::test {

namespace {

const char* k_r1_case_dir = "snapshots/genuine-live/r1_quiescent_orphan/";

}  // namespace

std::vector<std::string> genuine_r1_metadata_args() {
  return {"--store",        source_path(std::string(k_r1_case_dir) + "store"),
          "--policy",       source_path(std::string(k_r1_case_dir) + "policy.yaml"),
          "--restore-time", "1795956296529"};
}

std::vector<std::string> genuine_r1_stand_in_args() { return genuine_r1_metadata_args(); }

StandInProcess::StandInProcess(std::vector<std::string> args) {
  const bool has_store = std::find(args.begin(), args.end(), "--store") != args.end() ||
                         std::find(args.begin(), args.end(), "--snapshot-dir") != args.end();
  if (!has_store) {
    auto base = genuine_r1_stand_in_args();
    args.insert(args.begin(), base.begin(), base.end());
  }
  const std::string binary = test::binary_path("tools/master-stand-in");
  int out[2];
  if (pipe(out) != 0) return;
  m_pid = fork();
  if (m_pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  std::string line;
  char c = 0;
  while (read(out[0], &c, 1) == 1 && c != '\n') line.push_back(c);
  close(out[0]);
  if (line.rfind("http://127.0.0.1:", 0) == 0) m_url = line;
}

StandInProcess::~StandInProcess() {
  if (m_pid <= 0) return;
  kill(m_pid, SIGTERM);
  int status = 0;
  waitpid(m_pid, &status, 0);
}

int unused_loopback_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

SilentListener::SilentListener() {
  m_fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  listen(m_fd, 16);
  socklen_t len = sizeof addr;
  getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len);
  m_port = ntohs(addr.sin_port);
}

SilentListener::~SilentListener() {
  if (m_fd >= 0) close(m_fd);
}

}  // namespace moonquota::test
