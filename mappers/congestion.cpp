#include "mappers/congestion.h"

#include <algorithm>

#include "mappers/internal/route_shares.h"
#include "mappers/schedule.h"

namespace mapsim {

std::vector<double> port_bandwidths(const Network& net) {
  const PortLayout layout(net);
  std::vector<double> bandwidth(layout.size());
  for (int n = 0; n < net.num_nodes(); ++n)
    bandwidth[layout.injection(n)] = bandwidth[layout.ejection(n)] = net.node(n).bandwidth;
  for (int c = 0; c < net.num_channels(); ++c) bandwidth[layout.channel(c)] = net.link(c / 2).bandwidth;
  return bandwidth;
}

namespace {

// Calls visit(port, bytes) for each port a phase's messages load; messages between ranks on one
// node load none. Switch channels only if `channels`.
template <typename Visit>
void load_phase(const RouteShares& shares, const Placement& placement, const CommPhase& phase, bool channels, Visit visit) {
  for (const PhaseMessage& m : phase.messages) {
    const int a = placement[m.from], b = placement[m.to];
    if (a == b || m.bytes <= 0) continue;
    if (channels) {
      shares.for_each(a, b, [&](int port, double share) { visit(port, m.bytes * share); });
    } else {
      visit(shares.layout().injection(a), m.bytes);
      visit(shares.layout().ejection(b), m.bytes);
    }
  }
}

// The busiest port's time over the whole job.
double job_busiest(const MappingProblem& problem, const Placement& placement, bool channels) {
  const std::vector<double> bandwidth = port_bandwidths(problem.network->network());
  const RouteShares shares(problem);
  std::vector<double> load(bandwidth.size(), 0);
  for_each_phase(problem, [&](const CommPhase& phase) {
    load_phase(shares, placement, phase, channels, [&](int port, double bytes) { load[port] += phase.repeat * bytes; });
  });
  double busiest = 0;
  for (size_t p = 0; p < load.size(); ++p) busiest = std::max(busiest, load[p] / bandwidth[p]);
  return busiest;
}

// Phases' busiest port times, summed; node links only if `node_links`.
double phase_sum(const MappingProblem& problem, const Placement& placement, bool node_links) {
  const std::vector<double> bandwidth = port_bandwidths(problem.network->network());
  const RouteShares shares(problem);
  std::vector<double> load(bandwidth.size(), 0);
  std::vector<int> touched;
  double total = 0;
  for_each_phase(problem, [&](const CommPhase& phase) {
    load_phase(shares, placement, phase, true, [&](int port, double bytes) {
      if (!node_links && !shares.layout().is_channel(port)) return;
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

}  // namespace

double congestion(const MappingProblem& problem, const Placement& placement) { return phase_sum(problem, placement, true); }
double channel_congestion(const MappingProblem& problem, const Placement& placement) {
  return phase_sum(problem, placement, false);
}

double busiest_port(const MappingProblem& problem, const Placement& placement) { return job_busiest(problem, placement, true); }

double congestion_bound(const MappingProblem& problem, const Placement& placement) {
  return job_busiest(problem, placement, problem.routes_fixed);
}

}  // namespace mapsim
