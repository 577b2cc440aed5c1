// mapsim simulate: replay a workload (synthetic on a process topology, or a TI trace) on a
// network under a placement; print a summary and write summary.json, links.csv, messages.csv.
#include <spdlog/spdlog.h>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "apps/commands.h"
#include "apps/cli_checks.h"
#include "apps/common_options.h"
#include "apps/external_tool.h"
#include "apps/progress.h"
#include "mappers/mapper.h"
#include "routing/export.h"
#include "scenario/run.h"
#include "sim/report.h"
#include "sim/timeline.h"
#include "sim/workload.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/units.h"
#include "support/json_text.h"

namespace mapsim {
namespace {

std::string model_list() {
  std::string list;
  for (const ComponentInfo& m : model_infos()) list += (list.empty() ? "" : ", ") + m.name;
  return list;
}

struct SimulateOptions {
  SharedFlags shared;
  std::string process, workload, trace, mapper, placement;
  std::string model, ocs;
  std::map<std::string, std::string> model_options;  // by builtin_model_options() name: the flags' text
  std::string output, write_trace, timeline, draw, draw_view = "auto", draw_load = "bytes", format;
  bool messages = false, json = false, profile = false;
};

// Where the time of one `simulate` went, wall seconds per phase (--profile), to stderr.
void print_profile(const std::vector<std::pair<std::string, double>>& phases) {
  double total = 0;
  for (const auto& phase : phases) total += phase.second;
  std::fprintf(stderr, "profile (wall clock)\n");
  for (const auto& [name, seconds] : phases)
    std::fprintf(stderr, "  %-44s %10.4f s %5.1f %%\n", name.c_str(), seconds, total > 0 ? 100 * seconds / total : 0.0);
  std::fprintf(stderr, "  %-44s %10.4f s\n", "total", total);
}

// The run configuration of `simulate`: one placement, one replicate, with a model.
Scenario simulate_scenario(const SimulateOptions& o) {
  if (o.process.empty() == o.trace.empty()) throw Error("give either --process (synthetic workload) or --trace");
  if (!o.placement.empty() && !o.mapper.empty()) throw Error("give either --mapper or --placement, not both");
  const std::string mapping = o.placement.empty() ? one_mapper("simulate", o.mapper) : "placement:" + o.placement;
  std::vector<std::array<std::string, 3>> flags = {o.shared.topology_key(),
                                                   o.shared.routing_key(),
                                                   {"workload.process", "--process", o.process},
                                                   {"workload.pattern", "--workload", o.workload},
                                                   {"workload.trace", "--trace", o.trace},
                                                   {"mapping", o.placement.empty() ? "--mapper" : "--placement", mapping},
                                                   o.shared.allocation_key(),
                                                   o.shared.slots_key(),
                                                   o.shared.seed_key(),
                                                   {"model.name", "--model", o.model}};
  for (const ModelOption& option : builtin_model_options())  // each at its key, model.NAME
    if (auto given = o.model_options.find(option.param.name); given != o.model_options.end())
      flags.push_back({"model." + option.param.name, option.flag, given->second});
  flags.push_back({"ocs", "--ocs", o.ocs});
  Scenario scenario = scenario_from_flags("mapsim simulate", given_flags(flags));
  if (!scenario.simulate) throw Error("--model: simulate needs a simulation model, not none: expected one of " + model_list());
  scenario.sim.record_messages = o.messages || !o.timeline.empty();
  scenario.sim.record_timeline = !o.timeline.empty();
  return scenario;
}

// The link loads of the run as a Graphviz picture, as `mapsim run --draw` draws replicate 0.
void draw(const SimulateOptions& o, const MappingRun& run, const RoutedNetwork& routed) {
  const Network& net = routed.network();
  LoadPicture picture;
  picture.bytes = true;
  picture.per_switch = o.draw_view == "switches" || (o.draw_view == "auto" && net.num_nodes() > 128);
  picture.title = "mapsim simulate: " + run.mapper;
  std::vector<int> ranks(net.num_nodes(), 0);
  for (int node : run.placement) ++ranks[node];
  std::vector<double> load;
  picture.seconds = o.draw_load == "credit-waits";  // where congestion backed up (flit model)
  if (picture.seconds) load = run.simulated->congestion.channel_blocked;
  else
    for (const PortLoad& p : run.simulated->channels) load.push_back(p.bytes);
  std::ostringstream dot;
  export_load_dot(routed, load, ranks, picture, dot);
  write_picture(o.draw, dot.str());
  std::cerr << "picture: " << o.draw << "\n";
}

void run_simulate(const SimulateOptions& o) {
  if (!o.draw.empty()) {  // checked before the simulation, not after it
    picture_format("--draw", o.draw);
    require_output_folder("--draw", o.draw);
  }
  if (o.draw_load == "credit-waits" && o.model.substr(0, o.model.find(':')) != "flit")
    throw Error("--draw-load credit-waits: only the flit model (--model flit) waits for credits");
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  auto t = Clock::now();
  Scenario scenario = simulate_scenario(o);
  Progress bar("simulate", "actions");
  if (progress_settings().enabled)
    scenario.sim.progress = [&](const SimProgress& p) {
      bar.update(static_cast<double>(p.actions_done), static_cast<double>(p.actions_total), progress_detail(p));
    };
  RunPipeline pipeline(scenario);  // reads a trace
  const double parse_seconds = since(t);
  t = Clock::now();
  const ReplicateParts& parts = pipeline.replicate(0);
  const double build_seconds = since(t);
  if (!o.write_trace.empty()) spdlog::info("trace written to {}", write_ti_trace(materialize(*parts.trace), o.write_trace));
  const MappingRun run = pipeline.run(parts, scenario.mappers.front());
  bar.finish();
  t = Clock::now();
  const SimResult& result = *run.simulated;
  const RoutedNetwork& routed = *parts.routed;

  if (!o.timeline.empty()) {
    std::vector<std::string> labels;
    for (size_t r = 0; r < run.placement.size(); ++r)
      labels.push_back("rank " + std::to_string(r) + " on " + routed.network().node(run.placement[r]).name);
    write_file_atomically(o.timeline, [&](std::ostream& out) {
      if (std::filesystem::path(o.timeline).extension() == ".csv") {
        out << kTimelineCsvColumns << "\n";
        write_timeline_rows(result, "", out);
      } else {
        write_paje(result, labels, out);
      }
    });
    spdlog::info("timeline: {}", o.timeline);
  }
  nlohmann::ordered_json summary = summary_json(result, routed);
  if (!o.output.empty()) {
    std::filesystem::create_directories(o.output);
    const std::filesystem::path dir = o.output;
    write_file_atomically((dir / "links.csv").string(),
                          [&](std::ostream& out) { write_links_csv(result, routed, out); });
    if (o.messages)
      write_file_atomically((dir / "messages.csv").string(),
                            [&](std::ostream& out) { write_messages_csv(result, out); });
    // summary.json last: its presence marks a complete output directory.
    write_file_atomically((dir / "summary.json").string(), [&](std::ostream& out) { out << json_text(summary, 2) << "\n"; });
  }
  if (!o.draw.empty()) draw(o, run, routed);
  if (chosen_format(o.format, o.json) == "json")
    std::cout << json_text(summary, 2) << "\n";
  else
    print_summary(result, std::cout);
  if (o.profile)
    print_profile({{"scenario and trace read", parse_seconds},
                   {"network, routing and workload built", build_seconds},
                   {"placement (" + run.mapper + ")", run.map_seconds},
                   {"simulation: bandwidth sharing solver", result.solver_seconds},
                   {"simulation: event loop and model", result.wall_seconds - result.solver_seconds},
                   {"simulation: engine set-up, child process", run.sim_seconds - result.wall_seconds},
                   {"output", since(t)}});
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "Replay a workload or TI trace on a network under a placement");
  cmd->footer("Workloads on --process: " + component_list(workload_registry().infos()) +
              "\nMappers: " + component_list(mapper_registry().infos()) +
              "\n(mapsim components lists their parameters)\nExample:\n  mapsim simulate --topology "
              "irregular:nodes=256,switches=75 --process mesh:16x16 "
              "--mapper switch --model store-and-forward -o out/");
  add_topology_option(cmd, o->shared.topology);
  add_routing_option(cmd, o->shared.routing);
  cmd->add_option("--process", o->process, "Process topology of a synthetic workload");
  cmd->add_option("--workload", o->workload,
                  "Synthetic workload on --process, scenario key workload.pattern (default exchange; not a traffic "
                  "pattern nor the pattern: process topology, docs/simulation.md)");
  cmd->add_option("--trace", o->trace, "SimGrid TI trace (one shared file or an index of per-rank files) or an OTF2 archive (traces.otf2)");
  add_mapper_option(cmd, o->mapper, "Mapper NAME[:key=value,...] placing the ranks (default: default, rank i on slot i)");
  cmd->add_option("--placement", o->placement,
                  "Placement file of 'rank node' lines (mapsim map -o); the mapper placement:FILE");
  add_allocation_option(cmd, o->shared.allocation);
  add_slots_option(cmd, o->shared.slots);
  add_seed_option(cmd, o->shared.seed);
  cmd->add_option("--model", o->model, "Simulation model: " + model_list() + " (default flow)");
  // The model options' flags, declared with their keys (builtin_model_options), in --help's order.
  const auto add_model_flag = [&](const std::string& name) {
    const ModelOption& option = builtin_model_option(name);
    cmd->add_option(option.flag, o->model_options[name], option.help());
  };
  for (const char* name : {"eager_threshold", "mtu", "test_time", "collectives", "flops", "sharing", "flow_solver",
                           "flow_tolerance", "path_selection"})
    add_model_flag(name);
  cmd->add_option("--ocs", o->ocs,
                  "Optical circuits beside the EPS: ocs:pathways=N,policy=sp|cp,nodes=all|F|list:FILE,"
                  "bandwidth=32Gbps,latency=80ns,setup=10ms,threshold=B,circuits=N,setup_wait=0|1");
  add_model_flag("intra_node_bandwidth");
  cmd->add_option("-o,--output", o->output, "Directory for summary.json, links.csv (and messages.csv)");
  cmd->add_option("--write-trace", o->write_trace,
                  "Also write the workload as a TI trace (index.txt + rank files) in DIR");
  cmd->add_flag("--messages", o->messages, "Also write messages.csv, one row per message");
  cmd->add_flag("--profile", o->profile, "Print where the time went (read, build, map, solver, event loop, output) to stderr");
  cmd->add_option("--timeline", o->timeline,
                  "Write the simulated run per rank (compute, waits, messages): FILE.paje, a Paje trace for ViTE or "
                  "pajeng, or FILE.csv (rank,state,start,end)")
      ->check([](const std::string& path) {
        const std::string ext = std::filesystem::path(path).extension().string();
        return ext == ".paje" || ext == ".trace" || ext == ".csv" ? std::string() : "expected a .paje (or .trace) or .csv file, got '" + path + "'";
      });
  cmd->add_option("--draw", o->draw, "Picture of the link loads (bytes per link): FILE.svg, .png, .pdf or .dot, as mapsim run --draw");
  cmd->add_option("--draw-view", o->draw_view,
                  "What --draw shows: nodes, switches or auto (default: switches above 128 nodes)")
      ->check(CLI::IsMember({"auto", "nodes", "switches"}));
  cmd->add_option("--draw-load", o->draw_load,
                  "What --draw's link colours show: bytes (default), or credit-waits, the time each link's sender "
                  "waited for credits (flit model: the tree of links a hot spot backed up)")
      ->check(CLI::IsMember({"bytes", "credit-waits"}));
  add_format_option(cmd, o->format, o->json, {"table", "json"}, "Same as --format json: print summary.json instead of the table");
  cmd->callback([o] { run_simulate(*o); });
}

}  // namespace mapsim
