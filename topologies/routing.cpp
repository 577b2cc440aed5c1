#include "topologies/routing.h"

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

RoutingRegistry& routing_registry() {
  static RoutingRegistry registry("routing");
  return registry;
}

std::string default_routing_name(const Network& network) {
  std::string fallback;
  for (const auto* entry : routing_registry().entries())
    for (const std::string& family : entry->factory.default_for) {
      if (family == network.shape.family) return entry->name;
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
