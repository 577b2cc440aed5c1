// Quality of a placement, from the routed paths of the network's routing (not shortest paths).
// An edge {a, b} of volume v means a and b exchange v each way; hop counts d are switch-to-switch
// links (0 on one switch and on one node). When the problem carries the workload's traffic,
// hop_bytes, max_link_load and max_nic_load count its bytes instead of the edge volumes.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "mappers/mapping.h"

namespace mapsim {

struct MappingMetrics {
  double weighted_cardinality = 0;  // sum over edges of v * d                          (moh2001)
  double cardinality = 0;           // mean d over edges (= avg Hamming distance on a hypercube; moh2010, antonio eq. 1)
  double hop_bytes = 0;             // sum over edges of v * links crossed, node links included, both ways (or traffic bytes)
  int dilation = 0;                 // max d over edges
  double load_variance = 0;         // sigma^2_pmn over the allocated nodes (antonio); = Gamma_L for unit tasks
  double total_communication = 0;   // sum of v over edges
  double network_traffic = 0;       // sum of v over edges whose tasks sit on different nodes
  double max_link_load = 0;         // max over directed switch-to-switch links of the volume routed
  double max_link_messages = 0;     // same, counting edges instead of volume (OMARS max link usage)
  double max_nic_load = 0;          // max over node links (injection and ejection) of the volume routed
  double gamma_c = 0;               // sum over edges of v * cost (Kramer & Muhlenbein eq. 1)
  double gamma_l = 0;               // variance of processor loads (eq. 2)
  double zero_load_latency = 0;     // mean zero-load latency t_s + d*t_p + (d+1)*t_r over edges, seconds
  double congestion = 0;            // sum over the workload's phases of the busiest port's time, seconds (congestion.h)
  double congestion_bound = 0;      // busiest port's time over the job: a lower bound on the makespan, seconds
};

MappingMetrics evaluate(const MappingProblem& problem, const Placement& placement);

// Volume (the traffic's bytes when given) and edge count routed over each directed link (both
// directions of every edge), indexed by PortLayout (topologies/port_layout.h).
struct LinkVolumes {
  std::vector<double> volume, messages;
};
LinkVolumes link_volumes(const MappingProblem& problem, const Placement& placement);

// Every metric as (JSON/CSV key, value), in a fixed order. The keys are also those of the simulated
// quantities of the same name (sim_max_link_load, sim_zero_load_latency, ...).
std::vector<std::pair<std::string, double>> metric_list(const MappingMetrics& m);
// metric_list of evaluate(), then the placement metrics declared with a `compute` (mappers/result_columns.h).
std::vector<std::pair<std::string, double>> placement_metrics(const MappingProblem& problem, const Placement& placement);

}  // namespace mapsim
