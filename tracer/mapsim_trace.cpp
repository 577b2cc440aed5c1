// libmapsim-trace.so: a PMPI interposition library that records an MPI program as SimGrid 3.32
// time-independent traces (one file per rank plus index.txt), which mapsim and `smpirun -replay`
// replay. Load it with LD_PRELOAD (or link it before -lmpi). Configuration (docs/traces.md):
//   MAPSIM_TRACE_DIR      output directory (default mapsim-trace), created by rank 0
//   MAPSIM_TRACE_COMPUTE  compute (default: time between MPI calls x flops rate), sleep, or none
//   MAPSIM_TRACE_FLOPS    flop/s for compute actions (default 1e9)
//   MAPSIM_TRACE_MIN_GAP  gaps shorter than this many seconds are not recorded (default 1e-6)
// A malformed value is one warning on rank 0 and the default. Each rank writes rank-N.txt.partial,
// created new, and renames it into place at MPI_Finalize (support/created_file.h): a link planted in the
// folder is replaced, never written through.
// Sizes are written in bytes (the default datatype MPI_BYTE). Point-to-point on sub-communicators
// is translated to world ranks; a collective on a sub-communicator is written as the point-to-point
// messages of mapsim's algorithm for it (traces/collective_algorithms.cpp), in world ranks, on a tag reserved for
// that communicator; an irecv from MPI_ANY_SOURCE becomes a recv from the rank that sent, where it
// completes. Calls the format cannot express (persistent and non-blocking-collective requests,
// Alltoallw, neighbourhood collectives, one-sided operations) are counted, written to skipped.txt and reported on stderr
// by rank 0 at MPI_Finalize.
#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <charconv>
#include <initializer_list>
#include <climits>
#include <functional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "support/created_file.h"
#include "traces/action_ops.h"

namespace {

enum Skip { kUnknownRequest, kPersistent, kNonblockingCollective, kAlltoallw, kNeighborCollective, kOneSided, kSkipKinds };
const char* const kSkipNames[kSkipKinds] = {"waits on requests the tracer did not create",
                                            "persistent requests (MPI_Send_init, MPI_Recv_init: their MPI_Start)",
                                            "non-blocking collectives (MPI_Ibcast, MPI_Iallreduce, ...)",
                                            "MPI_Alltoallw calls",
                                            "neighbourhood collectives (MPI_Neighbor_*)",
                                            "one-sided operations (MPI_Put, MPI_Get, MPI_Accumulate, ...)"};


// Send and receive from MPI_PROC_NULL move nothing and are not written; their requests complete as kNoMessage.
constexpr int kNoMessage = -2;

struct PendingRequest {
  MPI_Request request;
  int src, dst, tag;               // src -1: an irecv from MPI_ANY_SOURCE, written as a recv when it completes;
                                   // kNoMessage: to or from MPI_PROC_NULL, nothing written
  MPI_Datatype type = MPI_BYTE;    // for the deferred recv: what arrived, and from which rank of comm
  MPI_Comm comm = MPI_COMM_WORLD;
};

// One compute action holds at most 2^53 flops (where the trace format's counts stop being exact).
constexpr double kMaxActionFlops = 9007199254740992.0;

struct Tracer {
  bool started = false;  // MPI_Init ran: MPI_Finalize's reductions then involve every rank
  bool active = false;   // this rank records
  int rank = 0, size = 1;
  FILE* out = nullptr;
  char* buffer = nullptr;
  double last = 0, flops = 1e9, min_gap = 1e-6;
  enum { Compute, Sleep, None } compute = Compute;
  std::string dir = "mapsim-trace", rank_file;
  long skipped[kSkipKinds] = {};
  PendingRequest* pending = nullptr;  // open requests (a small array: searched linearly)
  int pending_count = 0, pending_capacity = 0;
};

Tracer t;

// "RANK ACTION A B C\n" without printf: the tracer's per-call cost is mostly this line.
void emit(const char* action, std::initializer_list<long> args) {
  char line[256];
  char* p = std::to_chars(line, line + 32, t.rank).ptr;
  *p++ = ' ';
  for (const char* a = action; *a;) *p++ = *a++;
  for (long v : args) {
    *p++ = ' ';
    p = std::to_chars(p, line + sizeof line - 1, v).ptr;
  }
  *p++ = '\n';
  fwrite_unlocked(line, 1, static_cast<size_t>(p - line), t.out);
}

// Records the time spent outside MPI since the last call returned.
void enter() {
  if (!t.active) return;
  const double now = PMPI_Wtime();
  const double gap = now - t.last;
  if (gap < t.min_gap || t.compute == Tracer::None) return;
  if (t.compute == Tracer::Sleep) {
    std::fprintf(t.out, "%d sleep %.9g\n", t.rank, gap);
    return;
  }
  double flops = gap * t.flops;
  for (; flops > kMaxActionFlops; flops -= kMaxActionFlops) std::fprintf(t.out, "%d compute %.0f\n", t.rank, kMaxActionFlops);
  std::fprintf(t.out, "%d compute %.0f\n", t.rank, flops);
}

void leave() {
  if (t.active) t.last = PMPI_Wtime();
}

long bytes(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<long>(count) * size;
}

// A rank of `comm` as a rank of MPI_COMM_WORLD.
int world(MPI_Comm comm, int rank) {
  if (comm == MPI_COMM_WORLD || rank < 0) return rank;
  MPI_Group group, world_group;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int translated = rank;
  PMPI_Group_translate_ranks(group, 1, &rank, world_group, &translated);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world_group);
  return translated;
}

