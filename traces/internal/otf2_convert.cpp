#include "traces/internal/otf2_convert.h"

#include <algorithm>

#include "support/error.h"
#include "traces/action_ops.h"

namespace mapsim::otf2 {
namespace {

constexpr double kMinComputeSeconds = 1e-6;  // as the tracer's MAPSIM_TRACE_MIN_GAP

Action& message(Action& a, int peer, uint32_t tag, uint64_t length) {
  a.peer = peer, a.tag = static_cast<int>(tag), a.bytes = static_cast<double>(length);
  return a;
}

ActionType collective_type(OTF2_CollectiveOp op) {
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER: return ActionType::Barrier;
    case OTF2_COLLECTIVE_OP_BCAST: return ActionType::Bcast;
    case OTF2_COLLECTIVE_OP_GATHER: return ActionType::Gather;
    case OTF2_COLLECTIVE_OP_GATHERV: return ActionType::Gatherv;
    case OTF2_COLLECTIVE_OP_SCATTER: return ActionType::Scatter;
    case OTF2_COLLECTIVE_OP_SCATTERV: return ActionType::Scatterv;
    case OTF2_COLLECTIVE_OP_ALLGATHER: return ActionType::Allgather;
    case OTF2_COLLECTIVE_OP_ALLGATHERV: return ActionType::Allgatherv;
    case OTF2_COLLECTIVE_OP_ALLTOALL: return ActionType::Alltoall;
    case OTF2_COLLECTIVE_OP_ALLTOALLV: return ActionType::Alltoallv;
    case OTF2_COLLECTIVE_OP_ALLREDUCE: return ActionType::Allreduce;
    case OTF2_COLLECTIVE_OP_REDUCE: return ActionType::Reduce;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return ActionType::ReduceScatter;
    case OTF2_COLLECTIVE_OP_SCAN: return ActionType::Scan;
    case OTF2_COLLECTIVE_OP_EXSCAN: return ActionType::Exscan;
    default: return ActionType::Location;  // no TI counterpart
  }
}

// The operations whose ranks' blocks differ: each member's own is kept.
bool per_member(OTF2_CollectiveOp op) {
  switch (op) {
    case OTF2_COLLECTIVE_OP_GATHERV: case OTF2_COLLECTIVE_OP_SCATTERV: case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLTOALLV: case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
      return true;
    default: return false;
  }
}

// One member's part in the block, from its byte counts (Score-P's conventions, n ranks, block b:
// bcast/scatter receive b; gather/reduce send b; allreduce/allgather/alltoall send n b; scan rank r
// receives (r + 1) b, exscan r b; reduce_scatter rank i receives n b_i; gatherv/allgatherv/scatterv
// blocks from each rank's own count; alltoallv only its totals: spread evenly over the ranks).
// Returns the estimate of the common block, or stores the member's own.
double block_of(OTF2_CollectiveOp op, int member, int n, uint64_t sent, uint64_t received, std::vector<double>& own) {
  const double s = static_cast<double>(sent), v = static_cast<double>(received);
  switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST: case OTF2_COLLECTIVE_OP_SCATTER: return v;
    case OTF2_COLLECTIVE_OP_GATHER: case OTF2_COLLECTIVE_OP_REDUCE: return s;
    case OTF2_COLLECTIVE_OP_SCAN: return v / (member + 1);
    case OTF2_COLLECTIVE_OP_EXSCAN: return member > 0 ? v / member : s / (n - 1);
    case OTF2_COLLECTIVE_OP_GATHERV: own[member] = s; return 0;
    case OTF2_COLLECTIVE_OP_SCATTERV: own[member] = v; return 0;
    case OTF2_COLLECTIVE_OP_ALLGATHERV: case OTF2_COLLECTIVE_OP_ALLTOALLV: own[member] = s / n; return 0;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: own[member] = v / n; return 0;
    default: return s / n;  // allreduce, allgather, alltoall
  }
}

}  // namespace

void Definitions::fail(const std::string& what) const { throw Error(path + ": " + what); }

int Definitions::world_rank(OTF2_CommRef comm, uint32_t peer) const {
  auto c = comm_group.find(comm);
  if (c == comm_group.end()) return -1;
  const Group& g = groups.at(c->second);
  if (g.type == OTF2_GROUP_TYPE_COMM_SELF) return -2;  // the caller itself
  if (g.flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS) return static_cast<int>(peer);
  return peer < g.members.size() ? static_cast<int>(g.members[peer]) : -1;
}

