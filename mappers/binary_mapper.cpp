#include "mappers/binary_mapper.h"

#include <algorithm>
#include <numeric>

#include "mappers/graph_partition.h"
#include "mappers/switch_slots.h"

namespace mapsim {
namespace {

class Bisection {
 public:
  Bisection(const RoutedNetwork& routed, const std::vector<SwitchSlots>& groups) : routed_(routed), groups_(groups) {}

  // Splits the slots `set` into a first half of `first_size` slots with the largest routed hop sum
  // across the cut.
  std::pair<std::vector<SlotShare>, std::vector<SlotShare>> split(const std::vector<SlotShare>& set, int first_size) const {
    const size_t k = set.size();
    std::vector<int> a(k, 0), b(k, 0);
    std::vector<size_t> by_size(k);
    std::iota(by_size.begin(), by_size.end(), 0);
    std::stable_sort(by_size.begin(), by_size.end(), [&](size_t x, size_t y) { return set[x].count > set[y].count; });
    int need = first_size;
    for (size_t i : by_size) {
      a[i] = std::min(need, set[i].count);
      b[i] = set[i].count - a[i];
      need -= a[i];
    }
    auto hops = [&](size_t i, size_t j) { return group_hops(routed_, groups_[set[i].group], groups_[set[j].group]); };
    for (int pass = 0; pass < 8 && k > 1; ++pass) {
      // s[side][i]: routed hops from a slot of entry i to all slots on that side.
      std::vector<long> s[2] = {std::vector<long>(k, 0), std::vector<long>(k, 0)};
      for (size_t i = 0; i < k; ++i)
        for (size_t j = 0; j < k; ++j) {
          const int d = hops(i, j);
          s[0][i] += static_cast<long>(a[j]) * d;
          s[1][i] += static_cast<long>(b[j]) * d;
        }
      std::vector<int> movable[2] = {a, b};
      int size0 = first_size;
      long total = 0, best = 0;
      std::vector<std::pair<size_t, int>> moves;  // (entry, side it left)
      size_t best_moves = 0;
      const size_t patience = std::max<size_t>(32, static_cast<size_t>(first_size) / 4);
      while (moves.size() - best_moves < patience) {
        auto pick = [&](int side) {
          long gain = 0;
          size_t chosen = k;
          for (size_t i = 0; i < k; ++i) {
            if (movable[side][i] == 0) continue;
            const long g = s[side][i] - s[1 - side][i];  // cut increase when one slot of i changes side
            if (chosen == k || g > gain) gain = g, chosen = i;
          }
          return std::pair{chosen, gain};
        };
        int from;
        if (size0 > first_size) from = 0;
        else if (size0 < first_size) from = 1;
        else {
          auto x = pick(0), y = pick(1);
          if (x.first == k && y.first == k) break;
          from = (x.first != k && (y.first == k || x.second >= y.second)) ? 0 : 1;
        }
        auto [i, gain] = pick(from);
        if (i == k) break;
        --movable[from][i];
        (from == 0 ? a : b)[i]--;
        (from == 0 ? b : a)[i]++;
        for (size_t j = 0; j < k; ++j) {
          const int d = hops(i, j);
          s[from][j] -= d;
          s[1 - from][j] += d;
        }
        size0 += from == 0 ? -1 : 1;
        total += gain;
        moves.push_back({i, from});
        if (size0 == first_size && total > best) best = total, best_moves = moves.size();
      }
      for (size_t m = moves.size(); m > best_moves; --m) {
        auto [i, from] = moves[m - 1];
        (from == 0 ? a : b)[i]++;
        (from == 0 ? b : a)[i]--;
      }
      if (best_moves == 0) break;
    }
    std::vector<SlotShare> first, second;
    for (size_t i = 0; i < k; ++i) {
      if (a[i] > 0) first.push_back({set[i].group, a[i]});
      if (b[i] > 0) second.push_back({set[i].group, b[i]});
    }
    return {first, second};
  }

 private:
  const RoutedNetwork& routed_;
  const std::vector<SwitchSlots>& groups_;
};

}  // namespace

Placement BinaryMapper::map(const MappingProblem& problem) const {
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  const std::vector<SwitchSlots> groups =
      group_by_switch(problem.network->network(), compact_slots(problem, tasks));
  std::vector<SlotShare> all;
  for (size_t g = 0; g < groups.size(); ++g) all.push_back({static_cast<int>(g), static_cast<int>(groups[g].slots.size())});
  std::vector<int> everyone(tasks);
  std::iota(everyone.begin(), everyone.end(), 0);

  GraphPartitioner partitioner(graph);
  Bisection bisection(*problem.network, groups);
  std::vector<size_t> next_slot(groups.size(), 0);
  Placement placement(tasks, -1);
  // Explicit stack instead of recursion: (tasks, their slots).
  std::vector<std::pair<std::vector<int>, std::vector<SlotShare>>> stack{{everyone, all}};
  while (!stack.empty()) {
    auto [set, shares] = std::move(stack.back());
    stack.pop_back();
    if (shares.size() == 1 || set.size() <= 1) {
      size_t i = 0;
      for (const SlotShare& share : shares)
        for (int c = 0; c < share.count; ++c) placement[set[i++]] = groups[share.group].slots[next_slot[share.group]++];
      continue;
    }
    const int first_size = static_cast<int>(set.size() + 1) / 2;
    std::vector<int> order = partitioner.bisect(set, first_size);
    auto [r0, r1] = bisection.split(shares, first_size);
    stack.push_back({{order.begin() + first_size, order.end()}, r1});
    stack.push_back({{order.begin(), order.begin() + first_size}, r0});
  }
  return placement;
}

}  // namespace mapsim
