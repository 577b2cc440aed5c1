// HyperX dimension-order routing: corrects the lowest differing dimension first, one hop per
// dimension; walks (adaptive) may correct any differing dimension, and take virtual channel = hops
// so far, so that any order stays deadlock free.
#include <memory>

#include "support/error.h"
#include "routing/routing.h"

namespace mapsim {

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

MAPSIM_REGISTER(routing_registry(),
                {"dor", "HyperX dimension order: one hop per differing dimension, lowest first (walks: any order)", {},
                 {{"hyperx"}, [](const Network& net, Spec&) { return std::make_unique<HyperXRouting>(net); }}});

}  // namespace mapsim
