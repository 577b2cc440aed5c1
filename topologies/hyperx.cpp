// HyperX (Ahn et al., SC 2009; the flattened butterfly is its 1-node-per-port case): routers on an
// L-dimensional lattice S_1 x ... x S_L, every router linked to every other router that differs in
// exactly one coordinate, T nodes per router. Dimension-order routing corrects the lowest differing
// dimension first, one hop per dimension; walks (adaptive) may correct any differing dimension,
// and take virtual channel = hops so far, so that any order stays deadlock free.
#include <memory>

#include "support/error.h"
#include "support/spec.h"
#include "topologies/generators.h"
#include "topologies/link_params.h"
#include "topologies/network_factory.h"
#include "topologies/routing.h"

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

namespace {

class HyperXRouting : public Routing {
 public:
  explicit HyperXRouting(const Network& net) : net_(net), dims_(net.shape.dims) {
    if (net.shape.family != Family::HyperX) throw NotApplicable("dor routing needs a hyperx network, not a " + family_name(net.shape.family) + " network");
    long stride = 1;
    for (int extent : dims_) {
      stride_.push_back(static_cast<int>(stride));
      stride *= extent;
    }
  }
  std::string name() const override { return "dor"; }
  bool multipath() const override { return true; }
  int num_virtual_channels() const override { return static_cast<int>(dims_.size()); }

  void route(int src_switch, int dst_node, std::vector<int>& channels) const override {
    channels.clear();
    const int dst = net_.node(dst_node).switch_id;
    for (int sw = src_switch, dim = 0; sw != dst; ++dim)
      if (coordinate(sw, dim) != coordinate(dst, dim)) {
        const int next = sw + (coordinate(dst, dim) - coordinate(sw, dim)) * stride_[dim];
        channels.push_back(net_.channel_between(sw, next));
        sw = next;
      }
  }

  void next_hops(int sw, int, int dst_node, std::vector<Hop>& hops) const override {
    hops.clear();
    const int dst = net_.node(dst_node).switch_id;
    for (size_t dim = 0; dim < dims_.size(); ++dim)
      if (coordinate(sw, dim) != coordinate(dst, dim))
        hops.push_back({net_.channel_between(sw, sw + (coordinate(dst, dim) - coordinate(sw, dim)) * stride_[dim]), 0});
  }

  int next_vc(int vc, int, int) const override { return vc + 1; }

  void virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const override {
    vcs.resize(channels.size());
    for (size_t i = 0; i < channels.size(); ++i) vcs[i] = static_cast<int>(i);
  }

  std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const override {
    int differing = 0;
    const int dst = net_.node(dst_node).switch_id;
    for (size_t dim = 0; dim < dims_.size(); ++dim) differing += coordinate(src_switch, dim) != coordinate(dst, dim);
    if (static_cast<int>(channels.size()) != differing)
      return "route has " + std::to_string(channels.size()) + " hops, the coordinates differ in " + std::to_string(differing);
    return {};
  }

 private:
  int coordinate(int sw, size_t dim) const { return (sw / stride_[dim]) % dims_[dim]; }

  const Network& net_;
  std::vector<int> dims_, stride_;
};

}  // namespace

MAPSIM_REGISTER(network_registry(),
                {"hyperx", "HyperX / flattened butterfly: routers all-to-all along each dimension of a lattice",
                 with_link_params({integer_param("nodes_per_router", 1, "compute nodes on each router", 1, 1024)}),
                 [](Spec& spec, const LinkOverrides& links) {
                   const std::vector<int> dims = parse_dims(spec.require_positional("4x4 or 8x8x8"), "spec '" + spec.text() + "'");
                   return make_hyperx(dims, static_cast<int>(spec.get_int("nodes_per_router")), read_link_params(spec, links, {}));
                 },
                 "4x4", "dims"});
MAPSIM_REGISTER(routing_registry(),
                {"dor", "HyperX dimension order: one hop per differing dimension, lowest first (walks: any order)", {},
                 {{"hyperx"}, [](const Network& net, Spec&) { return std::make_unique<HyperXRouting>(net); }}});

}  // namespace mapsim
