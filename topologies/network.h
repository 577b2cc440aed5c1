// Network: a switch-based interconnect as a graph. Switches carry a port count and a router
// delay; full-duplex links join switches; each compute node (processor) hangs off one switch by
// its own link. Direct networks (hypercube, mesh, torus) are switches with one node each.
// A directed switch-to-switch link is a "channel": channel 2*l goes a->b, 2*l+1 goes b->a.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "topologies/node_hierarchy.h"

namespace mapsim {

// The largest networks mapsim builds (docs/topologies.md): beyond them memory, not time, runs out.
constexpr long kMaxNetworkSwitches = 1L << 20;
constexpr long kMaxNetworkNodes = 1L << 24;
constexpr long kMaxNetworkLinks = 1L << 24;

// Defaults shared by all generators (moh2001 section 5.1: t_s=2us, t_p=20ns, t_r=300ns).
struct LinkDefaults {
  double link_bandwidth = 1.25e9;  // switch-to-switch, bytes/s (10 Gbps)
  double link_latency = 20e-9;     // t_p, seconds
  double router_delay = 300e-9;    // t_r, seconds
  double startup = 2e-6;           // t_s, seconds, paid once per message at the sender
  double node_bandwidth = 1.25e9;  // node-to-switch, bytes/s
  double node_latency = 0;         // node-to-switch propagation, seconds
};

// The kind of network a generator built (or a network file declares): one name per family.
enum class Family { File, Irregular, Hypercube, Mesh, Torus, FatTree, Tree2, Suprenum, Xgft, HyperX, Dragonfly, IbNet };
const std::vector<Family>& all_families();
std::string family_name(Family family);  // file, irregular, hypercube, ..., fattree, ..., ibnet

// What a generator knows about the regular structure, for dimension-order and d-mod-k routing
// and for structure-aware mappers.
struct Shape {
  Family family = Family::File;
  std::vector<int> dims;   // mesh/torus extents (x fastest); hypercube: dims.size() == dimension
  int k = 0;               // fattree arity
  int levels = 0;          // fattree levels
  int clusters_per_side = 0;    // suprenum c
  int nodes_per_cluster = 0;    // suprenum d
  double alpha = 0;             // suprenum bus/ring speed ratio
};

struct Switch {
  std::string name;
  int ports;
  double router_delay;
};

struct Node {
  std::string name;
  int switch_id;
  double bandwidth;
  double latency;
};

struct Link {
  int a, b;  // switch ids
  double bandwidth;
  double latency;
};

class Network {
 public:
  struct Port {
    int neighbor;  // switch id
    int link;      // link id
  };

  Shape shape;
  double startup = LinkDefaults{}.startup;
  // The fabric's own forwarding tables when it was imported with them (ibnet lft=): the channel each
  // switch forwards each destination node to, [node * num_switches() + switch], -1 at its switch.
  std::vector<int32_t> forwarding;
  // What is inside each compute node (sockets, NUMA domains, cores), when described: the slots ranks
  // take and the cost of two ranks on one node by the level they share. Empty by default.
  NodeHierarchy node_insides;

  // Each throws Error past the limits below (a guard behind the generators' own size checks).
  int add_switch(std::string name, int ports, double router_delay);
  int add_node(std::string name, int switch_id, double bandwidth, double latency);
  int add_link(int a, int b, double bandwidth, double latency);

  int num_switches() const { return static_cast<int>(switches_.size()); }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  int num_links() const { return static_cast<int>(links_.size()); }
  int num_channels() const { return 2 * num_links(); }

  const Switch& switch_at(int id) const { return switches_[id]; }
  const Node& node(int id) const { return nodes_[id]; }
  const Link& link(int id) const { return links_[id]; }
  const std::vector<Switch>& switches() const { return switches_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }

  // Neighbours of a switch sorted by (neighbour id, link id): the routing tie-break order.
  const std::vector<Port>& ports_of(int switch_id) const { return adjacency_[switch_id]; }
  const std::vector<int>& nodes_of(int switch_id) const { return attached_[switch_id]; }
  int ports_used(int switch_id) const {
    return static_cast<int>(adjacency_[switch_id].size() + attached_[switch_id].size());
  }
  int total_ports_used() const;

  int channel(int link, int from_switch) const { return 2 * link + (links_[link].a == from_switch ? 0 : 1); }
  int channel_source(int channel) const { const Link& l = links_[channel / 2]; return channel % 2 ? l.b : l.a; }
  int channel_target(int channel) const { const Link& l = links_[channel / 2]; return channel % 2 ? l.a : l.b; }
  // The channel of the lowest-id link from switch a to switch b; throws if they are not linked.
  int channel_between(int a, int b) const;

  // Throws mapsim::Error if a port is over-subscribed, a node-less network, or the switch graph
  // is disconnected (naming the offending switch).
  void validate() const;

 private:
  std::vector<Switch> switches_;
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<std::vector<Port>> adjacency_;
  std::vector<std::vector<int>> attached_;
};

// Hop distance between switches over the undirected switch graph (BFS); -1 if unreachable. The
// second form measures from the nearest of several switches.
std::vector<int> bfs_distances(const Network& network, int from_switch);
std::vector<int> bfs_distances(const Network& network, const std::vector<int>& from_switches);

}  // namespace mapsim
