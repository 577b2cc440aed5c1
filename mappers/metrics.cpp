#include "mappers/metrics.h"

#include <algorithm>
#include <map>

#include "mappers/congestion.h"
#include "mappers/core_placement.h"
#include "mappers/result_columns.h"
#include "topologies/port_layout.h"

namespace mapsim {

LinkVolumes link_volumes(const MappingProblem& problem, const Placement& placement) {
  const RoutedNetwork& routed = *problem.network;
  const PortLayout layout(routed.network());
  LinkVolumes loads;
  loads.volume.assign(layout.size(), 0);
  loads.messages.assign(layout.size(), 0);
  std::vector<int> channels, ports;
  auto add = [&](int from, int to, double volume, double messages) {
    routed.route(from, to, channels);
    ports.clear();
    layout.append(from, channels, to, ports);
    for (int p : ports) {
      loads.volume[p] += volume;
      loads.messages[p] += messages;
    }
  };
  for (const ProcessEdge& e : problem.graph->edges()) {
    const int a = placement[e.a], b = placement[e.b];
    if (a == b) continue;
    const double volume = problem.traffic ? 0 : e.volume;
    add(a, b, volume, 1);
    add(b, a, volume, 1);
  }
  if (problem.traffic)
    for (const TaskTraffic& t : *problem.traffic)
      if (placement[t.from] != placement[t.to]) add(placement[t.from], placement[t.to], t.bytes, 0);
  return loads;
}

MappingMetrics evaluate(const MappingProblem& problem, const Placement& placement) {
  const RoutedNetwork& routed = *problem.network;
  const ProcessGraph& graph = *problem.graph;
  MappingMetrics m;
  double latency_sum = 0;
  const Network& net = routed.network();
  // With node insides two ranks on one node cost the latency of the level their cores share, not 0.
  const bool insides = !net.node_insides.empty();
  const std::vector<int> cores = insides ? place_on_cores(problem, placement) : std::vector<int>{};
  for (const ProcessEdge& e : graph.edges()) {
    const int a = placement[e.a], b = placement[e.b];
    const int d = routed.hops(a, b);
    m.weighted_cardinality += e.volume * d;
    m.cardinality += d;
    m.dilation = std::max(m.dilation, d);
    m.total_communication += e.volume;
    if (insides && a == b) {
      const double latency = core_pair_latency(net, cores[e.a], cores[e.b]);
      m.gamma_c += e.volume * latency;
      latency_sum += latency;
      continue;
    }
    m.gamma_c += e.volume * routed.cost(a, b);
    if (a == b) continue;
    m.network_traffic += e.volume;
    if (!problem.traffic) m.hop_bytes += 2 * e.volume * (d + 2);
    latency_sum += routed.latency(a, b);
  }
  if (problem.traffic)
    for (const TaskTraffic& t : *problem.traffic) {
      const int a = placement[t.from], b = placement[t.to];
      if (a != b) m.hop_bytes += t.bytes * (routed.hops(a, b) + 2);
    }
  const double edges = static_cast<double>(graph.edges().size());
  if (edges > 0) {
    m.cardinality /= edges;
    m.zero_load_latency = latency_sum / edges;
  }
  const LinkVolumes loads = link_volumes(problem, placement);
  const PortLayout layout(routed.network());
  for (int p = 0; p < layout.size(); ++p) {
    if (layout.is_channel(p)) {
      m.max_link_load = std::max(m.max_link_load, loads.volume[p]);
      m.max_link_messages = std::max(m.max_link_messages, loads.messages[p]);
    } else {
      m.max_nic_load = std::max(m.max_nic_load, loads.volume[p]);
    }
  }
  std::map<int, int> per_node;
  for (int node : problem.nodes) per_node[node] = 0;
  for (int node : placement) ++per_node[node];
  const double mean = static_cast<double>(graph.num_tasks()) / static_cast<double>(per_node.size());
  for (const auto& [node, count] : per_node) m.load_variance += (count - mean) * (count - mean);
  m.load_variance /= static_cast<double>(per_node.size());
  m.gamma_l = m.load_variance;
  m.congestion = congestion(problem, placement);
  m.congestion_bound = congestion_bound(problem, placement);
  return m;
}

std::vector<std::pair<std::string, double>> metric_list(const MappingMetrics& m) {
  return {{"weighted_cardinality", m.weighted_cardinality},
          {"cardinality", m.cardinality},
          {"hop_bytes", m.hop_bytes},
          {"dilation", m.dilation},
          {"max_link_load", m.max_link_load},
          {"max_link_messages", m.max_link_messages},
          {"max_nic_load", m.max_nic_load},
          {"load_variance", m.load_variance},
          {"total_communication", m.total_communication},
          {"network_traffic", m.network_traffic},
          {"gamma_c", m.gamma_c},
          {"gamma_l", m.gamma_l},
          {"zero_load_latency", m.zero_load_latency},
          {"congestion", m.congestion},
          {"congestion_bound", m.congestion_bound}};
}

std::vector<std::pair<std::string, double>> placement_metrics(const MappingProblem& problem, const Placement& placement) {
  std::vector<std::pair<std::string, double>> values = metric_list(evaluate(problem, placement));
  for (const ResultColumn& c : result_columns())
    if (c.compute) values.emplace_back(c.name, c.compute(problem, placement));
  return values;
}

}  // namespace mapsim
