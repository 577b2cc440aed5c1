// Temporary files for tests: P_tmpdir/mapsim-test-NAME.
#pragma once
#include <cstdio>
#include <fstream>
#include <string>

inline std::string temp_path(const std::string& name) { return std::string(P_tmpdir) + "/mapsim-test-" + name; }

inline std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}
