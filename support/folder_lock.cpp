#include "support/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "support/error.h"

namespace mapsim {

namespace fs = std::filesystem;

FolderLock::FolderLock(const std::string& dir, const std::string& for_what)
    : dir_(dir), path_((fs::path(dir) / ".mapsim.lock").string()) {
  std::error_code ec;
  for (fs::path at = fs::absolute(dir).lexically_normal(); !at.empty() && !fs::exists(fs::symlink_status(at, ec));
       at = at.parent_path())
    if (at.has_filename()) made_ = at.string();  // "out/" ends in an empty name
  fs::create_directories(dir, ec);
  if (ec) throw Error(dir + ": cannot make the folder (" + ec.message() + "); expected a folder for " + for_what);
  // Another process may remove the lock file between our open and our flock (its run ended): then the
  // lock taken is on a file no longer there, and the one now there is opened again.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0)
      throw Error(path_ + ": cannot make the lock file of the folder for " + for_what + " (" + std::strerror(errno) + ")");
    struct stat held {}, there {};
    if (fstat(fd, &held) != 0 || !S_ISREG(held.st_mode)) {
      close(fd);
      throw Error(path_ + ": is not a lock file (a device, pipe or folder); remove it");
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      close(fd);
      if (error == EWOULDBLOCK)
        throw Error(dir + ": another mapsim command is writing this folder (it holds " + path_ +
                    "); wait for it to end, or choose another folder for " + for_what);
      throw Error(path_ + ": cannot lock the folder for " + for_what + " (" + std::strerror(error) + ")");
    }
    if (stat(path_.c_str(), &there) == 0 && there.st_dev == held.st_dev && there.st_ino == held.st_ino) {
      fd_ = fd;
      return;
    }
    close(fd);
  }
  throw Error(path_ + ": cannot lock the folder for " + for_what + " (its lock file keeps changing)");
}

FolderLock::~FolderLock() {
  unlink(path_.c_str());  // before the lock goes: a process waiting on this file then opens a new one
  close(fd_);
  if (made_.empty()) return;
  std::error_code ec;  // the folders made for the lock, unless the run put something in them
  for (fs::path at = fs::absolute(dir_).lexically_normal(); !at.empty(); at = at.parent_path()) {
    if (!at.has_filename()) continue;
    if (!fs::remove(at, ec) || at == fs::path(made_)) break;
  }
}

}  // namespace mapsim
