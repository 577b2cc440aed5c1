#include "mappers/metrics.h"

#include <algorithm>
#include <map>

namespace mapsim {

LinkVolumes link_volumes(const MappingProblem& problem, const Placement& placement) {
  const RoutedNetwork& routed = *problem.network;
  const Network& net = routed.network();
  const size_t node_base = net.num_channels();
  LinkVolumes loads;
  loads.volume.assign(node_base + 2 * static_cast<size_t>(net.num_nodes()), 0);
  loads.messages.assign(loads.volume.size(), 0);
  std::vector<int> channels;
  for (const ProcessEdge& e : problem.graph->edges()) {
    const int a = placement[e.a], b = placement[e.b];
    if (a == b) continue;
    for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
      routed.route(from, to, channels);
      channels.push_back(static_cast<int>(node_base + 2 * from));
      channels.push_back(static_cast<int>(node_base + 2 * to + 1));
      for (int c : channels) {
        loads.volume[c] += e.volume;
        loads.messages[c] += 1;
      }
    }
  }
  return loads;
}

MappingMetrics evaluate(const MappingProblem& problem, const Placement& placement) {
  const RoutedNetwork& routed = *problem.network;
  const ProcessGraph& graph = *problem.graph;
  MappingMetrics m;
  double latency_sum = 0;
  for (const ProcessEdge& e : graph.edges()) {
    const int a = placement[e.a], b = placement[e.b];
    const int d = routed.hops(a, b);
    m.weighted_cardinality += e.volume * d;
    m.cardinality += d;
    m.dilation = std::max(m.dilation, d);
    m.total_communication += e.volume;
    m.gamma_c += e.volume * routed.cost(a, b);
    if (a == b) continue;
    m.network_traffic += e.volume;
    m.hop_bytes += 2 * e.volume * (d + 2);
    latency_sum += routed.latency(a, b);
  }
  const double edges = static_cast<double>(graph.edges().size());
  if (edges > 0) {
    m.cardinality /= edges;
    m.avg_latency = latency_sum / edges;
  }
  const LinkVolumes loads = link_volumes(problem, placement);
  m.max_link_load = loads.volume.empty() ? 0 : *std::max_element(loads.volume.begin(), loads.volume.end());
  m.max_link_messages = loads.messages.empty() ? 0 : *std::max_element(loads.messages.begin(), loads.messages.end());
  std::map<int, int> per_node;
  for (int node : problem.nodes) per_node[node] = 0;
  for (int node : placement) ++per_node[node];
  const double mean = static_cast<double>(graph.num_tasks()) / static_cast<double>(per_node.size());
  for (const auto& [node, count] : per_node) m.load_variance += (count - mean) * (count - mean);
  m.load_variance /= static_cast<double>(per_node.size());
  m.gamma_l = m.load_variance;
  return m;
}

std::vector<std::pair<std::string, double>> metric_list(const MappingMetrics& m) {
  return {{"weighted_cardinality", m.weighted_cardinality},
          {"cardinality", m.cardinality},
          {"hop_bytes", m.hop_bytes},
          {"dilation", m.dilation},
          {"max_link_load", m.max_link_load},
          {"max_link_messages", m.max_link_messages},
          {"load_variance", m.load_variance},
          {"total_communication", m.total_communication},
          {"network_traffic", m.network_traffic},
          {"gamma_c", m.gamma_c},
          {"gamma_l", m.gamma_l},
          {"avg_latency", m.avg_latency}};
}

}  // namespace mapsim
