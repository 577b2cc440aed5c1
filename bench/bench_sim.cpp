// Benchmark (not a test): replay a T-rank square stencil (4 neighbours, 1e5-byte messages,
// 100 iterations) on an irregular network of T nodes at the papers' density (75 switches per
// 256 nodes) with up*/down* routes, in each model, and the same TI trace with `smpirun -replay`
// on the exported platform (exact-model flags) when smpirun is installed.
// Usage: bench_sim [--iterations I] [--models flow,store-and-forward,packet] [--flow-solver S] [--flow-tolerance EPS]
//                  [--no-smpi] [T ...]
// (default T = 256, all models)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <new>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <vector>

#include "sim/simulate.h"
#include "support/error.h"
#include "bench/bench_main.h"
#include "bench/sizes.h"
#include "sim/workload.h"
#include "routing/export.h"
#include "topologies/network_factory.h"

using namespace mapsim;

static int run(int argc, char** argv) {
  std::vector<int> sizes;
  int iterations = 100;
  std::vector<std::string> models = {"flow", "store-and-forward", "packet"};
  bool smpi = std::system("command -v smpirun >/dev/null 2>&1") == 0;
  FlowSolver flow_solver = FlowSolver::Mapsim;
  double flow_tolerance = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-smpi")) smpi = false;
    else if (!std::strcmp(argv[i], "--flow-solver") && i + 1 < argc) flow_solver = parse_flow_solver(argv[++i]);
    else if (!std::strcmp(argv[i], "--flow-tolerance") && i + 1 < argc) flow_tolerance = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--models") && i + 1 < argc) {
      models.clear();
      std::string list = argv[++i];
      for (size_t start = 0, end; start <= list.size(); start = end + 1) {
        end = std::min(list.find(',', start), list.size());
        models.push_back(parse_model(list.substr(start, end - start)));
      }
    }
    else if (!add_size(argv[i], sizes)) {
      std::fprintf(stderr, "usage: bench_sim [--iterations I] [--models flow,store-and-forward,packet] [--flow-solver mapsim|simgrid]\n"
                           "                 [--flow-tolerance EPS]\n"
                           "                 [--no-smpi] [RANKS ...]\n"
                           "  RANKS >= 4: a square stencil on an irregular network of that many nodes (default 256)\n");
      return 2;
    }
  }
  if (sizes.empty()) sizes = {256};
  std::printf("%6s %-18s %12s %10s %12s %10s %12s\n", "ranks", "model", "makespan_s", "wall_s", "events/s", "peak_MB",
              "messages");
  for (int ranks : sizes) {
    const int side = static_cast<int>(std::lround(std::sqrt(ranks)));
    const int switches = (ranks * 75 + 255) / 256;
    RoutedNetwork routed(make_network("irregular:nodes=" + std::to_string(ranks) +
                                      ",switches=" + std::to_string(switches) + ",seed=1"));
    ProcessGraph graph = make_process_graph("mesh:" + std::to_string(side) + "x" + std::to_string(side));
    // Generated as the replay reads it: memory does not grow with the iterations (issue 34).
    const auto workload = make_workload_source("exchange:size=100000,iterations=" + std::to_string(iterations), graph);
    Placement placement(graph.num_tasks());
    for (int r = 0; r < graph.num_tasks(); ++r) placement[r] = r;
    for (std::string model : models) {
      SimOptions options;
      options.model = model;
      options.flow_solver = flow_solver;
      options.flow_tolerance = flow_tolerance;
      SimResult r = simulate(routed, placement, *workload, options);
      std::printf("%6d %-18s %12.6g %10.3f %12.4g %10.1f %12ld\n", ranks, model.c_str(), r.makespan,
                  r.wall_seconds, r.events / r.wall_seconds, r.peak_memory_kb / 1024.0, r.messages);
      std::fflush(stdout);
    }
    if (!smpi) continue;
    namespace fs = std::filesystem;
    // A fresh folder per run (a previous run's smpi.out would make it no trace folder), removed after.
    std::string pattern = (fs::temp_directory_path() / "mapsim-bench-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw Error("cannot create a folder in " + fs::temp_directory_path().string());
    const fs::path dir = pattern;
    const std::string index = write_ti_trace(materialize(*workload), dir.string());
    {
      std::ofstream platform(dir / "platform.xml");
      export_simgrid(routed, platform);
      std::ofstream hosts(dir / "hosts");
      for (int node : placement) hosts << "node-" << node << "\n";
    }
    const std::string command = "smpirun -np " + std::to_string(ranks) + " -platform " + (dir / "platform.xml").string() +
                                " -hostfile " + (dir / "hosts").string() + " -replay " + index +
                                " --cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:1e300"
                                " --cfg=surf/precision:1e-12 --cfg=smpi/display-timing:yes"
                                " --log=root.thres:critical --log=smpi_utils.thres:info > " + (dir / "smpi.out").string() + " 2>&1";
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    // smpi/display-timing's "Simulated time: X seconds." is SMPI's makespan.
    std::string makespan = "(no time)";
    std::ifstream out(dir / "smpi.out");
    for (std::string line; std::getline(out, line);)
      if (const size_t at = line.find("Simulated time: "); at != std::string::npos)
        makespan = line.substr(at + 16, line.find(' ', at + 16) - at - 16);
    std::printf("%6d %-18s %12s %10.3f %12s %10.1f %12s%s\n", ranks, "smpirun -replay", makespan.c_str(), wall, "-",
                usage.ru_maxrss / 1024.0, "-", status == 0 ? "" : "  FAILED");
    out.close();
    fs::remove_all(dir);
  }
  return 0;
}

int main(int argc, char** argv) { return run_benchmark(argc, argv, run); }
