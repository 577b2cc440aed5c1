// Dragonfly (Kim, Dally, Scott & Abts, ISCA 2008): g groups of a routers; each router has p nodes,
// a-1 local links (the group is all-to-all) and h global links. Global arrangement ("consecutive"):
// a group's global ports are numbered k = j*h + i (router j, its i-th global port); port k leads to
// group (G + 1 + k mod (g-1)) mod g, as the (k div (g-1))-th of the a*h/(g-1) links between the two
// groups. With g = a*h + 1 every pair of groups has exactly one global link.
#include <string>

#include "support/error.h"
#include "support/spec.h"
#include "topologies/generators.h"
#include "topologies/link_params.h"
#include "topologies/network_factory.h"

namespace mapsim {

Network make_dragonfly(int a, int p, int h, int g, const LinkDefaults& d) {
  if (a < 1 || p < 1 || h < 0 || g < 1) throw Error("dragonfly: need a >= 1, p >= 1, h >= 0 and g >= 1");
  if (g > 1 && (h == 0 || (a * h) % (g - 1) != 0))
    throw Error("dragonfly: the a*h = " + std::to_string(a * h) + " global ports of a group must split evenly over the other " +
                std::to_string(g - 1) + " groups (g <= a*h + 1, g - 1 divides a*h)");
  if (static_cast<long>(a) * g > (1L << 20)) throw Error("dragonfly: a*g routers exceed the limit of 2^20");
  Network net;
  net.shape.family = Family::Dragonfly;
  net.shape.dims = {a, p, h, g};
  net.startup = d.startup;
  for (int G = 0; G < g; ++G)
    for (int j = 0; j < a; ++j)
      net.add_switch("g" + std::to_string(G) + "-r" + std::to_string(j), p + a - 1 + h, d.router_delay);
  for (int G = 0; G < g; ++G)
    for (int j = 0; j < a; ++j)
      for (int k = j + 1; k < a; ++k) net.add_link(G * a + j, G * a + k, d.link_bandwidth, d.link_latency);
  if (g > 1)
    for (int G = 0; G < g; ++G)
      for (int k = 0; k < a * h; ++k) {
        const int offset = k % (g - 1) + 1, replica = k / (g - 1), T = (G + offset) % g;
        if (T < G) continue;  // added from the other end
        const int k_back = replica * (g - 1) + (g - offset - 1);
        net.add_link(G * a + k / h, T * a + k_back / h, d.link_bandwidth, d.link_latency);
      }
  for (int s = 0; s < a * g; ++s)
    for (int i = 0; i < p; ++i)
      net.add_node("node-" + std::to_string(net.num_nodes()), s, d.node_bandwidth, d.node_latency);
  return net;
}

MAPSIM_REGISTER(network_registry(),
                {"dragonfly",
                 "dragonfly (Kim et al. 2008): g all-to-all groups of a routers with p nodes and h global links each",
                 with_link_params({integer_param("a", 4, "routers per group", 1, 1024),
                                   integer_param("p", 2, "nodes per router", 1, 1024),
                                   integer_param("h", 2, "global links per router", 0, 1024),
                                   derived_param("g", ParamType::Integer, "a*h + 1", "groups", 1, 1 << 20)}),
                 [](Spec& spec, const LinkOverrides& links) {
                   const int a = static_cast<int>(spec.get_int("a")), p = static_cast<int>(spec.get_int("p")),
                             h = static_cast<int>(spec.get_int("h"));
                   const auto g = spec.find_number("g");
                   return make_dragonfly(a, p, h, g ? static_cast<int>(*g) : a * h + 1, read_link_params(spec, links, {}));
                 }});

}  // namespace mapsim
