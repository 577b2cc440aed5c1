// Deterministic pseudo-random numbers: the same seed gives the same sequence with any
// standard library (std::uniform_int_distribution is implementation-defined, so not used).
#pragma once
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace mapsim {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  // Uniform integer in [0, n), n > 0, by rejection (no modulo bias).
  uint64_t below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = engine_(); while (x >= limit);
    return x % n;
  }
  // Uniform double in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace mapsim
