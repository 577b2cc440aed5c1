// Benchmark sizes on the command line: each argument an integer >= 4 (nodes, ranks or tasks).
#pragma once
#include <cstdlib>
#include <vector>

// Appends `arg` to `sizes`; false when it is not an integer >= 4.
inline bool add_size(const char* arg, std::vector<int>& sizes) {
  char* end = nullptr;
  const long value = std::strtol(arg, &end, 10);
  if (*arg == '\0' || *end != '\0' || value < 4 || value > (1L << 24)) return false;
  sizes.push_back(static_cast<int>(value));
  return true;
}
