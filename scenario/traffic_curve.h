// Open-loop traffic at several offered loads on one network -- the load-latency curve of `mapsim
// traffic`: the network and its routing are built once, then simulate_traffic() (sim/traffic.h) runs
// each load in turn. A scenario's `workload.traffic` runs one load through RunPipeline instead; the
// curve keeps the command's own rules: its seed drives the arrivals, destinations and path choices but
// not the network (a seeded generator keeps its own), and errors name the flag in the command's words.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/traffic.h"

namespace mapsim {

// The curve as given on the command line (sizes and times as text; empty: the default).
struct TrafficCurve {
  std::string network, routing = "default", pattern = "uniform", loads = "0.5", model = "packet", mtu, message,
                       path_selection = "deterministic", warmup, measure;
  uint64_t seed = 1;
};

// What needs no network, checked first: the loads, the model, the path selection on that model and the
// routing's choices on it.
struct TrafficPlan {
  std::vector<double> loads;
  SimOptions sim;
};
TrafficPlan plan_traffic_curve(const TrafficCurve& curve);

// Builds the network and runs the plan's loads in order; `done` is called after each.
std::vector<TrafficResult> run_traffic_curve(const TrafficCurve& curve, TrafficPlan plan,
                                             const std::function<void(double load, const TrafficResult&)>& done = {});

}  // namespace mapsim
