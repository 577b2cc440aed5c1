// The primitive operations a rank executes when a trace is replayed (sim/), or converted (the
// tracer and the OTF2 reader write sub-communicator collectives as them). Every TI action expands
// into a few of them; collectives expand into point-to-point steps, by default with MPICH's algorithms:
//   barrier      dissemination                 bcast       binomial tree
//   reduce       binomial tree                 allreduce   recursive doubling (non-powers of two fold in)
//   alltoall(v)  pairwise exchange (ring order) gather, scatter  binomial trees
//   gatherv, scatterv  linear                  allgather(v)  ring
//   reducescatter  pairwise exchange           scan, exscan  recursive doubling
// and with SimGrid's algorithms of other names, or MPICH's choice among them, where CollectiveChoice
// names them.
#pragma once
#include <vector>

#include "traces/collective_choice.h"
#include "traces/op.h"
#include "traces/ti_trace.h"

namespace mapsim {

// Message tags: user tags are >= 0 (kAnyTag, -1, receives any of them); a collective's steps use
// kCollectiveTagBase - action type, one tag per collective kind, below every user tag, so that they
// never match a user message nor each other.
constexpr int kCollectiveTagBase = -10;
inline int collective_tag(ActionType type) { return kCollectiveTagBase - static_cast<int>(type); }
inline bool is_collective_tag(int tag) { return tag <= kCollectiveTagBase; }

// The user tag on which a sub-communicator's collectives travel when a trace writes them as
// point-to-point messages (the tracer, the OTF2 reader): 2^30 plus a hash of its members (world
// ranks, in communicator order), below 2^30 + 2^29, the same on every member.
inline int sub_communicator_tag(const std::vector<int>& members) {
  unsigned long hash = 1469598103934665603UL;  // FNV-1a
  for (int rank : members) hash = (hash ^ static_cast<unsigned long>(rank)) * 1099511628211UL;
  return (1 << 30) + static_cast<int>(hash % (1UL << 29));
}

// Appends the ops of `action` for rank `rank` of `size` ranks; `choice` picks the algorithm of the
// collectives that have several. Throws Error where an algorithm does not fit the rank count.
void expand_action(const Action& action, const RankTrace& trace, int rank, int size, std::vector<Op>& ops,
                   const CollectiveChoice& choice = {});

// A collective of `members` (world ranks, in communicator order) as the point-to-point actions of
// member `member`'s part in mapsim's algorithm for it: isends and irecvs on `tag` and, at the end of
// every step, a wait for each: how the tracer and the OTF2 reader write sub-communicator collectives.
std::vector<Action> point_to_point(const Action& collective, const RankTrace& context, int member,
                                   const std::vector<int>& members, int tag);

}  // namespace mapsim
