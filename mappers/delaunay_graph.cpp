// delaunay:tasks=N,seed=S -- the Delaunay triangulation of N points uniform in the unit square (the
// DIMACS delaunay_nX graphs of the partitioning and mapping literature), triangulated by Qhull.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "mappers/process_graph.h"
#include "support/error.h"
#include "support/param.h"
#include "support/random.h"
#include "support/spec.h"

namespace mapsim {
namespace {

ProcessGraph delaunay_graph(int tasks, uint64_t seed, double volume) {
  Rng rng(seed);
  std::vector<coordT> points(2 * static_cast<size_t>(tasks));
  for (coordT& c : points) c = rng.uniform();
  qhT state;
  qhT* qh = &state;
  char* text = nullptr;
  size_t length = 0;
  FILE* errors = open_memstream(&text, &length);  // Qhull's complaint, if any, goes into the error
  qh_zero(qh, errors);
  // d: Delaunay (lower hull of the lifted points); Qt: triangles only; Qbb: scale the lifted coordinate;
  // Qz: a point at infinity, for cocircular points.
  char flags[] = "qhull d Qt Qbb Qz";
  const int status = qh_new_qhull(qh, 2, tasks, points.data(), False, flags, nullptr, errors);
  std::set<std::pair<int, int>> edges;
  if (status == 0) {
    facetT* facet;
    FORALLfacets {
      if (facet->upperdelaunay) continue;
      std::vector<int> corner;
      vertexT *vertex, **vertexp;
      FOREACHvertex_(facet->vertices) corner.push_back(qh_pointid(qh, vertex->point));
      for (size_t i = 0; i < corner.size(); ++i)
        for (size_t j = i + 1; j < corner.size(); ++j) {
          const int a = corner[i], b = corner[j];
          if (a < tasks && b < tasks) edges.insert({std::min(a, b), std::max(a, b)});  // not the point at infinity
        }
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int long_left, total_left;
  qh_memfreeshort(qh, &long_left, &total_left);
  std::fclose(errors);
  const std::string complaint(text, length);
  std::free(text);
  if (status != 0) throw Error("delaunay: Qhull failed (" + std::to_string(status) + "): " + complaint);
  ProcessGraph g(tasks);
  g.family = "delaunay";
  for (auto [a, b] : edges) g.add_edge(a, b, volume);
  return g;
}

}  // namespace

MAPSIM_REGISTER(process_registry(),
                {"delaunay", "Delaunay triangulation of points uniform in the unit square (DIMACS delaunay_nX), by Qhull",
                 {integer_param("tasks", 32768, "tasks (points)", 3, 1 << 24), integer_param("seed", 1, "random seed", 0),
                  above(real_param("volume", 1, "communication volume of every edge (each way)"), 0)},
                 [](Spec& spec) {
                   return delaunay_graph(static_cast<int>(spec.get_int("tasks")),
                                         static_cast<uint64_t>(spec.get_int("seed")), spec.get_double("volume"));
                 }});

}  // namespace mapsim
