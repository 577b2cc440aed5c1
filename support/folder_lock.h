// An exclusive lock on an output folder, so that two commands writing one folder at once (two
// `mapsim run -o DIR`) cannot mix their files: the second is refused at once. It is flock(2) on
// DIR/.mapsim.lock, held while the FolderLock lives; the kernel releases it when a process dies, so a
// lock file left by a killed run is taken over. The folder is made if missing, and the lock file
// removed at the end, with the folders made for it when nothing else was put in them.
#pragma once
#include <string>

namespace mapsim {

class FolderLock {
 public:
  // `for_what` says what the folder holds ("the run's results"). Throws Error naming the folder when
  // another process holds the lock or the lock file cannot be made (a link or another kind of file there).
  FolderLock(const std::string& dir, const std::string& for_what);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
  std::string dir_, path_;
  std::string made_;  // the outermost folder this lock made (empty: none)
};

}  // namespace mapsim
