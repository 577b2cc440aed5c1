// HyperX (Ahn et al., SC 2009; the flattened butterfly is its 1-node-per-port case): routers on an
// L-dimensional lattice S_1 x ... x S_L, every router linked to every other router that differs in
// exactly one coordinate, T nodes per router. Its routing is routing/hyperx_routing.cpp.

#include "support/error.h"
#include "support/spec.h"
#include "topologies/generators.h"
#include "topologies/link_params.h"
#include "topologies/network_factory.h"

namespace mapsim {

Network make_hyperx(const std::vector<int>& dims, int nodes_per_router, const LinkDefaults& d) {
  if (dims.empty() || dims.size() > 6) throw Error("hyperx: expected 1 to 6 dimensions");
  if (nodes_per_router < 1) throw Error("hyperx: nodes_per_router must be >= 1");
  long count = 1;
  int ports = nodes_per_router;
  for (int extent : dims) {
    count *= extent;
    ports += extent - 1;
  }
  if (count > (1L << 20)) throw Error("hyperx would have " + std::to_string(count) + " routers (limit 2^20)");
  if (count * (ports - nodes_per_router) / 2 > kMaxNetworkLinks)
    throw Error("hyperx would have " + std::to_string(count * (ports - nodes_per_router) / 2) + " links (limit " +
                std::to_string(kMaxNetworkLinks) + ")");
  Network net;
  net.shape.family = Family::HyperX;
  net.shape.dims = dims;
  net.startup = d.startup;
  for (long s = 0; s < count; ++s) net.add_switch("sw-" + std::to_string(s), ports, d.router_delay);
  long stride = 1;
  for (int extent : dims) {
    for (long s = 0; s < count; ++s) {
      const int coord = static_cast<int>((s / stride) % extent);
      for (int other = coord + 1; other < extent; ++other)
        net.add_link(static_cast<int>(s), static_cast<int>(s + (other - coord) * stride), d.link_bandwidth, d.link_latency);
    }
    stride *= extent;
  }
  for (long s = 0; s < count; ++s)
    for (int i = 0; i < nodes_per_router; ++i)
      net.add_node("node-" + std::to_string(net.num_nodes()), static_cast<int>(s), d.node_bandwidth, d.node_latency);
  return net;
}

MAPSIM_REGISTER(network_registry(),
                {"hyperx", "HyperX / flattened butterfly: routers all-to-all along each dimension of a lattice",
                 with_link_params({integer_param("nodes_per_router", 1, "compute nodes on each router", 1, 1024)}),
                 [](Spec& spec, const LinkOverrides& links) {
                   const std::vector<int> dims = parse_dims(spec.require_positional("4x4 or 8x8x8"), "spec '" + spec.text() + "'");
                   return make_hyperx(dims, static_cast<int>(spec.get_int("nodes_per_router")), read_link_params(spec, links, {}));
                 },
                 "4x4", "dims"});

}  // namespace mapsim
