#include "routing/internal/table_routing.h"

#include <algorithm>
#include <limits>

#include "support/error.h"
#include "support/units.h"

namespace mapsim {
namespace {
constexpr uint16_t kUnreached = std::numeric_limits<uint16_t>::max();
}  // namespace

TableRouting::TableRouting(const Network& network, int states, const std::string& name)
    : network_(network), states_(states) {
  const double S = network.num_switches(), bytes = S * S * states * 2;
  if (bytes > kMaxTableBytes)
    throw Error(name + " routing keeps S x S distances; " + std::to_string(network.num_switches()) + " switches need " +
                format_number(bytes / 1e9) + " GB, over its limit of " + format_number(kMaxTableBytes / 1e9) +
                " GB (use ecube, dor or dmodk on regular networks)");
}

void TableRouting::build() {
  const int S = network_.num_switches();
  // transition() of every (channel, state), looked up instead of called in the searches below.
  next_state_.resize(static_cast<size_t>(network_.num_channels()) * states_);
  for (int c = 0; c < network_.num_channels(); ++c)
    for (int s = 0; s < states_; ++s) next_state_[static_cast<size_t>(c) * states_ + s] = static_cast<int8_t>(transition(s, c));
  dist_.assign(static_cast<size_t>(S) * S * states_, kUnreached);
  std::vector<std::pair<int, int>> queue;  // a BFS queue: read from `head`, appended at the back
  for (int dst = 0; dst < S; ++dst) {
    queue.clear();
    for (int s = 0; s < states_; ++s) {
      dist_[index(dst, s, dst)] = 0;
      queue.push_back({dst, s});
    }
    // Backward BFS: (v, sv) reaches (u, su) in one hop over channel v->u if transition(sv, c) == su.
    for (size_t head = 0; head < queue.size(); ++head) {
      const auto [u, su] = queue[head];
      const uint16_t du = dist_[index(dst, su, u)];
      for (const Network::Port& port : network_.ports_of(u)) {
        const int v = port.neighbor;
        const int c = network_.channel(port.link, v);
        for (int sv = 0; sv < states_; ++sv) {
          uint16_t& dv = dist_[index(dst, sv, v)];
          if (dv == kUnreached && after(sv, c) == su) {
            dv = du + 1;
            queue.push_back({v, sv});
          }
        }
      }
    }
  }
}

int TableRouting::next_channel(int dst, int state, int sw) const {
  const uint16_t here = dist_[index(dst, state, sw)];
  if (here == 0 || here == kUnreached) return -1;
  for (const Network::Port& port : network_.ports_of(sw)) {
    const int c = network_.channel(port.link, sw);
    const int next = after(state, c);
    if (next >= 0 && dist_[index(dst, next, port.neighbor)] + 1 == here) return c;
  }
  return -1;
}

void TableRouting::route(int src_switch, int dst_node, std::vector<int>& channels) const {
  channels.clear();
  const int dst = network_.node(dst_node).switch_id;
  int sw = src_switch, state = 0;
  if (dist_[index(dst, 0, sw)] == kUnreached)
    throw Error(name() + ": no route from switch '" + network_.switch_at(sw).name + "' to switch '" +
                network_.switch_at(dst).name + "'");
  while (sw != dst) {
    const int c = next_channel(dst, state, sw);
    channels.push_back(c);
    state = after(state, c);
    sw = network_.channel_target(c);
  }
}

void TableRouting::next_hops(int sw, int state, int dst_node, std::vector<Hop>& hops) const {
  hops.clear();
  const int dst = network_.node(dst_node).switch_id;
  const uint16_t here = dist_[index(dst, state, sw)];
  if (here == 0 || here == kUnreached) return;
  for (const Network::Port& port : network_.ports_of(sw)) {
    const int c = network_.channel(port.link, sw);
    const int next = after(state, c);
    if (next >= 0 && dist_[index(dst, next, port.neighbor)] + 1 == here) hops.push_back({c, next});
  }
}

int TableRouting::hops(int src_switch, int dst_node) const {
  const uint16_t d = dist_[index(network_.node(dst_node).switch_id, 0, src_switch)];
  return d == kUnreached ? -1 : d;
}

ShortestPathRouting::ShortestPathRouting(const Network& network) : TableRouting(network, 1, "shortest") { build(); }

std::string ShortestPathRouting::rule_violation(int src_switch, int dst_node,
                                                const std::vector<int>& channels) const {
  const int expected = hops(src_switch, dst_node);  // a BFS from the destination's switch (undirected links)
  if (static_cast<int>(channels.size()) != expected)
    return "route has " + std::to_string(channels.size()) + " hops, the shortest path " + std::to_string(expected);
  return {};
}

int min_height_root(const Network& network) {
  const int S = network.num_switches();
  int best_height = std::numeric_limits<int>::max(), root = 0;
  std::vector<int> dist(S), queue(S);
  for (int s = 0; s < S; ++s) {
    // A BFS from s, given up once it reaches the best height so far (s can no longer be lower).
    std::fill(dist.begin(), dist.end(), -1);
    dist[s] = 0;
    queue[0] = s;
    int height = 0;
    for (int head = 0, tail = 1; head < tail && height < best_height; ++head) {
      const int v = queue[head];
      height = dist[v];
      for (const Network::Port& port : network.ports_of(v))
        if (dist[port.neighbor] < 0) {
          dist[port.neighbor] = dist[v] + 1;
          queue[tail++] = port.neighbor;
        }
    }
    if (height < best_height) {
      best_height = height;
      root = s;
    }
  }
  return root;
}

UpDownRouting::UpDownRouting(const Network& network) : TableRouting(network, 2, "updown") {
  root_ = min_height_root(network);
  level_ = bfs_distances(network, root_);
  build();
}

bool UpDownRouting::is_up(int channel) const {
  const int from = network_.channel_source(channel), to = network_.channel_target(channel);
  return level_[to] < level_[from] || (level_[to] == level_[from] && to < from);
}

int UpDownRouting::transition(int state, int channel) const {
  if (is_up(channel)) return state == 0 ? 0 : -1;
  return 1;
}

std::string UpDownRouting::rule_violation(int, int, const std::vector<int>& channels) const {
  bool went_down = false;
  for (size_t i = 0; i < channels.size(); ++i) {
    if (!is_up(channels[i])) went_down = true;
    else if (went_down) return "hop " + std::to_string(i) + " goes up after a down hop";
  }
  return {};
}

MAPSIM_REGISTER(routing_registry(),
                {"updown", "up*/down* (Autonet) over a BFS spanning tree of minimum height", {},
                 {{"*"}, [](const Network& net, Spec&) { return std::make_unique<UpDownRouting>(net); }}});
MAPSIM_REGISTER(routing_registry(), {"shortest", "minimal hops, lowest neighbour id first", {},
                                     {{}, [](const Network& net, Spec&) { return std::make_unique<ShortestPathRouting>(net); }}});

}  // namespace mapsim
