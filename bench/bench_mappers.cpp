// Benchmark (not a test): mapping time and weighted cardinality of each mapper for a square mesh of
// T processes on an irregular network of T nodes at the papers' density (75 switches per 256
// nodes), T = 256, 1024, 4096, 16384. Slow mappers are skipped above a size (see `limit`).
// Usage: bench_mappers [T ...]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_main.h"
#include "bench/sizes.h"
#include "mappers/mapper.h"
#include "mappers/metrics.h"
#include "topologies/network_factory.h"

int run(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i)
    if (!add_size(argv[i], sizes)) {
      std::fprintf(stderr, "%s\n", "usage: bench_mappers [T ...]  (T >= 4 tasks: a square mesh on an irregular network of T nodes)");
      return 2;
    }
  if (sizes.empty()) sizes = {256, 1024, 4096, 16384};
  // Largest T each mapper runs at: annealing would take minutes beyond, scotch refuses > 4096 switches.
  const std::map<std::string, int> limit = {{"annealing", 4096}, {"scotch", 4096}};
  const std::vector<std::string> mappers = {"random", "default", "switch", "greedy", "adjacency", "adjacency:split=cut", "binary",
                                            "part",   "parts",   "metis",  "multisection", "scotch", "annealing", "best"};
  using clock = std::chrono::steady_clock;
  std::printf("%8s %-20s %10s %14s\n", "tasks", "mapper", "seconds", "weighted_card");
  for (int tasks : sizes) {
    const int side = static_cast<int>(std::lround(std::sqrt(tasks)));
    const int switches = (tasks * 75 + 255) / 256;
    mapsim::RoutedNetwork routed(
        mapsim::make_network("irregular:nodes=" + std::to_string(tasks) + ",switches=" + std::to_string(switches)));
    mapsim::ProcessGraph graph = mapsim::make_process_graph("mesh:" + std::to_string(side) + "x" + std::to_string(side));
    mapsim::MappingProblem problem = mapsim::make_problem(routed, graph, "all", 1, 1);
    for (const std::string& name : mappers) {
      auto it = limit.find(name);
      if (it != limit.end() && tasks > it->second) continue;
      auto start = clock::now();
      mapsim::Placement p = mapsim::make_mapper(name)->map(problem);
      const double seconds = std::chrono::duration<double>(clock::now() - start).count();
      std::printf("%8d %-20s %10.4f %14.0f\n", tasks, name.c_str(), seconds, mapsim::evaluate(problem, p).weighted_cardinality);
      std::fflush(stdout);
    }
  }
  return 0;
}

int main(int argc, char** argv) { return run_benchmark(argc, argv, run); }
