// Time-independent (TI) MPI traces, as written by SimGrid 3.32's `smpirun -trace-ti` and read by
// its replayer: one action per line, "RANK ACTION ARGS...". A trace is either one file holding
// every rank's lines, or an index file listing one trace file per rank (line i = rank i).
// Sizes in the file are element counts of a datatype (default MPI_BYTE, or MPI_DOUBLE when the
// init line has an argument); actions here carry bytes.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mapsim {

constexpr int kAnyTag = -1;  // a receive's tag that matches any user tag (MPI_ANY_TAG)
constexpr long kMaxTraceRanks = 1L << 22;  // 4194304 ranks: a rank table that fits in memory

enum class ActionType : uint8_t {
  Init, Finalize, Send, Isend, Recv, Irecv, Wait, Waitall, Test, SendRecv,
  Barrier, Bcast, Reduce, Allreduce, Alltoall, Alltoallv, Gather, Gatherv, Allgather, Allgatherv,
  Scatter, Scatterv, ReduceScatter, Scan, Exscan, Compute, Sleep, CommSize, CommSplit, CommDup, Location
};

const char* action_name(ActionType type);

// One action of one rank. Field use by type:
//   send/isend/recv/irecv  peer, tag, bytes (recv bytes < 0: size unknown, taken from the send)
//   wait/test              peer = src, root = dst, tag
//   sendRecv               peer = dst, bytes = sent; root = src, bytes2 = received
//   bcast/reduce/allreduce bytes, root; flops = reduction compute
//   alltoall/gather/allgather/scatter  bytes = sent per peer, bytes2 = received per peer, root
//   *v collectives, reducescatter      counts = offset into RankTrace::counts (bytes per rank)
//   scan/exscan            bytes; flops
//   compute                flops; sleep: seconds (in flops)
struct Action {
  ActionType type;
  bool distant = false;  // a synthetic workload's distant partner (latency statistics)
  int peer = -1;
  int tag = 0;
  int root = 0;
  double bytes = 0;
  double bytes2 = 0;
  double flops = 0;
  uint32_t counts = 0;   // v collectives: send counts at counts, receive counts at counts + size
  uint32_t line = 0;     // line in the rank's trace file (0: synthetic)
  int8_t datatype = -1;   // SimGrid datatype ids of the send and receive sizes where the line gave
  int8_t datatype2 = -1;  // them, or MPI_DOUBLE, an MPE trace's default (-1: none; writers write bytes)
};

struct RankTrace {
  std::string file;              // where the actions came from (for errors)
  std::vector<Action> actions;
  std::vector<double> counts;    // byte counts of v collectives
};

struct Trace {
  std::vector<RankTrace> ranks;
  int num_ranks() const { return static_cast<int>(ranks.size()); }
};

// The entries of its rank's counts pool that action `a` uses from a.counts on, in a trace of `ranks`
// ranks (v collectives and reducescatter: a count per rank, alltoallv's sends then receives; else 0).
size_t counts_used(const Action& a, int ranks);

class TraceSource;

// Another trace format registers a reader for the paths it recognises (traces/otf2_trace.cpp: *.otf2
// archives); the readers below take such a path too: read_ti_trace loads that trace whole, `open`
// streams it (open_ti_trace, visit_ti_trace; `window` as open_ti_trace's).
struct TraceFormat {
  std::function<bool(const std::string& path)> recognises;
  std::function<Trace(const std::string& path)> read;
  std::function<std::shared_ptr<const TraceSource>(const std::string& path, int window)> open;
};
bool register_trace_format(TraceFormat format);

// Reads a single trace file or an index file (paths relative to the index's folder, else to the
// working directory). Throws mapsim::Error "FILE:LINE: ..." on an unknown action, a malformed
// line, a rank out of range or a missing file. `legacy`: SimGrid's old point-to-point format without
// tags ("send PEER SIZE [TYPE]"), read with tag 0.
Trace read_ti_trace(const std::string& path, bool legacy = false);

// Streams a trace without keeping it: `visit` gets every action in file order (rank by rank for an
// index) with its rank's file name and, for v-collectives, the counts pool (valid during the call
// only), and the trace's rank count. Returns the rank count.
using ActionVisitor = std::function<void(int rank, const Action& action, const RankTrace& context, int ranks)>;
int visit_ti_trace(const std::string& path, bool legacy, const ActionVisitor& visit);

// Writes `trace` as index.txt plus rank-N.txt files in `directory` (created), in the format
// SimGrid 3.32 replays (sizes in bytes, datatype MPI_BYTE). Returns the index path.
std::string write_ti_trace(const Trace& trace, const std::string& directory);
// Rewrites the trace at `input` without loading it (streamed): as index.txt + rank-N.txt in the
// directory `output`, or as the one shared file `output`. Returns the index or file path.
std::string convert_ti_trace(const std::string& input, bool legacy, const std::string& output, bool shared);

// Size in bytes of a SimGrid datatype id (smpi_datatype.cpp's table; traces/datatypes.cpp); throws
// on an unknown id.
int datatype_size(int id);
bool is_datatype(int id);

}  // namespace mapsim
