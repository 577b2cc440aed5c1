// mapsim traffic: open-loop synthetic traffic on a network at one or more offered loads; one row
// per load (a load-latency curve), as a table, CSV or JSON.
#include <spdlog/spdlog.h>
#include <iostream>
#include <sstream>

#include "apps/cli_checks.h"
#include "apps/commands.h"
#include "sim/traffic.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/units.h"
#include "topologies/network_factory.h"
#include "support/json_text.h"

namespace mapsim {
namespace {

struct TrafficCommandOptions {
  std::string topology, routing = "default", pattern = "uniform", loads = "0.5", model = "packet", mtu, message,
                        path_selection = "deterministic", warmup, measure, format = "table", output;
  uint64_t seed = 1;
};

std::vector<double> parse_loads(const std::string& text) {
  std::vector<double> loads;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    try {
      size_t used = 0;
      loads.push_back(std::stod(item, &used));
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw Error("--load: expected numbers in (0, 1] separated by commas, got '" + item + "'");
    }
  }
  if (loads.empty()) throw Error("--load: expected at least one offered load");
  return loads;
}

void write_rows(const TrafficCommandOptions& o, const std::vector<TrafficResult>& rows, std::ostream& out) {
  if (o.format == "json") {
    nlohmann::json j = {{"network", o.topology}, {"routing", o.routing}, {"model", o.model},
                                {"path_selection", o.path_selection}, {"pattern", o.pattern}, {"seed", o.seed},
                                {"results", rows}};
    out << json_text(j, 2) << "\n";
    return;
  }
  if (o.format == "csv") {
    out << "network,routing,model,path_selection,pattern,offered,accepted,latency_mean,latency_p50,latency_p99,latency_max,zero_load_latency,avg_hops,messages,"
           "events\n";
    const std::string run = csv_field(o.topology) + "," + csv_field(o.routing) + "," + csv_field(o.model) + "," +
                            csv_field(o.path_selection) + ",";
    for (const TrafficResult& r : rows)
      out << run << csv_field(r.pattern) << "," << format_exact(r.offered) << "," << format_exact(r.accepted) << ","
          << format_exact(r.latency.mean) << "," << format_exact(r.latency.p50) << "," << format_exact(r.latency.p99)
          << "," << format_exact(r.latency.max) << "," << format_exact(r.zero_load_latency) << ","
          << format_exact(r.avg_hops) << "," << r.messages << "," << r.events << "\n";
    return;
  }
  out << "offered  accepted  latency mean     p99       (zero-load)  hops\n";
  for (const TrafficResult& r : rows) {
    char line[160];
    std::snprintf(line, sizeof line, "%-8.3f %-9.3f %-16s %-9s %-12s %.2f\n", r.offered, r.accepted,
                  format_time(r.latency.mean).c_str(), format_time(r.latency.p99).c_str(),
                  format_time(r.zero_load_latency).c_str(), r.avg_hops);
    out << line;
  }
}

void run_traffic(const TrafficCommandOptions& o) {
  if (o.format != "table" && o.format != "csv" && o.format != "json")
    throw Error("--format: expected table, csv or json, got '" + o.format + "'");
  const std::vector<double> loads = parse_loads(o.loads);
  SimOptions sim;
  sim.model = parse_model(o.model);
  sim.path_selection = parse_path_selection(o.path_selection);
  try {  // before the network is built
    check_path_selection(sim.path_selection, sim.model);
  } catch (const Error& e) {
    throw Error("--path-selection " + o.path_selection + ": " + e.what());
  }
  try {
    check_routing_choice(o.routing, sim.model);
  } catch (const Error& e) {
    throw Error("--routing " + o.routing + ": " + e.what());
  }
  const bool to_file = !o.output.empty() && o.output != "-";
  if (to_file) check_output_file(o.output);  // before the simulations, not after them
  RoutedNetwork routed(make_network(o.topology), o.routing);
  sim.seed = o.seed;
  if (!o.mtu.empty()) sim.mtu = parse_size(o.mtu);
  if (!(sim.mtu > 0)) throw Error("--mtu: must be > 0");
  TrafficOptions traffic;
  traffic.pattern = o.pattern;
  if (!o.message.empty()) traffic.message = parse_size(o.message);
  if (!o.warmup.empty()) traffic.warmup = parse_time(o.warmup);
  if (!o.measure.empty()) traffic.measure = parse_time(o.measure);
  std::vector<TrafficResult> rows;
  const auto say = [&](double load, const TrafficResult& r) {
    spdlog::info("load {}: accepted {:.3f}, mean latency {} ({} events in {:.1f} s)", format_number(load), r.accepted,
                 format_time(r.latency.mean), r.events, r.wall_seconds);
  };
  for (double load : loads) {
    traffic.load = load;
    rows.push_back(simulate_traffic(routed, traffic, sim));
    if (loads.size() > 1) say(load, rows.back());  // progress between loads
  }
  if (!to_file) write_rows(o, rows, std::cout);
  else write_file_atomically(o.output, [&](std::ostream& out) { write_rows(o, rows, out); });
  if (loads.size() == 1) say(loads.front(), rows.front());  // after the output: an error writing it is the only line
}

}  // namespace

void add_traffic_command(CLI::App& app) {
  auto o = std::make_shared<TrafficCommandOptions>();
  CLI::App* cmd = app.add_subcommand("traffic", "Open-loop synthetic traffic: accepted throughput and latency per offered load");
  cmd->add_option("--topology", o->topology, "Network spec, e.g. dragonfly:a=8,p=4,h=4")->required();
  cmd->add_option("--routing", o->routing, "Routing (default: the family's own; minimal, valiant, ugal-l, ugal-g on a dragonfly)");
  cmd->add_option("--pattern", o->pattern,
                  "Traffic pattern SPEC: " + traffic_registry().names() + " (default uniform; mapsim components)");
  cmd->add_option("--load", o->loads, "Offered loads, fractions of node bandwidth, e.g. 0.1,0.2,0.5 (default 0.5)");
  cmd->add_option("--model", o->model, "Simulation model (default packet)");
  cmd->add_option("--mtu", o->mtu, "Packet size (default 4096 bytes)");
  cmd->add_option("--message", o->message, "Message size, > 0 (default one packet)");
  cmd->add_option("--path-selection", o->path_selection, "deterministic (default), ecmp, spray or adaptive");
  cmd->add_option("--warmup", o->warmup, "Warm-up window, 0 for none (default 200 message times, at least 4 zero-load latencies)");
  cmd->add_option("--measure", o->measure, "Measurement window, at least 4 zero-load latencies (default 400 message times, at least 8 latencies)");
  cmd->add_option("--seed", o->seed, "Seed of arrivals, destinations and random path choices (default 1)")
      ->check(whole_number_at_least(0));
  cmd->add_option("--format", o->format, "table (default), csv or json");
  cmd->add_option("-o,--output", o->output, "Output file (default: stdout)");
  cmd->callback([o] { run_traffic(*o); });
}

}  // namespace mapsim
