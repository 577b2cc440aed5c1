#include "mappers/schedule.h"

#include <algorithm>

namespace mapsim {

CommSchedule schedule_from_graph(const ProcessGraph& graph) {
  CommPhase phase;
  for (const ProcessEdge& e : graph.edges()) {
    phase.messages.push_back({e.a, e.b, e.volume});
    phase.messages.push_back({e.b, e.a, e.volume});
  }
  std::sort(phase.messages.begin(), phase.messages.end(),
            [](const PhaseMessage& x, const PhaseMessage& y) { return x.from != y.from ? x.from < y.from : x.to < y.to; });
  CommSchedule schedule;
  schedule.phases.push_back(std::move(phase));
  return schedule;
}

}  // namespace mapsim
