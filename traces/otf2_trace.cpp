#include "traces/otf2_trace.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdarg>
#include <filesystem>
#include <unordered_map>

#include <spdlog/spdlog.h>

#include "support/error.h"
#include "traces/action_ops.h"

namespace mapsim {
namespace {

constexpr double kMinComputeSeconds = 1e-6;  // as the tracer's MAPSIM_TRACE_MIN_GAP

// One rank's part of a collective call, decoded once every rank's is known.
struct CollectiveCall {
  int rank;       // world rank
  int member;     // rank in the communicator
  size_t action;
  OTF2_CollectiveOp op;
  uint32_t root;  // rank in the communicator
  uint64_t sent, received;
};

struct Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_GroupFlag flags = OTF2_GROUP_FLAG_NONE;
  std::vector<uint64_t> members;
};

// The reader's state: definitions first, then events in time order across locations.
struct Reading {
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
  struct RankState {
    int mpi_depth = 0;
    bool after_init = false;
    OTF2_TimeStamp outside_since = 0;  // left MPI here
    std::unordered_map<uint64_t, size_t> irecv;   // request -> its irecv action
    std::unordered_map<uint64_t, Action> isend;   // request -> the wait that completes it
    std::unordered_map<OTF2_CommRef, long> calls;  // collectives so far per communicator
  };
  std::vector<RankState> state;
  Trace trace;
  std::vector<std::vector<char>> dropped;  // actions removed again (a cancelled or never completed irecv)
  std::map<std::pair<OTF2_CommRef, long>, std::vector<CollectiveCall>> collectives;
  std::map<std::pair<int, size_t>, std::vector<Action>> expansions;  // (rank, action): a sub-communicator
                                                                     // collective's point-to-point actions
  std::map<std::string, long> skipped;

  [[noreturn]] void fail(const std::string& what) const { throw Error(path + ": " + what); }

  Action& push(int rank, ActionType type) {
    trace.ranks[rank].actions.push_back(Action{type});
    dropped[rank].push_back(0);
    return trace.ranks[rank].actions.back();
  }

  // World rank of rank `peer` of communicator `comm`; -1 when the communicator is unknown.
  int world_rank(OTF2_CommRef comm, uint32_t peer) const {
    auto c = comm_group.find(comm);
    if (c == comm_group.end()) return -1;
    const Group& g = groups.at(c->second);
    if (g.type == OTF2_GROUP_TYPE_COMM_SELF) return -2;  // the caller itself
    if (g.flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS) return static_cast<int>(peer);
    return peer < g.members.size() ? static_cast<int>(g.members[peer]) : -1;
  }
  // Members of `comm` as world ranks, in communicator order.
  std::vector<int> members(OTF2_CommRef comm) const {
    auto c = comm_group.find(comm);
    if (c == comm_group.end()) return {};
    const Group& g = groups.at(c->second);
    if (g.type == OTF2_GROUP_TYPE_COMM_SELF) return {-2};
    return std::vector<int>(g.members.begin(), g.members.end());
  }
  // The rank of world rank `rank` in `comm` (-1: not a member), and the communicator's size; built
  // once per communicator, as every rank's every collective asks.
  struct Membership {
    int size;
    std::vector<int> of_rank;
  };
  std::unordered_map<OTF2_CommRef, Membership> memberships;
  const Membership& membership(OTF2_CommRef comm) {
    auto it = memberships.find(comm);
    if (it != memberships.end()) return it->second;
    const std::vector<int> list = members(comm);
    Membership m{static_cast<int>(list.size()), std::vector<int>(trace.num_ranks(), -1)};
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i] >= 0 && list[i] < trace.num_ranks()) m.of_rank[list[i]] = static_cast<int>(i);
    return memberships.emplace(comm, std::move(m)).first->second;
  }
};

Reading& reading(void* data) { return *static_cast<Reading*>(data); }

