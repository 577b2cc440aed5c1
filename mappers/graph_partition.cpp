#include "mappers/internal/graph_partition.h"

#include <algorithm>
#include <queue>

#include "mappers/internal/fm_pass.h"

namespace mapsim {

GraphPartitioner::GraphPartitioner(const ProcessGraph& graph)
    : graph_(graph),
      member_(graph.num_tasks(), 0),
      visit_(graph.num_tasks(), 0),
      side_(graph.num_tasks(), 0),
      locked_(graph.num_tasks(), 0),
      gain_(graph.num_tasks(), 0),
      part_of_(graph.num_tasks(), -1) {}

std::vector<int> GraphPartitioner::initial_split(const std::vector<int>& tasks) {
  if (!graph_.dims.empty()) {
    // Halve the bounding box across its widest extent: blocks, the optimal cut of grids.
    std::vector<int> stride(graph_.dims.size(), 1);
    for (size_t d = 1; d < stride.size(); ++d) stride[d] = stride[d - 1] * graph_.dims[d - 1];
    auto coord = [&](int t, size_t d) { return (t / stride[d]) % graph_.dims[d]; };
    size_t widest = 0;
    int widest_extent = -1;
    for (size_t d = 0; d < stride.size(); ++d) {
      int lo = graph_.dims[d], hi = -1;
      for (int t : tasks) lo = std::min(lo, coord(t, d)), hi = std::max(hi, coord(t, d));
      if (hi - lo > widest_extent) widest_extent = hi - lo, widest = d;
    }
    std::vector<int> order = tasks;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return coord(a, widest) < coord(b, widest); });
    return order;
  }
  // Breadth-first order from a peripheral task (the last one reached from the first task);
  // further components follow in the order of `tasks`.
  auto bfs = [&](int start) {
    const int visited = ++stamp_;
    std::vector<int> out;
    size_t next_seed = 0;
    for (size_t head = 0; out.size() < tasks.size(); ++head) {
      if (head == out.size()) {
        int seed = start;
        while (visit_[seed] == visited) seed = tasks[next_seed++];
        visit_[seed] = visited;
        out.push_back(seed);
      }
      for (const ProcessGraph::Neighbour& n : graph_.neighbours(out[head]))
        if (member_[n.task] == member_stamp_ && visit_[n.task] != visited) {
          visit_[n.task] = visited;
          out.push_back(n.task);
        }
    }
    return out;
  };
  return bfs(bfs(tasks.front()).back());
}

void GraphPartitioner::refine(const std::vector<int>& tasks, int first_size) {
  using Entry = std::pair<double, int>;  // (gain, -task): highest gain, then lowest id
  for (int pass = 0; pass < 8; ++pass) {
    std::priority_queue<Entry> heap[2];
    for (int t : tasks) {
      double gain = 0;
      for (const ProcessGraph::Neighbour& n : graph_.neighbours(t))
        if (member_[n.task] == member_stamp_) gain += side_[n.task] != side_[t] ? n.volume : -n.volume;
      gain_[t] = gain;
      locked_[t] = 0;
      heap[static_cast<int>(side_[t])].push({gain, -t});
    }
    const size_t patience = std::max<size_t>(64, tasks.size() / 8);
    auto best = [&](int side) -> std::optional<FmMove> {
      auto& h = heap[side];
      while (!h.empty()) {
        const int t = -h.top().second;
        if (!locked_[t] && side_[t] == side && h.top().first == gain_[t]) return FmMove{h.top().first, t};
        h.pop();
      }
      return std::nullopt;
    };
    // Ties: the higher gain, then the lower task id.
    auto prefer_side0 = [](const FmMove& a, const FmMove& b) { return Entry{a.gain, -a.item} > Entry{b.gain, -b.item}; };
    auto apply = [&](int t, int from) {
      side_[t] = static_cast<char>(1 - from);
      locked_[t] = 1;
      for (const ProcessGraph::Neighbour& n : graph_.neighbours(t))
        if (member_[n.task] == member_stamp_ && !locked_[n.task]) {
          gain_[n.task] += side_[n.task] == from ? 2 * n.volume : -2 * n.volume;
          heap[static_cast<int>(side_[n.task])].push({gain_[n.task], -n.task});
        }
    };
    auto undo = [&](int t, int) { side_[t] ^= 1; };
    if (!fm_pass(first_size, patience, best, prefer_side0, apply, undo)) break;
  }
}

std::vector<int> GraphPartitioner::bisect(const std::vector<int>& tasks, int first_size) {
  if (first_size <= 0 || first_size >= static_cast<int>(tasks.size())) return tasks;
  member_stamp_ = ++stamp_;
  for (int t : tasks) member_[t] = member_stamp_;
  std::vector<int> order = initial_split(tasks);
  for (size_t i = 0; i < order.size(); ++i) side_[order[i]] = i < static_cast<size_t>(first_size) ? 0 : 1;
  refine(tasks, first_size);
  std::stable_partition(order.begin(), order.end(), [&](int t) { return side_[t] == 0; });
  return order;
}

void GraphPartitioner::split_parts(const std::vector<int>& tasks, const std::vector<int>& sizes, size_t first,
                                   size_t count) {
  if (count == 1) {
    for (int t : tasks) part_of_[t] = static_cast<int>(first);
    return;
  }
  const size_t half = count / 2;
  int left_size = 0;
  for (size_t p = first; p < first + half; ++p) left_size += sizes[p];
  std::vector<int> order = bisect(tasks, left_size);
  split_parts({order.begin(), order.begin() + left_size}, sizes, first, half);
  split_parts({order.begin() + left_size, order.end()}, sizes, first + half, count - half);
}

std::vector<int> GraphPartitioner::partition(const std::vector<int>& tasks, const std::vector<int>& sizes) {
  std::vector<int> result;
  if (sizes.empty()) return std::vector<int>(tasks.size(), -1);
  split_parts(tasks, sizes, 0, sizes.size());
  for (int t : tasks) result.push_back(part_of_[t]);
  return result;
}

}  // namespace mapsim
