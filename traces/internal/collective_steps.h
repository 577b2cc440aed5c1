// What the collective algorithm files of traces/ share: the op-list builder, rank arithmetic, decision
// tables, Open MPI's trees, and the algorithms MPICH's and Open MPI's choices add to mapsim's own
// (collective_algorithms_mpich.cpp, collective_algorithms_ompi*.cpp), each sending the messages SimGrid
// 3.32's algorithm of that name sends.
#pragma once
#include <cmath>
#include <utility>
#include <vector>

#include "traces/action_ops.h"

namespace mapsim::collectives {

// Builds the op list of one action; every collective step ends with a wait on its requests.
class Steps {
 public:
  Steps(std::vector<Op>& ops, int tag, bool collective, int self) : ops_(ops), tag_(tag), collective_(collective), self_(self) {}
  void send(int peer, double bytes) { ops_.push_back(make(Op::Isend, peer, bytes)); }
  void recv(int peer, double bytes) { ops_.push_back(make(Op::Irecv, peer, bytes)); }
  void wait() { ops_.push_back(Op{Op::WaitGroup}); }
  void blocking_send(int peer, double bytes) { send(peer, bytes), wait(); }
  void blocking_recv(int peer, double bytes) { recv(peer, bytes), wait(); }
  // A receive waited for on its own (wait_for), while later requests stay pending.
  void recv_tracked(int peer, double bytes) {
    Op op = make(Op::Irecv, peer, bytes);
    op.user = true;
    ops_.push_back(op);
  }
  // Waits for the oldest pending recv_tracked from `peer`.
  void wait_for(int peer) {
    Op op{Op::WaitKey};
    op.peer = peer, op.dst = self_, op.tag = tag_;
    ops_.push_back(op);
  }
  void compute(double flops) {
    if (flops > 0) ops_.push_back(Op{Op::Compute, false, false, false, -1, 0, -1, flops});
  }
  // A step to oneself is a local copy: no message (SMPI's replay gives it no time either).
  void exchange(int to, double send_bytes, int from, double recv_bytes) {
    if (to == self_ && from == self_) return;
    send(to, send_bytes);
    recv(from, recv_bytes);
    wait();
  }

 private:
  Op make(Op::Kind kind, int peer, double bytes) const {
    Op op{kind};
    op.peer = peer;
    op.tag = tag_;
    op.amount = bytes;
    op.collective = collective_;
    return op;
  }
  std::vector<Op>& ops_;
  int tag_;
  bool collective_;
  int self_;  // the rank whose steps these are
};

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

// Sizes are bytes; `element` is the datatype's size where an algorithm splits by element count.
void bcast_scatter_rdb_allgather(Steps& s, int rank, int root, int p, double bytes);
void bcast_scatter_lr_allgather(Steps& s, int rank, int root, int p, double bytes);
void reduce_scatter_gather(Steps& s, int rank, int root, int p, double bytes, int element);
void allreduce_rabenseifner(Steps& s, int rank, int p, double bytes, int element);
void alltoall_scatter_dest(Steps& s, int rank, int p, double block, double received);
void allgather_recursive_doubling(Steps& s, int rank, int p, double block);
void allgather_bruck(Steps& s, int rank, int p, double block);
void allgatherv_recursive_doubling(Steps& s, int rank, int p, const double* counts);
void allgatherv_ompi_bruck(Steps& s, int rank, int p, const double* counts);
void reduce_scatter_recursive_doubling(Steps& s, int rank, int p, const double* counts);

// Open MPI's algorithms (collective_algorithms_ompi*.cpp) and its fixed decision tables, as SimGrid's
// `ompi` selector holds them.
// Each choice returns one of the algorithms named below it.
AlltoallAlgorithm ompi_alltoall_choice(int p, double block);  // BasicLinear, Pair or Bruck
BarrierAlgorithm ompi_barrier_choice(int p);                 // Mapsim (ompi_bruck), OmpiBasicLinear, ...Tree
void barrier(Steps& s, BarrierAlgorithm algorithm, int rank, int p);
GatherAlgorithm ompi_gather_choice(int p, double block);  // Mapsim (ompi_binomial), OmpiBasicLinear, OmpiLinearSync
void gather_ompi(Steps& s, GatherAlgorithm algorithm, int rank, int root, int p, double block, int element);  // the linear two
ScatterAlgorithm ompi_scatter_choice(int p, double block);  // OmpiBinomial, OmpiBasicLinear, OmpiLinearNb
void scatter_ompi(Steps& s, ScatterAlgorithm algorithm, int rank, int root, int p, double block);  // the three above
AllgatherAlgorithm ompi_allgather_choice(int p, double block);  // Pair, Rdb, Bruck, OmpiNeighborExchange, Ring
ReduceAlgorithm ompi_reduce_choice(int p, double bytes);  // one of the Ompi* algorithms
void reduce_ompi(Steps& s, ReduceAlgorithm algorithm, int rank, int root, int p, double bytes, int element);  // Ompi* only
AllgathervAlgorithm ompi_allgatherv_choice(int p, double total);  // Gb, OmpiBruck, MpichRing, OmpiNeighborExchange, Pair
void allgatherv_neighbor_exchange(Steps& s, int rank, int p, const double* counts);  // allgather's too

// collective_algorithms_ompi_bcast.cpp. Where an algorithm leaves a remainder for "the" bcast (SimGrid's
// NTSL and NTSB), it returns the remainder's bytes, for the caller to broadcast with its configured choice.
BcastAlgorithm ompi_bcast_choice(int p, double bytes);  // Mapsim (binomial_tree), Ntsl, OmpiPipeline, ...
double bcast_ntsl(Steps& s, int rank, int root, int p, double bytes, int element);
double bcast_ntsb(Steps& s, int rank, int root, int p, double bytes, int element);
void bcast_ompi_pipeline(Steps& s, int rank, int root, int p, double bytes, int element);
void bcast_ompi_split_bintree(Steps& s, int rank, int root, int p, double bytes, int element);
void bcast_knomial(Steps& s, int rank, int root, int p, double bytes);

// collective_algorithms_ompi_ring.cpp: the ring reductions. allreduce_lr returns the remainder's
// bytes, for the configured allreduce; both return -1 where SimGrid hands the whole reduction to
// redbcast (lr: fewer elements than ranks).
AllreduceAlgorithm ompi_allreduce_choice(int p, double bytes);  // Redbcast, Mapsim (rdb), Lr, ...
double allreduce_lr(Steps& s, int rank, int p, double bytes, int element);
double allreduce_ring_segmented(Steps& s, int rank, int p, double bytes, int element);
ReduceScatterAlgorithm ompi_reduce_scatter_choice(int p, double total);  // Default, OmpiRecursiveHalving, ...
void reduce_scatter_recursive_halving(Steps& s, int rank, int p, const double* counts);
void reduce_scatter_ring(Steps& s, int rank, int p, const double* counts);
void reduce_scatter_butterfly(Steps& s, int rank, int p, const double* counts);

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
