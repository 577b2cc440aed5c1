#include "sim/internal/circuit_planner.h"

#include <algorithm>
#include <map>

#include "sim/ocs.h"

namespace mapsim::sim {
namespace {

class StaticPathways : public CircuitPlanner {
 public:
  StaticPathways(const RoutedNetwork& routed, const Placement& placement, const TraceSource& trace, const OcsConfig& ocs)
      : net_(routed.network()) {
    circuits_ = assign_pathways(net_, placement, large_message_traffic(trace, ocs.threshold), ocs);
    forwarding_ = std::make_unique<OcsForwarding>(net_, circuits_, ocs.bandwidth);
    ready_ = ocs.setup_delay;
  }

  std::vector<int> plan(int src, int dst, double, double& ready) override {
    const int from = net_.node(src).switch_id, to = net_.node(dst).switch_id;
    ready = ready_;  // all static circuits are set up at the start
    return forwarding_->route(src, dst, picks_[{from, to}]++);
  }

 private:
  const Network& net_;
  std::unique_ptr<OcsForwarding> forwarding_;
  double ready_ = 0;
  std::map<std::pair<int, int>, uint64_t> picks_;  // messages per switch pair: balances parallel circuits
};

class DynamicCircuits : public CircuitPlanner {
 public:
  DynamicCircuits(const Network& net, const OcsConfig& ocs) : ocs_(ocs), port_owner_(net.num_nodes(), -1) {}

  std::vector<int> plan(int a, int b, double now, double& ready) override {
    const int k = circuit(a, b, now);
    if (k < 0) return {};
    last_used_[k] = now;
    ready = ready_[k];
    return {k};
  }

 private:
  static std::pair<int, int> unordered(int x, int y) {
    return {std::min(x, y), std::max(x, y)};
  }  // circuits are two-way

  // The circuit between two nodes, set up now if need be (-1: not possible now).
  int circuit(int a, int b, double now) {
    if (!ocs_.optical[a] || !ocs_.optical[b]) return -1;
    if (auto it = circuit_of_pair_.find(unordered(a, b)); it != circuit_of_pair_.end()) return it->second;
    // The circuits holding the two ports, and with a budget the least recently used one, must go; a
    // circuit still carrying data cannot (the message takes the EPS).
    std::vector<int> release;
    for (int node : {a, b})
      if (port_owner_[node] >= 0) release.push_back(port_owner_[node]);
    const long active = static_cast<long>(circuit_of_pair_.size()) - static_cast<long>(release.size());
    if (ocs_.circuit_budget >= 0 && active >= ocs_.circuit_budget) {
      int lru = -1;
      for (const auto& [pair, k] : circuit_of_pair_)
        if (std::find(release.begin(), release.end(), k) == release.end() &&
            (lru < 0 || last_used_[k] < last_used_[lru]))
          lru = k;
      if (lru < 0) return -1;  // a budget of 0
      release.push_back(lru);
    }
    for (int k : release)
      if (!ports_->circuit_idle(k)) return -1;
    for (int k : release) {
      port_owner_[circuits_[k].a] = port_owner_[circuits_[k].b] = -1;
      circuit_of_pair_.erase(unordered(circuits_[k].a, circuits_[k].b));
    }
    // Releasing takes the set-up delay too (the MEMS mirrors move twice).
    const double ready = now + ocs_.setup_delay * (release.empty() ? 1 : 2);
    const int k = static_cast<int>(circuits_.size());
    circuits_.push_back({a, b});
    ready_.push_back(ready);
    last_used_.push_back(now);
    port_owner_[a] = port_owner_[b] = k;
    circuit_of_pair_[unordered(a, b)] = k;
    ports_->add_circuit(k, ready);
    return k;
  }

  const OcsConfig& ocs_;
  std::vector<int> port_owner_;  // per node, its circuit or -1
  std::vector<double> ready_;    // per circuit: when it can carry data
  std::vector<double> last_used_;
  std::map<std::pair<int, int>, int> circuit_of_pair_;
};

}  // namespace

std::unique_ptr<CircuitPlanner> make_circuit_planner(const RoutedNetwork& routed, const Placement& placement,
                                                     const TraceSource& trace, const OcsConfig& ocs) {
  if (ocs.policy == PathwayPolicy::Dynamic) return std::make_unique<DynamicCircuits>(routed.network(), ocs);
  return std::make_unique<StaticPathways>(routed, placement, trace, ocs);
}

}  // namespace mapsim::sim
