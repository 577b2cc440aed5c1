#include "mappers/internal/route_shares.h"

#include <algorithm>
#include <map>

namespace mapsim {

RouteShares::RouteShares(const MappingProblem& problem)
    : network_(*problem.network),
      layout_(problem.network->network()),
      spread_(!problem.routes_fixed && problem.network->routing().multipath()),
      // Walks depend on the destination's switch only; fixed routes of per-node routings on the node.
      by_node_(!spread_ && problem.network->routing().per_node()),
      targets_(static_cast<size_t>(by_node_ ? problem.network->network().num_nodes() : problem.network->network().num_switches())) {
  const size_t keys = static_cast<size_t>(problem.network->network().num_switches()) * targets_;
  if (keys <= kMaxDense) dense_.assign(keys, {-1, 0});
}

RouteShares::Span RouteShares::channels(int a, int b) const {
  const Network& net = network_.network();
  const size_t key = static_cast<size_t>(net.node(a).switch_id) * targets_ + static_cast<size_t>(by_node_ ? b : net.node(b).switch_id);
  std::pair<int, int>& span = dense_.empty() ? sparse_.try_emplace(key, -1, 0).first->second : dense_[key];
  if (span.first < 0) {
    span.first = static_cast<int>(shares_.size());
    compute(a, b);
    span.second = static_cast<int>(shares_.size()) - span.first;
  }
  const PortShare* base = shares_.data() + span.first;
  return {base, base + span.second};
}

void RouteShares::compute(int a, int b) const {
  if (spread_) return expected_split(network_.network().node(a).switch_id, b);
  network_.route(a, b, route_);
  for (int c : route_) shares_.push_back({layout_.channel(c), 1.0});
}

void RouteShares::expected_split(int src_switch, int dst_node) const {
  const Network& net = network_.network();
  const Routing& routing = network_.routing();
  std::vector<int> states;
  routing.all_start_states(src_switch, dst_node, states);
  // (switch, state) -> share of the bytes there, one hop count at a time.
  std::map<std::pair<int, int>, double> level;
  const bool ugal = routing.injection() != Routing::Injection::First && states.size() > 1;
  for (size_t i = 0; i < states.size(); ++i)
    level[{src_switch, states[i]}] += !ugal ? 1.0 / states.size() : i == 0 ? 0.5 : 0.5 / (states.size() - 1);
  std::map<int, double> on_channel;
  std::vector<Routing::Hop> hops;
  for (int step = 0; !level.empty(); ++step) {
    if (step > net.num_channels()) throw InternalError(routing.name() + " routing loops on its way to " + net.node(dst_node).name);
    std::map<std::pair<int, int>, double> next;
    for (const auto& [at, share] : level) {
      routing.next_hops(at.first, at.second, dst_node, hops);
      for (const Routing::Hop& h : hops) {
        const double part = share / static_cast<double>(hops.size());
        on_channel[h.channel] += part;
        next[{net.channel_target(h.channel), h.state}] += part;
      }
    }
    level.swap(next);
  }
  for (const auto& [c, share] : on_channel) shares_.push_back({layout_.channel(c), share});
}

}  // namespace mapsim
