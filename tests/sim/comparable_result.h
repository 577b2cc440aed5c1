// A SimResult as JSON without its wall-clock and memory figures, which vary between identical runs:
// what tests compare when two ways of running must give the same simulation.
#pragma once
#include <nlohmann/json.hpp>

#include "sim/simulate.h"

inline nlohmann::json comparable(const mapsim::SimResult& r) {
  nlohmann::json j = r;
  j.erase("wall_seconds");
  j.erase("solver_seconds");
  j.erase("peak_memory_kb");
  return j;
}
