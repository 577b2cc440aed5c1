// The allocation policies that read the topology: best-fit (Slurm's topology/tree), group
// (dragonfly groups) and spread (round robin over leaf switches or groups).
#include <algorithm>
#include <climits>

#include "mappers/allocation.h"
#include "support/error.h"

namespace mapsim {
namespace {

// Free nodes of each switch, ascending.
std::vector<std::vector<int>> free_by_switch(const Network& net, const std::vector<char>& free) {
  std::vector<std::vector<int>> out(static_cast<size_t>(net.num_switches()));
  for (int v = 0; v < net.num_nodes(); ++v)
    if (free[v]) out[static_cast<size_t>(net.node(v).switch_id)].push_back(v);
  return out;
}

// Routers per dragonfly group (router G*a + j is router j of group G), or 0 on other networks.
int routers_per_group(const Network& net) {
  return net.shape.family == Family::Dragonfly && net.shape.dims.size() == 4 ? net.shape.dims[0] : 0;
}

// Best fit over units of `count[u]` free nodes, as Slurm takes leaf switches: while the nodes still
// needed fit in no single unit, the fullest unit (ties: lower rank, then lower index); then the
// unit with the fewest free nodes that holds the rest. This uses the fewest units there are.
// Returns (unit, nodes taken from it).
std::vector<std::pair<int, int>> best_fit(const std::vector<int>& count, const std::vector<int>& rank, int needed) {
  std::vector<int> order;
  for (size_t u = 0; u < count.size(); ++u)
    if (count[u] > 0) order.push_back(static_cast<int>(u));
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return count[a] != count[b] ? count[a] > count[b] : rank[a] != rank[b] ? rank[a] < rank[b] : a < b;
  });
  std::vector<std::pair<int, int>> out;
  auto next = order.begin();  // the units before it are taken whole
  for (int remaining = needed; remaining > 0;) {
    // Units in `order` from `next` on hold descending counts: those that fit the rest are a prefix.
    auto fits_end = std::partition_point(next, order.end(), [&](int u) { return count[u] >= remaining; });
    if (fits_end != next) {
      const int smallest = count[*(fits_end - 1)];
      out.push_back({*std::partition_point(next, fits_end, [&](int u) { return count[u] > smallest; }), remaining});
      break;
    }
    out.push_back({*next, count[*next]});
    remaining -= count[*next++];
  }
  return out;
}

