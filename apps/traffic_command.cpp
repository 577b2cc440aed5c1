// mapsim traffic: open-loop synthetic traffic on a network at one or more offered loads; one row
// per load (a load-latency curve), as a table, CSV or JSON.
#include <spdlog/spdlog.h>
#include <iostream>

#include "apps/cli_checks.h"
#include "apps/commands.h"
#include "apps/common_options.h"
#include "reporting/traffic_report.h"
#include "scenario/scenario.h"
#include "scenario/traffic_curve.h"
#include "support/atomic_file.h"
#include "support/units.h"

namespace mapsim {
namespace {

// The flags as given (sizes and times as text; empty: the default).
struct TrafficCommandOptions {
  std::string network, routing = "default", pattern = "uniform", loads = "0.5", model = "packet", mtu, message,
                       path_selection = "deterministic", warmup, measure;
  uint64_t seed = 1;
  std::string format = "table", output;
};

// The run configuration of `traffic`: each flag at its scenario key, the pattern and its window as
// workload.traffic.
Scenario traffic_scenario(const TrafficCommandOptions& o) {
  return scenario_from_flags("mapsim traffic", given_flags({{"network", "--topology", o.network},
                                                            {"routing", "--routing", o.routing},
                                                            {"workload.traffic", "--pattern", o.pattern},
                                                            {"workload.traffic.message", "--message", o.message},
                                                            {"workload.traffic.warmup", "--warmup", o.warmup},
                                                            {"workload.traffic.measure", "--measure", o.measure},
                                                            {"model.name", "--model", o.model},
                                                            {"model.mtu", "--mtu", o.mtu},
                                                            {"model.path_selection", "--path-selection", o.path_selection},
                                                            {"seed", "--seed", std::to_string(o.seed)}}));
}

void run_traffic(const TrafficCommandOptions& o) {
  const TrafficFormat format = parse_traffic_format(o.format);
  const std::vector<double> loads = parse_traffic_loads(o.loads, "--load");
  const Scenario scenario = traffic_scenario(o);
  const bool to_file = !o.output.empty() && o.output != "-";
  if (to_file) check_output_file(o.output);  // before the simulations, not after them
  const auto say = [&](double load, const TrafficResult& r) {
    spdlog::info("load {}: accepted {:.3f}, mean latency {} ({} events in {:.1f} s)", format_number(load), r.accepted,
                 format_time(r.latency.mean), r.events, r.wall_seconds);
  };
  const bool several = loads.size() > 1;
  const std::vector<TrafficResult> rows = run_traffic_curve(scenario, loads, [&](double load, const TrafficResult& r) {
    if (several) say(load, r);  // progress between loads
  });
  const TrafficLabels labels{o.network, o.routing, o.model, o.path_selection, o.pattern, o.seed};
  if (!to_file) write_traffic_rows(labels, rows, format, std::cout);
  else write_file_atomically(o.output, [&](std::ostream& out) { write_traffic_rows(labels, rows, format, out); });
  if (!several) say(loads.front(), rows.front());  // after the output: an error writing it is the only line
}

}  // namespace

void add_traffic_command(CLI::App& app) {
  auto o = std::make_shared<TrafficCommandOptions>();
  TrafficCommandOptions& c = *o;
  CLI::App* cmd = app.add_subcommand("traffic", "Open-loop synthetic traffic: accepted throughput and latency per offered load");
  add_topology_option(cmd, c.network);
  add_routing_option(cmd, c.routing);
  cmd->add_option("--pattern", c.pattern,
                  "Open-loop traffic pattern SPEC (not a synthetic workload): " + traffic_registry().names() +
                      " (default uniform; mapsim components)");
  cmd->add_option("--load", c.loads, "Offered loads, fractions of node bandwidth, e.g. 0.1,0.2,0.5 (default 0.5)");
  cmd->add_option("--model", c.model, "Simulation model (default packet)");
  cmd->add_option("--mtu", c.mtu,
                  "Packet size (default " + format_size(*builtin_model_option("mtu").param.number) + ")");
  cmd->add_option("--message", c.message, "Message size, > 0 (default one packet)");
  cmd->add_option("--path-selection", c.path_selection, "deterministic (default), ecmp, spray or adaptive");
  cmd->add_option("--warmup", c.warmup, "Warm-up window, 0 for none (default 200 message times, at least 4 zero-load latencies)");
  cmd->add_option("--measure", c.measure, "Measurement window, at least 4 zero-load latencies (default 400 message times, at least 8 latencies)");
  add_seed_option(cmd, c.seed, "Seed of arrivals, destinations, random path choices and an unseeded random network (default 1)")
      ->check(whole_number_at_least(0));
  cmd->add_option("--format", o->format, "table (default), csv or json");
  cmd->add_option("-o,--output", o->output, "Output file (default: stdout)");
  cmd->callback([o] { run_traffic(*o); });
}

}  // namespace mapsim
