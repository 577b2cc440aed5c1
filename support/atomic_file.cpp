#include "support/atomic_file.h"

#include <cstdio>
#include <fstream>

#include "support/error.h"

namespace mapsim {

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string temp = path + ".partial";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(path + ": cannot write file");
    try {
      write(out);
    } catch (...) {
      out.close();
      std::remove(temp.c_str());
      throw;
    }
    out.flush();
    if (!out) {
      std::remove(temp.c_str());
      throw Error(path + ": write failed (disk full?)");
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    throw Error(path + ": cannot move the finished file into place");
  }
}

}  // namespace mapsim
