// mapsim map: place a process topology on a network with one mapper; write the placement and
// launch files, print the quality metrics.
#include <spdlog/spdlog.h>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "apps/commands.h"
#include "apps/common_options.h"
#include "mappers/core_placement.h"
#include "mappers/mapper.h"
#include "reporting/compare_report.h"
#include "reporting/launch_files.h"
#include "scenario/run.h"
#include "support/atomic_file.h"
#include "support/units.h"
#include "support/json_text.h"

namespace mapsim {
namespace {

struct MapOptions {
  SharedFlags shared;
  std::string process, mapper = "default";
  std::string output, rankfile, hostlist, graph_file, format;
  std::vector<std::string> launch;  // FORMAT=FILE
  bool json = false;
};

// A launch file to write: its format, its path and the flag that asked for it.
struct LaunchOutput {
  std::string format, path, flag;
};

// --rankfile and --hostlist are --launch rankfile=F and --launch hostlist=F.
std::vector<LaunchOutput> launch_outputs(const MapOptions& o) {
  std::vector<LaunchOutput> outputs;
  if (!o.rankfile.empty()) outputs.push_back({"rankfile", o.rankfile, "--rankfile"});
  if (!o.hostlist.empty()) outputs.push_back({"hostlist", o.hostlist, "--hostlist"});
  for (const std::string& item : o.launch) {
    const size_t equal = item.find('=');
    if (equal == std::string::npos || equal + 1 == item.size())
      throw Error("--launch: expected FORMAT=FILE, got '" + item + "'");
    const std::string format = item.substr(0, equal);
    try {
      check_launch_format(format);
    } catch (const Error& e) {
      throw Error(std::string("--launch: ") + e.what());
    }
    outputs.push_back({format, item.substr(equal + 1), "--launch " + format});
  }
  return outputs;
}

// The run configuration of `map`: one mapper, one replicate, no simulation.
Scenario map_scenario(const MapOptions& o) {
  return scenario_from_flags("mapsim map", given_flags({o.shared.topology_key(),
                                                        {"workload.process", "--process", o.process},
                                                        {"mapping", "--mapper", one_mapper("map", o.mapper)},
                                                        {"model", "--model", "none"},
                                                        o.shared.routing_key(),
                                                        o.shared.allocation_key(),
                                                        o.shared.slots_key(),
                                                        o.shared.seed_key()}));
}

void run_map(const MapOptions& o) {
  const std::vector<LaunchOutput> launch = launch_outputs(o);
  // Two outputs on one path would leave only the last.
  std::vector<std::pair<std::string, std::string>> outputs = {{"-o", o.output}, {"--write-graph", o.graph_file}};
  for (const LaunchOutput& file : launch) outputs.push_back({file.flag, file.path});
  for (size_t i = 0; i < outputs.size(); ++i)
    for (size_t j = i + 1; j < outputs.size(); ++j)
      if (!outputs[i].second.empty() && outputs[i].second == outputs[j].second)
        throw Error(outputs[i].first + " and " + outputs[j].first + " name the same file " + outputs[i].second);
  for (const auto& output : outputs)
    if (!output.second.empty()) check_output_file(output.second);  // before the mapping, not after it
  const Scenario scenario = map_scenario(o);
  RunPipeline pipeline(scenario);
  const ReplicateParts& parts = pipeline.replicate(0);
  const MappingRun run = pipeline.run(parts, scenario.mappers.front());
  const Placement& placement = run.placement;
  const Network& net = parts.routed->network();
  const ProcessGraph& graph = *parts.graph;

  if (!o.output.empty())
    write_file_atomically(o.output, [&](std::ostream& out) {
      out << "# rank node (mapsim map --mapper " << o.mapper << ")\n";
      for (size_t t = 0; t < placement.size(); ++t) out << t << " " << placement[t] << "\n";
    });
  // With node insides the ranks go to the cores the metrics cost them on.
  const RankSites sites = rank_sites(placement, net, net.node_insides.empty() ? std::vector<int>{} : place_on_cores(parts.problem, placement));
  for (const LaunchOutput& file : launch)
    write_file_atomically(file.path, [&](std::ostream& out) { write_launch_file(file.format, sites, out, file.path); });

  if (!o.graph_file.empty())
    write_file_atomically(o.graph_file, [&](std::ostream& out) { write_metis_graph(graph, out); });

  const std::map<std::string, double> m(run.values.begin(), run.values.end());
  if (chosen_format(o.format, o.json) == "json") {
    std::cout << json_text(map_json(o.mapper, run, graph.num_tasks(), graph.edges().size()), 2) << "\n";
    return;
  }
  std::printf("mapper               %s (%d tasks, %zu edges, %zu allowed nodes)\n",
              make_mapper(run.mapper)->name().c_str(), graph.num_tasks(), graph.edges().size(),
              parts.problem.nodes.size());
  std::printf("weighted cardinality %.6g\ncardinality          %.6g\nhop-bytes            %.6g\n",
              m.at("weighted_cardinality"), m.at("cardinality"), m.at("hop_bytes"));
  // map has no workload: max_link_messages counts the process graph's edges routed over the link.
  std::printf("dilation             %d\nmax link load        %.6g (%g routed edges)\n", static_cast<int>(m.at("dilation")),
              m.at("max_link_load"), m.at("max_link_messages"));
  std::printf("load variance        %.6g\nnetwork traffic      %.6g of %.6g\n", m.at("load_variance"),
              m.at("network_traffic"), m.at("total_communication"));
  std::printf("gamma_c              %.6g\nzero-load latency    %s\n", m.at("gamma_c"),
              format_time(m.at("zero_load_latency")).c_str());
  std::printf("congestion           %s (phases' busiest ports)\ncongestion bound     %s (lower bound on the run time)\n",
              format_time(m.at("congestion")).c_str(), format_time(m.at("congestion_bound")).c_str());
  spdlog::debug("mapped in {:.4f} s", run.map_seconds);
}

}  // namespace

void add_map_command(CLI::App& app) {
  auto o = std::make_shared<MapOptions>();
  CLI::App* cmd = app.add_subcommand("map", "Place a process topology on a network and measure the placement");
  cmd->footer("Mappers: " + component_list(mapper_registry().infos()) +
              "\nProcess topologies: " + component_list(process_registry().infos()) +
              "\n(mapsim components lists their parameters)\nExample:\n  mapsim map --topology "
              "irregular:nodes=256,switches=75 --process mesh:16x16 --mapper switch");
  add_topology_option(cmd, o->shared.topology);
  cmd->add_option("--process", o->process, "Process topology spec")->required();
  add_mapper_option(cmd, o->mapper, "Mapper NAME[:key=value,...] (default: default, rank i on slot i; see docs/mappers.md)");
  add_routing_option(cmd, o->shared.routing);
  add_allocation_option(cmd, o->shared.allocation);
  add_slots_option(cmd, o->shared.slots);
  add_seed_option(cmd, o->shared.seed);
  cmd->add_option("-o,--output", o->output, "Write the placement: one 'rank node' line per rank");
  cmd->add_option("--rankfile", o->rankfile, "Write an Open MPI rankfile (the same as --launch rankfile=F)");
  cmd->add_option("--hostlist", o->hostlist, "Write an MPICH host list, one host per rank (the same as --launch hostlist=F)");
  std::string formats;
  for (const std::string& format : launch_formats()) formats += (formats.empty() ? "" : ", ") + format;
  cmd->add_option("--launch", o->launch,
                  "Write a launch file: FORMAT=FILE (repeatable); FORMAT one of " + formats + " (docs/mappers.md#launch-files)");
  cmd->add_option("--write-graph", o->graph_file,
                  "Write the task graph in METIS format (for METIS, KaHIP, or graph:FILE.graph)");
  add_format_option(cmd, o->format, o->json, {"table", "json"});
  cmd->callback([o] { run_map(*o); });
}

}  // namespace mapsim
