// Destination-based forwarding tables balanced over equal-cost ports, as InfiniBand subnet managers
// build them (OpenSM's min-hop and up/down engines): every switch holds one output port per
// destination node; among the ports that keep the route minimal (and legal), each destination takes
// the port that carries the fewest routes so far. Routes depend on the destination node.
//   minhop  minimal routes; not deadlock free in general (topo's analysis says so)
//   updn    up*/down* over a ranking; fat-tree-like networks (node-less switches all at the same
//           distance above every leaf) are ranked from all their top switches at once, others
//           from the one switch of minimum height. A switch that can still reach the destination
//           going down only always does, so that a route entering it on a down hop stays legal.
// The tables hold port positions (1 byte each), so 65,536 nodes on 19,200 switches fit in 2 GB.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>

#include "support/error.h"
#include "support/units.h"
#include "routing/internal/table_routing.h"

namespace mapsim {
namespace {

constexpr uint16_t kFar = std::numeric_limits<uint16_t>::max();

// Bytes per table entry: a port's position among its switch's ports, one byte while every switch has
// fewer than 255 switch ports (0xff marks "none").
int port_bytes(const Network& net) {
  size_t degree = 0;
  for (int s = 0; s < net.num_switches(); ++s) degree = std::max(degree, net.ports_of(s).size());
  return degree < 255 ? 1 : 2;
}
// The tables' size -- an entry per (destination node, switch), S x S distances of two bytes and a bit --
// checked before any time goes into levels.
void check_entries(const Network& net, const std::string& name) {
  const double S = net.num_switches(), N = net.num_nodes();
  const double bytes = N * S * port_bytes(net) + S * S * 2.125;
  if (bytes > kMaxTableBytes)
    throw Error(name + " routing keeps a port per destination node and switch and S x S distances; " +
                std::to_string(net.num_switches()) + " switches and " + std::to_string(net.num_nodes()) + " nodes need " +
                format_number(bytes / 1e9) + " GB, over its limit of " + format_number(kMaxTableBytes / 1e9) + " GB");
}

// Levels for up*/down*: from the top switches of a fat-tree-like network, else from one root.
std::vector<int> updown_levels(const Network& net) {
  std::vector<int> leaves;
  for (int s = 0; s < net.num_switches(); ++s)
    if (!net.nodes_of(s).empty()) leaves.push_back(s);
  const std::vector<int> height = bfs_distances(net, leaves);
  const int top = *std::max_element(height.begin(), height.end());
  if (top > 0) {
    std::vector<int> roots;
    for (int s = 0; s < net.num_switches(); ++s)
      if (height[s] == top) roots.push_back(s);
    std::vector<int> level = bfs_distances(net, roots);
    bool layered = true;
    for (int s : leaves) layered = layered && level[s] == top;
    if (layered) return level;
  }
  return bfs_distances(net, min_height_root(net));
}

class DestinationTableRouting : public Routing {
 public:
  // `levels` empty: minimal routing (min-hop); else up*/down* over these levels.
  DestinationTableRouting(const Network& net, std::string name, std::vector<int> levels)
      : net_(net), name_(std::move(name)), level_(std::move(levels)) {
    check_entries(net, name_);
    const long S = net.num_switches();
    dist_.assign(static_cast<size_t>(S) * S, kFar);
    down_.assign(dist_.size(), false);
    if (!level_.empty()) {  // increasing (level, id): the order build_distances settles up hops in
      by_level_.resize(S);
      for (int s = 0; s < S; ++s) by_level_[s] = s;
      std::sort(by_level_.begin(), by_level_.end(),
                [&](int a, int b) { return std::pair(level_[a], a) < std::pair(level_[b], b); });
    }
    for (int dst = 0; dst < S; ++dst) build_distances(dst);
    build_tables();
  }

  std::string name() const override { return name_; }
  bool per_node() const override { return true; }
  bool multipath() const override { return true; }

  void route(int src_switch, int dst_node, std::vector<int>& channels) const override {
    channels.clear();
    const int dst = net_.node(dst_node).switch_id;
    for (int sw = src_switch; sw != dst;) {
      const int c = table_channel(dst_node, sw);
      if (c < 0)
        throw Error(name_ + ": no route from switch '" + net_.switch_at(sw).name + "' to " + net_.node(dst_node).name);
      channels.push_back(c);
      sw = net_.channel_target(c);
    }
  }

  int hops(int src_switch, int dst_node) const override {
    const uint16_t d = distance(net_.node(dst_node).switch_id, src_switch);
    return d == kFar ? -1 : d;
  }

  void next_hops(int sw, int, int dst_node, std::vector<Hop>& hops) const override {
    hops.clear();
    const int dst = net_.node(dst_node).switch_id;
    for (const Network::Port& p : net_.ports_of(sw)) {
      const int c = net_.channel(p.link, sw);
      if (is_candidate(dst, sw, c)) hops.push_back({c, 0});
    }
  }

