#include "mappers/congestion.h"

#include <algorithm>

#include "mappers/schedule.h"
#include "topologies/port_layout.h"

namespace mapsim {
namespace {

// Bytes per second of each port.
std::vector<double> port_bandwidths(const Network& net) {
  const PortLayout layout(net);
  std::vector<double> bandwidth(layout.size());
  for (int n = 0; n < net.num_nodes(); ++n)
    bandwidth[layout.injection(n)] = bandwidth[layout.ejection(n)] = net.node(n).bandwidth;
  for (int c = 0; c < net.num_channels(); ++c) bandwidth[layout.channel(c)] = net.link(c / 2).bandwidth;
  return bandwidth;
}

// Adds a phase's bytes to the ports they cross (switch channels only if `channels`), calling
// visit(port, bytes) for each; messages between ranks on one node cross none.
template <typename Visit>
void route_phase(const MappingProblem& problem, const Placement& placement, const CommPhase& phase, bool channels,
                 std::vector<int>& route, Visit visit) {
  const PortLayout layout(problem.network->network());
  for (const PhaseMessage& m : phase.messages) {
    const int a = placement[m.from], b = placement[m.to];
    if (a == b || m.bytes <= 0) continue;
    visit(layout.injection(a), m.bytes);
    visit(layout.ejection(b), m.bytes);
    if (!channels) continue;
    problem.network->route(a, b, route);
    for (int c : route) visit(layout.channel(c), m.bytes);
  }
}

template <typename F>
void for_each_phase(const MappingProblem& problem, F f) {
  if (problem.schedule) {
    for (const CommPhase& phase : problem.schedule->phases) f(phase);
    return;
  }
  for (const CommPhase& phase : schedule_from_graph(*problem.graph).phases) f(phase);
}

}  // namespace

double congestion(const MappingProblem& problem, const Placement& placement) {
  const std::vector<double> bandwidth = port_bandwidths(problem.network->network());
  std::vector<double> load(bandwidth.size(), 0);
  std::vector<int> touched, route;
  double total = 0;
  for_each_phase(problem, [&](const CommPhase& phase) {
    route_phase(problem, placement, phase, true, route, [&](int port, double bytes) {
      if (load[port] == 0) touched.push_back(port);
      load[port] += bytes;
    });
    double busiest = 0;
    for (int port : touched) busiest = std::max(busiest, load[port] / bandwidth[port]), load[port] = 0;
    touched.clear();
    total += phase.repeat * busiest;
  });
  return total;
}

double congestion_bound(const MappingProblem& problem, const Placement& placement) {
  const std::vector<double> bandwidth = port_bandwidths(problem.network->network());
  std::vector<double> load(bandwidth.size(), 0);
  std::vector<int> route;
  for_each_phase(problem, [&](const CommPhase& phase) {
    route_phase(problem, placement, phase, problem.routes_fixed, route,
                [&](int port, double bytes) { load[port] += phase.repeat * bytes; });
  });
  double busiest = 0;
  for (size_t p = 0; p < load.size(); ++p) busiest = std::max(busiest, load[p] / bandwidth[p]);
  return busiest;
}

}  // namespace mapsim
