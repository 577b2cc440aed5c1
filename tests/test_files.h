// Test helpers: temporary files (P_tmpdir/mapsim-test-NAME) and the message of an expected error.
#pragma once
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include "support/error.h"

inline std::string temp_path(const std::string& name) { return std::string(P_tmpdir) + "/mapsim-test-" + name; }

inline std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

// The message of the mapsim::Error that `f` throws, or "" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const mapsim::Error& e) {
    return e.what();
  }
  return "";
}
