// Internal to sim/: which optical circuits a message takes on a hybrid network (none: the EPS alone).
//   static pathways (SP, CP)  circuits fixed before the run from the large-message pattern
//                             (assign_pathways), messages forwarded through relay nodes (OcsForwarding)
//   dynamic                   a circuit between a message's two nodes on demand, released when idle
//                             (LRU under a circuit budget); releasing costs a second set-up delay
// The planner owns the circuits; the transport carries them through its CircuitPorts.
#pragma once
#include <memory>
#include <vector>

#include "sim/transport.h"

namespace mapsim::sim {

class CircuitPlanner {
 public:
  virtual ~CircuitPlanner() = default;
  // The circuits a message between nodes `src` and `dst` crosses, in order, at simulated time
  // `now`, and in `ready` when all of them are set up; empty: the EPS.
  virtual std::vector<int> plan(int src, int dst, double now, double& ready) = 0;
  const std::vector<Circuit>& circuits() const { return circuits_; }
  // The transport's optical ports, once it exists (the dynamic policy opens and releases circuits).
  void attach(CircuitPorts* ports) { ports_ = ports; }

 protected:
  std::vector<Circuit> circuits_;
  CircuitPorts* ports_ = nullptr;
};

// Static circuits are chosen here, from the placement and the trace's large messages.
std::unique_ptr<CircuitPlanner> make_circuit_planner(const RoutedNetwork& routed, const Placement& placement,
                                                     const TraceSource& trace, const OcsConfig& ocs);

}  // namespace mapsim::sim
