// The optical part of a hybrid electrical/optical network (takizawa2008): a MEMS optical circuit
// switch (OCS) beside the electrical packet network (EPS), joining nodes that have an optical port,
// one circuit per port. Offered: the `ocs` spec (optical nodes, circuit bandwidth and latency, set-up
// delay, circuit budget, size threshold, pathway count and policy), circuits, and the
// distance-vector forwarding over them (metric 1 / bandwidth), multi-hop through relay switches,
// parallel circuits balanced, EPS fallback. sim/ocs.h assigns the circuits and sim/ moves messages.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "topologies/network.h"

namespace mapsim {

// SP and CP assign static pathways before the run (takizawa2008); Dynamic sets a circuit up between
// the two nodes of a large message on demand and releases the least recently used circuit of a port
// it needs (Barker et al.'s on-demand scheme, for comparison).
enum class PathwayPolicy { SwitchPartitioning, CommunicationPartitioning, Dynamic };

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

// "ocs:pathways=24,policy=sp|cp|dynamic,nodes=all|0.5|list:FILE,bandwidth=32Gbps,latency=80ns,setup=10ms,
//  threshold=8192,circuits=N,setup_wait=1". nodes=F gives the first ceil(F x k) nodes of every switch
// an optical port. threshold defaults to the circuit's bandwidth-delay product (bandwidth x latency).
OcsConfig parse_ocs(const std::string& spec, const Network& network);

struct Circuit {
  int a, b;  // optical nodes under different switches
};

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
