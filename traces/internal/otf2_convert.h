// OTF2 events converted into replay actions one rank's events at a time, shared by the first pass
// over an archive (every rank's events in turn: checks, skipped counts and what each collective needs
// from all its ranks) and the streams that then read each rank's events in windows
// (traces/otf2_trace.cpp). Nothing in the conversion depends on the order of events across ranks.
#pragma once
#include <otf2/otf2.h>

#include <deque>
#include <exception>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "traces/ti_trace.h"

namespace mapsim::otf2 {

struct Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_GroupFlag flags = OTF2_GROUP_FLAG_NONE;
  std::vector<uint64_t> members;
};

// The archive's global definitions as the conversion needs them, and which location is which rank.
struct Definitions {
  std::string path;
  double flops_per_second = 1e9;
  double ticks_per_second = 1;
  std::unordered_map<OTF2_RegionRef, bool> mpi_region;
  std::unordered_map<OTF2_StringRef, std::string> strings;
  std::vector<std::pair<OTF2_LocationRef, OTF2_LocationGroupRef>> locations;  // CPU threads, in definition order
  std::unordered_map<OTF2_GroupRef, Group> groups;
  std::unordered_map<OTF2_CommRef, OTF2_GroupRef> comm_group;
  std::vector<OTF2_LocationRef> world;  // the COMM_LOCATIONS group: location of each world rank
  std::unordered_map<OTF2_LocationRef, int> rank_of;
  std::vector<OTF2_LocationRef> location_of;  // by rank

  int num_ranks() const { return static_cast<int>(location_of.size()); }
  [[noreturn]] void fail(const std::string& what) const;
  // World rank of rank `peer` of communicator `comm`; -1 when the communicator is unknown, -2 for COMM_SELF.
  int world_rank(OTF2_CommRef comm, uint32_t peer) const;
  // Members of `comm` as world ranks, in communicator order ({-2}: COMM_SELF).
  std::vector<int> members(OTF2_CommRef comm) const;
};

// A communicator as its collectives need it, worked out once.
struct Communicator {
  std::vector<int> members;  // world ranks, in communicator order
  std::vector<int> of_rank;  // rank in the communicator of each world rank, -1: not a member
  bool world = false;        // MPI_COMM_WORLD or a copy in the same order: a TI collective
  int tag = 0;               // otherwise its point-to-point expansion's tag
};

// One collective call once every rank's part is known: the operation of its lowest member, the root
// and the per-rank block from Score-P's byte counts; v-collectives each member's block (`own`).
struct Resolved {
  OTF2_CollectiveOp op;
  uint32_t root;
  double block;
  std::vector<double> own;
};
// By communicator, by call number.
using Collectives = std::map<OTF2_CommRef, std::vector<Resolved>>;

// What the first pass keeps of a collective call: how many ranks took part, the distinct
// (operation, root) pairs each with its lowest member (for the error naming two that disagree), the
// block so far and the v-collectives' per-member blocks. O(collectives), nothing per point-to-point event.
struct Tally {
  struct Variant {
    ActionType type;
    uint32_t root;
    int member, rank;
    OTF2_CollectiveOp op;
  };
  int calls = 0;
  std::vector<Variant> variants;
  double block = 0;
  std::vector<double> own;
};

// A converted action waiting to be handed out: an irecv holds back what follows it until its
// completion names its peer (or it is dropped, cancelled or never completed). A world v-collective
// gets its counts when handed out, from `collective`.
struct Pending {
  enum State : char { Ready, OpenIrecv, Dropped };
  Action action;
  State state = Ready;
  const Resolved* collective = nullptr;
  int member = 0;
};

class Converter {
 public:
  // `resolved` null: the first pass, which tallies the collectives and discards the actions.
  Converter(const Definitions& defs, const Collectives* resolved);

  int rank_of(OTF2_LocationRef location) const {
    auto it = defs_.rank_of.find(location);
    return it == defs_.rank_of.end() ? -1 : it->second;
  }
  // One handler per event record converted.
  void enter(int rank, OTF2_TimeStamp time, OTF2_RegionRef region);
  void leave(int rank, OTF2_TimeStamp time, OTF2_RegionRef region);
  void send(int rank, OTF2_TimeStamp, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length);
  void recv(int rank, OTF2_TimeStamp, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length);
  void isend(int rank, OTF2_TimeStamp, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request);
  void isend_complete(int rank, OTF2_TimeStamp, uint64_t request);
  void irecv_request(int rank, OTF2_TimeStamp, uint64_t request);
  void irecv(int rank, OTF2_TimeStamp, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request);
  void cancelled(int rank, OTF2_TimeStamp, uint64_t request);
  void collective(int rank, OTF2_TimeStamp, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t received);
  // After each event: the first pass forgets what is ready.
  void settle(int rank);
  // The rank's events have ended: its open irecvs are dropped (counted), then finalize.
  void finish(int rank);

  // The rank's converted actions not handed out yet, oldest first; pop() hands the oldest out.
  const std::deque<Pending>& output(int rank) const { return ranks_[rank].output; }
  void pop(int rank);
  // Resolves the tallied collectives in (communicator, call) order, with the whole read's errors.
  Collectives resolve();
  const std::map<std::string, long>& skipped() const { return skipped_; }
  // An exception a handler threw inside a libotf2 read (which stopped it), for the reader to rethrow.
  std::exception_ptr failure;
  void rethrow_failure() {
    if (failure) std::rethrow_exception(std::exchange(failure, nullptr));
  }

 private:
  struct RankState {
    int mpi_depth = 0;
    bool after_init = false;
    OTF2_TimeStamp outside_since = 0;  // left MPI here
    std::unordered_map<uint64_t, long> irecv;     // request -> its irecv's sequence number
    std::unordered_map<uint64_t, Action> isend;   // request -> the wait that completes it
    std::unordered_map<OTF2_CommRef, long> calls;  // collectives so far per communicator
    std::deque<Pending> output;
    long first = 0;  // sequence number of output.front()
  };

  Action& push(int rank, ActionType type, Pending::State state = Pending::Ready);
  Pending& at(int rank, long sequence) { return ranks_[rank].output[sequence - ranks_[rank].first]; }
  bool endpoints(int rank, OTF2_CommRef comm, uint32_t peer, int& world);
  const Communicator& communicator(OTF2_CommRef comm);
  void emit(int rank, const Communicator& c, int member, const Resolved& call);

  const Definitions& defs_;
  const Collectives* resolved_;
  std::vector<RankState> ranks_;
  std::unordered_map<OTF2_CommRef, Communicator> communicators_;
  std::map<std::pair<OTF2_CommRef, long>, Tally> tallies_;
  std::map<std::string, long> skipped_;
};

// A world v-collective's counts pool for member `member` (as reading it whole pooled them).
void pool_counts(const Resolved& call, int member, Action& action, RankTrace& context);

// Registers the converter's handlers on one location's reader.
void register_local(OTF2_Reader* reader, OTF2_EvtReader* events, Converter& converter);

}  // namespace mapsim::otf2
