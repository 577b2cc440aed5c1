// Hybrid electrical/optical networks (takizawa2008): beside the electrical packet network (EPS), a
// MEMS optical circuit switch (OCS) joins nodes that have an optical port, one circuit per port.
// Offered here, independent of the engine:
//   parse_ocs            the `ocs` spec: optical nodes, port bandwidth and latency, circuit set-up
//                        delay, circuit budget, size threshold, pathway count and policy
//   large_message_traffic  who sends how many messages above the threshold to whom (from a trace)
//   assign_pathways      SP: static circuits round robin over end-tier switch pairs, the pair of
//                        nodes that exchange most messages first, ties to the smallest rank
//   OcsForwarding        distance-vector forwarding over the circuits (metric 1 / bandwidth),
//                        multi-hop through relay switches, parallel circuits balanced, EPS fallback
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mappers/mapping.h"
#include "topologies/network.h"
#include "traces/ti_trace.h"

namespace mapsim {

enum class PathwayPolicy { SwitchPartitioning, CommunicationPartitioning };

struct OcsConfig {
  std::vector<bool> optical;     // per node: has an optical port
  double bandwidth = 32e9 / 8;   // bytes/s of a circuit (the node's optical NIC)
  double latency = 80e-9;        // propagation through the OCS, seconds
  double setup_delay = 10e-3;    // from a circuit's request to its first use, seconds
  long circuit_budget = -1;      // circuits the OCS can hold at once; -1: nonblocking
  double threshold = 0;          // messages larger than this (bytes) may take circuits
  int pathways = 0;              // static circuits to assign (the papers' N)
  PathwayPolicy policy = PathwayPolicy::SwitchPartitioning;
  bool wait_for_setup = true;    // a message that needs a circuit not yet set up waits (else EPS)
};

// "ocs:pathways=24,policy=sp|cp,nodes=all|0.5|list:FILE,bandwidth=32Gbps,latency=80ns,setup=10ms,
//  threshold=8192,circuits=N,setup_wait=1". nodes=F gives the first ceil(F x k) nodes of every switch
// an optical port. threshold defaults to the circuit's bandwidth-delay product (bandwidth x latency).
OcsConfig parse_ocs(const std::string& spec, const Network& network);

// CP regroups communicating ranks onto switches before assigning pathways: under CP the `default`
// mapper (ranks in order) becomes `metis`; any other mapper is taken as the regrouping (switch, best, ...).
std::string cp_mapper(const std::optional<OcsConfig>& ocs, const std::string& requested);

struct PairTraffic {
  long messages = 0;
  double bytes = 0;
};
// Point-to-point messages larger than `threshold` per unordered rank pair (a < b), both directions.
std::map<std::pair<int, int>, PairTraffic> large_message_traffic(const Trace& trace, double threshold);

struct Circuit {
  int a, b;  // optical nodes under different switches
};

// SP (takizawa2008 section 3.2): candidate rank pairs are those on different switches, both on optical
// nodes, exchanging messages above the threshold. Switch pairs take turns (in order of their ids),
// each taking its next candidate whose two nodes still have a free port, most messages first (then
// most bytes, then the smallest rank); rounds repeat while pathways and candidates remain. The
// circuit budget, if any, also bounds the count. CP is the same on a placement that groups
// communicating ranks (mapsim map --mapper metis or best).
std::vector<Circuit> assign_pathways(const Network& network, const Placement& placement,
                                     const std::map<std::pair<int, int>, PairTraffic>& traffic, const OcsConfig& ocs);

class OcsForwarding {
 public:
  OcsForwarding(const Network& network, std::vector<Circuit> circuits, double bandwidth);

  // The circuits a message from node `src` to node `dst` crosses, in order; empty when no optical
  // path joins their switches (EPS fallback) or they share one. Among parallel circuits between two
  // switches, one that starts at the node the message is on, or ends at `dst`, is taken (no relay
  // needed); otherwise `pick` chooses (pick mod count): a per-pair message counter balances them.
  std::vector<int> route(int src, int dst, uint64_t pick) const;
  // Circuit hops between two switches (-1: unreachable).
  int hops(int from, int to) const {
    if (hops_.empty()) return from == to ? 0 : -1;
    return hops_[static_cast<size_t>(from) * switches_ + to];
  }
  const std::vector<Circuit>& circuits() const { return circuits_; }
  double metric(int from, int to) const;  // sum of 1 / bandwidth along the route, the distance vector's metric

 private:
  const Network& network_;
  std::vector<Circuit> circuits_;
  double bandwidth_;
  size_t switches_;
  std::vector<std::vector<std::pair<int, int>>> adjacent_;  // switch -> (neighbour switch, circuit)
  std::vector<int> hops_;                                   // switches x switches
};

}  // namespace mapsim
