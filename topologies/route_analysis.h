// Checks and statistics over every route between switches that hold compute nodes:
// legality under the routing's own rule, deadlock freedom (the channel dependency graph over
// channel x virtual channel is acyclic), routed hop counts and zero-load latencies over all
// ordered pairs of distinct nodes. Beyond 64M (source, destination) routes a deterministic
// sample of source switches is analysed and `sampled` is set.
#pragma once
#include <string>
#include <vector>

#include "topologies/routed_network.h"

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
};

RouteAnalysis analyse_routes(const Network& network, const Routing& routing);
// True when a few links carry most routes: the busiest channel carries over 8x the mean, or over a
// quarter of the channels carry nothing.
bool routes_unbalanced(const RouteAnalysis& analysis);
inline RouteAnalysis analyse_routes(const RoutedNetwork& routed) {
  return analyse_routes(routed.network(), routed.routing());
}

}  // namespace mapsim
