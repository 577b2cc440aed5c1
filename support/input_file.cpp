#include "support/input_file.h"

#include <filesystem>

#include "support/error.h"

namespace mapsim {

std::ifstream open_input(const std::string& path, const std::string& what, std::ios::openmode mode) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) throw Error(path + ": no such " + what);
  if (fs::is_directory(status)) throw Error(path + ": is a directory; expected a " + what);
  if (!fs::is_regular_file(status)) throw Error(path + ": not a regular file (a device or pipe); expected a " + what);
  std::ifstream in(path, mode);
  if (!in) throw Error(path + ": cannot open " + what);
  return in;
}

}  // namespace mapsim
