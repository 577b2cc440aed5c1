// mapsim as a library: build and route a network (network.h), place a program's ranks with any
// registered mapper and simulate the placement (mapping.h), run a scenario (scenario.h). Link with
// mapsim::mapsim (CMake: find_package(mapsim)) or `pkg-config --libs mapsim`.
#pragma once
#include <mapsim/export.h>
#include <mapsim/error.h>
#include <mapsim/mapping.h>
#include <mapsim/network.h>
#include <mapsim/problem.h>
#include <mapsim/scenario.h>

namespace mapsim {
MAPSIM_API const char* version();
}  // namespace mapsim
