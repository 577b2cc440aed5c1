// The benchmarks' main: bad input or a network a routing refuses ends the run with its one-line
// message and exit 1, never an abort.
#pragma once
#include <cstdio>
#include <exception>
#include <new>

inline int run_benchmark(int argc, char** argv, int (*run)(int, char**)) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory\n", argv[0]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", argv[0], e.what());
  }
  return 1;
}
