#include "mappers/internal/switch_slots.h"

#include <algorithm>
#include <numeric>

#include "mappers/mapper.h"

namespace mapsim {

std::vector<SwitchSlots> group_by_switch(const Network& network, const std::vector<int>& slots) {
  std::vector<int> index(network.num_switches(), -1);
  std::vector<SwitchSlots> groups;
  for (int node : slots) {
    const int s = network.node(node).switch_id;
    if (index[s] < 0) {
      index[s] = static_cast<int>(groups.size());
      groups.push_back({s, {}});
    }
    groups[index[s]].slots.push_back(node);
  }
  return groups;
}

int group_hops(const RoutedNetwork& network, const SwitchSlots& a, const SwitchSlots& b) {
  return a.switch_id == b.switch_id ? 0 : network.hops(a.slots.front(), b.slots.front());
}

size_t central_group(const RoutedNetwork& network, const std::vector<SwitchSlots>& groups, size_t stride) {
  size_t centre = 0;
  long best = -1;
  for (size_t c = 0; c < groups.size(); c += stride) {
    long total = 0;
    for (const SwitchSlots& g : groups) total += static_cast<long>(g.slots.size()) * group_hops(network, groups[c], g);
    if (best < 0 || total < best) best = total, centre = c;
  }
  return centre;
}

std::vector<int> compact_slots(const MappingProblem& problem, int count) {
  std::vector<int> all = slot_list(problem);
  if (count >= static_cast<int>(all.size())) return all;
  const RoutedNetwork& routed = *problem.network;
  const std::vector<SwitchSlots> groups = group_by_switch(routed.network(), all);
  const size_t n = groups.size();
  // Large networks try a sample of centres.
  const size_t centre = central_group(routed, groups, std::max<size_t>(1, n / 256));
  std::vector<int> distance(n), order(n);
  for (size_t g = 0; g < n; ++g) distance[g] = group_hops(routed, groups[centre], groups[g]);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return distance[a] < distance[b]; });
  std::vector<int> chosen;
  for (int g : order)
    for (int node : groups[g].slots)
      if (static_cast<int>(chosen.size()) < count) chosen.push_back(node);
  return chosen;
}

Placement place_groups(const MappingProblem& problem, const std::vector<SwitchSlots>& groups,
                       std::vector<int> group_of_task) {
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  const int k = static_cast<int>(groups.size());
  std::vector<std::vector<int>> members(k);
  for (int t = 0; t < tasks; ++t) members[group_of_task[t]].push_back(t);
  std::vector<int> room(k);
  for (int g = 0; g < k; ++g) room[g] = static_cast<int>(groups[g].slots.size()) - static_cast<int>(members[g].size());
  for (int g = 0; g < k; ++g) {
    if (room[g] >= 0) continue;
    auto attached = [&](int t) {
      double v = 0;
      for (const ProcessGraph::Neighbour& n : graph.neighbours(t))
        if (group_of_task[n.task] == g) v += n.volume;
      return v;
    };
    std::vector<std::pair<double, int>> order;
    for (int t : members[g]) order.push_back({attached(t), t});
    std::sort(order.begin(), order.end());
    for (int i = 0; room[g] < 0; ++i) {
      const int t = order[i].second;
      int best = -1;
      double best_cost = 0;
      for (int h = 0; h < k; ++h) {
        if (room[h] <= 0) continue;
        double cost = 0;
        for (const ProcessGraph::Neighbour& n : graph.neighbours(t))
          cost += n.volume * group_hops(*problem.network, groups[h], groups[group_of_task[n.task]]);
        if (best < 0 || cost < best_cost) best = h, best_cost = cost;
      }
      group_of_task[t] = best;
      ++room[g];
      --room[best];
    }
  }
  std::vector<size_t> next(k, 0);
  Placement placement(tasks);
  for (int t = 0; t < tasks; ++t) placement[t] = groups[group_of_task[t]].slots[next[group_of_task[t]]++];
  return placement;
}

}  // namespace mapsim
