// Open-loop traffic at several offered loads on one network -- the load-latency curve of `mapsim
// traffic`. The run is a Scenario with `workload.traffic` (one validation, one seeding rule, one
// pipeline with `mapsim run`): RunPipeline builds the network, its routing and the model's options
// once, then simulate_traffic() (sim/traffic.h) runs each load in turn.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/traffic.h"

namespace mapsim {

// "0.1,0.2,0.5" -> the offered loads; each must be a load workload.traffic accepts ((0, 1]). Throws
// Error naming `flag` and the value.
std::vector<double> parse_traffic_loads(const std::string& text, const std::string& flag);

// Runs `scenario`'s workload.traffic at each load in order; `done` is called after each.
std::vector<TrafficResult> run_traffic_curve(const Scenario& scenario, const std::vector<double>& loads,
                                             const std::function<void(double load, const TrafficResult&)>& done = {});

}  // namespace mapsim
