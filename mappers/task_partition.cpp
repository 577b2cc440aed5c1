#include "mappers/internal/task_partition.h"

#include <metis.h>
#include <algorithm>
#include <cmath>
#include <string>

#include "support/error.h"

namespace mapsim {
namespace {

// Moves the tasks of parts above their size, best gain first, to parts below theirs.
void balance(const std::vector<idx_t>& start, const std::vector<idx_t>& adjacent, const std::vector<idx_t>& weight,
             const std::vector<int>& sizes, std::vector<idx_t>& part) {
  const size_t k = sizes.size();
  std::vector<long> count(k, 0);
  for (idx_t p : part) ++count[p];
  std::vector<double> link(k);
  while (true) {
    struct Move {
      double gain;
      int task, to;
    };
    std::vector<Move> moves;
    for (size_t v = 0; v < part.size(); ++v) {
      const idx_t own = part[v];
      if (count[own] <= sizes[own]) continue;
      std::fill(link.begin(), link.end(), 0);
      for (idx_t e = start[v]; e < start[v + 1]; ++e) link[part[adjacent[e]]] += weight[e];
      int to = -1;
      for (size_t p = 0; p < k; ++p)
        if (count[p] < sizes[p] && (to < 0 || link[p] > link[to])) to = static_cast<int>(p);
      moves.push_back({link[to] - link[own], static_cast<int>(v), to});
    }
    if (moves.empty()) return;
    std::stable_sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.gain > b.gain; });
    for (const Move& m : moves) {  // gains change as tasks move: one round moves each task at most once
      const idx_t own = part[m.task];
      if (count[own] <= sizes[own] || count[m.to] >= sizes[m.to]) continue;
      --count[own], ++count[m.to];
      part[m.task] = m.to;
    }
  }
}

}  // namespace

TaskPartitioner::TaskPartitioner(const ProcessGraph& graph, uint64_t seed)
    : graph_(graph), seed_(seed), local_(graph.num_tasks(), -1) {
  for (const ProcessEdge& e : graph.edges()) top_ = std::max(top_, e.volume);
}

std::vector<int> TaskPartitioner::split(const std::vector<int>& tasks, const std::vector<int>& sizes, int cuts) {
  idx_t n = static_cast<idx_t>(tasks.size());
  idx_t k = static_cast<idx_t>(sizes.size());
  std::vector<idx_t> part(n, 0);
  for (idx_t i = 0; i < n; ++i) local_[tasks[i]] = static_cast<int>(i);
  std::vector<idx_t> start{0}, adjacent, weight;  // the subgraph of `tasks`
  for (int t : tasks) {
    for (const ProcessGraph::Neighbour& nb : graph_.neighbours(t))
      if (local_[nb.task] >= 0) {
        adjacent.push_back(local_[nb.task]);
        weight.push_back(static_cast<idx_t>(std::max(1L, std::lround(nb.volume / top_ * 1000))));
      }
    start.push_back(static_cast<idx_t>(adjacent.size()));
  }
  if (n > k && !adjacent.empty()) {
    std::vector<real_t> share;
    for (int s : sizes) share.push_back(static_cast<real_t>(s) / static_cast<real_t>(n));
    idx_t constraints = 1, cut = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = static_cast<idx_t>(seed_ % 1000000007);
    options[METIS_OPTION_UFACTOR] = 1;
    options[METIS_OPTION_NCUTS] = cuts;
    const int status = METIS_PartGraphRecursive(&n, &constraints, start.data(), adjacent.data(), nullptr, nullptr,
                                                weight.data(), &k, share.data(), nullptr, options, &cut, part.data());
    if (status != METIS_OK)
      throw InternalError("multisection: METIS_PartGraphRecursive failed (status " + std::to_string(status) + ")");
  }
  balance(start, adjacent, weight, sizes, part);
  for (int t : tasks) local_[t] = -1;
  return std::vector<int>(part.begin(), part.end());
}

}  // namespace mapsim