std::vector<int> Definitions::members(OTF2_CommRef comm) const {
  auto c = comm_group.find(comm);
  if (c == comm_group.end()) return {};
  const Group& g = groups.at(c->second);
  if (g.type == OTF2_GROUP_TYPE_COMM_SELF) return {-2};
  return std::vector<int>(g.members.begin(), g.members.end());
}

Converter::Converter(const Definitions& defs, const Collectives* resolved)
    : defs_(defs), resolved_(resolved), ranks_(defs.num_ranks()) {
  for (int r = 0; r < defs.num_ranks(); ++r) push(r, ActionType::Init), settle(r);
}

Action& Converter::push(int rank, ActionType type, Pending::State state) {
  RankState& s = ranks_[rank];
  s.output.push_back(Pending{Action{type}, state});
  return s.output.back().action;
}

void Converter::pop(int rank) {
  RankState& s = ranks_[rank];
  s.output.pop_front();
  ++s.first;
}

void Converter::settle(int rank) {
  if (resolved_) return;  // a stream hands its actions out
  RankState& s = ranks_[rank];
  while (!s.output.empty() && s.output.front().state != Pending::OpenIrecv) pop(rank);
}

void Converter::enter(int rank, OTF2_TimeStamp time, OTF2_RegionRef region) {
  auto mpi = defs_.mpi_region.find(region);
  if (mpi == defs_.mpi_region.end() || !mpi->second) return;
  RankState& s = ranks_[rank];
  if (s.mpi_depth++ == 0 && s.after_init && time > s.outside_since) {
    const double ticks = static_cast<double>(time - s.outside_since);  // flops per tick: exact for us or ns clocks
    if (ticks / defs_.ticks_per_second >= kMinComputeSeconds)
      push(rank, ActionType::Compute).flops = ticks * (defs_.flops_per_second / defs_.ticks_per_second);
  }
}

void Converter::leave(int rank, OTF2_TimeStamp time, OTF2_RegionRef region) {
  auto mpi = defs_.mpi_region.find(region);
  if (mpi == defs_.mpi_region.end() || !mpi->second) return;
  RankState& s = ranks_[rank];
  if (s.mpi_depth > 0 && --s.mpi_depth == 0) s.outside_since = time, s.after_init = true;
}

// The world rank of the point-to-point peer `peer` of `comm`; false (counted) when it cannot be told.
bool Converter::endpoints(int rank, OTF2_CommRef comm, uint32_t peer, int& world) {
  world = defs_.world_rank(comm, peer);
  if (world == -2) world = rank;
  if (world >= 0 && world < defs_.num_ranks()) return true;
  ++skipped_["point-to-point events on undefined communicators, not converted"];
  return false;
}

void Converter::send(int rank, OTF2_TimeStamp, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  int peer;
  if (endpoints(rank, comm, receiver, peer)) message(push(rank, ActionType::Send), peer, tag, length);
}

void Converter::recv(int rank, OTF2_TimeStamp, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  int peer;
  if (endpoints(rank, comm, sender, peer)) message(push(rank, ActionType::Recv), peer, tag, length);
}

void Converter::isend(int rank, OTF2_TimeStamp, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request) {
  int peer;
  if (!endpoints(rank, comm, receiver, peer)) return;
  message(push(rank, ActionType::Isend), peer, tag, length);
  Action wait{ActionType::Wait};
  wait.peer = rank, wait.root = peer, wait.tag = static_cast<int>(tag);
  ranks_[rank].isend[request] = wait;
}

void Converter::isend_complete(int rank, OTF2_TimeStamp, uint64_t request) {
  auto& open = ranks_[rank].isend;
  auto it = open.find(request);
  if (it == open.end()) return;
  push(rank, ActionType::Wait) = it->second;
  open.erase(it);
}

void Converter::irecv_request(int rank, OTF2_TimeStamp, uint64_t request) {
  RankState& s = ranks_[rank];
  push(rank, ActionType::Irecv, Pending::OpenIrecv);  // its peer, tag and size come with the completion
  long& posted = s.irecv[request];  // 0 (init's number): a new request
  if (posted) at(rank, posted).state = Pending::Ready;  // a request id reused: the earlier irecv stays, as it was posted
  posted = s.first + static_cast<long>(s.output.size()) - 1;
}

