// The ports (topologies/port_layout.h) a message between two compute nodes loads, with the share of
// its bytes each carries: both node links whole; switch channels whole on a fixed route, else -- when
// the simulation picks each message's path (problem.routes_fixed false on a multipath routing) --
// the expected split over the routing's legal walks: equal shares over the next hops at every switch
// (ECMP, spraying, adaptive routing at light load), over every Valiant intermediate, and for UGAL
// half minimal, half over the intermediates (its choice when the queues favour either as often).
// Channel shares are kept per (source switch, destination switch), computed on first use.
#pragma once
#include <unordered_map>
#include <vector>

#include "mappers/mapping.h"
#include "topologies/port_layout.h"

namespace mapsim {

struct PortShare {
  int port;
  double share;  // of the message's bytes
};

class RouteShares {
 public:
  explicit RouteShares(const MappingProblem& problem);
  // Calls visit(port, share) for each port of a message from node a to node b (a != b).
  template <typename Visit>
  void for_each(int a, int b, Visit visit) const {
    visit(layout_.injection(a), 1.0);
    for (const PortShare& s : channels(a, b)) visit(s.port, s.share);
    visit(layout_.ejection(b), 1.0);
  }
  const PortLayout& layout() const { return layout_; }

 private:
  struct Span {
    const PortShare* first;
    const PortShare* last;
    const PortShare* begin() const { return first; }
    const PortShare* end() const { return last; }
  };
  Span channels(int a, int b) const;
  void compute(int a, int b) const;  // appends the shares of (a, b) to shares_
  void expected_split(int src_switch, int dst_node) const;

  const RoutedNetwork& network_;
  PortLayout layout_;
  bool spread_, by_node_;
  size_t targets_;  // keys per source switch
  // Key (source switch, destination node or switch) -> its span of shares_: a dense index up to
  // kMaxDense keys, a hash map above.
  static constexpr size_t kMaxDense = size_t{1} << 22;
  mutable std::vector<std::pair<int, int>> dense_;  // (offset, length); offset -1: not computed
  mutable std::unordered_map<size_t, std::pair<int, int>> sparse_;
  mutable std::vector<PortShare> shares_;
  mutable std::vector<int> route_;
};

}  // namespace mapsim
