#include "topologies/optical.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include "support/error.h"
#include "topologies/node_list.h"
#include "support/spec.h"
#include "support/units.h"

namespace mapsim {

OcsConfig parse_ocs(const std::string& text, const Network& net) {
  Spec spec = Spec::parse(text);
  if (spec.name() != "ocs") throw Error("bad spec '" + text + "': expected ocs:key=value,...");
  OcsConfig ocs;
  const long pathways = spec.get_int("pathways", 0);
  if (pathways < 0 || pathways > (1L << 24)) throw Error("bad spec '" + text + "': pathways must be in 0..16777216");
  ocs.pathways = static_cast<int>(pathways);
  const std::string policy = spec.get_string("policy", "sp");
  if (policy != "sp" && policy != "cp" && policy != "dynamic")
    throw Error("bad spec '" + text + "': policy must be sp, cp or dynamic, got '" + policy + "'");
  ocs.policy = policy == "sp"   ? PathwayPolicy::SwitchPartitioning
               : policy == "cp" ? PathwayPolicy::CommunicationPartitioning
                                : PathwayPolicy::Dynamic;
  ocs.bandwidth = spec.get_bandwidth("bandwidth", ocs.bandwidth);
  ocs.latency = spec.get_time("latency", ocs.latency);
  ocs.setup_delay = spec.get_time("setup", ocs.setup_delay);
  ocs.circuit_budget = spec.get_int("circuits", -1);
  ocs.wait_for_setup = spec.get_int("setup_wait", 1) != 0;
  if (!(ocs.bandwidth > 0) || ocs.latency < 0 || ocs.setup_delay < 0 || ocs.circuit_budget < -1)
    throw Error("bad spec '" + text + "': bandwidth must be > 0, latency and setup >= 0, circuits >= 0");
  const std::string threshold = spec.get_string("threshold", "");
  ocs.threshold = threshold.empty() ? ocs.bandwidth * ocs.latency : parse_size(threshold);

  const std::string nodes = spec.get_string("nodes", "all");
  ocs.optical.assign(net.num_nodes(), false);
  if (nodes == "all") {
    ocs.optical.assign(net.num_nodes(), true);
  } else if (nodes.rfind("list:", 0) == 0) {
    for (int n : read_node_list(nodes.substr(5), net)) ocs.optical[n] = true;
  } else {
    char* end = nullptr;
    const double fraction = std::strtod(nodes.c_str(), &end);
    if (nodes.empty() || *end != '\0' || !(fraction > 0 && fraction <= 1))
      throw Error("bad spec '" + text + "': nodes must be all, a fraction in (0, 1] or list:FILE, got '" + nodes + "'");
    for (int s = 0; s < net.num_switches(); ++s) {
      const std::vector<int>& on_switch = net.nodes_of(s);
      const size_t count = static_cast<size_t>(std::ceil(fraction * static_cast<double>(on_switch.size()) - 1e-9));
      for (size_t i = 0; i < count; ++i) ocs.optical[on_switch[i]] = true;
    }
  }
  spec.finish();
  return ocs;
}

OcsForwarding::OcsForwarding(const Network& network, std::vector<Circuit> circuits, double bandwidth)
    : network_(network), circuits_(std::move(circuits)), bandwidth_(bandwidth), switches_(network.num_switches()) {
  adjacent_.resize(switches_);
  for (size_t c = 0; c < circuits_.size(); ++c) {
    const int sa = network.node(circuits_[c].a).switch_id, sb = network.node(circuits_[c].b).switch_id;
    if (sa == sb) throw Error("circuit " + std::to_string(c) + " joins two nodes of switch " + std::to_string(sa));
    adjacent_[sa].push_back({sb, static_cast<int>(c)});
    adjacent_[sb].push_back({sa, static_cast<int>(c)});
  }
  for (auto& list : adjacent_) std::sort(list.begin(), list.end());
  // Every circuit has the OCS's bandwidth, so the distance vector (sum of 1 / bandwidth) orders
  // routes by circuit hops: a breadth-first search from each switch that has circuits.
  if (circuits_.empty()) return;
  hops_.assign(switches_ * switches_, -1);
  for (size_t s = 0; s < switches_; ++s) {
    if (adjacent_[s].empty()) continue;
    int* row = &hops_[s * switches_];
    row[s] = 0;
    std::deque<int> queue{static_cast<int>(s)};
    while (!queue.empty()) {
      const int u = queue.front();
      queue.pop_front();
      for (const auto& [v, c] : adjacent_[u])
        if (row[v] < 0) row[v] = row[u] + 1, queue.push_back(v);
    }
  }
}

std::vector<int> OcsForwarding::route(int src, int dst, uint64_t pick) const {
  std::vector<int> path;
  const int to = network_.node(dst).switch_id;
  int at = src;
  for (int u = network_.node(src).switch_id; u != to && hops(u, to) > 0;) {
    // The lowest-id neighbour one hop closer to `to`, over one of its parallel circuits.
    const auto& list = adjacent_[u];
    auto first = std::find_if(list.begin(), list.end(), [&](const auto& e) { return hops(e.first, to) == hops(u, to) - 1; });
    auto last = std::find_if(first, list.end(), [&](const auto& e) { return e.first != first->first; });
    auto direct = std::find_if(first, last, [&](const auto& e) {
      const Circuit& c = circuits_[e.second];
      return c.a == at || c.b == at || c.a == dst || c.b == dst;
    });
    const int circuit = (direct != last ? direct : first + static_cast<long>(pick % static_cast<uint64_t>(last - first)))->second;
    path.push_back(circuit);
    const Circuit& c = circuits_[circuit];
    at = network_.node(c.a).switch_id == u ? c.b : c.a;
    u = first->first;
  }
  return path;
}

double OcsForwarding::metric(int from, int to) const {
  const int h = hops(from, to);
  return h < 0 ? INFINITY : h / bandwidth_;
}

}  // namespace mapsim
