// Internal to sim/: the primitive operations a rank executes. Every TI action expands into a few
// of them; collectives expand into point-to-point steps with MPICH's algorithms:
//   barrier      dissemination                 bcast       binomial tree
//   reduce       binomial tree                 allreduce   recursive doubling (non-powers of two fold in)
//   alltoall(v)  pairwise exchange (ring order) gather, scatter  binomial trees
//   gatherv, scatterv  linear                  allgather(v)  ring
//   reducescatter  pairwise exchange           scan, exscan  recursive doubling
#pragma once
#include <vector>

#include "traces/ti_trace.h"

namespace mapsim::sim {

struct Op {
  enum Kind : unsigned char { Isend, Irecv, WaitGroup, WaitKey, TestKey, WaitAll, Compute, Sleep } kind;
  bool user = false;     // a trace isend/irecv: kept for wait/test/waitall by (src, dst, tag)
  bool distant = false;
  bool collective = false;
  int peer = -1;         // WaitKey/TestKey: src
  int tag = 0;           // WaitKey/TestKey: tag
  int dst = -1;          // WaitKey/TestKey: dst
  double amount = 0;     // bytes, flops or seconds
};

// Appends the ops of `action` for rank `rank` of `size` ranks.
void expand_action(const Action& action, const RankTrace& trace, int rank, int size, std::vector<Op>& ops);

}  // namespace mapsim::sim