// The nodes of switches chosen by best fit: the lowest free ones of each, all sorted.
std::vector<int> take(const std::vector<std::vector<int>>& by_switch, const std::vector<std::pair<int, int>>& picks) {
  std::vector<int> nodes;
  for (const auto& [sw, count] : picks) nodes.insert(nodes.end(), by_switch[sw].begin(), by_switch[sw].begin() + count);
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

std::vector<int> counts(const std::vector<std::vector<int>>& by_switch) {
  std::vector<int> out;
  for (const auto& nodes : by_switch) out.push_back(static_cast<int>(nodes.size()));
  return out;
}

// Slurm's topology/tree: the lowest-level switch whose subtree holds enough free nodes, then best fit
// over its leaf switches. On any network: the smallest ball of switches (centre, hop radius) holding
// enough free nodes -- on a tree the ball of radius L around a level-L switch is its subtree -- ties
// to the ball with the fewest free nodes (best fit), then the lower centre id; then best fit over
// the ball's switches, nearer the centre first among equals.
class BestFitPolicy : public AllocationPolicy {
 public:
  std::vector<int> choose(const Network& net, const std::vector<char>& free, int needed, uint64_t) const override {
    const std::vector<std::vector<int>> by_switch = free_by_switch(net, free);
    const std::vector<int> count = counts(by_switch);
    const int switches = net.num_switches();
    std::vector<int> mark(static_cast<size_t>(switches), -1), frontier, next_frontier;
    int best_radius = INT_MAX, best_center = -1;
    long best_total = LONG_MAX;
    for (int c = 0; c < switches; ++c) {
      long total = count[c];
      int radius = 0;
      mark[c] = c;
      frontier.assign(1, c);
      while (total < needed && radius < best_radius && !frontier.empty()) {
        ++radius;
        next_frontier.clear();
        for (const int s : frontier)
          for (const Network::Port& port : net.ports_of(s))
            if (mark[port.neighbor] != c) {
              mark[port.neighbor] = c;
              next_frontier.push_back(port.neighbor);
              total += count[port.neighbor];
            }
        frontier.swap(next_frontier);
      }
      if (total >= needed && (radius < best_radius || (radius == best_radius && total < best_total)))
        best_radius = radius, best_total = total, best_center = c;
    }
    if (best_center < 0) throw InternalError("best-fit: no switch reaches " + std::to_string(needed) + " free nodes");
    // The chosen ball again, with each switch's distance from the centre as its rank.
    std::vector<int> rank(static_cast<size_t>(switches), 0);
    std::vector<int> dist = bfs_distances(net, best_center);
    std::vector<int> ball_count(static_cast<size_t>(switches), 0);
    for (int s = 0; s < switches; ++s)
      if (dist[s] >= 0 && dist[s] <= best_radius) ball_count[s] = count[s], rank[s] = dist[s];
    return take(by_switch, best_fit(ball_count, rank, needed));
  }
};

// As few dragonfly groups as possible (best fit over the groups' free nodes), and in a group taken
// in part as few routers; elsewhere as few leaf switches as possible, wherever they are.
class GroupPolicy : public AllocationPolicy {
 public:
  std::vector<int> choose(const Network& net, const std::vector<char>& free, int needed, uint64_t) const override {
    const std::vector<std::vector<int>> by_switch = free_by_switch(net, free);
    const std::vector<int> count = counts(by_switch);
    const int a = routers_per_group(net);
    if (a == 0) return take(by_switch, best_fit(count, std::vector<int>(count.size(), 0), needed));
    const int groups = net.num_switches() / a;
    std::vector<int> group_count(static_cast<size_t>(groups), 0);
    for (int s = 0; s < groups * a; ++s) group_count[s / a] += count[s];
    std::vector<std::pair<int, int>> picks;
    const std::vector<int> no_rank(static_cast<size_t>(std::max(groups, a)), 0);
    for (const auto& [group, nodes] : best_fit(group_count, no_rank, needed)) {
      const std::vector<int> router_count(count.begin() + group * a, count.begin() + (group + 1) * a);
      for (const auto& [router, taken] : best_fit(router_count, no_rank, nodes)) picks.push_back({group * a + router, taken});
    }
    return take(by_switch, picks);
  }
};

// Round robin over units -- dragonfly groups (their routers in turn), else leaf switches -- one
// node from each per round; a round that needs fewer nodes than there are units takes evenly
// spaced units, so that a small job still spans the whole machine.
class SpreadPolicy : public AllocationPolicy {
 public:
  std::vector<int> choose(const Network& net, const std::vector<char>& free, int needed, uint64_t) const override {
    const std::vector<std::vector<int>> by_switch = free_by_switch(net, free);
    const int a = routers_per_group(net);
    std::vector<std::vector<int>> units;  // each unit's free nodes in the order it hands them out
    if (a == 0) {
      units = by_switch;
    } else {
      for (int first = 0; first + a <= net.num_switches(); first += a) {
        std::vector<int> nodes;
        for (size_t i = 0;; ++i) {
          const size_t before = nodes.size();
          for (int s = first; s < first + a; ++s)
            if (i < by_switch[s].size()) nodes.push_back(by_switch[s][i]);
          if (nodes.size() == before) break;
        }
        units.push_back(std::move(nodes));
      }
    }
    std::vector<size_t> used(units.size(), 0);
    std::vector<int> nodes, open;
    for (int remaining = needed; remaining > 0;) {
      open.clear();
      for (size_t u = 0; u < units.size(); ++u)
        if (used[u] < units[u].size()) open.push_back(static_cast<int>(u));
      const long round = std::min<long>(remaining, static_cast<long>(open.size()));
      for (long j = 0; j < round; ++j) {
        const int u = open[static_cast<size_t>(j * static_cast<long>(open.size()) / round)];
        nodes.push_back(units[u][used[u]++]);
      }
      remaining -= static_cast<int>(round);
    }
    std::sort(nodes.begin(), nodes.end());
    return nodes;
  }
};

MAPSIM_REGISTER(allocation_registry(),
                {"best-fit",
                 "Slurm topology/tree: the lowest common switch (smallest switch ball) with enough free nodes, then "
                 "the fewest of its leaf switches, best fit",
                 with_busy_params({}), [](Spec&) { return std::make_unique<BestFitPolicy>(); }});
MAPSIM_REGISTER(allocation_registry(),
                {"group", "as few dragonfly groups as possible, then routers, best fit (elsewhere the fewest leaf switches)",
                 with_busy_params({}), [](Spec&) { return std::make_unique<GroupPolicy>(); }});
MAPSIM_REGISTER(allocation_registry(),
                {"spread", "round robin over the leaf switches (dragonfly: groups, their routers in turn), evenly spaced",
                 with_busy_params({}), [](Spec&) { return std::make_unique<SpreadPolicy>(); }});

}  // namespace
}  // namespace mapsim
