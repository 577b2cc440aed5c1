// A network as mapsim builds and routes it from a spec: its nodes, switches and links.
#pragma once
#include <mapsim/export.h>
#include <string>
#include <vector>

namespace mapsim {

struct NetworkNode {
  std::string name;
  int switch_id = 0;
  double bandwidth = 0;  // bytes/s of its link to the switch
  double latency = 0;    // seconds
};
struct NetworkSwitch {
  std::string name;
  int ports = 0;
  double router_delay = 0;  // seconds
};
struct NetworkLink {
  int a = 0, b = 0;      // switch ids
  double bandwidth = 0;  // bytes/s, each way
  double latency = 0;    // seconds
};
struct NetworkDescription {
  std::string spec, routing;
  std::vector<NetworkNode> nodes;
  std::vector<NetworkSwitch> switches;
  std::vector<NetworkLink> links;
  int diameter = 0;           // switch graph hops between the farthest switches with nodes
  double average_hops = 0;    // over ordered pairs of distinct nodes
  bool deadlock_free = false; // the routing's channel dependencies (with its virtual channels) are acyclic
};

// `routing` empty: the network's own. Throws mapsim::Error with the CLI's message for a bad spec.
MAPSIM_API NetworkDescription describe_network(const std::string& spec, const std::string& routing = "");

}  // namespace mapsim
