// mapsim simulate: replay a workload (synthetic on a process topology, or a TI trace) on a
// network under a placement; print a summary and write summary.json, links.csv, messages.csv.
#include <filesystem>
#include <iostream>
#include <spdlog/spdlog.h>

#include "apps/commands.h"
#include "support/atomic_file.h"
#include "mappers/mapper.h"
#include "sim/report.h"
#include "sim/workload.h"
#include "support/error.h"
#include "topologies/network_factory.h"
#include "support/units.h"

namespace mapsim {
namespace {

struct SimulateOptions {
  std::string topology, routing = "default", process, workload = "exchange", trace;
  std::string mapper = "default", placement, allocation = "all", model = "flow", output, write_trace;
  std::string eager = "64KiB", mtu = "4KiB", intra_node = "10GB/s";
  double flops = 1e9;
  int slots = 1;
  uint64_t seed = 1;
  std::string sharing = "fair", flow_solver = "mapsim", ocs;
  bool messages = false, json = false;
};

void run_simulate(const SimulateOptions& o) {
  if (o.process.empty() == o.trace.empty()) throw Error("give either --process (synthetic workload) or --trace");
  RoutedNetwork routed(make_network(o.topology), o.routing);
  ProcessGraph graph;
  Trace trace;
  if (!o.trace.empty()) {
    trace = read_ti_trace(o.trace);
    graph = trace_process_graph(trace);
  } else {
    graph = make_process_graph(o.process);
    trace = make_workload(o.workload, graph);
  }
  if (!o.write_trace.empty()) spdlog::info("trace written to {}", write_ti_trace(trace, o.write_trace));
  SimOptions options;
  options.model = parse_model(o.model);
  options.eager_threshold = parse_size(o.eager);
  options.mtu = parse_size(o.mtu);
  options.intra_node_bandwidth = parse_bandwidth(o.intra_node);
  options.flops = o.flops;
  options.record_messages = o.messages;
  if (o.sharing != "fair" && o.sharing != "smpi") throw Error("--sharing: expected fair or smpi, got '" + o.sharing + "'");
  options.smpi_sharing = o.sharing == "smpi";
  options.flow_solver = parse_flow_solver(o.flow_solver);
  if (!o.ocs.empty()) options.ocs = parse_ocs(o.ocs, routed.network());
  Placement placement;
  if (!o.placement.empty()) {
    if (cp_mapper(options.ocs, "default") != "default") throw Error("--ocs policy cp places the ranks itself: drop --placement");
    placement = read_placement(o.placement, routed.network());
  } else {
    MappingProblem problem = make_problem(routed, graph, o.allocation, o.slots, o.seed);
    placement = make_mapper(cp_mapper(options.ocs, o.mapper))->map(problem);
    check_placement(problem, placement);
  }
  SimResult result = simulate(routed, placement, trace, options);

  nlohmann::ordered_json summary = summary_json(result, routed);
  if (!o.output.empty()) {
    std::filesystem::create_directories(o.output);
    const std::filesystem::path dir = o.output;
    write_file_atomically((dir / "links.csv").string(), [&](std::ostream& out) { write_links_csv(result, routed, out); });
    if (o.messages)
      write_file_atomically((dir / "messages.csv").string(), [&](std::ostream& out) { write_messages_csv(result, out); });
    // summary.json last: its presence marks a complete output directory.
    write_file_atomically((dir / "summary.json").string(), [&](std::ostream& out) { out << summary.dump(2) << "\n"; });
  }
  if (o.json) std::cout << summary.dump(2) << "\n";
  else print_summary(result, std::cout);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "Replay a workload or TI trace on a network under a placement");
  cmd->footer("Workloads on --process: exchange[:size=B,iterations=I,compute=F] alltoall[:size=B] permutation[:size=B,seed=S]\n"
              "Example:\n  mapsim simulate --topology irregular:nodes=256,switches=75 --process mesh:16x16 "
              "--mapper switch --model store-and-forward -o out/");
  cmd->add_option("--topology", o->topology, "Network spec (see mapsim topo --help)")->required();
  cmd->add_option("--routing", o->routing, "Routing (default: the network's own)");
  cmd->add_option("--process", o->process, "Process topology of a synthetic workload");
  cmd->add_option("--workload", o->workload, "Synthetic workload on --process (default exchange)");
  cmd->add_option("--trace", o->trace, "SimGrid TI trace: one shared file or an index of per-rank files");
  cmd->add_option("--mapper", o->mapper, "Mapper NAME[:key=value,...] placing the ranks (default: rank i on node i)");
  cmd->add_option("--placement", o->placement, "Placement file of 'rank node' lines (mapsim map -o)");
  cmd->add_option("--allocation", o->allocation, "all, random[:seed=S] or list:FILE");
  cmd->add_option("--slots", o->slots, "Slots (ranks) per node")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "Seed of the mapper");
  cmd->add_option("--model", o->model, "flow, store-and-forward or packet");
  cmd->add_option("--eager", o->eager, "Eager/rendezvous threshold (SMPI's send-is-detached-thresh), default 64KiB");
  cmd->add_option("--mtu", o->mtu, "Packet size of the packet model, default 4KiB");
  cmd->add_option("--flops", o->flops, "Node speed for compute actions, flop/s")->check(CLI::PositiveNumber);
  cmd->add_option("--sharing", o->sharing, "Flow model bandwidth sharing: fair (default) or smpi (weighted by route latency)");
  cmd->add_option("--flow-solver", o->flow_solver,
                  "Flow model solver: mapsim (default, incremental max-min) or simgrid (SimGrid's CM02, the slower reference)");
  cmd->add_option("--ocs", o->ocs, "Optical circuits beside the EPS: ocs:pathways=N,policy=sp|cp,nodes=all|F|list:FILE,"
                                  "bandwidth=32Gbps,latency=80ns,setup=10ms,threshold=B,circuits=N,setup_wait=0|1");
  cmd->add_option("--intra-node-bandwidth", o->intra_node, "Bandwidth between ranks on one node, default 10GB/s");
  cmd->add_option("-o,--output", o->output, "Directory for summary.json, links.csv (and messages.csv)");
  cmd->add_option("--write-trace", o->write_trace, "Also write the workload as a TI trace (index.txt + rank files) in DIR");
  cmd->add_flag("--messages", o->messages, "Also write messages.csv, one row per message");
  cmd->add_flag("--json", o->json, "Print summary.json instead of the table");
  cmd->callback([o] { run_simulate(*o); });
}

}  // namespace mapsim
