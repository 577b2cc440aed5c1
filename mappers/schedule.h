// A workload's communication as phases: the messages every rank sends between two of its waits (a
// collective's step, an iteration of a halo exchange), with identical phases counted once and
// repeated. The contention-aware metrics (mappers/congestion.h) time each phase by its busiest port.
// Built from a trace by sim/workload.h's communication_schedule(); from a process graph alone (no
// workload given) as one phase in which every edge's volume goes both ways.
#pragma once
#include <vector>

#include "mappers/process_graph.h"

namespace mapsim {

struct PhaseMessage {
  int from, to;  // ranks
  double bytes;
};

struct CommPhase {
  std::vector<PhaseMessage> messages;  // sorted by (from, to)
  double repeat = 1;                   // how many times the workload runs this same phase
};

struct CommSchedule {
  std::vector<CommPhase> phases;
};

CommSchedule schedule_from_graph(const ProcessGraph& graph);

}  // namespace mapsim
