#include "mappers/adjacency_mapper.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "mappers/switch_slots.h"
#include "topologies/error.h"
#include "topologies/table_routing.h"

namespace mapsim {
namespace {

struct Call {
  std::vector<int> tasks;  // includes the base
  int base;
  std::vector<SlotShare> shares;
};

}  // namespace

Placement AdjacencyMapper::map(const MappingProblem& problem) const {
  const ProcessGraph& graph = *problem.graph;
  if (graph.dims.empty() || graph.dims.size() > 2)
    throw Error("the adjacency mapper (AM) maps 1-D and 2-D meshes and tori (moh2010); this process topology is " +
                (graph.dims.empty() ? graph.family : std::to_string(graph.dims.size()) + "-D") +
                ": use binary, greedy or best");
  const int tasks = graph.num_tasks();
  const int width = graph.dims[0];
  const RoutedNetwork& routed = *problem.network;
  const Network& net = routed.network();
  const std::vector<SwitchSlots> groups = group_by_switch(net, compact_slots(problem, tasks));
  const int k = static_cast<int>(groups.size());

  // Routing root and each group's routed distance from it.
  const auto* updown = dynamic_cast<const UpDownRouting*>(&routed.routing());
  const int root = updown ? updown->root() : groups[central_group(routed, groups)].switch_id;
  std::vector<int> from_root(k);
  for (int g = 0; g < k; ++g)
    from_root[g] = groups[g].switch_id == root ? 0 : routed.routing().hops(root, groups[g].slots.front());
  std::vector<int> group_of_switch(net.num_switches(), -1);
  for (int g = 0; g < k; ++g) group_of_switch[groups[g].switch_id] = g;

  std::vector<size_t> next_slot(k, 0);
  Placement placement(tasks, -1);
  auto x_of = [&](int t) { return t % width; };
  auto y_of = [&](int t) { return t / width; };

  std::vector<int> centre(tasks);
  std::iota(centre.begin(), centre.end(), 0);
  const int middle = width / 2 + width * (tasks / width / 2);
  std::vector<SlotShare> all;
  for (int g = 0; g < k; ++g) all.push_back({g, static_cast<int>(groups[g].slots.size())});
  std::vector<Call> stack{{centre, middle, all}};
  std::vector<int> quadrant_of(k, -1), stamp(k, -1);
  int call_id = 0;
  while (!stack.empty()) {
    Call call = std::move(stack.back());
    stack.pop_back();
    ++call_id;
    // Step 2: the base on a slot closest to the root.
    size_t closest = 0;
    for (size_t i = 1; i < call.shares.size(); ++i)
      if (from_root[call.shares[i].group] < from_root[call.shares[closest].group]) closest = i;
    SlotShare& home = call.shares[closest];
    placement[call.base] = groups[home.group].slots[next_slot[home.group]++];
    --home.count;
    // Step 3: pinwheel quadrants +X, +Y, -X, -Y (counter-clockwise).
    const int xb = x_of(call.base), yb = y_of(call.base);
    std::vector<int> quadrant[4];
    for (int t : call.tasks) {
      if (t == call.base) continue;
      const int x = x_of(t), y = y_of(t);
      const int q = (x > xb && y >= yb) ? 0 : (x <= xb && y > yb) ? 1 : (x < xb && y <= yb) ? 2 : 3;
      quadrant[q].push_back(t);
    }
    // Steps 4-7: deal the switches, farthest from the root first.
    std::vector<SlotShare> order;
    for (const SlotShare& s : call.shares)
      if (s.count > 0) order.push_back(s);
    std::stable_sort(order.begin(), order.end(),
                     [&](const SlotShare& a, const SlotShare& b) { return from_root[a.group] > from_root[b.group]; });
    int need[4], dealt[4] = {0, 0, 0, 0};
    long distance_sum[4] = {0, 0, 0, 0};
    std::vector<SlotShare> sets[4];
    for (int q = 0; q < 4; ++q) need[q] = static_cast<int>(quadrant[q].size());
    for (SlotShare s : order) {
      while (s.count > 0) {
        int votes[4] = {0, 0, 0, 0};
        for (const Network::Port& port : net.ports_of(groups[s.group].switch_id)) {
          const int g = group_of_switch[port.neighbor];
          if (g >= 0 && stamp[g] == call_id) ++votes[quadrant_of[g]];
        }
        int chosen = -1;
        for (int q = 0; q < 4; ++q) {
          if (need[q] == 0) continue;
          if (chosen < 0) { chosen = q; continue; }
          if (votes[q] != votes[chosen]) {
            if (votes[q] > votes[chosen]) chosen = q;
            continue;
          }
          if (votes[q] > 0) continue;
          if (need[q] > need[chosen]) chosen = q;  // no linked neighbour: the set with the most room left
        }
        const int take = std::min(s.count, need[chosen]);
        sets[chosen].push_back({s.group, take});
        need[chosen] -= take;
        dealt[chosen] += take;
        distance_sum[chosen] += static_cast<long>(take) * from_root[s.group];
        s.count -= take;
        stamp[s.group] = call_id;
        quadrant_of[s.group] = chosen;
      }
    }
    // Steps 8-11: each quadrant from its process closest to the base.
    for (int q = 3; q >= 0; --q) {
      if (quadrant[q].empty()) continue;
      int next_base = quadrant[q].front();
      auto manhattan = [&](int t) { return std::abs(x_of(t) - xb) + std::abs(y_of(t) - yb); };
      for (int t : quadrant[q])
        if (manhattan(t) < manhattan(next_base)) next_base = t;
      stack.push_back({std::move(quadrant[q]), next_base, std::move(sets[q])});
    }
  }
  return placement;
}

}  // namespace mapsim
