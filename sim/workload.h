// Synthetic workloads: MPI programs built as TI actions, so that they replay exactly like a
// recorded trace. On a process graph (mappers/process_graph.h):
//   exchange[:size=B,iterations=I,compute=F]  each iteration every rank posts an irecv and an
//       isend per graph edge (both directions), then waitall; then F flops of compute. With
//       pattern:mesh:16x16,distant=0.1 this is the papers' case (ii). size defaults to the edge volume.
//   alltoall[:size=B,iterations=I]            MPI_Alltoall of B bytes per pair
//   permutation[:size=B,seed=S,iterations=I]  rank r sends to p(r) for a random permutation p
#pragma once
#include <map>
#include <string>

#include "mappers/process_graph.h"
#include "traces/ti_trace.h"

namespace mapsim {

Trace make_workload(const std::string& spec, const ProcessGraph& graph);

// A process topology spec (mappers/process_graph.h), or trace:PATH: a recorded program's
// point-to-point volume per rank pair, so that mappers place a real application.
ProcessGraph make_process_graph_or_trace(const std::string& spec);

// The point-to-point communication of a trace as a process graph (bytes per rank pair, both
// directions summed), so that mappers can place a recorded program. Collectives are not counted.
ProcessGraph trace_process_graph(const Trace& trace);

// Bytes and messages per (source, destination) rank pair of a trace on disk, streamed: point to
// point as written, collectives expanded into the messages of the engine's MPICH algorithms (which
// depend on the ranks and sizes only, not on timing).
struct PairVolume {
  double p2p_bytes = 0, collective_bytes = 0;
  long p2p_messages = 0, collective_messages = 0;
};
std::map<std::pair<int, int>, PairVolume> communication_matrix(const std::string& path, bool legacy = false);

}  // namespace mapsim
