#include "routing/internal/structured_routing.h"

#include <algorithm>
#include <cstdlib>

#include "support/error.h"
#include "support/spec.h"

namespace mapsim {

// ---- dimension order ------------------------------------------------------------------------

DimensionOrderRouting::DimensionOrderRouting(const Network& network, bool spread_ties, bool dateline_at_entry)
    : network_(network),
      dims_(network.shape.dims),
      wrap_(network.shape.family == Family::Torus),
      spread_ties_(spread_ties),
      dateline_at_entry_(dateline_at_entry) {
  const Family family = network.shape.family;
  if (family != Family::Hypercube && family != Family::Mesh && family != Family::Torus)
    throw NotApplicable("ecube routing needs a hypercube, mesh or torus, not a " + family_name(family) + " network");
  long count = 1;
  for (int extent : dims_) {
    stride_.push_back(static_cast<int>(count));
    count *= extent;
  }
  if (count != network.num_switches())
    throw Error("ecube routing: dims give " + std::to_string(count) + " switches, the network has " +
                std::to_string(network.num_switches()));
  const int D = static_cast<int>(dims_.size());
  step_.assign(static_cast<size_t>(count) * D * 2, -1);
  for (int sw = 0; sw < count; ++sw)
    for (const Network::Port& port : network.ports_of(sw))
      for (int dim = 0; dim < D; ++dim) {
        const int a = coordinate(sw, dim), b = coordinate(port.neighbor, dim);
        if (a == b) continue;
        const int extent = dims_[dim];
        const int up = (a + 1) % extent == b ? 1 : 0;  // extent 2: the one link serves both ways
        const int down = (b + 1) % extent == a ? 1 : 0;
        if (up) step_[(static_cast<size_t>(sw) * D + dim) * 2 + 1] = network.channel(port.link, sw);
        if (down) step_[(static_cast<size_t>(sw) * D + dim) * 2 + 0] = network.channel(port.link, sw);
      }
  channel_dim_.assign(network.num_channels(), -1);
  channel_wrap_.assign(network.num_channels(), false);
  for (int c = 0; c < network.num_channels(); ++c)
    for (int dim = 0; dim < D; ++dim) {
      const int a = coordinate(network.channel_source(c), dim), b = coordinate(network.channel_target(c), dim);
      if (a == b) continue;
      channel_dim_[c] = dim;
      channel_wrap_[c] = std::abs(a - b) > 1;
    }
}

int DimensionOrderRouting::step_channel(int sw, int dim, int direction) const {
  return step_[(static_cast<size_t>(sw) * dims_.size() + dim) * 2 + (direction > 0 ? 1 : 0)];
}

int DimensionOrderRouting::steps(int dim, int a, int b) const {
  int delta = b - a;
  if (!wrap_ || dims_[dim] <= 2) return delta;
  const int extent = dims_[dim];
  int forward = ((delta % extent) + extent) % extent;
  if (forward == extent - forward) return spread_ties_ && a % 2 ? -forward : forward;
  return forward < extent - forward ? forward : forward - extent;
}

void DimensionOrderRouting::route(int src_switch, int dst_node, std::vector<int>& channels) const {
  channels.clear();
  const int dst = network_.node(dst_node).switch_id;
  int sw = src_switch;
  for (size_t dim = 0; dim < dims_.size(); ++dim) {
    const int n = steps(dim, coordinate(sw, dim), coordinate(dst, dim));
    const int direction = n > 0 ? 1 : -1;
    for (int i = 0; i < std::abs(n); ++i) {
      const int c = step_channel(sw, dim, direction);
      channels.push_back(c);
      sw = network_.channel_target(c);
    }
  }
}

int DimensionOrderRouting::hops(int src_switch, int dst_node) const {
  const int dst = network_.node(dst_node).switch_id;
  int total = 0;
  for (size_t dim = 0; dim < dims_.size(); ++dim)
    total += std::abs(steps(dim, coordinate(src_switch, dim), coordinate(dst, dim)));
  return total;
}

void DimensionOrderRouting::virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const {
  vcs.assign(channels.size(), 0);
  if (!wrap_) return;
  int current_dim = -1, vc = 0;
  size_t first = 0;  // of the current dimension's hops
  for (size_t i = 0; i < channels.size(); ++i) {
    int dim;
    const bool wrap = is_wrap(channels[i], &dim);
    if (dim != current_dim) {
      current_dim = dim;
      first = i;
      vc = 0;
    }
    if (wrap) {
      vc = 1;
      if (dateline_at_entry_) std::fill(vcs.begin() + static_cast<long>(first), vcs.begin() + static_cast<long>(i), 1);
    }
    vcs[i] = vc;
  }
}

std::string DimensionOrderRouting::rule_violation(int src_switch, int dst_node,
                                                  const std::vector<int>& channels) const {
  int last_dim = -1, last_direction = 0;
  for (size_t i = 0; i < channels.size(); ++i) {
    int dim;
    is_wrap(channels[i], &dim);
    const int a = coordinate(network_.channel_source(channels[i]), dim);
    const int b = coordinate(network_.channel_target(channels[i]), dim);
    const int direction = steps(dim, a, b);
    if (dim < last_dim) return "hop " + std::to_string(i) + " returns to an earlier dimension";
    if (dim == last_dim && direction != last_direction) return "hop " + std::to_string(i) + " reverses direction";
    last_dim = dim;
    last_direction = direction;
  }
  if (static_cast<int>(channels.size()) != hops(src_switch, dst_node)) return "route is not minimal";
  return {};
}

// ---- d-mod-k --------------------------------------------------------------------------------

DmodkRouting::DmodkRouting(const Network& network)
    : network_(network), k_(network.shape.k), levels_(network.shape.levels) {
  if (network.shape.family != Family::FatTree) throw NotApplicable("dmodk routing needs a fattree network, not a " + family_name(network.shape.family) + " network");
  per_level_ = network.num_switches() / levels_;
}

int DmodkRouting::common_level(int src_leaf, int dst_leaf) const {
  // Leaves share an ancestor at level m when their labels agree in digits m.. (base k).
  int m = 0;
  for (int a = src_leaf, b = dst_leaf; a != b; a /= k_, b /= k_) ++m;
  return m;
}

void DmodkRouting::route(int src_switch, int dst_node, std::vector<int>& channels) const {
  channels.clear();
  const int dst_leaf = network_.node(dst_node).switch_id;
  const int m = common_level(src_switch, dst_leaf);
  int label = src_switch, digit = 1, node_digits = dst_node;
  std::vector<int> digits;  // base-k digits of the destination node id, least significant first
  for (int l = 0; l < levels_; ++l, node_digits /= k_) digits.push_back(node_digits % k_);
  for (int l = 0; l < m; ++l, digit *= k_) {  // up: set label digit l to node digit l
    const int next = label - ((label / digit) % k_) * digit + digits[l] * digit;
    channels.push_back(network_.channel_between(l * per_level_ + label, (l + 1) * per_level_ + next));
    label = next;
  }
  for (int l = m - 1; l >= 0; --l) {  // down: set label digit l to the destination leaf's digit l
    digit /= k_;
    const int next = label - ((label / digit) % k_) * digit + ((dst_leaf / digit) % k_) * digit;
    channels.push_back(network_.channel_between((l + 1) * per_level_ + label, l * per_level_ + next));
    label = next;
  }
}

int DmodkRouting::hops(int src_switch, int dst_node) const {
  return 2 * common_level(src_switch, network_.node(dst_node).switch_id);
}

std::string DmodkRouting::rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const {
  bool down = false;
  for (size_t i = 0; i < channels.size(); ++i) {
    const bool up = level_of(network_.channel_target(channels[i])) > level_of(network_.channel_source(channels[i]));
    if (!up) down = true;
    else if (down) return "hop " + std::to_string(i) + " goes up after a down hop";
  }
  if (static_cast<int>(channels.size()) != hops(src_switch, dst_node)) return "route is not minimal";
  return {};
}

// ---- SUPRENUM -------------------------------------------------------------------------------

SuprenumRouting::SuprenumRouting(const Network& network) : network_(network), c_(network.shape.clusters_per_side) {
  if (network.shape.family != Family::Suprenum) throw NotApplicable("suprenum routing needs a suprenum network, not a " + family_name(network.shape.family) + " network");
}

std::optional<double> SuprenumRouting::message_cost(int src_node, int dst_node) const {
  const int d = network_.shape.nodes_per_cluster;
  const double alpha = network_.shape.alpha;
  if (src_node == dst_node) return 0;  // epsilon = 0 on the same processor
  const int a = network_.node(src_node).switch_id, b = network_.node(dst_node).switch_id;
  if (a == b) return d;
  if (a / c_ == b / c_ || a % c_ == b % c_) return 2.0 * d + alpha * c_;
  return 2.0 * d + 2.0 * alpha * c_;
}

void SuprenumRouting::route(int src_switch, int dst_node, std::vector<int>& channels) const {
  channels.clear();
  const int dst = network_.node(dst_node).switch_id;
  const int r1 = src_switch / c_, c1 = src_switch % c_, r2 = dst / c_, c2 = dst % c_;
  auto via = [&](int from, int ring, int to) {
    channels.push_back(network_.channel_between(from, ring));
    channels.push_back(network_.channel_between(ring, to));
  };
  if (src_switch == dst) return;
  if (r1 == r2) return via(src_switch, c_ * c_ + r1, dst);
  if (c1 == c2) return via(src_switch, c_ * c_ + c_ + c1, dst);
  const int corner = r1 * c_ + c2;
  via(src_switch, c_ * c_ + r1, corner);
  via(corner, c_ * c_ + c_ + c2, dst);
}

std::string SuprenumRouting::rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const {
  const int dst = network_.node(dst_node).switch_id;
  const int r1 = src_switch / c_, c1 = src_switch % c_, r2 = dst / c_, c2 = dst % c_;
  const size_t expected = src_switch == dst ? 0 : (r1 == r2 || c1 == c2) ? 2 : 4;
  if (channels.size() != expected) return "route has " + std::to_string(channels.size()) + " hops, expected " + std::to_string(expected);
  if (expected == 4 && network_.channel_target(channels[0]) != c_ * c_ + r1) return "route does not take the row ring first";
  return {};
}

MAPSIM_REGISTER(routing_registry(),
                {"ecube", "dimension order for hypercube, mesh and torus (torus: dateline virtual channels)",
                 {text_param("ties", "up", "torus, half-way round: up, or spread (up from even coordinates, down from odd)"),
                  text_param("dateline", "wrap",
                             "torus VC class 1 from the wrap-around link on (wrap), or for the whole dimension of a "
                             "message that will wrap (entry, as BookSim's dim_order_torus)")},
                 {{"hypercube", "mesh", "torus"}, [](const Network& net, Spec& spec) {
                    const bool spread = one_of("routing.ties", spec.get_string("ties"), {"up", "spread"}) == 1;
                    const bool entry = one_of("routing.dateline", spec.get_string("dateline"), {"wrap", "entry"}) == 1;
                    return std::make_unique<DimensionOrderRouting>(net, spread, entry);
                  }}});
MAPSIM_REGISTER(routing_registry(), {"dmodk", "d-mod-k up/down routing for k-ary n-trees", {},
                                     {{"fattree"}, [](const Network& net, Spec&) { return std::make_unique<DmodkRouting>(net); }}});
MAPSIM_REGISTER(routing_registry(),
                {"suprenum", "SUPRENUM: row ring, then column ring; mapping cost by Kramer & Muhlenbein's eq. 3", {},
                 {{"suprenum"}, [](const Network& net, Spec&) { return std::make_unique<SuprenumRouting>(net); }}});

}  // namespace mapsim
