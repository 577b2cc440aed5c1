#include "routing/routing.h"

#include "support/error.h"

namespace mapsim {

int Routing::hops(int src_switch, int dst_node) const {
  std::vector<int> channels;
  route(src_switch, dst_node, channels);
  return static_cast<int>(channels.size());
}

void Routing::virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const {
  vcs.assign(channels.size(), 0);
}

void Routing::next_hops(int, int, int, std::vector<Hop>&) const {
  throw InternalError(name() + " routing has one path per pair: take route() whole");
}

void walk_route(const Network& network, const Routing& routing, int src_switch, int state, int dst_node,
                const std::function<size_t(const std::vector<Routing::Hop>&, int)>& pick, std::vector<int>& channels) {
  channels.clear();
  std::vector<Routing::Hop> hops;
  for (int sw = src_switch;;) {
    routing.next_hops(sw, state, dst_node, hops);
    if (hops.empty()) return;
    if (static_cast<int>(channels.size()) > network.num_channels())
      throw InternalError(routing.name() + " routing loops on its way to " + network.node(dst_node).name);
    const Routing::Hop& hop = hops[pick(hops, static_cast<int>(channels.size()))];
    channels.push_back(hop.channel);
    state = hop.state;
    sw = network.channel_target(hop.channel);
  }
}

void Routing::start_states(int, int, uint64_t, std::vector<int>& states) const { states.assign(1, 0); }

RoutingRegistry& routing_registry() {
  static RoutingRegistry registry("routing");
  return registry;
}

std::string default_routing_name(const Network& network) {
  if (!network.forwarding.empty()) return "lft";  // a fabric imported with its own tables is routed by them
  std::string fallback;
  for (const auto* entry : routing_registry().entries())
    for (const std::string& family : entry->factory.default_for) {
      if (family == family_name(network.shape.family)) return entry->name;
      if (family == "*") fallback = entry->name;
    }
  return fallback;
}

std::unique_ptr<Routing> make_routing(const Network& network, const std::string& name) {
  Spec spec = parse_spec(routing_registry(), name.empty() || name == "default" ? default_routing_name(network) : name);
  std::unique_ptr<Routing> routing = lookup(routing_registry(), spec).factory.make(network, spec);
  spec.finish();
  return routing;
}

}  // namespace mapsim
