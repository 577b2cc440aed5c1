#include "sim/ocs.h"

#include <algorithm>

#include "support/error.h"

namespace mapsim {

std::string cp_mapper(const std::optional<OcsConfig>& ocs, const std::string& requested) {
  const bool cp = ocs && ocs->policy == PathwayPolicy::CommunicationPartitioning;
  if (cp && requested.rfind("placement:", 0) == 0)
    throw Error("ocs policy cp places the ranks itself: drop the placement file (" + requested + ")");
  return cp && requested == "default" ? "metis" : requested;
}

std::map<std::pair<int, int>, PairTraffic> large_message_traffic(const TraceSource& trace, double threshold) {
  std::map<std::pair<int, int>, PairTraffic> traffic;
  for_each_action(trace, [&](int r, const Action& a, const RankTrace&) {
    const bool sends = a.type == ActionType::Send || a.type == ActionType::Isend || a.type == ActionType::SendRecv;
    if (!sends || a.bytes <= threshold || a.peer == r) return;
    PairTraffic& t = traffic[{std::min(r, a.peer), std::max(r, a.peer)}];
    ++t.messages;
    t.bytes += a.bytes;
  });
  return traffic;
}

std::map<std::pair<int, int>, PairTraffic> large_message_traffic(const Trace& trace, double threshold) {
  return large_message_traffic(TraceView(trace), threshold);
}

std::vector<Circuit> assign_pathways(const Network& net, const Placement& placement,
                                     const std::map<std::pair<int, int>, PairTraffic>& traffic, const OcsConfig& ocs) {
  struct Candidate {
    int a, b;  // ranks, a < b
    PairTraffic traffic;
  };
  std::map<std::pair<int, int>, std::vector<Candidate>> by_switch_pair;
  for (const auto& [pair, t] : traffic) {
    const int na = placement.at(pair.first), nb = placement.at(pair.second);
    const int sa = net.node(na).switch_id, sb = net.node(nb).switch_id;
    if (sa == sb || !ocs.optical[na] || !ocs.optical[nb]) continue;
    by_switch_pair[{std::min(sa, sb), std::max(sa, sb)}].push_back({pair.first, pair.second, t});
  }
  for (auto& [key, list] : by_switch_pair)
    std::stable_sort(list.begin(), list.end(), [](const Candidate& x, const Candidate& y) {
      if (x.traffic.messages != y.traffic.messages) return x.traffic.messages > y.traffic.messages;
      if (x.traffic.bytes != y.traffic.bytes) return x.traffic.bytes > y.traffic.bytes;
      return std::pair{x.a, x.b} < std::pair{y.a, y.b};
    });
  size_t limit = static_cast<size_t>(ocs.pathways);
  if (ocs.circuit_budget >= 0) limit = std::min(limit, static_cast<size_t>(ocs.circuit_budget));
  std::vector<bool> port_used(net.num_nodes(), false);
  std::map<std::pair<int, int>, size_t> cursor;
  std::vector<Circuit> circuits;
  for (bool progress = true; progress && circuits.size() < limit;) {
    progress = false;
    for (const auto& [key, list] : by_switch_pair) {
      if (circuits.size() == limit) break;
      size_t& next = cursor[key];
      while (next < list.size() && (port_used[placement[list[next].a]] || port_used[placement[list[next].b]])) ++next;
      if (next == list.size()) continue;
      const int na = placement[list[next].a], nb = placement[list[next].b];
      port_used[na] = port_used[nb] = true;
      circuits.push_back({na, nb});
      ++next;
      progress = true;
    }
  }
  return circuits;
}

}  // namespace mapsim
