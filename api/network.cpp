// describe_network(): a network built and routed as `mapsim topo` does it.
#include <mapsim/network.h>

#include "api/guarded.h"
#include "routing/route_analysis.h"
#include "routing/routed_network.h"
#include "topologies/network_factory.h"

namespace mapsim {

NetworkDescription describe_network(const std::string& spec, const std::string& routing) {
  return api::guarded([&] {
    const RoutedNetwork routed(make_network(spec), routing.empty() ? "default" : routing);
    const Network& net = routed.network();
    NetworkDescription d;
    d.spec = spec;
    d.routing = routed.routing().name();
    for (int n = 0; n < net.num_nodes(); ++n) {
      const Node& node = net.node(n);
      d.nodes.push_back({node.name, node.switch_id, node.bandwidth, node.latency});
    }
    for (int s = 0; s < net.num_switches(); ++s) {
      const Switch& sw = net.switch_at(s);
      d.switches.push_back({sw.name, sw.ports, sw.router_delay});
    }
    for (int l = 0; l < net.num_links(); ++l) {
      const Link& link = net.link(l);
      d.links.push_back({link.a, link.b, link.bandwidth, link.latency});
    }
    const RouteAnalysis analysis = analyse_routes(routed);
    d.diameter = analysis.diameter;
    d.average_hops = analysis.avg_route_hops;
    d.deadlock_free = analysis.deadlock_free;
    return d;
  });
}

}  // namespace mapsim