void remember(const PendingRequest& request) {
  if (t.pending_count == t.pending_capacity) {
    t.pending_capacity = t.pending_capacity ? 2 * t.pending_capacity : 256;
    t.pending = static_cast<PendingRequest*>(std::realloc(t.pending, sizeof(PendingRequest) * t.pending_capacity));
  }
  t.pending[t.pending_count++] = request;
}

// A receive as what arrived (MPI_ANY_SOURCE / MPI_ANY_TAG resolved); nothing when it matched MPI_PROC_NULL.
void emit_received(MPI_Comm comm, const MPI_Status* status, MPI_Datatype type) {
  if (status->MPI_SOURCE < 0) return;
  int received = 0;
  PMPI_Get_count(status, type, &received);
  emit("recv", {world(comm, status->MPI_SOURCE), status->MPI_TAG, bytes(received, type)});
}

// Records the completion of `request` and forgets it: a wait, or for an irecv from MPI_ANY_SOURCE
// a recv from the rank `status` names; nothing for MPI_PROC_NULL.
void completed(MPI_Request request, const MPI_Status* status) {
  if (request == MPI_REQUEST_NULL) return;
  for (int i = 0; i < t.pending_count; ++i) {
    const PendingRequest& p = t.pending[i];
    if (p.request != request) continue;
    if (p.src >= 0) emit("wait", {p.src, p.dst, p.tag});
    if (p.src == -1) emit_received(p.comm, status, p.type);
    t.pending[i] = t.pending[--t.pending_count];
    return;
  }
  ++t.skipped[kUnknownRequest];
}

// The statuses a completion call fills: the caller's, or ours when it passed MPI_STATUS(ES)_IGNORE
// (an irecv from MPI_ANY_SOURCE needs the source that arrived).
struct Statuses {
  Statuses(int count, MPI_Status* given)
      : own(given ? nullptr : static_cast<MPI_Status*>(std::malloc(sizeof(MPI_Status) * (count > 0 ? count : 1)))),
        at(given ? given : own) {}
  ~Statuses() { std::free(own); }
  Statuses(const Statuses&) = delete;
  Statuses& operator=(const Statuses&) = delete;
  MPI_Status* own;
  MPI_Status* at;
};

// The handles of `requests` before an MPI call that may free some (MPI_Waitany, MPI_Testsome, ...).
struct RequestCopy {
  explicit RequestCopy(int count, const MPI_Request* requests)
      : handles(static_cast<MPI_Request*>(std::malloc(sizeof(MPI_Request) * (count > 0 ? count : 1)))) {
    for (int i = 0; i < count; ++i) handles[i] = requests[i];
  }
  ~RequestCopy() { std::free(handles); }
  RequestCopy(const RequestCopy&) = delete;
  RequestCopy& operator=(const RequestCopy&) = delete;
  MPI_Request* handles;
};

// After a call that completed the requests at indices[0..count) of `before`, with statuses[0..count).
void completed_some(const RequestCopy& before, int count, const int* indices, const MPI_Status* statuses) {
  if (count == MPI_UNDEFINED) return;
  for (int i = 0; i < count; ++i) completed(before.handles[indices[i]], &statuses[i]);
}

// Every send mode moves the same bytes: MPI_Send, Ssend, Bsend, Rsend are `send`; the
// non-blocking ones `isend`.
using BlockingSend = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm);
using NonblockingSend = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);

int record_send(BlockingSend call, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  enter();
  if (t.active && dest != MPI_PROC_NULL) emit("send", {world(comm, dest), tag, bytes(count, type)});
  const int rc = call(buf, count, type, dest, tag, comm);
  leave();
  return rc;
}

int record_isend(NonblockingSend call, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  enter();
  const int rc = call(buf, count, type, dest, tag, comm, request);
  if (t.active && dest == MPI_PROC_NULL) {
    remember({*request, kNoMessage, t.rank, tag});
  } else if (t.active) {
    const int to = world(comm, dest);
    emit("isend", {to, tag, bytes(count, type)});
    remember({*request, t.rank, to, tag});
  }
  leave();
  return rc;
}

// MPI_Sendrecv(_replace) as its two halves, so that the tags survive (sendRecv in TI traces has tag 0).
void emit_sendrecv(MPI_Comm comm, int dest, int sendtag, long sent, const MPI_Status* status, MPI_Datatype type) {
  if (dest != MPI_PROC_NULL) std::fprintf(t.out, "%d isend %d %d %ld\n", t.rank, world(comm, dest), sendtag, sent);
  emit_received(comm, status, type);
  if (dest != MPI_PROC_NULL) std::fprintf(t.out, "%d wait %d %d %d\n", t.rank, t.rank, world(comm, dest), sendtag);
}

