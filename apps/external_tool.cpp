#include "apps/external_tool.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <unistd.h>

#include "support/atomic_file.h"
#include "support/error.h"
#include "support/input_file.h"

namespace mapsim {

void run_tool(const std::string& program, const std::string& package, const std::vector<std::string>& args,
              const std::string& input, const std::string& output) {
  refuse_input_as_output(output);
  const std::string temp = output + ".partial";
  const int picture = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (picture < 0) throw Error(output + ": cannot write file (" + std::strerror(errno) + ")");
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw Error(program + ": cannot create a pipe (" + std::strerror(errno) + ")");
  const pid_t pid = fork();
  if (pid < 0) throw Error(program + ": cannot fork (" + std::strerror(errno) + ")");
  const std::string messages = output + ".messages";  // the tool's stderr, summarised on failure
  if (pid == 0) {
    dup2(pipe_fds[0], STDIN_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    if (FILE* err = std::fopen(messages.c_str(), "w")) dup2(fileno(err), STDERR_FILENO);
    dup2(picture, STDOUT_FILENO);
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execvp(program.c_str(), argv.data());
    _exit(127);
  }
  close(picture);
  close(pipe_fds[0]);
  const auto old_pipe_handler = std::signal(SIGPIPE, SIG_IGN);  // a tool that dies early must not kill us
  for (size_t written = 0; written < input.size();) {
    const ssize_t n = write(pipe_fds[1], input.data() + written, input.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  close(pipe_fds[1]);
  std::signal(SIGPIPE, old_pipe_handler);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // The tool's last message line, for a one-line error (gnuplot points at the failing command).
  std::string last;
  {
    std::ifstream in(messages);
    for (std::string line; std::getline(in, line);)
      if (line.find_first_not_of(" \t^") != std::string::npos) last = line;
  }
  std::remove(messages.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    std::remove(temp.c_str());
    throw Error(output + ": cannot run '" + program + "' (install the Debian package " + package + ")");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::remove(temp.c_str());
    throw Error(output + ": " + program + " failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")" +
                (last.empty() ? "" : ": " + last.substr(0, 200)));
  }
  if (std::rename(temp.c_str(), output.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    throw Error(output + ": cannot move the finished file into place (" + std::strerror(error) + ")");
  }
}

std::string tool_output(const std::string& program, const std::string& package, const std::vector<std::string>& args,
                        const std::string& input, const std::string& scratch) {
  const std::string path = scratch + ".tool";
  run_tool(program, package, args, input, path);
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  return text;
}

std::string picture_format(const std::string& flag, const std::string& path) {
  const std::string format = std::filesystem::path(path).extension().string();
  if (format != ".svg" && format != ".png" && format != ".pdf" && format != ".dot")
    throw Error(flag + " " + path + ": expected a .svg, .png, .pdf or .dot file");
  return format;
}

void write_picture(const std::string& path, const std::string& dot) {
  const std::string format = picture_format("--draw", path);
  if (format == ".dot")
    write_file_atomically(path, [&](std::ostream& o) { o << dot; });
  else
    run_tool("dot", "graphviz", {"-T" + format.substr(1)}, dot, path);
}

}  // namespace mapsim
