#include "support/created_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/error.h"
#include "support/input_file.h"

namespace mapsim {
namespace {

std::string reason(const std::string& path, const std::string& what, int error) {
  return path + ": " + what + " (" + std::strerror(error) + ")";
}

// Why the existing name `path` (lstat'ed into `info`) may not be written; "" when it may. A symbolic
// link is refused or replaced by the caller, never followed.
std::string refused_kind(const std::string& path, const struct stat& info) {
  if (S_ISDIR(info.st_mode)) return path + ": is a directory; expected a file name";
  if (S_ISLNK(info.st_mode)) return path + ": is a symbolic link, which a library never writes through; expected a file name";
  if (!S_ISREG(info.st_mode)) return path + ": not a regular file (a device or pipe); expected a file name";
  return "";
}

// refuse_input_as_output's message, or "" (a library never throws into the program).
std::string refused_input(const std::string& path) {
  try {
    refuse_input_as_output(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Why the name `path` may not be replaced by a new file: an input, a directory, a FIFO or a device.
std::string refused_replacement(const std::string& path) {
  if (std::string input = refused_input(path); !input.empty()) return input;
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0 || S_ISLNK(info.st_mode)) return "";  // new, or a link that is replaced
  return refused_kind(path, info);
}

}  // namespace

int create_partial_file(const std::string& path, std::string& why) {
  if (why = refused_replacement(path); !why.empty()) return -1;
  const std::string partial = path + ".partial";
  struct stat info {};
  if (lstat(partial.c_str(), &info) == 0 && (S_ISREG(info.st_mode) || S_ISLNK(info.st_mode))) unlink(partial.c_str());
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) why = reason(partial, "cannot create file", errno);
  return fd;
}

bool finish_partial_file(const std::string& path, std::string& why) {
  const std::string partial = path + ".partial";
  why = refused_replacement(path);
  if (why.empty() && std::rename(partial.c_str(), path.c_str()) != 0)
    why = reason(path, "cannot move the finished file into place", errno);
  if (why.empty()) return true;
  unlink(partial.c_str());
  return false;
}

int open_appended_file(const std::string& path, std::string& why) {
  struct stat info {};
  if (lstat(path.c_str(), &info) == 0 && !(why = refused_kind(path, info)).empty()) return -1;
  // O_NONBLOCK: a FIFO put there since is not waited for (no reader: ENXIO), and refused below.
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int error = errno;
    struct stat link {};
    link.st_mode = S_IFLNK;
    why = error == ELOOP ? refused_kind(path, link) : reason(path, "cannot open file", error);
    return -1;
  }
  // What was opened is what the name holds now (no link swapped in since), a regular file, and no input.
  struct stat opened {}, named {};
  if (fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode))
    why = path + ": not a regular file (a device or pipe); expected a file name";
  else if (lstat(path.c_str(), &named) != 0 || named.st_dev != opened.st_dev || named.st_ino != opened.st_ino)
    why = path + ": was replaced while it was opened; expected a file name";
  else
    why = refused_input(path);
  if (why.empty()) return fd;
  ::close(fd);
  return -1;
}

bool write_all(int fd, const std::string& text, const std::string& path, std::string& why) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      why = reason(path, "cannot write file", n < 0 ? errno : ENOSPC);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace mapsim