// MPI_Waitsome / MPI_Testsome: each request the call completed.
using SomeCall = int (*)(int, MPI_Request[], int*, int[], MPI_Status[]);
int record_some(SomeCall call, int count, MPI_Request requests[], int* done, int indices[], MPI_Status statuses[]) {
  enter();
  const RequestCopy before(t.active ? count : 0, requests);
  const Statuses status(count, statuses == MPI_STATUSES_IGNORE ? nullptr : statuses);
  const int rc = call(count, requests, done, indices, status.at);
  if (t.active) completed_some(before, *done, indices, status.at);
  leave();
  return rc;
}

// A sub-communicator's world ranks and the tag of its collectives' messages, cached on it.
struct SubCommunicator {
  std::vector<int> world;
  int tag;
};
int sub_keyval = MPI_KEYVAL_INVALID;

int free_sub(MPI_Comm, int, void* value, void*) {
  delete static_cast<SubCommunicator*>(value);
  return MPI_SUCCESS;
}

const SubCommunicator& sub_communicator(MPI_Comm comm) {
  if (sub_keyval == MPI_KEYVAL_INVALID) PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_sub, &sub_keyval, nullptr);
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, sub_keyval, &value, &found);
  if (found) return *static_cast<SubCommunicator*>(value);
  auto* sub = new SubCommunicator;
  int size = 0;
  PMPI_Comm_size(comm, &size);
  for (int r = 0; r < size; ++r) sub->world.push_back(world(comm, r));
  sub->tag = mapsim::sub_communicator_tag(sub->world);
  PMPI_Comm_set_attr(comm, sub_keyval, sub);
  return *sub;
}

// A collective on a sub-communicator, as the messages of mapsim's algorithm in world ranks: isends and
// irecvs on the communicator's tag, and a wait for each at the end of every step. `counts`: the
// v-collectives' bytes per rank of `comm` (alltoallv: sends, then receives).
void sub_collective(MPI_Comm comm, mapsim::ActionType type, double sent = 0, double received = 0, int root = 0,
                    std::vector<double> counts = {}) {
  int me = 0, size = 1;
  PMPI_Comm_rank(comm, &me);
  PMPI_Comm_size(comm, &size);
  if (size == 1) return;  // nothing moves
  const SubCommunicator& sub = sub_communicator(comm);
  mapsim::Action action{type};
  action.bytes = sent, action.bytes2 = received, action.root = root;
  mapsim::RankTrace context;
  context.counts = std::move(counts);
  for (const mapsim::Action& a : mapsim::point_to_point(action, context, me, sub.world, sub.tag)) {
    if (a.type == mapsim::ActionType::Wait) emit("wait", {a.peer, a.root, a.tag});
    else emit(a.type == mapsim::ActionType::Isend ? "isend" : "irecv", {a.peer, a.tag, static_cast<long>(a.bytes)});
  }
}

// v-collective counts in bytes, from the int counts of `type` (nullptr: zeros).
std::vector<double> byte_counts(const int* counts, int n, MPI_Datatype type) {
  std::vector<double> out(n, 0);
  if (counts)
    for (int r = 0; r < n; ++r) out[r] = static_cast<double>(bytes(counts[r], type));
  return out;
}

int comm_size(MPI_Comm comm) {
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size;
}

// A variable's value, unset when empty.
const char* variable(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

// A bad variable never stops the program: one warning on rank 0 (every rank takes the same fallback).
void warn_fallback(const char* name, const char* value, const char* expected, const char* fallback) {
  if (t.rank == 0)
    std::fprintf(stderr, "mapsim-trace: warning: %s='%s': expected %s; using %s\n", name, value, expected, fallback);
}

// The variable's number when it is one in [least, most] (above least when `above`), else `fallback`.
double number_variable(const char* name, double fallback, double least, bool above, double most, const char* expected,
                       const char* fallback_text) {
  const char* text = variable(name);
  if (!text) return fallback;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end != text && *end == '\0' && std::isfinite(value) && (above ? value > least : value >= least) && value <= most)
    return value;
  warn_fallback(name, text, expected, fallback_text);
  return fallback;
}

void read_variables() {
  if (const char* dir = variable("MAPSIM_TRACE_DIR")) t.dir = dir;
  t.flops = number_variable("MAPSIM_TRACE_FLOPS", 1e9, 0, true, 1e15, "a number of flop/s above 0 and at most 1e15", "1e9");
  t.min_gap = number_variable("MAPSIM_TRACE_MIN_GAP", 1e-6, 0, false, HUGE_VAL, "a number of seconds >= 0", "1e-6");
  if (const char* mode = variable("MAPSIM_TRACE_COMPUTE")) {
    if (std::strcmp(mode, "sleep") == 0) t.compute = Tracer::Sleep;
    else if (std::strcmp(mode, "none") == 0) t.compute = Tracer::None;
    else if (std::strcmp(mode, "compute") != 0) warn_fallback("MAPSIM_TRACE_COMPUTE", mode, "compute, sleep or none", "compute");
  }
}

