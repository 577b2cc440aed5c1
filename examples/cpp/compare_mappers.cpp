// Places a 64-rank 2-D stencil on a 2:1 oversubscribed fat tree with three mappers and simulates each
// placement with the packet model: the library's whole round trip in a page.
//   usage: compare_mappers [NETWORK]
#include <mapsim/mapsim.h>

#include <cstdio>

int main(int argc, char** argv) {
  mapsim::Problem problem;
  problem.network = argc > 1 ? argv[1] : "fattree:nodes=128,radix=16,levels=2,oversubscription=2";
  problem.process = "mesh:8x8";
  problem.workload = "exchange:size=64KiB,iterations=2";
  problem.allocation = "random";
  try {
    const mapsim::NetworkDescription net = mapsim::describe_network(problem.network);
    std::printf("%zu nodes, %zu switches, %zu links, routing %s\n", net.nodes.size(), net.switches.size(),
                net.links.size(), net.routing.c_str());
    for (const char* mapper : {"default", "random", "scotch"}) {
      const mapsim::Simulation s = mapsim::simulate(problem, mapper, "packet");
      std::printf("%-8s makespan %.9g s, hop-bytes %.9g\n", mapper, s.makespan,
                  mapsim::value_of(s.mapping.metrics, "hop_bytes"));
    }
  } catch (const mapsim::Error& e) {
    std::fprintf(stderr, "compare_mappers: %s\n", e.what());
    return 1;
  }
  return 0;
}
