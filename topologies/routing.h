// Routing: the fixed path a message takes. A route is the list of directed switch-to-switch
// channels (Network::channel) from the source switch to the switch of the destination node;
// node links are implicit at both ends. Routes of the table routings depend only on the source and
// destination switches and are stored as next-hop tables (O(S^2), never a node x node matrix).
//
//   updown     up*/down* (Autonet) over a BFS spanning tree of minimum height; default for
//              irregular, tree2, file and ibnet networks
//   shortest   minimal hops, lowest neighbour id first
//   ecube      dimension order for hypercube, mesh and torus (torus: dateline virtual channels)
//   dmodk      d-mod-k up/down routing for k-ary n-trees
//   suprenum   row ring, then column ring
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "topologies/network.h"

namespace mapsim {

class Routing {
 public:
  virtual ~Routing() = default;
  virtual std::string name() const = 0;
  // Appends the route's channels to `channels` (cleared first).
  virtual void route(int src_switch, int dst_node, std::vector<int>& channels) const = 0;
  // Number of switch-to-switch links on the route.
  virtual int hops(int src_switch, int dst_node) const;
  // True when routes depend on the destination node, not only on its switch.
  virtual bool per_node() const { return false; }
  // Virtual channel of each hop of a route, for the deadlock check (default: one class).
  virtual int num_virtual_channels() const { return 1; }
  virtual void virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const;
  // Empty if `channels` obeys this routing's rule, else a short reason.
  virtual std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const = 0;
};

// `name` "default" picks the family's natural routing (see above).
std::unique_ptr<Routing> make_routing(const Network& network, const std::string& name);
std::string default_routing_name(const Network& network);

}  // namespace mapsim