// -- definitions --
OTF2_CallbackCode on_clock(void* data, uint64_t resolution, uint64_t, uint64_t, uint64_t) {
  reading(data).ticks_per_second = static_cast<double>(resolution);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text) {
  reading(data).strings[self] = text;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType type, uint64_t,
                              OTF2_LocationGroupRef group) {
  if (type == OTF2_LOCATION_TYPE_CPU_THREAD) reading(data).locations.emplace_back(self, group);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t) {
  Reading& r = reading(data);
  const std::string& text = r.strings[name];
  r.mpi_region[self] = paradigm == OTF2_PARADIGM_MPI || text.rfind("MPI_", 0) == 0;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm,
                           OTF2_GroupFlag flags, uint32_t count, const uint64_t* members) {
  Reading& r = reading(data);
  r.groups[self] = Group{type, flags, std::vector<uint64_t>(members, members + count)};
  if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS) r.world.assign(members, members + count);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag) {
  reading(data).comm_group[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

// -- events --
int rank_of(Reading& r, OTF2_LocationRef location) {
  auto it = r.rank_of.find(location);
  return it == r.rank_of.end() ? -1 : it->second;
}

OTF2_CallbackCode on_enter(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*, OTF2_RegionRef region) {
  Reading& r = reading(data);
  const int rank = rank_of(r, location);
  if (rank < 0 || !r.mpi_region[region]) return OTF2_CALLBACK_SUCCESS;
  Reading::RankState& s = r.state[rank];
  if (s.mpi_depth++ == 0 && s.after_init && time > s.outside_since) {
    const double ticks = static_cast<double>(time - s.outside_since);  // flops per tick: exact for us or ns clocks
    if (ticks / r.ticks_per_second >= kMinComputeSeconds)
      r.push(rank, ActionType::Compute).flops = ticks * (r.flops_per_second / r.ticks_per_second);
  }
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_leave(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*, OTF2_RegionRef region) {
  Reading& r = reading(data);
  const int rank = rank_of(r, location);
  if (rank < 0 || !r.mpi_region[region]) return OTF2_CALLBACK_SUCCESS;
  Reading::RankState& s = r.state[rank];
  if (s.mpi_depth > 0 && --s.mpi_depth == 0) s.outside_since = time, s.after_init = true;
  return OTF2_CALLBACK_SUCCESS;
}

// The rank of `location` and the world rank of its point-to-point peer `peer` of `comm`; false (the
// peer's communicator unknown: counted) when either cannot be told.
bool endpoints(Reading& r, OTF2_LocationRef location, OTF2_CommRef comm, uint32_t peer, int& rank, int& world) {
  rank = rank_of(r, location);
  if (rank < 0) return false;
  world = r.world_rank(comm, peer);
  if (world == -2) world = rank;
  if (world >= 0 && world < r.trace.num_ranks()) return true;
  ++r.skipped["point-to-point events on undefined communicators, not converted"];
  return false;
}

Action& message(Action& a, int peer, uint32_t tag, uint64_t length) {
  a.peer = peer, a.tag = static_cast<int>(tag), a.bytes = static_cast<double>(length);
  return a;
}

// MpiSend and MpiRecv: a send or recv where the event is.
template <ActionType type>
OTF2_CallbackCode on_message(OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint32_t other,
                             OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  Reading& r = reading(data);
  int rank, peer;
  if (endpoints(r, location, comm, other, rank, peer)) message(r.push(rank, type), peer, tag, length);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_isend(OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint32_t receiver,
                           OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request) {
  Reading& r = reading(data);
  int rank, peer;
  if (!endpoints(r, location, comm, receiver, rank, peer)) return OTF2_CALLBACK_SUCCESS;
  message(r.push(rank, ActionType::Isend), peer, tag, length);
  Action wait{ActionType::Wait};
  wait.peer = rank, wait.root = peer, wait.tag = static_cast<int>(tag);
  r.state[rank].isend[request] = wait;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_isend_complete(OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint64_t request) {
  Reading& r = reading(data);
  const int rank = rank_of(r, location);
  if (rank < 0) return OTF2_CALLBACK_SUCCESS;
  auto& open = r.state[rank].isend;
  auto it = open.find(request);
  if (it == open.end()) return OTF2_CALLBACK_SUCCESS;
  r.push(rank, ActionType::Wait) = it->second;
  open.erase(it);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_irecv_request(OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint64_t request) {
  Reading& r = reading(data);
  const int rank = rank_of(r, location);
  if (rank < 0) return OTF2_CALLBACK_SUCCESS;
  r.push(rank, ActionType::Irecv);  // its peer, tag and size come with the completion
  r.state[rank].irecv[request] = r.trace.ranks[rank].actions.size() - 1;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_irecv(OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint32_t sender,
                           OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request) {
  Reading& r = reading(data);
  int rank, peer;
  if (!endpoints(r, location, comm, sender, rank, peer)) return OTF2_CALLBACK_SUCCESS;
  auto& open = r.state[rank].irecv;
  auto it = open.find(request);
  if (it == open.end()) {  // no request event (older writers): a receive where it completed
    message(r.push(rank, ActionType::Recv), peer, tag, length);
    return OTF2_CALLBACK_SUCCESS;
  }
  message(r.trace.ranks[rank].actions[it->second], peer, tag, length);
  open.erase(it);
  Action& wait = r.push(rank, ActionType::Wait);
  wait.peer = peer, wait.root = rank, wait.tag = static_cast<int>(tag);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_cancelled(OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*, uint64_t request) {
  Reading& r = reading(data);
  const int rank = rank_of(r, location);
  if (rank < 0) return OTF2_CALLBACK_SUCCESS;
  Reading::RankState& s = r.state[rank];
  if (auto it = s.irecv.find(request); it != s.irecv.end()) r.dropped[rank][it->second] = 1, s.irecv.erase(it);
  s.isend.erase(request);
  ++r.skipped["cancelled requests, dropped"];
  return OTF2_CALLBACK_SUCCESS;
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

OTF2_CallbackCode on_collective(OTF2_LocationRef location, OTF2_TimeStamp, void* data, OTF2_AttributeList*, OTF2_CollectiveOp op,
                                OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t received) {
  Reading& r = reading(data);
  const int rank = rank_of(r, location);
  if (rank < 0 || op >= OTF2_COLLECTIVE_OP_CREATE_HANDLE) return OTF2_CALLBACK_SUCCESS;  // communicator and window set-up
  const Reading::Membership& members = r.membership(comm);
  if (members.size == 1) return OTF2_CALLBACK_SUCCESS;  // MPI_COMM_SELF: nothing moves
  const int member = members.of_rank[rank];
  if (member < 0) {
    ++r.skipped["collective calls on undefined communicators, not converted"];
    return OTF2_CALLBACK_SUCCESS;
  }
  const ActionType type = collective_type(op);
  if (type == ActionType::Location) {
    ++r.skipped["alltoallw calls, not converted"];
    return OTF2_CALLBACK_SUCCESS;
  }
  r.push(rank, type);
  const long call = r.state[rank].calls[comm]++;
  r.collectives[{comm, call}].push_back({rank, member, r.trace.ranks[rank].actions.size() - 1, op, root, sent, received});
  return OTF2_CALLBACK_SUCCESS;
}

// Fills in one collective from every rank's byte counts (Score-P's conventions, n ranks, block b:
// bcast/scatter receive b; gather/reduce send b; allreduce/allgather/alltoall send n b; scan rank r
// receives (r + 1) b, exscan r b; reduce_scatter rank i receives n b_i; gatherv/allgatherv/scatterv
// blocks from each rank's own count; alltoallv only its totals: spread evenly over the ranks).
void resolve(Reading& r, OTF2_CommRef comm, long index, std::vector<CollectiveCall>& calls) {
  const std::vector<int> members = r.members(comm);
  const int n = static_cast<int>(members.size());
  bool world = n == r.trace.num_ranks();  // MPI_COMM_WORLD or a copy in the same order: a TI collective
  for (int i = 0; world && i < n; ++i) world = members[i] == i;
  const std::string which = "collective #" + std::to_string(index) + " on " +
                            (world ? std::string("MPI_COMM_WORLD") : "communicator " + std::to_string(comm));
  if (static_cast<int>(calls.size()) != n)
    r.fail(which + ": " + std::to_string(calls.size()) + " of " + std::to_string(n) + " ranks took part (truncated trace?)");
  std::sort(calls.begin(), calls.end(), [](const CollectiveCall& a, const CollectiveCall& b) { return a.member < b.member; });
  const CollectiveCall& first = calls.front();
  for (const CollectiveCall& c : calls)
    if (collective_type(c.op) != collective_type(first.op) || c.root != first.root)
      r.fail(which + ": rank " + std::to_string(c.rank) + " calls another operation or root than rank " +
             std::to_string(first.rank) + " (" + action_name(collective_type(c.op)) + " vs " +
             action_name(collective_type(first.op)) + ")");
  double block = 0;  // the per-rank block, largest estimate over the ranks (in-place roots report less)
  std::vector<double> own(n);  // v-collectives: each rank's block
  for (const CollectiveCall& c : calls) {
    const double s = static_cast<double>(c.sent), v = static_cast<double>(c.received);
    double b = 0;
    switch (first.op) {
      case OTF2_COLLECTIVE_OP_BCAST: case OTF2_COLLECTIVE_OP_SCATTER: b = v; break;
      case OTF2_COLLECTIVE_OP_GATHER: case OTF2_COLLECTIVE_OP_REDUCE: b = s; break;
      case OTF2_COLLECTIVE_OP_SCAN: b = v / (c.member + 1); break;
      case OTF2_COLLECTIVE_OP_EXSCAN: b = c.member > 0 ? v / c.member : s / (n - 1); break;
      case OTF2_COLLECTIVE_OP_GATHERV: own[c.member] = s; break;
      case OTF2_COLLECTIVE_OP_SCATTERV: own[c.member] = v; break;
      case OTF2_COLLECTIVE_OP_ALLGATHERV: case OTF2_COLLECTIVE_OP_ALLTOALLV: own[c.member] = s / n; break;
      case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: own[c.member] = v / n; break;
      default: b = s / n; break;  // allreduce, allgather, alltoall
    }
    block = std::max(block, b);
  }
  const bool rooted = first.root != OTF2_UNDEFINED_UINT32;
  if (rooted && first.root >= static_cast<uint32_t>(n)) r.fail(which + ": root " + std::to_string(first.root) + " is not a rank");
  const int tag = sub_communicator_tag(members);
  for (const CollectiveCall& c : calls) {
    RankTrace world_rank;  // a sub-communicator's collective is resolved aside, then expanded
    RankTrace& rank = world ? r.trace.ranks[c.rank] : world_rank;
    Action sub{collective_type(first.op)};
    Action& a = world ? rank.actions[c.action] : sub;
    a.root = rooted ? static_cast<int>(first.root) : 0;
    a.bytes = a.bytes2 = block;
    auto pool = [&](const std::vector<double>& counts) {
      a.counts = static_cast<uint32_t>(rank.counts.size());
      rank.counts.insert(rank.counts.end(), counts.begin(), counts.end());
    };
    switch (first.op) {
      case OTF2_COLLECTIVE_OP_GATHERV: case OTF2_COLLECTIVE_OP_ALLGATHERV: a.bytes = own[c.member], pool(own); break;
      case OTF2_COLLECTIVE_OP_SCATTERV: a.bytes2 = own[c.member], pool(own); break;
      case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: pool(own); break;
      case OTF2_COLLECTIVE_OP_ALLTOALLV: {
        std::vector<double> counts(std::size_t(2) * n, own[c.member]);  // sends: own total / n to each
        std::copy(own.begin(), own.end(), counts.begin() + n);         // receives: each sender's share
        pool(counts);
        break;
      }
      default: break;
    }
    if (!world) r.expansions[{c.rank, c.action}] = point_to_point(a, rank, c.member, members, tag);
  }
  if (first.op == OTF2_COLLECTIVE_OP_ALLTOALLV) ++r.skipped["alltoallv calls spread evenly over the ranks (OTF2 holds per-rank totals only)"];
}

template <typename F>
void check(const Reading& r, OTF2_ErrorCode code, F what) {
  if (code != OTF2_SUCCESS) r.fail(std::string(what) + ": " + OTF2_Error_GetDescription(code));
}

// OTF2 prints its errors to stderr by default; the codes are reported in the one error line instead.
OTF2_ErrorCode quiet(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char*, va_list) { return code; }

bool is_otf2_path(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".otf2") == 0; }

}  // namespace

Otf2Import read_otf2_trace(const std::string& path, double flops_per_second) {
  Reading r;
  r.path = path;
  r.flops_per_second = flops_per_second;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) r.fail("cannot open OTF2 archive (expected the anchor file traces.otf2)");
  OTF2_Error_RegisterCallback(quiet, nullptr);
  OTF2_Reader* reader = OTF2_Reader_Open(path.c_str());
  if (!reader) r.fail("not an OTF2 archive");
  struct Closer {
    OTF2_Reader* reader;
    ~Closer() { OTF2_Reader_Close(reader); }
  } closer{reader};
  check(r, OTF2_Reader_SetSerialCollectiveCallbacks(reader), "OTF2 set-up");
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  if (!defs) r.fail("not an OTF2 archive (no global definitions)");
  OTF2_GlobalDefReaderCallbacks* def_callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(def_callbacks, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(def_callbacks, on_string);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(def_callbacks, on_location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(def_callbacks, on_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(def_callbacks, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(def_callbacks, on_comm);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, def_callbacks, &r);
  OTF2_GlobalDefReaderCallbacks_Delete(def_callbacks);
  uint64_t count = 0;
  check(r, OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &count), "reading the definitions");
  if (r.ticks_per_second <= 0) r.fail("the clock resolution is 0");

  // Ranks: the COMM_LOCATIONS group where there is one, else the first thread of each process.
  if (!r.world.empty()) {
    for (size_t i = 0; i < r.world.size(); ++i) r.rank_of[r.world[i]] = static_cast<int>(i);
  } else {
    std::map<OTF2_LocationGroupRef, OTF2_LocationRef> first;
    for (auto [location, group] : r.locations) first.emplace(group, location);
    int rank = 0;
    for (auto [group, location] : first) r.rank_of[location] = rank++;
  }
  const int ranks = static_cast<int>(r.rank_of.size());
  if (ranks == 0) r.fail("no MPI ranks (no locations of type CPU thread)");
  r.trace.ranks.resize(ranks);
  r.state.resize(ranks);
  r.dropped.resize(ranks);
  for (int i = 0; i < ranks; ++i) r.trace.ranks[i].file = path, r.push(i, ActionType::Init);

  for (auto [location, group] : r.rank_of) check(r, OTF2_Reader_SelectLocation(reader, location), "selecting a location");
  const bool def_files = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  check(r, OTF2_Reader_OpenEvtFiles(reader), "opening the event files");
  for (auto [location, rank] : r.rank_of) {
    if (def_files) {  // local definitions hold the id mappings of the events
      if (OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, location)) {
        uint64_t read = 0;
        check(r, OTF2_Reader_ReadAllLocalDefinitions(reader, local, &read), "reading local definitions");
        OTF2_Reader_CloseDefReader(reader, local);
      }
    }
    OTF2_Reader_GetEvtReader(reader, location);
  }
  if (def_files) OTF2_Reader_CloseDefFiles(reader);
  OTF2_GlobalEvtReader* events = OTF2_Reader_GetGlobalEvtReader(reader);
  if (!events) r.fail("cannot read the events");
  OTF2_GlobalEvtReaderCallbacks* callbacks = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(callbacks, on_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(callbacks, on_leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(callbacks, on_message<ActionType::Send>);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(callbacks, on_isend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(callbacks, on_isend_complete);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(callbacks, on_irecv_request);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(callbacks, on_irecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(callbacks, on_message<ActionType::Recv>);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(callbacks, on_cancelled);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(callbacks, on_collective);
  OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, callbacks, &r);
  OTF2_GlobalEvtReaderCallbacks_Delete(callbacks);
  check(r, OTF2_Reader_ReadAllGlobalEvents(reader, events, &count), "reading the events");
  OTF2_Reader_CloseGlobalEvtReader(reader, events);
  OTF2_Reader_CloseEvtFiles(reader);

  std::map<OTF2_CommRef, long> index;
  for (auto& [key, calls] : r.collectives) resolve(r, key.first, index[key.first]++, calls);
  Otf2Import result;
  for (int i = 0; i < ranks; ++i) {
    for (const auto& [request, action] : r.state[i].irecv) r.dropped[i][action] = 1, ++r.skipped["irecvs never completed, dropped"];
    r.push(i, ActionType::Finalize);
    std::vector<Action>& actions = r.trace.ranks[i].actions;
    std::vector<Action> kept;
    for (size_t k = 0; k < actions.size(); ++k) {
      if (r.dropped[i][k]) continue;
      auto expanded = r.expansions.find({i, k});
      if (expanded == r.expansions.end()) kept.push_back(actions[k]);
      else kept.insert(kept.end(), expanded->second.begin(), expanded->second.end());
    }
    actions.swap(kept);
  }
  result.trace = std::move(r.trace);
  result.skipped = std::move(r.skipped);
  return result;
}

// What was not converted is a warning where a trace is read for a run.
const bool kRegistered = register_trace_format({is_otf2_path, [](const std::string& path) {
  Otf2Import imported = read_otf2_trace(path);
  for (const auto& [what, count] : imported.skipped) spdlog::warn("{}: OTF2: {} {} (docs/traces.md)", path, count, what);
  return std::move(imported.trace);
}});

}  // namespace mapsim