void Converter::irecv(int rank, OTF2_TimeStamp, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request) {
  int peer;
  if (!endpoints(rank, comm, sender, peer)) return;
  auto& open = ranks_[rank].irecv;
  auto it = open.find(request);
  if (it == open.end()) {  // no request event (older writers): a receive where it completed
    message(push(rank, ActionType::Recv), peer, tag, length);
    return;
  }
  Pending& posted = at(rank, it->second);
  message(posted.action, peer, tag, length);
  posted.state = Pending::Ready;
  open.erase(it);
  Action& wait = push(rank, ActionType::Wait);
  wait.peer = peer, wait.root = rank, wait.tag = static_cast<int>(tag);
}

void Converter::cancelled(int rank, OTF2_TimeStamp, uint64_t request) {
  RankState& s = ranks_[rank];
  if (auto it = s.irecv.find(request); it != s.irecv.end()) at(rank, it->second).state = Pending::Dropped, s.irecv.erase(it);
  s.isend.erase(request);
  ++skipped_["cancelled requests, dropped"];
}

void Converter::finish(int rank) {
  RankState& s = ranks_[rank];
  for (const auto& [request, sequence] : s.irecv) at(rank, sequence).state = Pending::Dropped, ++skipped_["irecvs never completed, dropped"];
  s.irecv.clear();
  push(rank, ActionType::Finalize);
  settle(rank);
}

const Communicator& Converter::communicator(OTF2_CommRef comm) {
  auto it = communicators_.find(comm);
  if (it != communicators_.end()) return it->second;
  Communicator c;
  c.members = defs_.members(comm);
  const int n = static_cast<int>(c.members.size());
  c.of_rank.assign(defs_.num_ranks(), -1);
  for (int i = 0; i < n; ++i)
    if (c.members[i] >= 0 && c.members[i] < defs_.num_ranks()) c.of_rank[c.members[i]] = i;
  c.world = n == defs_.num_ranks();
  for (int i = 0; c.world && i < n; ++i) c.world = c.members[i] == i;
  c.tag = sub_communicator_tag(c.members);
  return communicators_.emplace(comm, std::move(c)).first->second;
}

void Converter::collective(int rank, OTF2_TimeStamp, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                           uint64_t received) {
  if (op >= OTF2_COLLECTIVE_OP_CREATE_HANDLE) return;  // communicator and window set-up
  const Communicator& c = communicator(comm);
  const int n = static_cast<int>(c.members.size());
  if (n == 1) return;  // MPI_COMM_SELF: nothing moves
  const int member = c.of_rank[rank];
  if (member < 0) {
    ++skipped_["collective calls on undefined communicators, not converted"];
    return;
  }
  const ActionType type = collective_type(op);
  if (type == ActionType::Location) {
    ++skipped_["alltoallw calls, not converted"];
    return;
  }
  const long call = ranks_[rank].calls[comm]++;
  if (resolved_) {
    emit(rank, c, member, resolved_->at(comm).at(call));
    return;
  }
  Tally& t = tallies_[{comm, call}];
  ++t.calls;
  auto same = [&](const Tally::Variant& v) { return v.type == type && v.root == root; };
  auto v = std::find_if(t.variants.begin(), t.variants.end(), same);
  if (v == t.variants.end()) t.variants.push_back({type, root, member, rank, op});
  else if (member < v->member) *v = {type, root, member, rank, op};
  if (per_member(op) && t.own.empty()) t.own.assign(n, 0);
  t.block = std::max(t.block, block_of(op, member, n, sent, received, t.own));
  push(rank, type);  // discarded: the first pass keeps no actions
}

Collectives Converter::resolve() {
  Collectives out;
  for (auto& [key, t] : tallies_) {
    const auto [comm, index] = key;
    const Communicator& c = communicator(comm);
    const int n = static_cast<int>(c.members.size());
    const std::string which = "collective #" + std::to_string(index) + " on " +
                              (c.world ? std::string("MPI_COMM_WORLD") : "communicator " + std::to_string(comm));
    if (t.calls != n)
      defs_.fail(which + ": " + std::to_string(t.calls) + " of " + std::to_string(n) + " ranks took part (truncated trace?)");
    auto by_member = [](const Tally::Variant& a, const Tally::Variant& b) { return a.member < b.member; };
    std::sort(t.variants.begin(), t.variants.end(), by_member);
    const Tally::Variant& first = t.variants.front();
    if (t.variants.size() > 1) {
      const Tally::Variant& other = t.variants[1];  // the lowest member that disagrees with the lowest
      defs_.fail(which + ": rank " + std::to_string(other.rank) + " calls another operation or root than rank " +
                 std::to_string(first.rank) + " (" + action_name(other.type) + " vs " + action_name(first.type) + ")");
    }
    const bool rooted = first.root != OTF2_UNDEFINED_UINT32;
    if (rooted && first.root >= static_cast<uint32_t>(n)) defs_.fail(which + ": root " + std::to_string(first.root) + " is not a rank");
    if (first.op == OTF2_COLLECTIVE_OP_ALLTOALLV) ++skipped_["alltoallv calls spread evenly over the ranks (OTF2 holds per-rank totals only)"];
    std::vector<Resolved>& calls = out[comm];
    calls.push_back(Resolved{first.op, first.root, t.block, std::move(t.own)});
  }
  tallies_.clear();
  return out;
}

