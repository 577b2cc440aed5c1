#include "support/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

#include "support/error.h"
#include "support/input_file.h"

namespace mapsim {
namespace {

void write_stream(std::ofstream& out, const std::string& path, const std::function<void(std::ostream&)>& write) {
  errno = 0;
  write(out);
  out.flush();
  if (!out) throw Error(path + ": cannot write file (" + (errno ? std::strerror(errno) : "write error") + ")");
}

// The file an output name writes: symlinks followed; refused when empty, an input or a directory.
std::string output_target(const std::string& requested, std::filesystem::file_status& status) {
  namespace fs = std::filesystem;
  if (requested.empty()) throw Error("expected an output file name, got an empty one");
  refuse_input_as_output(requested);
  std::error_code ec;
  fs::path target = requested;
  // A symlink is written through (its target is replaced, the link stays).
  for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    if (hops == 40) throw Error(requested + ": too many levels of symbolic links");
    const fs::path next = fs::read_symlink(target, ec);
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  status = fs::status(target, ec);
  if (fs::is_directory(status)) throw Error(requested + ": is a directory; expected a file name");
  return target.string();
}

}  // namespace

void check_output_file(const std::string& requested) {
  namespace fs = std::filesystem;
  fs::file_status status;
  const std::string temp = output_target(requested, status) + ".partial";
  if (fs::exists(status) && !fs::is_regular_file(status)) return;  // a device or a pipe
  errno = 0;
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw Error(requested + ": cannot write file (" + std::strerror(errno) + ")");
  ::close(fd);
  std::remove(temp.c_str());
}

void write_file_atomically(const std::string& requested, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  fs::file_status status;
  const std::string path = output_target(requested, status);
  if (fs::exists(status) && !fs::is_regular_file(status)) {  // a device or a pipe: written as it is, never replaced
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error(requested + ": cannot write file (" + std::strerror(errno) + ")");
    write_stream(out, requested, write);
    return;
  }
  const std::string temp = path + ".partial";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(requested + ": cannot write file (" + std::strerror(errno) + ")");
    try {
      write_stream(out, requested, write);
    } catch (...) {
      out.close();
      std::remove(temp.c_str());
      throw;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    throw Error(requested + ": cannot move the finished file into place (" + std::strerror(error) + ")");
  }
}

}  // namespace mapsim
