// Synthetic workloads: MPI programs built as TI actions, so that they replay exactly like a
// recorded trace. Each registers itself in workload_registry() and runs on a process graph
// (mappers/process_graph.h): exchange (the papers' pattern; with pattern:mesh:16x16,distant=0.1
// their case ii), alltoall, permutation. This module also registers the process topology
// trace:PATH (a recorded program's point-to-point volumes).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "mappers/mapping.h"
#include "mappers/process_graph.h"
#include "traces/collective_choice.h"
#include "traces/ti_trace.h"
#include "traces/trace_source.h"

namespace mapsim {

constexpr long kMaxWorkloadActions = 1L << 26;  // about 3 GiB of actions: a workload built whole (make_workload)
// Generated as read, a bound on the run's length, not memory: the replay runs about 10^6 actions a
// second, so that a workload at the bound simulates for about 5 minutes (docs/simulation.md).
constexpr long kMaxStreamedWorkloadActions = 1L << 28;

// A synthetic workload generated one action at a time: generate(iteration, rank, j, out) sets `out`
// to action j of the rank's iteration and returns true, or returns false after the iteration's last.
// Every rank runs init, `iterations` iterations, finalize. `start` gives each reading its generator
// (with the state the ranks of that reading share, e.g. a permutation's random draws).
using ActionGenerator = std::function<bool(long iteration, int rank, size_t j, Action& out)>;
struct SyntheticPattern {
  int ranks = 0;
  long iterations = 0;
  std::function<ActionGenerator()> start;
};

// A workload's factory gets its spec, the process graph and the declared `iterations`.
using WorkloadRegistry = Registry<std::function<SyntheticPattern(Spec&, const ProcessGraph&, long iterations)>>;
WorkloadRegistry& workload_registry();

// The workload as a source that generates it as the replay reads it (traces/trace_source.h): memory
// O(ranks) whatever the iterations, and no limit on its length.
std::shared_ptr<const TraceSource> make_workload_source(const std::string& spec, const ProcessGraph& graph);
// The workload built whole, up to kMaxWorkloadActions actions.
Trace make_workload(const std::string& spec, const ProcessGraph& graph);

// The point-to-point communication of a trace as a process graph (bytes per rank pair, both
// directions summed), so that mappers can place a recorded program. Collectives are not counted.
ProcessGraph trace_process_graph(const Trace& trace);
ProcessGraph trace_process_graph(const TraceSource& source);  // one streaming pass

// Bytes per (source, destination) rank pair of a workload, point to point and collectives expanded
// into the engine's messages (algorithms by `choice`), in (source, destination) order: what the
// mapping metrics count.
std::vector<TaskTraffic> task_traffic(const Trace& trace, const CollectiveChoice& choice = {});
std::vector<TaskTraffic> task_traffic(const TraceSource& source, const CollectiveChoice& choice = {});

// The workload's messages as phases (mappers/schedule.h), collectives expanded as the engine runs
// them: a rank's phase ends at its first wait after a send, so that phase k holds what every rank
// sends in its k-th step (an iteration of a halo exchange, a step of a pairwise all-to-all or of
// recursive doubling; tree algorithms, whose ranks send in different steps, only approximately).
// Identical phases are kept once with their repeat count. Above kMaxScheduleMessages messages, one
// phase of the whole job's bytes per rank pair.
constexpr long kMaxScheduleMessages = 1L << 24;
// A streaming pass, step by step across the ranks: memory O(messages of a step + distinct phases),
// whatever the trace's length. `max_messages`: kMaxScheduleMessages but in tests.
CommSchedule communication_schedule(const Trace& trace, const CollectiveChoice& choice = {});
CommSchedule communication_schedule(const TraceSource& source, const CollectiveChoice& choice = {},
                                    long max_messages = kMaxScheduleMessages);
// Both of the above in that one pass (a rank's messages come in the same order, so the same sums).
struct WorkloadTraffic {
  std::vector<TaskTraffic> traffic;
  CommSchedule schedule;
};
WorkloadTraffic workload_traffic(const TraceSource& source, const CollectiveChoice& choice = {},
                                 long max_messages = kMaxScheduleMessages);

// Bytes and messages per (source, destination) rank pair of a trace on disk, streamed: point to
// point as written, collectives expanded into the messages of the engine's algorithms (mapsim's, or
// those `choice` names; they depend on the ranks and sizes only, not on timing).
struct PairVolume {
  double p2p_bytes = 0, collective_bytes = 0;
  long p2p_messages = 0, collective_messages = 0;
};
std::map<std::pair<int, int>, PairVolume> communication_matrix(const std::string& path, bool legacy = false,
                                                               const CollectiveChoice& choice = {});

}  // namespace mapsim
