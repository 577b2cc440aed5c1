// mapsim topo SPEC: build a network, route it, check the routes, print a summary or export it.
#include <chrono>
#include <iostream>
#include <spdlog/spdlog.h>

#include "apps/commands.h"
#include "apps/common_options.h"
#include "reporting/topo_report.h"
#include "support/atomic_file.h"
#include "support/component_reference.h"
#include "support/json_text.h"
#include "routing/export.h"
#include "topologies/link_params.h"
#include "topologies/network_factory.h"
#include "routing/route_analysis.h"

namespace mapsim {
namespace {

struct TopoOptions {
  std::string spec;
  std::string routing = "default";
  bool json = false;
  std::string format, export_format;
  std::string output;
};

void run_topo(const TopoOptions& o) {
  auto start = std::chrono::steady_clock::now();
  RoutedNetwork routed(make_network(o.spec), o.routing);
  spdlog::debug("built {} switches, {} nodes; routing {}", routed.network().num_switches(),
                routed.network().num_nodes(), routed.routing().name());
  if (!o.export_format.empty()) {
    if (o.output.empty() || o.output == "-") export_network(routed, o.export_format, std::cout);
    else write_file_atomically(o.output, [&](std::ostream& out) { export_network(routed, o.export_format, out); });
    if (!o.output.empty() && o.output != "-") spdlog::info("wrote {} export to {}", o.export_format, o.output);
    return;
  }
  RouteAnalysis analysis = analyse_routes(routed);
  // Timing goes to the log only: results stay byte-identical from run to run.
  spdlog::debug("analysed in {:.3f} s", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (chosen_format(o.format, o.json) == "json") std::cout << json_text(topo_json(o.spec, routed, analysis), 2) << "\n";
  else write_topo_summary(o.spec, routed, analysis, std::cout);
}

}  // namespace

void add_topo_command(CLI::App& app) {
  auto options = std::make_shared<TopoOptions>();
  CLI::App* cmd = app.add_subcommand("topo", "Build a network, route it and check the routes");
  std::set<std::string> link_keys;
  for (const Param& p : link_params()) link_keys.insert(p.name);
  cmd->footer("Network specs (KEY=UPPERCASE: no fixed default, see the line below the description):\n" +
              component_spec_help(network_registry().infos(), link_keys) +
              "  link keys for all generators: " + param_spec_keys(link_params()) + "\n" +
              "Examples:\n  mapsim topo irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=1\n"
              "  mapsim topo torus:8x8x8 --json\n  mapsim topo fattree:k=4,levels=3 --export simgrid -o ft.xml");
  cmd->add_option("spec", options->spec, "Network spec, e.g. irregular:nodes=256,switches=75")->required();
  add_routing_option(cmd, options->routing);
  add_format_option(cmd, options->format, options->json, {"table", "json"}, "Same as --format json: one JSON object");
  cmd->add_option("--export", options->export_format, "Write the network instead: dot, json or simgrid")
      ->check(CLI::IsMember({"dot", "json", "simgrid"}));
  cmd->add_option("-o,--output", options->output, "File for --export (default: stdout)");
  cmd->callback([options] { run_topo(*options); });
}

}  // namespace mapsim
