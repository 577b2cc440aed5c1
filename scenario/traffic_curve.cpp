#include "scenario/traffic_curve.h"

#include <sstream>
#include <stdexcept>

#include "scenario/run.h"
#include "support/error.h"

namespace mapsim {

std::vector<double> parse_traffic_loads(const std::string& text, const std::string& flag) {
  std::vector<double> loads;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    try {
      size_t used = 0;
      loads.push_back(std::stod(item, &used));
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw Error(flag + ": expected numbers in (0, 1] separated by commas, got '" + item + "'");
    }
    try {
      check_traffic_load(loads.back());
    } catch (const Error& e) {
      throw Error(flag + ": " + e.what());
    }
  }
  if (loads.empty()) throw Error(flag + ": expected at least one offered load");
  return loads;
}

std::vector<TrafficResult> run_traffic_curve(const Scenario& scenario, const std::vector<double>& loads,
                                             const std::function<void(double load, const TrafficResult&)>& done) {
  RunPipeline pipeline(scenario);
  const ReplicateParts parts = pipeline.replicate(0);
  TrafficOptions traffic = parse_traffic(scenario.traffic);
  std::vector<TrafficResult> rows;
  for (double load : loads) {
    traffic.load = load;
    at_key(scenario, "workload.traffic", [&] { rows.push_back(simulate_traffic(*parts.routed, traffic, parts.sim)); });
    if (done) done(load, rows.back());
  }
  return rows;
}

}  // namespace mapsim
