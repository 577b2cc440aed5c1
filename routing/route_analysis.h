// Checks and statistics over every route between switches that hold compute nodes:
// legality under the routing's own rule, deadlock freedom (the channel dependency graph over
// channel x virtual channel is acyclic), routed hop counts and zero-load latencies over all
// ordered pairs of distinct nodes. When routing every pair would take more than kMaxRouteWork
// hops, a uniform random sample of (source, destination) routes (fixed seed) is analysed instead,
// `sampled` is set, and the means carry 95 % confidence intervals; the diameter's searches and the
// multipath walks likewise cover an evenly spread sample beyond kMaxSearchWork (diameter_sources,
// walk_destinations). A 100x100 mesh takes 2 s, 1000x1000 under 10 s.
#pragma once
#include <string>
#include <vector>

#include "routing/routed_network.h"

namespace mapsim {

struct RouteAnalysis {
  int switches = 0, nodes = 0, links = 0, ports_used = 0, ports_total = 0;
  int diameter = 0;            // switch graph, over switches with nodes, ignoring routing
  double avg_route_hops = 0;   // over ordered pairs of distinct nodes
  int max_route_hops = 0;
  double zero_load_latency = 0;  // mean zero-load latency, seconds, same pairs
  bool routes_legal = true;
  std::string first_violation;  // empty when legal
  bool deadlock_free = true;
  std::string cycle;            // one dependency cycle, when not deadlock free
  // Route balance: node pairs routed over each directed switch-to-switch channel (the link loads of
  // uniform all-to-all traffic), their maximum and mean over channels, and channels no route takes.
  std::vector<double> channel_routes;
  double max_channel_routes = 0, mean_channel_routes = 0;
  int idle_channels = 0;
  // Multipath routings: the same check over every hop any walk may take (adaptive routing, ECMP,
  // Valiant's every intermediate), by the routing's virtual channel classes.
  bool multipath = false;
  bool walks_deadlock_free = true;
  std::string walk_cycle;
  long walk_dependencies = 0;
  long routes_checked = 0;
  long dependencies = 0;        // distinct edges of the channel dependency graph
  bool sampled = false;
  // With `sampled`: every (source switch, destination) route there is, of which routes_checked were
  // analysed; half widths of the 95 % confidence intervals of avg_route_hops and zero_load_latency;
  // route balance and max_route_hops are the sample's (scaled to all routes).
  double routes_total = 0;
  double avg_route_hops_ci95 = 0, zero_load_latency_ci95 = 0;
  // With `sampled` and every sampled route legal: the fraction of all routes that may still break the
  // rule, at 95 % confidence (1 - 0.05^(1/routes_checked), about 3 / routes_checked).
  double illegal_fraction_95 = 0;
  int diameter_sources = 0;     // > 0: the diameter is the largest distance from this many switches
  int walk_destinations = 0;    // > 0: the walks were checked towards this many destination switches
};

constexpr double kMaxRouteWork = 3e7;   // route hops analysed, in full or as a sample: a few seconds
constexpr double kMaxSearchWork = 5e7;  // switches and channels visited by the diameter's and the walks' searches

RouteAnalysis analyse_routes(const Network& network, const Routing& routing);
// True when a few links carry most routes: the busiest channel carries over 8x the mean, or over a
// quarter of the channels carry nothing.
bool routes_unbalanced(const RouteAnalysis& analysis);
inline RouteAnalysis analyse_routes(const RoutedNetwork& routed) {
  return analyse_routes(routed.network(), routed.routing());
}

}  // namespace mapsim