void start() {
  PMPI_Comm_rank(MPI_COMM_WORLD, &t.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &t.size);
  read_variables();
  t.started = true;
  if (t.rank == 0 && mkdir(t.dir.c_str(), 0777) != 0 && errno != EEXIST)
    std::fprintf(stderr, "mapsim-trace: cannot create %s: %s\n", t.dir.c_str(), std::strerror(errno));
  PMPI_Barrier(MPI_COMM_WORLD);
  t.rank_file = t.dir + "/rank-" + std::to_string(t.rank) + ".txt";
  std::string why;
  const int fd = mapsim::create_partial_file(t.rank_file, why);
  if (fd >= 0 && !(t.out = fdopen(fd, "w"))) {
    why = t.rank_file + ".partial: " + std::strerror(errno);
    close(fd);
  }
  if (!t.out) {
    std::fprintf(stderr, "mapsim-trace: cannot write %s; not tracing\n", why.c_str());
    return;
  }
  t.buffer = static_cast<char*>(std::malloc(1 << 22));
  setvbuf(t.out, t.buffer, _IOFBF, 1 << 22);
  std::fprintf(t.out, "%d init\n", t.rank);
  t.active = true;
  leave();
}

// Writes DIR/NAME new (support/created_file.h); false, with a warning, when it is refused.
bool write_report(const char* name, const std::function<void(FILE*)>& write) {
  const std::string path = t.dir + "/" + name;
  std::string why;
  const int fd = mapsim::create_partial_file(path, why);
  FILE* out = fd >= 0 ? fdopen(fd, "w") : nullptr;
  if (out) {
    write(out);
    if (std::fclose(out) != 0) why = path + ": " + std::strerror(errno);
  } else if (fd >= 0) {
    why = path + ": " + std::strerror(errno);
    close(fd);
  }
  if (why.empty() && mapsim::finish_partial_file(path, why)) return true;
  std::fprintf(stderr, "mapsim-trace: cannot write %s\n", why.c_str());
  return false;
}

// This rank's trace closed and moved into place; false, with a warning, when it is incomplete.
bool finish_rank_file() {
  enter();
  std::fprintf(t.out, "%d finalize\n", t.rank);
  std::string why;
  if (std::fclose(t.out) != 0) why = t.rank_file + ".partial: " + std::strerror(errno);  // a full disk shows here
  std::free(t.buffer);
  std::free(t.pending);
  t.active = false;
  if (why.empty() && mapsim::finish_partial_file(t.rank_file, why)) return true;
  std::fprintf(stderr, "mapsim-trace: cannot write %s\n", why.c_str());
  return false;
}

// Collective over MPI_COMM_WORLD, the ranks that could not trace included (none waits for ever).
void finish() {
  if (!t.started) return;
  t.started = false;
  long total[kSkipKinds + 1], mine[kSkipKinds + 1];  // the skipped calls, and the ranks without a trace
  std::copy(t.skipped, t.skipped + kSkipKinds, mine);
  mine[kSkipKinds] = t.active ? !finish_rank_file() : 1;
  PMPI_Reduce(mine, total, kSkipKinds + 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  // Compute actions come from wall-clock gaps: ranks that share cores wait for them, and the
  // waits count as compute.
  MPI_Comm host;
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int host_rank = 0, host_size = 1;
  PMPI_Comm_rank(host, &host_rank);
  PMPI_Comm_size(host, &host_size);
  PMPI_Comm_free(&host);
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (host_rank == 0 && cores > 0 && host_size > cores && t.compute != Tracer::None)
    std::fprintf(stderr,
                 "mapsim-trace: warning: %d ranks ran on %ld cores of one host (oversubscribed): the compute times "
                 "in the trace include time spent waiting for a core (MAPSIM_TRACE_COMPUTE=none leaves them out)\n",
                 host_size, cores);
  if (t.rank != 0) return;
  write_report("skipped.txt", [&](FILE* report) {
    for (int k = 0; k < kSkipKinds; ++k) std::fprintf(report, "%ld %s\n", total[k], kSkipNames[k]);
  });
  for (int k = 0; k < kSkipKinds; ++k)
    if (total[k] > 0)
      std::fprintf(stderr, "mapsim-trace: %ld %s could not be recorded (see %s/skipped.txt)\n", total[k], kSkipNames[k],
                   t.dir.c_str());
  if (total[kSkipKinds] > 0) {  // an index naming missing or cut files would look complete
    std::fprintf(stderr, "mapsim-trace: %ld of %d ranks could not write their trace: no %s/index.txt written\n",
                 total[kSkipKinds], t.size, t.dir.c_str());
    return;
  }
  char absolute[PATH_MAX];
  const char* base = realpath(t.dir.c_str(), absolute) ? absolute : t.dir.c_str();  // absolute paths, as SMPI opens them
  if (write_report("index.txt", [&](FILE* index) {
        for (int r = 0; r < t.size; ++r) std::fprintf(index, "%s/rank-%d.txt\n", base, r);
      }))
    std::fprintf(stderr, "mapsim-trace: %d ranks traced into %s/index.txt\n", t.size, t.dir.c_str());
}

}  // namespace

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  start();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  start();
  return rc;
}

