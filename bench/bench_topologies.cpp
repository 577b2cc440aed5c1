// Benchmark (not a test): generate, route and analyse irregular networks at the papers' density
// (256 nodes per 75 switches, 8 ports, 75% connectivity) for 256, 1024 and 4096 nodes.
// Usage: bench_topologies [nodes ...]; prints seconds per phase and peak memory.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/sizes.h"
#include "topologies/generators.h"
#include "routing/route_analysis.h"
#include "routing/routed_network.h"

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i)
    if (!add_size(argv[i], sizes)) {
      std::fprintf(stderr, "%s\n", "usage: bench_topologies [N ...]  (N >= 4 nodes of an irregular network)");
      return 2;
    }
  if (sizes.empty()) sizes = {256, 1024, 4096};
  using clock = std::chrono::steady_clock;
  auto seconds = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  std::printf("%8s %8s %7s %10s %10s %10s %9s %9s\n", "nodes", "switches", "links", "generate", "route", "analyse",
              "avg_hops", "peak_MB");
  for (int nodes : sizes) {
    mapsim::IrregularParams p;
    p.nodes = nodes;
    p.switches = (nodes * 75 + 255) / 256;
    auto t0 = clock::now();
    mapsim::Network net = mapsim::make_irregular(p);
    auto t1 = clock::now();
    mapsim::RoutedNetwork routed(std::move(net), "updown");
    auto t2 = clock::now();
    mapsim::RouteAnalysis a = mapsim::analyse_routes(routed);
    auto t3 = clock::now();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%8d %8d %7d %10.4f %10.4f %10.4f %9.3f %9.1f\n", nodes, a.switches, a.links, seconds(t0, t1),
                seconds(t1, t2), seconds(t2, t3), a.avg_route_hops, usage.ru_maxrss / 1024.0);
    if (!a.routes_legal || !a.deadlock_free) return 1;
  }
  return 0;
}
