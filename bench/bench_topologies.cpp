// Benchmark (not a test): generate, route and analyse networks. Each argument is a node count N (an
// irregular network at the papers' density: 75 switches per 256 nodes, 8 ports, 75 % connectivity,
// seed 1) or a network spec (`fattree:nodes=65536,radix=64`); default 256, 1024 and 4096 nodes.
// Usage: bench_topologies [--routing NAME] [N | SPEC ...] (routing default: updown); prints seconds
// per phase, whether the analysis sampled and what it found, and the process's peak memory so far
// (run one network per process for its own peak: bench/routing_scale.sh does).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "bench/bench_main.h"
#include "bench/sizes.h"
#include "topologies/network_factory.h"
#include "routing/route_analysis.h"
#include "routing/routed_network.h"

static int run(int argc, char** argv) {
  std::vector<std::string> specs;
  std::string routing = "updown";
  for (int i = 1; i < argc; ++i) {
    std::vector<int> size;
    if (!std::strcmp(argv[i], "--routing") && i + 1 < argc) routing = argv[++i];
    else if (std::strchr(argv[i], ':')) specs.push_back(argv[i]);
    else if (add_size(argv[i], size))
      specs.push_back("irregular:nodes=" + std::to_string(size[0]) + ",switches=" + std::to_string((size[0] * 75 + 255) / 256));
    else {
      std::fprintf(stderr, "%s\n", "usage: bench_topologies [--routing NAME] [N | SPEC ...]  (N >= 4 nodes of an irregular network)");
      return 2;
    }
  }
  if (specs.empty())
    for (int n : {256, 1024, 4096}) specs.push_back("irregular:nodes=" + std::to_string(n) + ",switches=" + std::to_string((n * 75 + 255) / 256));
  using clock = std::chrono::steady_clock;
  auto seconds = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  std::printf("%8s %8s %7s %-8s %10s %10s %10s %9s %7s %5s %8s %9s\n", "nodes", "switches", "links", "routing", "generate",
              "route", "analyse", "avg_hops", "sampled", "legal", "deadlock", "peak_MB");
  for (const std::string& spec : specs) {
    auto t0 = clock::now();
    mapsim::Network net = mapsim::make_network(spec);
    auto t1 = clock::now();
    mapsim::RoutedNetwork routed(std::move(net), routing);
    auto t2 = clock::now();
    mapsim::RouteAnalysis a = mapsim::analyse_routes(routed);
    auto t3 = clock::now();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%8d %8d %7d %-8s %10.4f %10.4f %10.4f %9.3f %7s %5s %8s %9.1f\n", a.nodes, a.switches, a.links,
                routed.routing().name().c_str(), seconds(t0, t1), seconds(t1, t2), seconds(t2, t3), a.avg_route_hops,
                a.sampled ? "yes" : "no", a.routes_legal ? "yes" : "NO", a.deadlock_free ? "free" : "CYCLE",
                usage.ru_maxrss / 1024.0);
    std::fflush(stdout);
    if (!a.routes_legal || (!a.deadlock_free && routing != "minhop" && routing != "shortest")) return 1;
  }
  return 0;
}

int main(int argc, char** argv) { return run_benchmark(argc, argv, run); }
