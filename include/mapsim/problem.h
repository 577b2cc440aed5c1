// What to place and where: the keys of a scenario (docs/scenario.md) as text, the same specs the CLI's
// flags take. map() and simulate() (mapping.h) run one replicate of it.
#pragma once
#include <mapsim/export.h>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mapsim {

struct Problem {
  std::string network;     // required: "fattree:nodes=64,radix=8", "file:net.json", "slurm:topology.conf"
  std::string routing;     // empty: the network's own
  std::string process;     // a process graph ("mesh:8x8") and a synthetic program on it ...
  std::string workload;    // ... ("exchange:size=64KiB"; empty: exchange)
  std::string trace;       // ... or a recorded trace (TI index or file) instead of process and workload
  std::string allocation;  // empty: every node (all)
  int slots = 0;           // ranks per node; 0: 1
  std::uint64_t seed = 1;
};

// A result value by its results.csv column name ("hop_bytes", "sim_makespan"); NaN where it does not apply.
using Values = std::vector<std::pair<std::string, double>>;
MAPSIM_API double value_of(const Values& values, const std::string& name);

}  // namespace mapsim