int MPI_Finalize() {
  finish();
  return PMPI_Finalize();
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return record_send(PMPI_Send, buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return record_send(PMPI_Ssend, buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return record_isend(PMPI_Isend, buf, count, type, dest, tag, comm, request);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  enter();
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE) status = &local;
  const int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
  if (t.active) emit_received(comm, status, type);  // after the call: what actually arrived
  leave();
  return rc;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  enter();
  const int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (t.active) {
    if (source == MPI_PROC_NULL) {
      remember({*request, kNoMessage, t.rank, tag});
    } else if (source == MPI_ANY_SOURCE) {  // written as a recv from the rank that sent, when it completes
      remember({*request, -1, t.rank, tag, type, comm});
    } else {
      const int from = world(comm, source);
      emit("irecv", {from, tag, bytes(count, type)});
      remember({*request, from, t.rank, tag});
    }
  }
  leave();
  return rc;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  enter();
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE) status = &local;
  const int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                               recvtag, comm, status);
  if (t.active) emit_sendrecv(comm, dest, sendtag, bytes(sendcount, sendtype), status, recvtype);
  leave();
  return rc;
}

// Completed requests are recorded where the call returns (the trace cannot say "any"): a wait each.
int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  enter();
  const MPI_Request before = *request;
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE) status = &local;
  const int rc = PMPI_Wait(request, status);
  if (t.active) completed(before, status);
  leave();
  return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  enter();
  const RequestCopy before(t.active ? count : 0, requests);
  const Statuses status(count, statuses == MPI_STATUSES_IGNORE ? nullptr : statuses);
  const int rc = PMPI_Waitall(count, requests, status.at);
  if (t.active)
    for (int i = 0; i < count; ++i) completed(before.handles[i], &status.at[i]);
  leave();
  return rc;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  enter();
  const MPI_Request before = *request;
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE) status = &local;
  const int rc = PMPI_Test(request, flag, status);
  if (t.active && *flag) completed(before, status);
  leave();
  return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  enter();
  const RequestCopy before(t.active ? count : 0, requests);
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE) status = &local;
  const int rc = PMPI_Waitany(count, requests, index, status);
  if (t.active && *index != MPI_UNDEFINED) completed(before.handles[*index], status);
  leave();
  return rc;
}

int MPI_Waitsome(int count, MPI_Request requests[], int* completed, int indices[], MPI_Status statuses[]) {
  return record_some(PMPI_Waitsome, count, requests, completed, indices, statuses);
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  enter();
  const RequestCopy before(t.active ? count : 0, requests);
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE) status = &local;
  const int rc = PMPI_Testany(count, requests, index, flag, status);
  if (t.active && *flag && *index != MPI_UNDEFINED) completed(before.handles[*index], status);
  leave();
  return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  enter();
  const RequestCopy before(t.active ? count : 0, requests);
  const Statuses status(count, statuses == MPI_STATUSES_IGNORE ? nullptr : statuses);
  const int rc = PMPI_Testall(count, requests, flag, status.at);
  if (t.active && *flag)
    for (int i = 0; i < count; ++i) completed(before.handles[i], &status.at[i]);
  leave();
  return rc;
}

int MPI_Testsome(int count, MPI_Request requests[], int* completed, int indices[], MPI_Status statuses[]) {
  return record_some(PMPI_Testsome, count, requests, completed, indices, statuses);
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return record_send(PMPI_Bsend, buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return record_send(PMPI_Rsend, buf, count, type, dest, tag, comm);
}

int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return record_isend(PMPI_Issend, buf, count, type, dest, tag, comm, request);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return record_isend(PMPI_Ibsend, buf, count, type, dest, tag, comm, request);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return record_isend(PMPI_Irsend, buf, count, type, dest, tag, comm, request);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  enter();
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE) status = &local;
  const int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  if (t.active) emit_sendrecv(comm, dest, sendtag, bytes(count, type), status, type);
  leave();
  return rc;
}

// Not expressible in a TI trace: passed through and counted in skipped.txt.
int MPI_Start(MPI_Request* request) {
  if (t.active) ++t.skipped[kPersistent];
  return PMPI_Start(request);
}

int MPI_Startall(int count, MPI_Request requests[]) {
  if (t.active) t.skipped[kPersistent] += count;
  return PMPI_Startall(count, requests);
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Ibcast(buf, count, type, root, comm, request);
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request);
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request);
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Ibarrier(comm, request);
}

// Counted, not recorded: the TI format has no action for them (docs/traces.md).
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request);
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (t.active) ++t.skipped[kNonblockingCollective];
  return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
}

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (t.active) ++t.skipped[kNeighborCollective];
  return PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (t.active) ++t.skipped[kNeighborCollective];
  return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (t.active) ++t.skipped[kNeighborCollective];
  return PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (t.active) ++t.skipped[kNeighborCollective];
  return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  if (t.active) ++t.skipped[kNeighborCollective];
  return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win);
}

int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win);
}

int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
}

int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
}

int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp, op, win);
}

int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win);
}

int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_cout, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Rput(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_cout, target_datatype, win, request);
}

int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Rget(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request);
}

int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Raccumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
}

int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) {
  if (t.active) ++t.skipped[kOneSided];
  return PMPI_Rget_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  if (t.active) ++t.skipped[kAlltoallw];
  return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD) {  // a reducescatter whose counts are all equal
    std::fprintf(t.out, "%d reducescatter", t.rank);
    for (int i = 0; i < t.size; ++i) std::fprintf(t.out, " %ld", bytes(recvcount, type));
    std::fprintf(t.out, " 0\n");
  } else if (t.active) {
    sub_collective(comm, mapsim::ActionType::ReduceScatter, 0, 0, 0,
                   std::vector<double>(comm_size(comm), static_cast<double>(bytes(recvcount, type))));
  }
  const int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
  leave();
  return rc;
}

