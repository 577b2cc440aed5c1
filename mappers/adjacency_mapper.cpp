#include "mappers/adjacency_mapper.h"

#include "support/spec.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>
#include <optional>

#include "mappers/internal/slot_bisection.h"
#include "support/error.h"

namespace mapsim {
namespace {

using Quadrants = std::array<std::vector<int>, 4>;  // tasks of +X, +Y, -X, -Y
using SlotSets = std::array<std::vector<SlotShare>, 4>;

struct Call {
  std::vector<int> tasks;  // includes the base
  int base;
  std::vector<SlotShare> shares;
};

class AdjacencyMapping {
 public:
  AdjacencyMapping(const MappingProblem& problem, AdjacencySplit split)
      : graph_(*problem.graph),
        routed_(*problem.network),
        split_(split),
        width_(graph_.dims[0]),
        groups_(group_by_switch(routed_.network(), compact_slots(problem, graph_.num_tasks()))),
        next_slot_(groups_.size(), 0),
        placement_(graph_.num_tasks(), -1) {
    const int own_root = routed_.routing().root_switch();
    const int root = own_root >= 0 ? own_root : groups_[central_group(routed_, groups_)].switch_id;
    for (const SwitchSlots& g : groups_)
      from_root_.push_back(g.switch_id == root ? 0 : routed_.routing().hops(root, g.slots.front()));
    if (split_ == AdjacencySplit::Cut) bisection_.emplace(routed_, groups_);
    group_of_node_.assign(routed_.network().num_nodes(), -1);
    for (size_t g = 0; g < groups_.size(); ++g)
      for (int node : groups_[g].slots) group_of_node_[node] = static_cast<int>(g);
  }

  Placement run() {
    const int tasks = graph_.num_tasks();
    std::vector<int> everyone(tasks);
    std::iota(everyone.begin(), everyone.end(), 0);
    std::vector<SlotShare> all;
    for (size_t g = 0; g < groups_.size(); ++g) all.push_back({static_cast<int>(g), static_cast<int>(groups_[g].slots.size())});
    const int centre = width_ / 2 + width_ * (tasks / width_ / 2);
    std::vector<Call> stack{{everyone, centre, all}};
    while (!stack.empty()) {
      Call call = std::move(stack.back());
      stack.pop_back();
      place_base(call);
      Quadrants quadrant = quadrants(call);
      std::vector<SlotShare> left;
      for (const SlotShare& s : call.shares)
        if (s.count > 0) left.push_back(s);
      SlotSets sets = split_ == AdjacencySplit::Distance ? deal_by_distance(left, quadrant) : split_by_cut(left, quadrant);
      // Steps 8-11: each quadrant from its process closest to the base.
      for (int q = 3; q >= 0; --q) {
        if (quadrant[q].empty()) continue;
        int next_base = quadrant[q].front();
        for (int t : quadrant[q])
          if (manhattan(t, call.base) < manhattan(next_base, call.base)) next_base = t;
        stack.push_back({std::move(quadrant[q]), next_base, std::move(sets[q])});
      }
    }
    return placement_;
  }

 private:
  int x_of(int t) const { return t % width_; }
  int y_of(int t) const { return t / width_; }
  int manhattan(int a, int b) const { return std::abs(x_of(a) - x_of(b)) + std::abs(y_of(a) - y_of(b)); }

  // Step 2: the base on a slot closest to the root.
  void place_base(Call& call) {
    size_t closest = 0;
    for (size_t i = 1; i < call.shares.size(); ++i)
      if (from_root_[call.shares[i].group] < from_root_[call.shares[closest].group]) closest = i;
    SlotShare& home = call.shares[closest];
    placement_[call.base] = groups_[home.group].slots[next_slot_[home.group]++];
    --home.count;
  }

  // Step 3: pinwheel quadrants, counter-clockwise from +X.
  Quadrants quadrants(const Call& call) const {
    const int xb = x_of(call.base), yb = y_of(call.base);
    Quadrants quadrant;
    for (int t : call.tasks) {
      if (t == call.base) continue;
      const int x = x_of(t), y = y_of(t);
      quadrant[(x > xb && y >= yb) ? 0 : (x <= xb && y > yb) ? 1 : (x < xb && y <= yb) ? 2 : 3].push_back(t);
    }
    return quadrant;
  }

