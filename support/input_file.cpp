#include "support/input_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <sys/stat.h>
#include <vector>

#include "support/error.h"

namespace mapsim {
namespace {

struct InputFile {
  dev_t device;
  ino_t inode;
  std::string path, what;
};

std::mutex inputs_mutex;
std::vector<InputFile>& inputs() {
  static std::vector<InputFile> read;
  return read;
}

}  // namespace

std::ifstream open_input(const std::string& path, const std::string& what, std::ios::openmode mode) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) throw Error(path + ": no such " + what);
  if (fs::is_directory(status)) throw Error(path + ": is a directory; expected a " + what);
  if (!fs::is_regular_file(status)) throw Error(path + ": not a regular file (a device or pipe); expected a " + what);
  errno = 0;
  std::ifstream in(path, mode);
  if (!in) throw Error(path + ": cannot open " + what + " (" + (errno ? std::strerror(errno) : "read error") + ")");
  note_input(path, what);
  // Editors on Windows start UTF-8 text with a byte-order mark; it is no part of the first line.
  char mark[3] = {};
  if (!in.read(mark, 3) || std::memcmp(mark, "\xEF\xBB\xBF", 3) != 0) {
    in.clear();
    in.seekg(0);
  }
  return in;
}

void note_input(const std::string& path, const std::string& what) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return;
  std::lock_guard<std::mutex> lock(inputs_mutex);
  for (const InputFile& f : inputs())
    if (f.device == info.st_dev && f.inode == info.st_ino) return;
  inputs().push_back({info.st_dev, info.st_ino, path, what});
}

void refuse_input_as_output(const std::string& output) {
  struct stat info {};
  if (stat(output.c_str(), &info) != 0) return;  // a new file is no input
  std::lock_guard<std::mutex> lock(inputs_mutex);
  for (const InputFile& f : inputs())
    if (f.device == info.st_dev && f.inode == info.st_ino)
      throw Error(output + ": is the " + f.what + " " + f.path + " that this command reads; choose another output");
}

bool read_bounded_line(std::istream& in, std::string& text, size_t max_bytes, const std::string& path, int line,
                       const std::string& expected) {
  text.clear();
  std::streambuf* buffer = in.rdbuf();
  int c = buffer->sbumpc();
  if (c == std::char_traits<char>::eof()) return false;
  for (; c != std::char_traits<char>::eof() && c != '\n'; c = buffer->sbumpc()) {
    if (text.size() == max_bytes)
      throw Error(path + ":" + std::to_string(line) + ": line longer than " + std::to_string(max_bytes) +
                  " bytes; expected " + expected);
    text.push_back(static_cast<char>(c));
  }
  if (!text.empty() && text.back() == '\r') text.pop_back();
  return true;
}

}  // namespace mapsim
