#include "scenario/traffic_curve.h"

#include <sstream>
#include <stdexcept>

#include "support/error.h"
#include "support/units.h"
#include "topologies/network_factory.h"

namespace mapsim {
namespace {

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

}  // namespace

TrafficPlan plan_traffic_curve(const TrafficCurve& c) {
  TrafficPlan plan;
  plan.loads = parse_loads(c.loads);
  plan.sim.model = parse_model(c.model);
  plan.sim.path_selection = parse_path_selection(c.path_selection);
  try {  // before the network is built
    check_path_selection(plan.sim.path_selection, plan.sim.model);
  } catch (const Error& e) {
    throw Error("--path-selection " + c.path_selection + ": " + e.what());
  }
  try {
    check_routing_choice(c.routing, plan.sim.model);
  } catch (const Error& e) {
    throw Error("--routing " + c.routing + ": " + e.what());
  }
  return plan;
}

std::vector<TrafficResult> run_traffic_curve(const TrafficCurve& c, TrafficPlan plan,
                                             const std::function<void(double load, const TrafficResult&)>& done) {
  RoutedNetwork routed(make_network(c.network), c.routing);
  SimOptions& sim = plan.sim;
  sim.seed = c.seed;
  if (!c.mtu.empty()) try {  // as model.mtu and simulate's --mtu: its declaration (builtin_model_options)
      sim.mtu = read_param_text(builtin_model_option("mtu").param, c.mtu).number;
    } catch (const Error& e) {
      throw Error(std::string("--mtu: ") + e.what());
    }
  TrafficOptions traffic;
  traffic.pattern = c.pattern;
  if (!c.message.empty()) traffic.message = parse_size(c.message);
  if (!c.warmup.empty()) traffic.warmup = parse_time(c.warmup);
  if (!c.measure.empty()) traffic.measure = parse_time(c.measure);
  std::vector<TrafficResult> rows;
  for (double load : plan.loads) {
    traffic.load = load;
    rows.push_back(simulate_traffic(routed, traffic, sim));
    if (done) done(load, rows.back());
  }
  return rows;
}

}  // namespace mapsim
