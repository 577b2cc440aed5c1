#include "sim/internal/path_choice.h"

#include <algorithm>

#include "support/error.h"

namespace mapsim::sim {

namespace {

bool walks(const Routing& routing, PathSelection selection) {
  return routing.decides_at_injection() || (routing.multipath() && selection != PathSelection::Deterministic);
}

bool per_packet(const Routing& routing, PathSelection selection) {
  return routing.injection() != Routing::Injection::First ||
         (routing.multipath() && (selection == PathSelection::Spray || selection == PathSelection::Adaptive));
}

}  // namespace

PathChooser::PathChooser(const RoutedNetwork& routed, PathSelection selection, uint64_t seed)
    : routed_(routed),
      routing_(routed.routing()),
      selection_(selection),
      walks_(walks(routing_, selection)),
      per_packet_(per_packet(routing_, selection)),
      rng_(seed) {}

void PathChooser::check_model(const std::string& model, bool walks_packets, bool circuits) const {
  if (!per_packet_) return;
  const std::string what = routing_.injection() != Routing::Injection::First ? routing_.name() + " routing"
                                                                            : "path selection " + path_selection_name(selection_);
  if (!walks_packets)
    throw Error(what + " chooses paths per packet from queue state: use the store-and-forward or packet model, not " + model);
  if (circuits) throw Error(what + " is not available on a hybrid network with optical circuits");
}

void PathChooser::whole_path(int from, int to, int flow, std::vector<int>& channels) {
  if (!walks_) return routed_.route(from, to, channels);
  const Network& net = routed_.network();
  const int src = net.node(from).switch_id;
  routing_.start_states(src, to, rng_.below(UINT64_MAX), states_);
  // ECMP: every switch hashes (source, destination, flow) with its own id, as a fabric's switches do.
  const uint64_t key = (static_cast<uint64_t>(from) * 0x9E3779B97F4A7C15ull) ^
                       (static_cast<uint64_t>(to) * 0xC2B2AE3D27D4EB4Full) ^ static_cast<uint64_t>(flow) * 0x165667B19E3779F9ull;
  walk_route(net, routing_, src, states_.front(), to,
             [&](const std::vector<Routing::Hop>& hops, int hop) -> size_t {
               if (selection_ != PathSelection::Ecmp || hops.size() == 1) return 0;
               uint64_t h = key ^ (static_cast<uint64_t>(hop + 1) * 0xFF51AFD7ED558CCDull);
               h ^= h >> 33;
               h *= 0xC4CEB9FE1A85EC53ull;
               h ^= h >> 29;
               return static_cast<size_t>(h % hops.size());
             },
             channels);
}

Leg PathChooser::leg(int from, int to, int flow) {
  Leg leg{from, to, {}, -1, per_packet_};
  if (per_packet_) routed_.route(from, to, leg.channels);
  else whole_path(from, to, flow, leg.channels);
  return leg;
}

double PathChooser::path_cost(int src_switch, int state, int dst_node, double bytes, const Backlog& backlog) {
  walk_route(routed_.network(), routing_, src_switch, state, dst_node,
             [](const std::vector<Routing::Hop>&, int) { return size_t{0}; }, scratch_);
  if (scratch_.empty()) return 0;
  const double hops = static_cast<double>(scratch_.size());
  if (routing_.injection() == Routing::Injection::LocalQueue) return (backlog(scratch_.front()) + bytes) * hops;
  double queued = 0;
  for (int c : scratch_) queued += backlog(c);
  return queued + bytes * hops;
}

double PathChooser::first_backlog(int src_switch, int state, int dst_node, const Backlog& backlog) {
  routing_.next_hops(src_switch, state, dst_node, hops_);
  return hops_.empty() ? 0 : backlog(hops_.front().channel);
}

int PathChooser::start_state(int src_switch, int dst_node, double bytes, const Backlog& backlog) {
  routing_.start_states(src_switch, dst_node, rng_.below(UINT64_MAX), states_);
  if (states_.size() == 1 || routing_.injection() == Routing::Injection::First) return states_.front();
  if (routing_.injection() == Routing::Injection::LocalQueue)
    if (const auto rule = routing_.queue_threshold()) {
      const double minimal = first_backlog(src_switch, states_[0], dst_node, backlog);
      const double other = first_backlog(src_switch, states_[1], dst_node, backlog);
      return minimal <= rule->factor * other + rule->threshold ? states_[0] : states_[1];
    }
  int best = states_.front();
  double best_cost = path_cost(src_switch, best, dst_node, bytes, backlog);
  for (size_t i = 1; i < states_.size(); ++i) {
    const double cost = path_cost(src_switch, states_[i], dst_node, bytes, backlog);
    if (cost < best_cost) best_cost = cost, best = states_[i];  // ties keep the minimal path
  }
  return best;
}

Routing::Hop PathChooser::next_hop(int sw, int state, int dst_node, const Backlog& backlog) {
  routing_.next_hops(sw, state, dst_node, hops_);
  if (hops_.empty()) throw InternalError(routing_.name() + " routing offers no hop toward " + routed_.network().node(dst_node).name);
  if (hops_.size() == 1 || selection_ == PathSelection::Deterministic || selection_ == PathSelection::Ecmp) return hops_.front();
  if (selection_ == PathSelection::Spray) return hops_[rng_.below(hops_.size())];
  double least = backlog(hops_.front().channel);
  ties_.assign(1, 0);
  for (size_t i = 1; i < hops_.size(); ++i) {
    const double b = backlog(hops_[i].channel);
    if (b < least) least = b, ties_.assign(1, static_cast<int>(i));
    else if (b == least) ties_.push_back(static_cast<int>(i));
  }
  return hops_[ties_[ties_.size() == 1 ? 0 : rng_.below(ties_.size())]];
}

void WalkedPathLog::start(int message, long packets) {
  if (taken_.size() <= static_cast<size_t>(message)) taken_.resize(message + 1);
  taken_[message] = Taken{0, 0, packets};
}

void WalkedPathLog::hop(int message, int channel, double bytes, double wire) {
  const Network& net = routed_.network();
  if (loads_.empty()) loads_.resize(net.num_channels());
  PortLoad& load = loads_[channel];
  load.bytes += bytes;
  load.messages += bytes / wire;
  load.busy += bytes / net.link(channel / 2).bandwidth;
  Taken& taken = taken_[message];
  taken.hops += 1;
  taken.latency += net.link(channel / 2).latency + net.switch_at(net.channel_target(channel)).router_delay;  // as route_latency
}

TakenPath WalkedPathLog::taken(int message, int src_node, int dst_node) const {
  static const std::vector<int> kNoChannels;
  const Taken& t = taken_.at(message);
  const double packets = static_cast<double>(std::max(t.packets, 1L));
  return {t.hops / packets, routed_.route_latency(src_node, dst_node, kNoChannels) + t.latency / packets};
}

}  // namespace mapsim::sim

namespace mapsim {

bool simulation_uses_seed(const RoutedNetwork& routed, const SimOptions& options) {
  return sim::walks(routed.routing(), options.path_selection) || sim::per_packet(routed.routing(), options.path_selection);
}

}  // namespace mapsim