  // Steps 4-7: switches farthest from the root first (ties in allocation order), in counter-clockwise
  // turns; a quadrant keeps taking switches while its AMD is above the previous quadrant's.
  SlotSets deal_by_distance(std::vector<SlotShare> shares, const Quadrants& quadrant) const {
    std::stable_sort(shares.begin(), shares.end(),
                     [&](const SlotShare& a, const SlotShare& b) { return from_root_[a.group] > from_root_[b.group]; });
    SlotSets sets;
    std::array<int, 4> need, dealt{};
    std::array<long, 4> distance{};
    for (int q = 0; q < 4; ++q) need[q] = static_cast<int>(quadrant[q].size());
    // AMD comparison a > b without division.
    auto amd_above = [&](int a, int b) { return distance[a] * dealt[b] > distance[b] * dealt[a]; };
    int q = 0, previous = -1;
    for (SlotShare s : shares) {
      while (s.count > 0) {
        while (need[q] == 0) q = (q + 1) % 4;
        const int take = std::min(s.count, need[q]);
        sets[q].push_back({s.group, take});
        need[q] -= take;
        dealt[q] += take;
        distance[q] += static_cast<long>(take) * from_root_[s.group];
        s.count -= take;
        if (previous >= 0 && previous != q && need[q] > 0 && amd_above(q, previous)) continue;
        previous = q;
        q = (q + 1) % 4;
      }
    }
    return sets;
  }

  // mapsim's variant of steps 4-7: bisections of the slots, quadrants kept in counter-clockwise pairs.
  SlotSets split_by_cut(const std::vector<SlotShare>& shares, const Quadrants& quadrant) const {
    SlotSets sets;
    std::vector<int> nonempty;
    for (int q = 0; q < 4; ++q)
      if (!quadrant[q].empty()) nonempty.push_back(q);
    if (nonempty.empty()) return sets;
    std::vector<std::pair<std::vector<int>, std::vector<SlotShare>>> work{{nonempty, shares}};
    while (!work.empty()) {
      auto [list, set] = std::move(work.back());
      work.pop_back();
      if (list.size() == 1) {
        sets[list[0]] = std::move(set);
        continue;
      }
      const std::vector<int> first_list(list.begin(), list.begin() + list.size() / 2);
      const std::vector<int> second_list(list.begin() + list.size() / 2, list.end());
      std::vector<int> first, second;
      for (int q : first_list) first.insert(first.end(), quadrant[q].begin(), quadrant[q].end());
      for (int q : second_list) second.insert(second.end(), quadrant[q].begin(), quadrant[q].end());
      // Either half of the cut may go to the first quadrants: the one closer to their placed neighbours.
      auto [a0, a1] = bisection_->split(set, static_cast<int>(first.size()));
      auto [b1, b0] = first.size() == second.size() ? std::pair{a0, a1}
                                                     : bisection_->split(set, static_cast<int>(second.size()));
      if (distance_to_placed(b0, first) + distance_to_placed(b1, second) <
          distance_to_placed(a0, first) + distance_to_placed(a1, second))
        a0 = std::move(b0), a1 = std::move(b1);
      work.push_back({first_list, std::move(a0)});
      work.push_back({second_list, std::move(a1)});
    }
    return sets;
  }

  // Volume x mean routed hops from a slot of `set` to the placed neighbours of `tasks`.
  double distance_to_placed(const std::vector<SlotShare>& set, const std::vector<int>& tasks) const {
    double hops = 0;
    long slots = 0;
    for (const SlotShare& s : set) slots += s.count;
    for (int t : tasks)
      for (const ProcessGraph::Neighbour& n : graph_.neighbours(t)) {
        if (placement_[n.task] < 0) continue;
        const SwitchSlots& there = groups_[group_of_node_[placement_[n.task]]];
        for (const SlotShare& s : set) hops += n.volume * s.count * group_hops(routed_, groups_[s.group], there);
      }
    return slots ? hops / slots : 0;
  }

  const ProcessGraph& graph_;
  const RoutedNetwork& routed_;
  AdjacencySplit split_;
  int width_;
  std::vector<SwitchSlots> groups_;
  std::optional<SlotBisection> bisection_;  // split=cut only: it holds a switch x switch table
  std::vector<int> from_root_, group_of_node_;
  std::vector<size_t> next_slot_;
  Placement placement_;
};

}  // namespace

void AdjacencyMapper::check(const MappingProblem& problem) const {
  const ProcessGraph& graph = *problem.graph;
  if (graph.dims.empty() || graph.dims.size() > 2)
    throw NotApplicable("the adjacency mapper (AM) maps 1-D and 2-D meshes and tori (moh2010); this process topology is " +
                (graph.dims.empty() ? graph.family : std::to_string(graph.dims.size()) + "-D") +
                ": use binary, greedy or best");
}

Placement AdjacencyMapper::map(const MappingProblem& problem) const {
  check(problem);
  return AdjacencyMapping(problem, split_).run();
}

MAPSIM_REGISTER(mapper_registry(),
                {"adjacency", "AM (moh2010): pinwheel quadrants of a 1-D/2-D grid around the routing root",
                 {text_param("split", "distance", "how slots are split: distance (the paper's steps 4-7) or cut (BM's bisection)")},
                 [](Spec& spec) {
                   const std::string split = spec.get_string("split");
                   if (split != "distance" && split != "cut")
                     throw Error("mapper '" + spec.text() + "': split must be distance (moh2010's steps 4-7) or cut");
                   return std::make_unique<AdjacencyMapper>(split == "cut" ? AdjacencySplit::Cut : AdjacencySplit::Distance);
                 }});

}  // namespace mapsim