  std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const override {
    if (level_.empty()) {  // the distances are a plain BFS from the destination's switch
      const int expected = distance(net_.node(dst_node).switch_id, src_switch);
      if (static_cast<int>(channels.size()) != expected)
        return "route has " + std::to_string(channels.size()) + " hops, the shortest path " + std::to_string(expected);
      return {};
    }
    bool went_down = false;
    for (size_t i = 0; i < channels.size(); ++i) {
      if (!is_up(channels[i])) went_down = true;
      else if (went_down) return "hop " + std::to_string(i) + " goes up after a down hop";
    }
    return {};
  }

  int root_switch() const override {
    if (level_.empty()) return -1;
    return static_cast<int>(std::find(level_.begin(), level_.end(), 0) - level_.begin());
  }

 private:
  size_t at(int dst, int sw) const { return static_cast<size_t>(dst) * net_.num_switches() + sw; }
  uint16_t distance(int dst, int sw) const { return dist_[at(dst, sw)]; }

  // The table's output channel at sw toward dst_node, -1 at dst's switch.
  int table_channel(int dst_node, int sw) const {
    const size_t i = static_cast<size_t>(dst_node) * net_.num_switches() + sw;
    const int port = table8_.empty() ? (table16_[i] == 0xffff ? -1 : table16_[i]) : (table8_[i] == 0xff ? -1 : table8_[i]);
    return port < 0 ? -1 : net_.channel(net_.ports_of(sw)[port].link, sw);
  }

  bool is_up(int channel) const {
    const int from = net_.channel_source(channel), to = net_.channel_target(channel);
    return level_[to] < level_[from] || (level_[to] == level_[from] && to < from);
  }

  // A hop from sw over c keeps the route minimal (min-hop) or on its down-first minimal route (updn).
  bool is_candidate(int dst, int sw, int c) const {
    const uint16_t here = distance(dst, sw);
    if (here == 0 || here == kFar) return false;
    const int next = net_.channel_target(c);
    if (distance(dst, next) + 1 != here) return false;
    if (level_.empty()) return true;
    return down_[at(dst, sw)] ? !is_up(c) && down_[at(dst, next)] : is_up(c);
  }

  void build_distances(int dst) {
    std::deque<int> queue{dst};
    dist_[at(dst, dst)] = 0;
    down_[at(dst, dst)] = true;
    // Min-hop: plain BFS. Up/down: first the switches that reach dst going down only...
    while (!queue.empty()) {
      const int u = queue.front();
      queue.pop_front();
      for (const Network::Port& p : net_.ports_of(u)) {
        const int v = p.neighbor;
        if (dist_[at(dst, v)] != kFar) continue;
        if (!level_.empty() && is_up(net_.channel(p.link, v))) continue;  // v -> u must be a down hop
        dist_[at(dst, v)] = dist_[at(dst, u)] + 1;
        down_[at(dst, v)] = !level_.empty();
        queue.push_back(v);
      }
    }
    // ...then the others, one up hop to the nearest of their up neighbours: in increasing (level,
    // id) order every up neighbour is settled first.
    for (int v : by_level_) {
      if (down_[at(dst, v)]) continue;
      for (const Network::Port& p : net_.ports_of(v)) {
        const int c = net_.channel(p.link, v);
        const uint16_t d = distance(dst, p.neighbor);
        if (is_up(c) && d != kFar && d + 1 < dist_[at(dst, v)]) dist_[at(dst, v)] = d + 1;
      }
    }
  }

  // Per destination node in id order, switches farthest from it first (lowest id first among equals):
  // each takes the candidate port that carries the fewest routes so far (the first in port order
  // among equals) and adds to it the routes that pass through the switch (its own nodes' and those
  // its neighbours sent it), so that a destination's routes spread out. The order and the candidates
  // depend on the destination's switch only: kept while consecutive nodes share it.
  void build_tables() {
    const int S = net_.num_switches(), N = net_.num_nodes();
    if (port_bytes(net_) == 1) table8_.assign(static_cast<size_t>(N) * S, 0xff);
    else table16_.assign(static_cast<size_t>(N) * S, 0xffff);
    std::vector<double> used(net_.num_channels(), 0), through(S), own(S);
    for (int s = 0; s < S; ++s) own[s] = static_cast<double>(net_.nodes_of(s).size());
    std::vector<int> order, bucket, first(S + 1);       // switches to route, farthest first
    std::vector<int> candidates;                        // their candidate ports' channels, in port order
    std::vector<uint16_t> position;                     // and those ports' positions
    std::vector<Hop> hops;
    int cached = -1;
    for (int d = 0; d < N; ++d) {
      const int dst = net_.node(d).switch_id;
      if (dst != cached) {
        cached = dst;
        int far = 0;
        for (int s = 0; s < S; ++s) {
          const uint16_t ds = distance(dst, s);
          if (ds == kFar && own[s] > 0)
            throw Error(name_ + ": switch '" + net_.switch_at(s).name + "' has no legal route to switch '" +
                        net_.switch_at(dst).name + "'");
          if (ds != kFar) far = std::max(far, static_cast<int>(ds));
        }
        // Counting sort by decreasing distance, ids increasing within a distance.
        bucket.assign(far + 2, 0);
        for (int s = 0; s < S; ++s)
          if (s != dst && distance(dst, s) != kFar) ++bucket[far - distance(dst, s) + 1];
        for (int k = 1; k <= far + 1; ++k) bucket[k] += bucket[k - 1];
        order.resize(bucket[far + 1]);
        for (int s = 0; s < S; ++s)
          if (s != dst && distance(dst, s) != kFar) order[bucket[far - distance(dst, s)]++] = s;
        candidates.clear();
        position.clear();
        for (size_t i = 0; i < order.size(); ++i) {
          const int sw = order[i];
          first[i] = static_cast<int>(candidates.size());
          const auto& ports = net_.ports_of(sw);
          for (size_t p = 0; p < ports.size(); ++p) {
            const int c = net_.channel(ports[p].link, sw);
            if (is_candidate(dst, sw, c)) {
              candidates.push_back(c);
              position.push_back(static_cast<uint16_t>(p));
            }
          }
          if (static_cast<int>(candidates.size()) == first[i])
            throw InternalError(name_ + ": switch '" + net_.switch_at(sw).name + "' has no next hop");
        }
        first[order.size()] = static_cast<int>(candidates.size());
      }
      through = own;
      const size_t row = static_cast<size_t>(d) * S;
      for (size_t i = 0; i < order.size(); ++i) {
        const int sw = order[i];
        int best = first[i];
        for (int k = first[i] + 1; k < first[i + 1]; ++k)
          if (used[candidates[k]] < used[candidates[best]]) best = k;
        used[candidates[best]] += through[sw];
        through[net_.channel_target(candidates[best])] += through[sw];
        if (table8_.empty()) table16_[row + sw] = position[best];
        else table8_[row + sw] = static_cast<uint8_t>(position[best]);
      }
    }
  }