int MPI_Barrier(MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD) std::fprintf(t.out, "%d barrier\n", t.rank);
  else if (t.active) sub_collective(comm, mapsim::ActionType::Barrier);
  const int rc = PMPI_Barrier(comm);
  leave();
  return rc;
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD) std::fprintf(t.out, "%d bcast %ld %d\n", t.rank, bytes(count, type), root);
  else if (t.active) sub_collective(comm, mapsim::ActionType::Bcast, bytes(count, type), 0, root);
  const int rc = PMPI_Bcast(buf, count, type, root, comm);
  leave();
  return rc;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD) std::fprintf(t.out, "%d reduce %ld 0 %d\n", t.rank, bytes(count, type), root);
  else if (t.active) sub_collective(comm, mapsim::ActionType::Reduce, bytes(count, type), 0, root);
  const int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  leave();
  return rc;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD) std::fprintf(t.out, "%d allreduce %ld 0\n", t.rank, bytes(count, type));
  else if (t.active) sub_collective(comm, mapsim::ActionType::Allreduce, bytes(count, type));
  const int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  leave();
  return rc;
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD)
    std::fprintf(t.out, "%d alltoall %ld %ld\n", t.rank, bytes(sendcount, sendtype), bytes(recvcount, recvtype));
  else if (t.active)
    sub_collective(comm, mapsim::ActionType::Alltoall, bytes(sendcount, sendtype), bytes(recvcount, recvtype));
  const int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  leave();
  return rc;
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD)
    std::fprintf(t.out, "%d allgather %ld %ld\n", t.rank, bytes(sendcount, sendtype), bytes(recvcount, recvtype));
  else if (t.active)
    sub_collective(comm, mapsim::ActionType::Allgather, bytes(sendcount, sendtype), bytes(recvcount, recvtype));
  const int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  leave();
  return rc;
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD)
    std::fprintf(t.out, "%d gather %ld %ld %d\n", t.rank, bytes(sendcount, sendtype),
                 t.rank == root ? bytes(recvcount, recvtype) : bytes(sendcount, sendtype), root);
  else if (t.active)
    sub_collective(comm, mapsim::ActionType::Gather, bytes(sendcount, sendtype), 0, root);
  const int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  leave();
  return rc;
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD)
    std::fprintf(t.out, "%d scatter %ld %ld %d\n", t.rank,
                 t.rank == root ? bytes(sendcount, sendtype) : bytes(recvcount, recvtype), bytes(recvcount, recvtype), root);
  else if (t.active)
    sub_collective(comm, mapsim::ActionType::Scatter, 0, bytes(recvcount, recvtype), root);
  const int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  leave();
  return rc;
}


// The v-collectives: per-rank byte counts follow the action, as SimGrid's replayer reads them.
void emit_counts(const int* counts, MPI_Datatype type) {
  const long unit = bytes(1, type);
  for (int r = 0; r < t.size; ++r) std::fprintf(t.out, " %ld", counts ? counts[r] * unit : 0L);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  enter();
  if (t.active && comm != MPI_COMM_WORLD) {
    const int n = comm_size(comm);
    std::vector<double> counts = byte_counts(sendcounts, n, sendtype), received = byte_counts(recvcounts, n, recvtype);
    counts.insert(counts.end(), received.begin(), received.end());
    sub_collective(comm, mapsim::ActionType::Alltoallv, 0, 0, 0, std::move(counts));
  } else if (t.active) {
    long sent = 0, received = 0;
    for (int r = 0; r < t.size; ++r) sent += bytes(sendcounts[r], sendtype), received += bytes(recvcounts[r], recvtype);
    std::fprintf(t.out, "%d alltoallv %ld", t.rank, sent);
    emit_counts(sendcounts, sendtype);
    std::fprintf(t.out, " %ld", received);
    emit_counts(recvcounts, recvtype);
    std::fputc('\n', t.out);
  }
  const int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  leave();
  return rc;
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  enter();
  if (t.active && comm != MPI_COMM_WORLD) {
    sub_collective(comm, mapsim::ActionType::Allgatherv, 0, 0, 0, byte_counts(recvcounts, comm_size(comm), recvtype));
  } else if (t.active) {
    std::fprintf(t.out, "%d allgatherv %ld", t.rank, bytes(sendcount, sendtype));
    emit_counts(recvcounts, recvtype);
    std::fputc('\n', t.out);
  }
  const int rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  leave();
  return rc;
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  enter();
  if (t.active && comm != MPI_COMM_WORLD) {
    int me = 0;
    PMPI_Comm_rank(comm, &me);
    sub_collective(comm, mapsim::ActionType::Gatherv, bytes(sendcount, sendtype), 0, root,
                   byte_counts(me == root ? recvcounts : nullptr, comm_size(comm), recvtype));
  } else if (t.active) {
    std::fprintf(t.out, "%d gatherv %ld", t.rank, bytes(sendcount, sendtype));
    emit_counts(t.rank == root ? recvcounts : nullptr, recvtype);  // only the root's counts are defined
    std::fprintf(t.out, " %d\n", root);
  }
  const int rc = PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  leave();
  return rc;
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  enter();
  if (t.active && comm != MPI_COMM_WORLD) {
    int me = 0;
    PMPI_Comm_rank(comm, &me);
    sub_collective(comm, mapsim::ActionType::Scatterv, 0, bytes(recvcount, recvtype), root,
                   byte_counts(me == root ? sendcounts : nullptr, comm_size(comm), sendtype));
  } else if (t.active) {
    std::fprintf(t.out, "%d scatterv", t.rank);
    emit_counts(t.rank == root ? sendcounts : nullptr, sendtype);
    std::fprintf(t.out, " %ld %d\n", bytes(recvcount, recvtype), root);
  }
  const int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  leave();
  return rc;
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  enter();
  if (t.active && comm != MPI_COMM_WORLD) {
    sub_collective(comm, mapsim::ActionType::ReduceScatter, 0, 0, 0, byte_counts(recvcounts, comm_size(comm), type));
  } else if (t.active) {
    std::fprintf(t.out, "%d reducescatter", t.rank);
    emit_counts(recvcounts, type);
    std::fprintf(t.out, " 0\n");
  }
  const int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
  leave();
  return rc;
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD) emit("scan", {bytes(count, type), 0});
  else if (t.active) sub_collective(comm, mapsim::ActionType::Scan, bytes(count, type));
  const int rc = PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
  leave();
  return rc;
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  enter();
  if (t.active && comm == MPI_COMM_WORLD) emit("exscan", {bytes(count, type), 0});
  else if (t.active) sub_collective(comm, mapsim::ActionType::Exscan, bytes(count, type));
  const int rc = PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
  leave();
  return rc;
}

}  // extern "C"

