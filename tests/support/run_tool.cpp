#include "support/run_tool.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "support/tree_paths.hpp"

namespace moonquota::test {

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

ToolRun run_tool(const std::string& tool, const std::vector<std::string>& args, const std::string& input) {
  const std::string binary = test::binary_path("tools/" + tool);
  char out_tmpl[] = "/tmp/mq_tool_out_XXXXXX";
  char err_tmpl[] = "/tmp/mq_tool_err_XXXXXX";
  char in_tmpl[] = "/tmp/mq_tool_in_XXXXXX";
  int out_fd = mkstemp(out_tmpl);
  int err_fd = mkstemp(err_tmpl);
  int in_fd = mkstemp(in_tmpl);
  if (!input.empty() && write(in_fd, input.data(), input.size()) != static_cast<ssize_t>(input.size())) in_fd = -1;
  if (in_fd >= 0) lseek(in_fd, 0, SEEK_SET);
  ToolRun run;
  pid_t pid = fork();
  if (pid == 0) {
    if (in_fd >= 0) dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(out_fd);
  close(err_fd);
  if (in_fd >= 0) close(in_fd);
  unlink(in_tmpl);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = slurp(out_tmpl);
  run.err = slurp(err_tmpl);
  unlink(out_tmpl);
  unlink(err_tmpl);
  return run;
}

std::string read_source_file(const std::string& relative) { return slurp(source_path(relative)); }

}  // namespace moonquota::test
