// Routings computed from a regular network's coordinates, with no tables.
#pragma once
#include <vector>

#include "routing/routing.h"

namespace mapsim {

// Dimension order (e-cube): dimension 0 first. On a torus each dimension goes the shorter way
// round (ties: upward, or with spread_ties upward from even coordinates and downward from odd ones,
// which loads both directions evenly) and a hop over the wrap-around link moves the message to
// virtual channel 1 for the rest of that dimension (dateline), which makes the channel dependencies
// acyclic; with dateline_at_entry a message that will wrap takes class 1 for the whole dimension
// (BookSim's dim_order_torus), still acyclic as minimal routes never span the ring.
class DimensionOrderRouting : public Routing {
 public:
  explicit DimensionOrderRouting(const Network& network, bool spread_ties = false, bool dateline_at_entry = false);
  std::string name() const override { return "ecube"; }
  void route(int src_switch, int dst_node, std::vector<int>& channels) const override;
  int hops(int src_switch, int dst_node) const override;
  int num_virtual_channels() const override { return wrap_ ? 2 : 1; }
  void virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const override;
  std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const override;

 private:
  // Signed number of steps in `dim` from coordinate a to b (shorter way on a torus).
  int steps(int dim, int a, int b) const;
  int coordinate(int sw, int dim) const { return (sw / stride_[dim]) % dims_[dim]; }
  int step_channel(int sw, int dim, int direction) const;
  bool is_wrap(int channel, int* dim) const {
    *dim = channel_dim_[channel];
    return channel_wrap_[channel];
  }

  const Network& network_;
  std::vector<int> dims_, stride_;
  bool wrap_, spread_ties_, dateline_at_entry_;
  std::vector<int> step_;  // [sw][dim][direction] -> channel, -1 at a mesh border
  std::vector<int> channel_dim_;       // dimension each channel moves in
  std::vector<bool> channel_wrap_;     // true on a torus wrap-around channel
};

// D-mod-k on a k-ary n-tree: up to the lowest common level, choosing at level l the up port given
// by digit l of the destination node id in base k, then down; routes depend on the destination node.
class DmodkRouting : public Routing {
 public:
  explicit DmodkRouting(const Network& network);
  std::string name() const override { return "dmodk"; }
  void route(int src_switch, int dst_node, std::vector<int>& channels) const override;
  int hops(int src_switch, int dst_node) const override;
  bool per_node() const override { return true; }
  std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const override;

 private:
  int level_of(int sw) const { return sw / per_level_; }
  int common_level(int src_leaf, int dst_leaf) const;

  const Network& network_;
  int k_, levels_, per_level_;
};

// SUPRENUM: same cluster -> bus only; same row -> row ring; same column -> column ring;
// otherwise row ring to the cluster in the destination's column, then that column's ring.
class SuprenumRouting : public Routing {
 public:
  explicit SuprenumRouting(const Network& network);
  std::string name() const override { return "suprenum"; }
  void route(int src_switch, int dst_node, std::vector<int>& channels) const override;
  std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const override;
  // Kramer & Muhlenbein eq. 3: d on one cluster, 2d + alpha c within a row or column, else 2d + 2 alpha c.
  std::optional<double> message_cost(int src_node, int dst_node) const override;

 private:
  const Network& network_;
  int c_;
};

}  // namespace mapsim
