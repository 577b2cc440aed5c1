// Shared by the fuzz targets: the input as a file (the readers take paths), and the rule that a
// mapsim::Error is the expected answer to bad input while anything else (InternalError,
// std::bad_alloc, std::out_of_range, a sanitizer report) is a finding.
#pragma once
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "support/error.h"

namespace mapsim::fuzz {

// A file holding `data`, unique to this process, rewritten for each input, removed at exit.
inline std::string input_file(const uint8_t* data, size_t size, const char* suffix) {
  struct Scratch {
    std::string path;
    ~Scratch() { std::remove(path.c_str()); }
  };
  static Scratch scratch{"/tmp/mapsim-fuzz-" + std::to_string(getpid()) + suffix};
  std::ofstream(scratch.path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return scratch.path;
}

template <class F>
void expect_errors_only(F&& f) {
  try {
    f();
  } catch (const Error&) {
    // bad input, reported as such
  }
}

}  // namespace mapsim::fuzz
