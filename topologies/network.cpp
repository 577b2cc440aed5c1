#include "topologies/network.h"

#include <algorithm>
#include <deque>

#include "support/error.h"
#include "support/message.h"

namespace mapsim {

const std::vector<Family>& all_families() {
  static const std::vector<Family> families{Family::File,    Family::Irregular, Family::Hypercube, Family::Mesh,
                                            Family::Torus,   Family::FatTree,   Family::Tree2,     Family::Suprenum,
                                            Family::Xgft,    Family::HyperX,    Family::Dragonfly, Family::IbNet};
  return families;
}

std::string family_name(Family family) {
  switch (family) {
    case Family::File: return "file";
    case Family::Irregular: return "irregular";
    case Family::Hypercube: return "hypercube";
    case Family::Mesh: return "mesh";
    case Family::Torus: return "torus";
    case Family::FatTree: return "fattree";
    case Family::Tree2: return "tree2";
    case Family::Suprenum: return "suprenum";
    case Family::Xgft: return "xgft";
    case Family::HyperX: return "hyperx";
    case Family::Dragonfly: return "dragonfly";
    case Family::IbNet: return "ibnet";
  }
  return "";
}

namespace {
void check_limit(size_t count, long limit, const char* what) {
  if (static_cast<long>(count) >= limit)
    throw Error("the network would have more than " + std::to_string(limit) + " " + what + " (mapsim's limit)");
}
// Names end up in rankfiles and hostlists, one word a line: a space or newline there would add entries.
void check_name(const std::string& name, const char* what) {
  if (!plain_name(name))
    throw Error(std::string(what) + " name '" + name + "': expected printable ASCII without spaces (it is written into rankfiles and hostlists)");
}
}  // namespace

int Network::add_switch(std::string name, int ports, double router_delay) {
  check_limit(switches_.size(), kMaxNetworkSwitches, "switches");
  check_name(name, "switch");
  switches_.push_back({std::move(name), ports, router_delay});
  adjacency_.emplace_back();
  attached_.emplace_back();
  return num_switches() - 1;
}

int Network::add_node(std::string name, int switch_id, double bandwidth, double latency) {
  check_limit(nodes_.size(), kMaxNetworkNodes, "nodes");
  check_name(name, "node");
  nodes_.push_back({std::move(name), switch_id, bandwidth, latency});
  attached_[switch_id].push_back(num_nodes() - 1);
  return num_nodes() - 1;
}

int Network::add_link(int a, int b, double bandwidth, double latency) {
  if (a == b) throw Error("link from switch '" + switches_[a].name + "' to itself");
  check_limit(links_.size(), kMaxNetworkLinks, "links");
  links_.push_back({a, b, bandwidth, latency});
  int id = num_links() - 1;
  auto insert_sorted = [](std::vector<Port>& ports, Port port) {
    auto pos = std::upper_bound(ports.begin(), ports.end(), port, [](const Port& x, const Port& y) {
      return x.neighbor != y.neighbor ? x.neighbor < y.neighbor : x.link < y.link;
    });
    ports.insert(pos, port);
  };
  insert_sorted(adjacency_[a], {b, id});
  insert_sorted(adjacency_[b], {a, id});
  return id;
}

int Network::channel_between(int a, int b) const {
  for (const Port& port : adjacency_[a])
    if (port.neighbor == b) return channel(port.link, a);
  throw Error("switches '" + switches_[a].name + "' and '" + switches_[b].name + "' are not linked");
}

int Network::total_ports_used() const {
  int total = 0;
  for (int s = 0; s < num_switches(); ++s) total += ports_used(s);
  return total;
}

void Network::validate() const {
  if (nodes_.empty()) throw Error("network has no compute nodes");
  for (int s = 0; s < num_switches(); ++s)
    if (ports_used(s) > switches_[s].ports)
      throw Error("switch '" + switches_[s].name + "' uses " + std::to_string(ports_used(s)) +
                  " ports but has only " + std::to_string(switches_[s].ports));
  std::vector<int> dist = bfs_distances(*this, 0);
  for (int s = 0; s < num_switches(); ++s)
    if (dist[s] < 0)
      throw Error("network is disconnected: switch '" + switches_[s].name +
                  "' cannot be reached from switch '" + switches_[0].name + "'");
}

std::vector<int> bfs_distances(const Network& network, int from_switch) {
  return bfs_distances(network, std::vector<int>{from_switch});
}

std::vector<int> bfs_distances(const Network& network, const std::vector<int>& from_switches) {
  std::vector<int> dist(network.num_switches(), -1);
  std::deque<int> queue(from_switches.begin(), from_switches.end());
  for (int s : from_switches) dist[s] = 0;
  while (!queue.empty()) {
    int v = queue.front();
    queue.pop_front();
    for (const Network::Port& port : network.ports_of(v))
      if (dist[port.neighbor] < 0) {
        dist[port.neighbor] = dist[v] + 1;
        queue.push_back(port.neighbor);
      }
  }
  return dist;
}

}  // namespace mapsim
