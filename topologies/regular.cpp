// Direct networks (hypercube, mesh, torus), the k-ary n-tree, the two-level tree and SUPRENUM
// (fat_tree.cpp registers the fat trees).
#include "topologies/link_params.h"
#include "topologies/network_factory.h"
#include "support/spec.h"
#include <string>

#include "support/error.h"
#include "topologies/generators.h"

namespace mapsim {
namespace {

void attach_nodes(Network& net, int per_switch, const LinkDefaults& d) {
  const int switches = net.num_switches();
  for (int s = 0; s < switches; ++s)
    for (int i = 0; i < per_switch; ++i)
      net.add_node("node-" + std::to_string(net.num_nodes()), s, d.node_bandwidth, d.node_latency);
}

constexpr long kTooMany = 1L << 62;  // far above every limit: products saturate here, never overflow

long times(long a, long b) { return b != 0 && a > kTooMany / b ? kTooMany : a * b; }

void check_size(long count, long limit, const std::string& what, const char* unit = "switches") {
  if (count > limit)
    throw Error(what + " would have " + (count >= kTooMany ? "over " + std::to_string(kTooMany) : std::to_string(count)) + " " +
                unit + " (limit " + std::to_string(limit) + ")");
}

constexpr long kMaxSwitches = kMaxNetworkSwitches;

}  // namespace

Network make_hypercube(int dimension, const LinkDefaults& d, int nodes_per_router) {
  if (dimension < 0 || dimension > 20) throw Error("hypercube: dim must be in 0..20, got " + std::to_string(dimension));
  if (nodes_per_router < 1) throw Error("hypercube: nodes_per_router must be >= 1");
  Network net;
  net.shape.family = Family::Hypercube;
  net.shape.dims.assign(dimension, 2);
  net.startup = d.startup;
  const int count = 1 << dimension;
  for (int s = 0; s < count; ++s) net.add_switch("sw-" + std::to_string(s), dimension + nodes_per_router, d.router_delay);
  for (int s = 0; s < count; ++s)
    for (int b = 0; b < dimension; ++b)
      if (!(s & (1 << b))) net.add_link(s, s | (1 << b), d.link_bandwidth, d.link_latency);
  attach_nodes(net, nodes_per_router, d);
  return net;
}

Network make_mesh(const std::vector<int>& dims, bool torus, const LinkDefaults& d, int nodes_per_router) {
  const std::string family = torus ? "torus" : "mesh";
  if (dims.empty() || dims.size() > 3) throw Error(family + ": expected 1 to 3 dimensions");
  if (nodes_per_router < 1) throw Error(family + ": nodes_per_router must be >= 1");
  long count = 1;
  for (int extent : dims) count = times(count, extent);
  check_size(count, kMaxSwitches, family);
  check_size(times(count, nodes_per_router), kMaxNetworkNodes, family, "nodes");
  Network net;
  net.shape.family = torus ? Family::Torus : Family::Mesh;
  net.shape.dims = dims;
  net.startup = d.startup;
  const int ports = 2 * static_cast<int>(dims.size()) + nodes_per_router;
  for (long s = 0; s < count; ++s) net.add_switch("sw-" + std::to_string(s), ports, d.router_delay);
  long stride = 1;
  for (size_t dim = 0; dim < dims.size(); ++dim) {
    const int extent = dims[dim];
    for (long s = 0; s < count; ++s) {
      const int coord = static_cast<int>((s / stride) % extent);
      if (coord + 1 < extent) net.add_link(s, s + stride, d.link_bandwidth, d.link_latency);
      // A wrap-around link only where it is not the same pair as the mesh link (extent > 2).
      else if (torus && extent > 2) net.add_link(s, s - (extent - 1) * stride, d.link_bandwidth, d.link_latency);
    }
    stride *= extent;
  }
  attach_nodes(net, nodes_per_router, d);
  return net;
}

Network make_fattree(int k, int levels, const LinkDefaults& d) {
  if (k < 2 || levels < 1) throw Error("fattree: need k >= 2 and levels >= 1");
  long per_level = 1;
  for (int i = 1; i < levels; ++i) per_level = times(per_level, k);
  check_size(times(per_level, levels), kMaxSwitches, "fattree");
  Network net;
  net.shape.family = Family::FatTree;
  net.shape.k = k;
  net.shape.levels = levels;
  net.startup = d.startup;
  // Switch (level l, label w) has id l*per_level + w; w's base-k digits w_0..w_{levels-2}.
  for (int l = 0; l < levels; ++l)
    for (long w = 0; w < per_level; ++w)
      net.add_switch("sw-" + std::to_string(l) + "-" + std::to_string(w), 2 * k, d.router_delay);
  // (l, w) joins (l+1, w') when the labels differ at most in digit l.
  long digit = 1;
  for (int l = 0; l + 1 < levels; ++l, digit *= k)
    for (long w = 0; w < per_level; ++w) {
      const long base = w - ((w / digit) % k) * digit;
      for (int v = 0; v < k; ++v)
        net.add_link(l * per_level + w, (l + 1) * per_level + base + v * digit, d.link_bandwidth, d.link_latency);
    }
  for (long w = 0; w < per_level; ++w)
    for (int j = 0; j < k; ++j)
      net.add_node("node-" + std::to_string(net.num_nodes()), w, d.node_bandwidth, d.node_latency);
  return net;
}

Network make_tree2(const Tree2Params& p) {
  if (p.switches < 1 || p.nodes_per_switch < 1) throw Error("tree2: need switches >= 1 and nodes_per_switch >= 1");
  check_size(p.switches + 1L, kMaxSwitches, "tree2");
  check_size(times(p.switches, p.nodes_per_switch), kMaxNetworkNodes, "tree2", "nodes");
  const LinkDefaults& d = p.defaults;
  Network net;
  net.shape.family = Family::Tree2;
  net.startup = d.startup;
  net.add_switch("S0", p.switches, d.router_delay);
  for (int s = 1; s <= p.switches; ++s) {
    net.add_switch("S" + std::to_string(s), p.nodes_per_switch + 1, d.router_delay);
    net.add_link(0, s, p.up_bandwidth, d.link_latency);
  }
  for (int s = 1; s <= p.switches; ++s)
    for (int i = 0; i < p.nodes_per_switch; ++i)
      net.add_node("node-" + std::to_string(net.num_nodes()), s, p.down_bandwidth, d.node_latency);
  return net;
}

Network make_suprenum(int c, int d_nodes, double alpha, const LinkDefaults& d) {
  if (c < 1 || d_nodes < 1 || !(alpha > 0)) throw Error("suprenum: need c >= 1, d >= 1 and alpha > 0");
  check_size(times(times(c, c), d_nodes), kMaxNetworkNodes, "suprenum", "processors");
  Network net;
  net.shape.family = Family::Suprenum;
  net.shape.clusters_per_side = c;
  net.shape.nodes_per_cluster = d_nodes;
  net.shape.alpha = alpha;
  net.startup = d.startup;
  for (int r = 0; r < c; ++r)
    for (int col = 0; col < c; ++col)
      net.add_switch("cluster-" + std::to_string(r) + "-" + std::to_string(col), d_nodes + 2, d.router_delay);
  for (int r = 0; r < c; ++r) net.add_switch("row-ring-" + std::to_string(r), c, d.router_delay);
  for (int col = 0; col < c; ++col) net.add_switch("col-ring-" + std::to_string(col), c, d.router_delay);
  // Rings are `alpha` times slower than a cluster bus.
  for (int r = 0; r < c; ++r)
    for (int col = 0; col < c; ++col) {
      net.add_link(r * c + col, c * c + r, d.link_bandwidth / alpha, d.link_latency);
      net.add_link(r * c + col, c * c + c + col, d.link_bandwidth / alpha, d.link_latency);
    }
  for (int s = 0; s < c * c; ++s)
    for (int i = 0; i < d_nodes; ++i)
      net.add_node("node-" + std::to_string(net.num_nodes()), s, d.node_bandwidth, d.node_latency);
  return net;
}

namespace {

const Param kNodesPerRouter = integer_param("nodes_per_router", 1, "compute nodes on each router", 1, 64);

Network mesh_or_torus(Spec& spec, const LinkOverrides& links, bool torus) {
  std::vector<int> dims = parse_dims(spec.require_positional("16x16 or 8x8x8"), "spec '" + spec.text() + "'");
  const int per = static_cast<int>(spec.get_int("nodes_per_router"));
  return make_mesh(dims, torus, read_link_params(spec, links, {}), per);
}

}  // namespace

MAPSIM_REGISTER(network_registry(),
                {"hypercube", "binary n-cube of routers",
                 with_link_params({derived_param("dim", ParamType::Integer, "required", "dimension n (2^n routers)", 1, 20),
                                   kNodesPerRouter}),
                 [](Spec& spec, const LinkOverrides& links) {
                   const auto dim = spec.find_number("dim");
                   if (!dim) throw Error("bad spec '" + spec.text() + "': expected hypercube:dim=N");
                   const int per = static_cast<int>(spec.get_int("nodes_per_router"));
                   return make_hypercube(static_cast<int>(*dim), read_link_params(spec, links, {}), per);
                 }});
MAPSIM_REGISTER(network_registry(), {"mesh", "n-D mesh of routers, x fastest", with_link_params({kNodesPerRouter}),
                                     [](Spec& spec, const LinkOverrides& links) { return mesh_or_torus(spec, links, false); },
                                     "16x16", "dims"});
MAPSIM_REGISTER(network_registry(), {"torus", "n-D torus of routers (wraparound links)", with_link_params({kNodesPerRouter}),
                                     [](Spec& spec, const LinkOverrides& links) { return mesh_or_torus(spec, links, true); },
                                     "8x8x8", "dims"});
MAPSIM_REGISTER(network_registry(),
                {"tree2", "two-level tree of takizawa2008 (end-tier switches under one top switch)",
                 with_link_params({integer_param("switches", Tree2Params{}.switches, "end-tier switches", 1, 1 << 24),
                                   integer_param("nodes_per_switch", Tree2Params{}.nodes_per_switch, "nodes per end-tier switch", 1, 1 << 24),
                                   bandwidth_param("up_bw", Tree2Params{}.up_bandwidth, "end-tier to top switch bandwidth"),
                                   bandwidth_param("down_bw", Tree2Params{}.down_bandwidth, "node to end-tier switch bandwidth")},
                                  Tree2Params{}.defaults),
                 [](Spec& spec, const LinkOverrides& links) {
                   Tree2Params p;
                   p.switches = static_cast<int>(spec.get_int("switches"));
                   p.nodes_per_switch = static_cast<int>(spec.get_int("nodes_per_switch"));
                   p.up_bandwidth = spec.get_bandwidth("up_bw");
                   p.down_bandwidth = spec.get_bandwidth("down_bw");
                   p.defaults = read_link_params(spec, links, p.defaults);
                   return make_tree2(p);
                 }});
MAPSIM_REGISTER(network_registry(),
                {"suprenum", "SUPRENUM (Kramer & Muhlenbein): c x c clusters of d processors on row and column rings",
                 with_link_params({integer_param("c", 4, "clusters per side", 1, 4096),
                                   integer_param("d", 16, "processors per cluster", 1, 1 << 20),
                                   real_param("alpha", 5, "bus/ring speed ratio of the cost model")}),
                 [](Spec& spec, const LinkOverrides& links) {
                   const int c = static_cast<int>(spec.get_int("c")), d = static_cast<int>(spec.get_int("d"));
                   return make_suprenum(c, d, spec.get_double("alpha"), read_link_params(spec, links, {}));
                 }});

}  // namespace mapsim
