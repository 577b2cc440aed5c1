#include "support/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

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

}  // namespace

void write_file_atomically(const std::string& requested, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  refuse_input_as_output(requested);
  std::error_code ec;
  fs::path target = requested;
  // A symlink is written through (its target is replaced, the link stays).
  for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    if (hops == 40) throw Error(requested + ": too many levels of symbolic links");
    const fs::path next = fs::read_symlink(target, ec);
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  const fs::file_status status = fs::status(target, ec);
  if (fs::is_directory(status)) throw Error(requested + ": is a directory; expected a file name");
  const std::string path = target.string();
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
