// What the collective algorithm files of traces/ share beyond traces/collective_algorithm.h: rank
// arithmetic, decision tables, SMPI's linear gatherv and scatterv, and Open MPI's trees.
#pragma once
#include <cmath>
#include <utility>
#include <vector>

#include "traces/collective_algorithm.h"

namespace mapsim::collectives {

inline int relative(int rank, int root, int size) { return (rank - root + size) % size; }
inline int absolute(int vrank, int root, int size) { return (vrank + root) % size; }
inline bool power_of_two(int p) { return (p & (p - 1)) == 0; }
inline int lower_power_of_two(int p) {
  int pof2 = 1;
  while (pof2 * 2 <= p) pof2 *= 2;
  return pof2;
}
// Where p is not a power of two p', the first 2(p - p') ranks fold in pairs: the even rank of each
// pair (the odd one where `odd_leaves`) hands `bytes` to the other and drops out. Returns the rank's
// place among the p' that stay, -1 if it dropped out.
inline int fold_to_power_of_two(Steps& s, int rank, int p, double bytes, bool odd_leaves = false) {
  const int rem = p - lower_power_of_two(p);
  if (rank >= 2 * rem) return rank - rem;
  const int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
  if ((rank % 2 == 1) == odd_leaves) {
    s.blocking_send(partner, bytes);
    return -1;
  }
  s.blocking_recv(partner, bytes);
  return rank / 2;
}
// The undoing: the odd rank of each pair hands `bytes` back to the even one.
inline void unfold_from_power_of_two(Steps& s, int rank, int p, double bytes) {
  if (rank >= 2 * (p - lower_power_of_two(p))) return;
  if (rank % 2) s.blocking_send(rank - 1, bytes);
  else s.blocking_recv(rank + 1, bytes);
}
// The rank at place `place` among the p' that stay (`odd_stays`: the odd rank of a folded pair).
inline int real_rank(int place, int rem, bool odd_stays = true) {
  return place < rem ? place * 2 + (odd_stays ? 1 : 0) : place + rem;
}

// A decision table: per band of rank counts (below `ranks`), upper size bounds and the choice below
// each; the last bound of a band is kAll.
template <class T>
struct Band {
  int ranks;
  std::vector<std::pair<double, T>> below;
};
inline constexpr double kAll = HUGE_VAL;
template <class T>
T decide(const std::vector<Band<T>>& table, int p, double bytes) {
  for (const Band<T>& band : table)
    if (p < band.ranks)
      for (const auto& [bound, choice] : band.below)
        if (bytes < bound) return choice;
  return table.back().below.back().second;
}

// The sum of a v-collective's blocks (allgatherv, reduce_scatter), added in rank order.
inline double total_bytes(const CollectiveCall& c) {
  double total = 0;
  for (int i = 0; i < c.p; ++i) total += c.counts[i];
  return total;
}

// SMPI's gatherv and scatterv: every block straight from or to the root, one wait; `own` is this
// rank's block.
void linear_gatherv(Steps& s, int rank, int root, int p, const double* counts, double own);
void linear_scatterv(Steps& s, int rank, int root, int p, const double* counts, double own);

// A rank's place in one of Open MPI's trees (coll_tuned_topo.cpp): its parent (-1 at the root) and children.
struct TreeNode {
  int parent = -1;
  std::vector<int> children;
};
TreeNode kary_tree(int fanout, int rank, int root, int p);
TreeNode in_order_bmtree(int rank, int root, int p);
TreeNode chain(int fanout, int rank, int root, int p);
// Open MPI's segment of `segment` bytes in whole elements, the nearest count (COLL_TUNED_COMPUTED_SEGCOUNT).
double segment_count(double segment, int element, double count);

}  // namespace mapsim::collectives
