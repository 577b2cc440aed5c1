// The synthetic traffic patterns of interconnect studies (Dally & Towles ch. 3; Kim et al. 2008),
// over node ids 0..N-1.
#include <memory>

#include "sim/traffic.h"
#include "support/error.h"

namespace mapsim {
namespace {

int bits_of(int n, const std::string& pattern) {
  int bits = 0;
  while ((1 << bits) < n) ++bits;
  if ((1 << bits) != n) throw Error(pattern + " traffic needs a power-of-two node count, the network has " + std::to_string(n));
  return bits;
}

}  // namespace

MAPSIM_REGISTER(traffic_registry(), {"uniform", "uniform random: each message to a random other node", {},
                                     [](const Network& net, Spec&) -> TrafficPattern {
                                       const int n = net.num_nodes();
                                       return [n](int src, Rng& rng) {
                                         if (n < 2) return -1;
                                         const int dst = static_cast<int>(rng.below(n - 1));
                                         return dst >= src ? dst + 1 : dst;
                                       };
                                     }});
MAPSIM_REGISTER(traffic_registry(), {"transpose", "matrix transpose on a square node count: (x, y) -> (y, x)", {},
                                     [](const Network& net, Spec&) -> TrafficPattern {
                                       const int n = net.num_nodes();
                                       int side = 1;
                                       while (side * side < n) ++side;
                                       if (side * side != n)
                                         throw Error("transpose traffic needs a square node count, the network has " +
                                                     std::to_string(n));
                                       return [side](int src, Rng&) { return (src % side) * side + src / side; };
                                     }});
MAPSIM_REGISTER(traffic_registry(), {"bit-reverse", "node b_(k-1)..b_0 sends to b_0..b_(k-1) (power-of-two node count)", {},
                                     [](const Network& net, Spec&) -> TrafficPattern {
                                       const int bits = bits_of(net.num_nodes(), "bit-reverse");
                                       return [bits](int src, Rng&) {
                                         int dst = 0;
                                         for (int b = 0; b < bits; ++b) dst |= ((src >> b) & 1) << (bits - 1 - b);
                                         return dst;
                                       };
                                     }});
MAPSIM_REGISTER(traffic_registry(), {"tornado", "node i sends to i + ceil(N/2) - 1 (mod N)", {},
                                     [](const Network& net, Spec&) -> TrafficPattern {
                                       const int n = net.num_nodes();
                                       return [n](int src, Rng&) { return (src + (n + 1) / 2 - 1) % n; };
                                     }});
MAPSIM_REGISTER(traffic_registry(),
                {"shift", "node i sends to i + by (mod N)",
                 {derived_param("by", ParamType::Integer, "N/2", "shift distance in node ids", 0, 1 << 30)},
                 [](const Network& net, Spec& spec) -> TrafficPattern {
                   const int n = net.num_nodes();
                   const auto by = spec.find_number("by");
                   const int shift = by ? static_cast<int>(*by) % n : n / 2;
                   return [n, shift](int src, Rng&) { return (src + shift) % n; };
                 }});
MAPSIM_REGISTER(traffic_registry(),
                {"group-shift",
                 "every node of group i sends to a random node of group i+1 (a dragonfly's worst case; groups of `group` "
                 "consecutive nodes)",
                 {derived_param("group", ParamType::Integer, "a*p on a dragonfly", "nodes per group", 1, 1 << 30)},
                 [](const Network& net, Spec& spec) -> TrafficPattern {
                   const auto given = spec.find_number("group");
                   int group = 0;
                   if (given) group = static_cast<int>(*given);
                   else if (net.shape.family == Family::Dragonfly) group = net.shape.dims[0] * net.shape.dims[1];
                   else throw Error("group-shift traffic needs group=K (nodes per group) on a " + family_name(net.shape.family) + " network");
                   const int n = net.num_nodes();
                   if (n % group != 0 || n / group < 2)
                     throw Error("group-shift traffic: " + std::to_string(n) + " nodes do not make two or more groups of " +
                                 std::to_string(group));
                   return [n, group](int src, Rng& rng) {
                     return ((src / group + 1) * group) % n + static_cast<int>(rng.below(group));
                   };
                 }});

}  // namespace mapsim