  const Network& net_;
  std::string name_;
  std::vector<int> level_;
  std::vector<int> by_level_;    // switches in increasing (level, id) order (updn)
  std::vector<uint16_t> dist_;   // [dst switch][switch]: hops of the table route
  std::vector<bool> down_;       // [dst switch][switch]: reaches dst going down only (updn)
  std::vector<uint8_t> table8_;  // [dst node][switch]: position of the output port in ports_of(switch), 0xff at dst's switch
  std::vector<uint16_t> table16_;  // the same when a switch has 255 switch ports or more
};

// The fabric's own forwarding tables (Network::forwarding, from ibnet's lft=): checked once that
// every switch with nodes reaches every node without a gap or a loop.
class ForwardingTableRouting : public Routing {
 public:
  explicit ForwardingTableRouting(const Network& net) : net_(net) {
    if (net.forwarding.size() != static_cast<size_t>(net.num_nodes()) * net.num_switches())
      throw NotApplicable("lft routing needs a network imported with its forwarding tables (ibnet:PATH,lft=FILE)");
    std::vector<int> channels;
    for (int s = 0; s < net.num_switches(); ++s)
      if (!net.nodes_of(s).empty())
        for (int d = 0; d < net.num_nodes(); ++d) route(s, d, channels);
  }
  std::string name() const override { return "lft"; }
  bool per_node() const override { return true; }

  void route(int src_switch, int dst_node, std::vector<int>& channels) const override {
    channels.clear();
    const int dst = net_.node(dst_node).switch_id;
    for (int sw = src_switch; sw != dst;) {
      const int c = net_.forwarding[static_cast<size_t>(dst_node) * net_.num_switches() + sw];
      if (c < 0)
        throw Error("lft: switch '" + net_.switch_at(sw).name + "' has no forwarding entry for " + net_.node(dst_node).name);
      if (static_cast<int>(channels.size()) >= net_.num_switches())
        throw Error("lft: the forwarding tables loop on the way from switch '" + net_.switch_at(src_switch).name +
                    "' to " + net_.node(dst_node).name);
      channels.push_back(c);
      sw = net_.channel_target(c);
    }
  }

  std::string rule_violation(int, int, const std::vector<int>&) const override { return {}; }  // the fabric's own

 private:
  const Network& net_;
};

}  // namespace

MAPSIM_REGISTER(routing_registry(),
                {"lft", "the fabric's own forwarding tables (ibnet:PATH,lft=FILE: ibroute / dump_lfts.sh output)", {},
                 {{}, [](const Network& net, Spec&) { return std::make_unique<ForwardingTableRouting>(net); }}});
MAPSIM_REGISTER(routing_registry(),
                {"updn", "up*/down* forwarding tables per destination, balanced over equal-cost ports (OpenSM updn)", {},
                 {{"irregular", "file", "ibnet", "xgft"},
                  [](const Network& net, Spec&) {
                    check_entries(net, "updn");
                    return std::make_unique<DestinationTableRouting>(net, "updn", updown_levels(net));
                  }}});
MAPSIM_REGISTER(routing_registry(),
                {"minhop", "minimal forwarding tables per destination, balanced over equal-cost ports (OpenSM minhop)", {},
                 {{}, [](const Network& net, Spec&) {
                    return std::make_unique<DestinationTableRouting>(net, "minhop", std::vector<int>{});
                  }}});

}  // namespace mapsim
