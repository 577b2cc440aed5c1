// sim: replays an MPI program (TI actions, recorded or synthetic) on a routed network under a
// placement, on SimGrid 3.32, and reports run time, message latencies and link loads.
//   model flow               one fluid flow per message, exact max-min sharing (cut-through-like)
//   model store-and-forward  whole messages, FIFO output ports, queueing under contention
//   model packet             store-and-forward of MTU-sized packets, pipelined across hops
// MPI semantics mirror SMPI: a send below the eager threshold completes at once for the sender,
// a larger one when its data has arrived; data moves once send and receive are both posted.
// Each simulate() call runs SimGrid in a child process (SimGrid allows one engine per process).
#pragma once
#include "sim/simulation.h"

namespace mapsim {

// Throws mapsim::Error on a deadlock (naming the blocked ranks and what each waits for), a trace
// whose rank count differs from the placement, or a rank placed off the network. `jobs` splits the
// trace into concurrent jobs (simulation.h); none: one job.
SimResult simulate(const RoutedNetwork& routed, const Placement& placement, const Trace& trace,
                   const SimOptions& options, const std::vector<JobSpan>& jobs = {});
// The same, reading `source` as the ranks advance (traces/trace_source.h): a generated workload or a
// TI index of per-rank files then costs memory O(ranks + messages in flight), not O(trace length). A
// malformed line that the replay reaches throws the reader's "FILE:LINE: ..." Error; nothing is returned.
SimResult simulate(const RoutedNetwork& routed, const Placement& placement, const TraceSource& source,
                   const SimOptions& options, const std::vector<JobSpan>& jobs = {});

}  // namespace mapsim