void pool_counts(const Resolved& call, int member, Action& a, RankTrace& context) {
  auto pool = [&](const std::vector<double>& counts) {
    a.counts = static_cast<uint32_t>(context.counts.size());
    context.counts.insert(context.counts.end(), counts.begin(), counts.end());
  };
  const std::vector<double>& own = call.own;
  switch (call.op) {
    case OTF2_COLLECTIVE_OP_GATHERV: case OTF2_COLLECTIVE_OP_ALLGATHERV: case OTF2_COLLECTIVE_OP_SCATTERV:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: pool(own); break;
    case OTF2_COLLECTIVE_OP_ALLTOALLV: {
      std::vector<double> counts(2 * own.size(), own[member]);  // sends: own total / n to each
      std::copy(own.begin(), own.end(), counts.begin() + static_cast<long>(own.size()));  // receives: each sender's share
      pool(counts);
      break;
    }
    default: break;
  }
}

// Fills in member `member`'s part of a resolved collective: a world collective as the TI action
// (its counts pooled when handed out), another communicator's as its point-to-point actions.
void Converter::emit(int rank, const Communicator& c, int member, const Resolved& call) {
  Action a{collective_type(call.op)};
  a.root = call.root != OTF2_UNDEFINED_UINT32 ? static_cast<int>(call.root) : 0;
  a.bytes = a.bytes2 = call.block;
  switch (call.op) {
    case OTF2_COLLECTIVE_OP_GATHERV: case OTF2_COLLECTIVE_OP_ALLGATHERV: a.bytes = call.own[member]; break;
    case OTF2_COLLECTIVE_OP_SCATTERV: a.bytes2 = call.own[member]; break;
    default: break;
  }
  if (c.world) {
    RankState& s = ranks_[rank];
    s.output.push_back(Pending{a, Pending::Ready, &call, member});
    return;
  }
  RankTrace context;  // the sub-communicator's counts, for its expansion only
  pool_counts(call, member, a, context);
  for (const Action& p : point_to_point(a, context, member, c.members, c.tag)) push(rank, p.type) = p;
}

namespace {

// A handler as a location reader's callback for its event record.
template <auto Handler>
struct Event;
template <typename... Args, void (Converter::*Handler)(int, OTF2_TimeStamp, Args...)>
struct Event<Handler> {
  static OTF2_CallbackCode callback(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t, void* data, OTF2_AttributeList*,
                                    Args... args) {
    Converter& c = *static_cast<Converter*>(data);
    try {
      const int rank = c.rank_of(location);
      if (rank >= 0) (c.*Handler)(rank, time, args...), c.settle(rank);
    } catch (...) {  // not through libotf2's C frames: kept, rethrown once the read returns
      c.failure = std::current_exception();
      return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
  }
};

}  // namespace

void register_local(OTF2_Reader* reader, OTF2_EvtReader* events, Converter& converter) {
  OTF2_EvtReaderCallbacks* callbacks = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(callbacks, Event<&Converter::enter>::callback);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(callbacks, Event<&Converter::leave>::callback);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(callbacks, Event<&Converter::send>::callback);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(callbacks, Event<&Converter::isend>::callback);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(callbacks, Event<&Converter::isend_complete>::callback);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(callbacks, Event<&Converter::irecv_request>::callback);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(callbacks, Event<&Converter::irecv>::callback);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(callbacks, Event<&Converter::recv>::callback);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(callbacks, Event<&Converter::cancelled>::callback);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(callbacks, Event<&Converter::collective>::callback);
  OTF2_Reader_RegisterEvtCallbacks(reader, events, callbacks, &converter);
  OTF2_EvtReaderCallbacks_Delete(callbacks);
}

}  // namespace mapsim::otf2