// Fortran bindings (Open MPI's and MPICH's mpif.h / `use mpi` symbols, gfortran naming): record
// through the C helpers, then call the Fortran PMPI entry with the caller's arguments untouched.
// The PMPI symbols are weak so that C programs, which do not load the Fortran library, still work.
extern "C" {
#define MAPSIM_PMPI(ret, name, args) ret name args __attribute__((weak));
MAPSIM_PMPI(void, pmpi_init_, (MPI_Fint*))
MAPSIM_PMPI(void, pmpi_finalize_, (MPI_Fint*))
MAPSIM_PMPI(void, pmpi_send_, (void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_isend_, (void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_recv_, (void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_irecv_, (void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_wait_, (MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_waitall_, (MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_barrier_, (MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_bcast_, (void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_reduce_, (void*, void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_allreduce_, (void*, void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
MAPSIM_PMPI(void, pmpi_alltoall_, (void*, MPI_Fint*, MPI_Fint*, void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*))
#undef MAPSIM_PMPI


// Fortran statuses: the program's, or ours where it passed MPI_STATUS(ES)_IGNORE (the source of an
// MPI_ANY_SOURCE receive is read from them); c(i) is status i in C form.
struct FortranStatuses {
  static constexpr size_t kSize = (sizeof(MPI_Status) + sizeof(MPI_Fint) - 1) / sizeof(MPI_Fint);
  FortranStatuses(int count, MPI_Fint* given, MPI_Fint* ignore)
      : own(given == ignore ? std::vector<MPI_Fint>(kSize * (count > 0 ? count : 1)) : std::vector<MPI_Fint>()),
        at(own.empty() ? given : own.data()) {}
  MPI_Status c(int i) const {
    MPI_Status status;
    PMPI_Status_f2c(at + kSize * i, &status);
    return status;
  }
  std::vector<MPI_Fint> own;
  MPI_Fint* at;
};

void mpi_init_(MPI_Fint* ierr) {
  pmpi_init_(ierr);
  start();
}

void mpi_finalize_(MPI_Fint* ierr) {
  finish();
  pmpi_finalize_(ierr);
}

void mpi_send_(void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* comm, MPI_Fint* ierr) {
  enter();
  if (t.active && *dest != MPI_PROC_NULL) emit("send", {world(MPI_Comm_f2c(*comm), *dest), *tag, bytes(*count, MPI_Type_f2c(*type))});
  pmpi_send_(buf, count, type, dest, tag, comm, ierr);
  leave();
}

void mpi_isend_(void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* comm,
                MPI_Fint* request, MPI_Fint* ierr) {
  enter();
  pmpi_isend_(buf, count, type, dest, tag, comm, request, ierr);
  if (t.active && *dest == MPI_PROC_NULL) {
    remember({MPI_Request_f2c(*request), kNoMessage, t.rank, *tag});
  } else if (t.active) {
    const int to = world(MPI_Comm_f2c(*comm), *dest);
    emit("isend", {to, *tag, bytes(*count, MPI_Type_f2c(*type))});
    remember({MPI_Request_f2c(*request), t.rank, to, *tag});
  }
  leave();
}

// Written after the call from the status (ours where the program passed MPI_STATUS_IGNORE), so that
// MPI_ANY_SOURCE and MPI_ANY_TAG resolve to what arrived.
void mpi_recv_(void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* source, MPI_Fint* tag, MPI_Fint* comm,
               MPI_Fint* status, MPI_Fint* ierr) {
  enter();
  FortranStatuses statuses(1, status, MPI_F_STATUS_IGNORE);
  pmpi_recv_(buf, count, type, source, tag, comm, statuses.at, ierr);
  if (t.active) {
    const MPI_Status received = statuses.c(0);
    emit_received(MPI_Comm_f2c(*comm), &received, MPI_Type_f2c(*type));
  }
  leave();
}

void mpi_irecv_(void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* source, MPI_Fint* tag, MPI_Fint* comm,
                MPI_Fint* request, MPI_Fint* ierr) {
  enter();
  pmpi_irecv_(buf, count, type, source, tag, comm, request, ierr);
  if (t.active) {
    if (*source == MPI_PROC_NULL) {
      remember({MPI_Request_f2c(*request), kNoMessage, t.rank, *tag});
    } else if (*source == MPI_ANY_SOURCE) {  // a recv from the rank that sent, when it completes
      remember({MPI_Request_f2c(*request), -1, t.rank, *tag, MPI_Type_f2c(*type), MPI_Comm_f2c(*comm)});
    } else {
      const int from = world(MPI_Comm_f2c(*comm), *source);
      emit("irecv", {from, *tag, bytes(*count, MPI_Type_f2c(*type))});
      remember({MPI_Request_f2c(*request), from, t.rank, *tag});
    }
  }
  leave();
}

void mpi_wait_(MPI_Fint* request, MPI_Fint* status, MPI_Fint* ierr) {
  enter();
  const MPI_Request before = MPI_Request_f2c(*request);
  FortranStatuses statuses(1, status, MPI_F_STATUS_IGNORE);
  pmpi_wait_(request, statuses.at, ierr);
  if (t.active) {
    const MPI_Status done = statuses.c(0);
    completed(before, &done);
  }
  leave();
}

void mpi_waitall_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierr) {
  enter();
  std::vector<MPI_Request> before(*count > 0 ? *count : 0);
  for (int i = 0; i < *count; ++i) before[i] = MPI_Request_f2c(requests[i]);
  FortranStatuses done(*count, statuses, MPI_F_STATUSES_IGNORE);
  pmpi_waitall_(count, requests, done.at, ierr);
  if (t.active)
    for (int i = 0; i < *count; ++i) {
      const MPI_Status status = done.c(i);
      completed(before[i], &status);
    }
  leave();
}

void mpi_barrier_(MPI_Fint* comm, MPI_Fint* ierr) {
  enter();
  if (t.active && MPI_Comm_f2c(*comm) == MPI_COMM_WORLD) emit("barrier", {});
  else if (t.active) sub_collective(MPI_Comm_f2c(*comm), mapsim::ActionType::Barrier);
  pmpi_barrier_(comm, ierr);
  leave();
}

void mpi_bcast_(void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  enter();
  if (t.active && MPI_Comm_f2c(*comm) == MPI_COMM_WORLD) emit("bcast", {bytes(*count, MPI_Type_f2c(*type)), *root});
  else if (t.active) sub_collective(MPI_Comm_f2c(*comm), mapsim::ActionType::Bcast, bytes(*count, MPI_Type_f2c(*type)), 0, *root);
  pmpi_bcast_(buf, count, type, root, comm, ierr);
  leave();
}

void mpi_reduce_(void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op, MPI_Fint* root,
                 MPI_Fint* comm, MPI_Fint* ierr) {
  enter();
  if (t.active && MPI_Comm_f2c(*comm) == MPI_COMM_WORLD) emit("reduce", {bytes(*count, MPI_Type_f2c(*type)), 0, *root});
  else if (t.active) sub_collective(MPI_Comm_f2c(*comm), mapsim::ActionType::Reduce, bytes(*count, MPI_Type_f2c(*type)), 0, *root);
  pmpi_reduce_(sendbuf, recvbuf, count, type, op, root, comm, ierr);
  leave();
}

void mpi_allreduce_(void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op, MPI_Fint* comm,
                    MPI_Fint* ierr) {
  enter();
  if (t.active && MPI_Comm_f2c(*comm) == MPI_COMM_WORLD) emit("allreduce", {bytes(*count, MPI_Type_f2c(*type)), 0});
  else if (t.active) sub_collective(MPI_Comm_f2c(*comm), mapsim::ActionType::Allreduce, bytes(*count, MPI_Type_f2c(*type)));
  pmpi_allreduce_(sendbuf, recvbuf, count, type, op, comm, ierr);
  leave();
}

void mpi_alltoall_(void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf, MPI_Fint* recvcount,
                   MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierr) {
  enter();
  if (t.active && MPI_Comm_f2c(*comm) == MPI_COMM_WORLD)
    emit("alltoall", {bytes(*sendcount, MPI_Type_f2c(*sendtype)), bytes(*recvcount, MPI_Type_f2c(*recvtype))});
  else if (t.active)
    sub_collective(MPI_Comm_f2c(*comm), mapsim::ActionType::Alltoall, bytes(*sendcount, MPI_Type_f2c(*sendtype)),
                   bytes(*recvcount, MPI_Type_f2c(*recvtype)));
  pmpi_alltoall_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr);
  leave();
}

}  // extern "C"
