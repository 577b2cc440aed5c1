#include "tracer/reorder/reorder_graph.h"

#include <algorithm>
#include <map>
#include <string>

#include "support/error.h"

namespace mapsim::reorder {

ProcessGraph cartesian_graph(const std::vector<int>& dims, const std::vector<int>& periods) {
  // mapsim's grids are x fastest: MPI's dimensions in reverse.
  const std::vector<int> extent(dims.rbegin(), dims.rend());
  const std::vector<int> wraps(periods.rbegin(), periods.rend());
  long tasks = 1;
  for (int e : extent) {
    if (e < 1) throw Error("a Cartesian dimension of extent " + std::to_string(e));
    tasks *= e;
    if (tasks > (1L << 24)) throw Error("a Cartesian grid of more than 2^24 ranks");
  }
  ProcessGraph g(static_cast<int>(tasks));
  const bool all = std::all_of(wraps.begin(), wraps.end(), [](int p) { return p != 0; });
  if (extent.size() <= 3) {
    g.family = all && !extent.empty() ? "torus" : "mesh";
    g.dims = extent;
    g.periodic = all && !extent.empty();
  } else {
    g.family = "graph";
  }
  // As mapsim's mesh and torus specs add them: dimension by dimension, task by task (an extent of 2
  // has no separate wrap-around edge).
  long stride = 1;
  for (size_t d = 0; d < extent.size(); ++d) {
    for (long t = 0; t < tasks; ++t) {
      const long coord = (t / stride) % extent[d];
      if (coord + 1 < extent[d]) g.add_edge(static_cast<int>(t), static_cast<int>(t + stride), 1);
      else if (wraps[d] && extent[d] > 2) g.add_edge(static_cast<int>(t), static_cast<int>(t - (extent[d] - 1) * stride), 1);
    }
    stride *= extent[d];
  }
  return g;
}

ProcessGraph edge_graph(int tasks, const std::vector<DirectedEdge>& edges) {
  std::map<std::pair<int, int>, double> volume;
  for (const DirectedEdge& e : edges) {
    if (e.from < 0 || e.from >= tasks || e.to < 0 || e.to >= tasks)
      throw Error("an edge " + std::to_string(e.from) + " -> " + std::to_string(e.to) + " outside ranks 0.." +
                  std::to_string(tasks - 1));
    if (e.from != e.to) volume[{std::min(e.from, e.to), std::max(e.from, e.to)}] += e.weight;
  }
  ProcessGraph g(tasks);
  g.family = "graph";
  for (const auto& [pair, sum] : volume) g.add_edge(pair.first, pair.second, sum / 2);
  return g;
}

std::vector<DirectedEdge> graph_create_edges(int nodes, const int* index, const int* edges) {
  std::vector<DirectedEdge> out;
  for (int i = 0; i < nodes; ++i)
    for (int k = i == 0 ? 0 : index[i - 1]; k < index[i]; ++k) out.push_back({i, edges[k], 1});
  return out;
}

}  // namespace mapsim::reorder
