// Failed links and switches (failures.h): the network left, for routing again.
#include "topologies/failures.h"

#include <algorithm>
#include <set>

#include "support/error.h"
#include "support/message.h"
#include "support/random.h"

namespace mapsim {
namespace {

// A copy of the network's switches (those kept), nodes and links (those kept), as an irregular fabric.
// `kept`, when given, gets the original id of each link of the result.
Network rebuilt(const Network& network, const std::vector<bool>& link_gone, const std::vector<bool>& switch_gone,
                std::vector<int>* kept = nullptr) {
  Network out;
  out.shape.family = Family::Irregular;
  out.startup = network.startup;
  out.node_insides = network.node_insides;
  std::vector<int> new_id(network.num_switches(), -1);
  for (int s = 0; s < network.num_switches(); ++s)
    if (!switch_gone[s]) {
      const Switch& sw = network.switch_at(s);
      new_id[s] = out.add_switch(sw.name, sw.ports, sw.router_delay);
    }
  for (const Node& n : network.nodes()) out.add_node(n.name, new_id[n.switch_id], n.bandwidth, n.latency);
  for (int l = 0; l < network.num_links(); ++l) {
    const Link& link = network.link(l);
    if (link_gone[l] || switch_gone[link.a] || switch_gone[link.b]) continue;
    out.add_link(new_id[link.a], new_id[link.b], link.bandwidth, link.latency);
    if (kept) kept->push_back(l);
  }
  return out;
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

}  // namespace

Network without_links(const Network& network, const std::vector<int>& links) {
  std::vector<bool> gone(network.num_links(), false);
  for (int l : links) {
    if (l < 0 || l >= network.num_links())
      throw Error("link " + std::to_string(l) + " is not a link of the network (it has " +
                  std::to_string(network.num_links()) + ")");
    gone[l] = true;
  }
  return rebuilt(network, gone, std::vector<bool>(network.num_switches(), false));
}

Network without_switches(const Network& network, const std::vector<int>& switches) {
  std::vector<bool> gone(network.num_switches(), false);
  for (int s : switches) {
    if (s < 0 || s >= network.num_switches())
      throw Error("switch " + std::to_string(s) + " is not a switch of the network (it has " +
                  std::to_string(network.num_switches()) + ")");
    if (!network.nodes_of(s).empty())
      throw Error("switch " + quoted(network.switch_at(s).name) + " holds " + std::to_string(network.nodes_of(s).size()) +
                  " compute node(s) (" + network.node(network.nodes_of(s).front()).name +
                  ", ...): only switches without nodes can fail; fail its links instead");
    gone[s] = true;
  }
  if (std::all_of(gone.begin(), gone.end(), [](bool g) { return g; })) throw Error("no switch would be left");
  return rebuilt(network, std::vector<bool>(network.num_links(), false), gone);
}

std::vector<int> spine_links(const Network& network) {
  const std::string family = family_name(network.shape.family);
  const std::string refused = "level: spine needs a tree network whose switches stand in levels above the nodes "
                              "(fattree, xgft, tree2, or a network file laid out like one)";
  if (network.shape.family == Family::Irregular) throw Error(refused + "; an irregular network has no levels");
  std::vector<int> leaves;
  for (int s = 0; s < network.num_switches(); ++s)
    if (!network.nodes_of(s).empty()) leaves.push_back(s);
  const std::vector<int> height = bfs_distances(network, leaves);
  const int top = *std::max_element(height.begin(), height.end());
  if (top <= 0) throw Error(refused + "; every switch of this " + family + " network holds nodes");
  // As updn ranks a fat tree: the top switches are those farthest above the nodes, and every leaf
  // must be that far below each of them (layered), else the network is no tree of levels.
  std::vector<int> roots;
  for (int s = 0; s < network.num_switches(); ++s)
    if (height[s] == top) roots.push_back(s);
  const std::vector<int> depth = bfs_distances(network, roots);
  for (int s : leaves)
    if (depth[s] != top)
      throw Error(refused + "; the switches of this " + family + " network are not in levels (switch " +
                  quoted(network.switch_at(s).name) + " holds nodes but is " + std::to_string(depth[s]) +
                  " links below the top, others " + std::to_string(top) + ")");
  std::vector<int> links;
  for (int l = 0; l < network.num_links(); ++l) {
    const Link& link = network.link(l);
    if (std::min(depth[link.a], depth[link.b]) == 0 && std::max(depth[link.a], depth[link.b]) == 1) links.push_back(l);
  }
  return links;
}

std::vector<int> choose_links(const std::vector<int>& candidates, int count, uint64_t seed, const std::string& what) {
  if (count < 0) throw Error("links must be >= 0");
  if (static_cast<size_t>(count) > candidates.size())
    throw Error("links: " + std::to_string(count) + " failed links asked for, but the network has only " +
                std::to_string(candidates.size()) + " " + what);
  std::vector<int> pool = candidates;
  Rng rng(seed);
  // A partial Fisher-Yates shuffle: the first `count` entries are a uniform choice.
  for (int i = 0; i < count; ++i) std::swap(pool[i], pool[i + rng.below(pool.size() - i)]);
  pool.resize(count);
  std::sort(pool.begin(), pool.end());
  return pool;
}

int switch_named(const Network& network, const std::string& name) {
  std::vector<std::string> names;
  for (int s = 0; s < network.num_switches(); ++s) {
    if (network.switch_at(s).name == name) return s;
    names.push_back(network.switch_at(s).name);
  }
  const std::string near = nearest_word(name, names);
  throw Error("no switch named " + quoted(name) + (near.empty() ? "" : " (did you mean " + quoted(near) + "?)"));
}

std::pair<std::string, std::string> split_link_name(const Network& network, const std::string& text) {
  std::set<std::string> names;
  for (const Switch& sw : network.switches()) names.insert(sw.name);
  std::vector<std::pair<std::string, std::string>> splits;
  for (size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at + 1))
    if (names.count(text.substr(0, at)) && names.count(text.substr(at + 2)))
      splits.emplace_back(text.substr(0, at), text.substr(at + 2));
  if (splits.size() == 1) return splits.front();
  if (splits.size() > 1)
    throw Error("link " + quoted(text) + " splits into two switch names in more than one way; write it as [A, B]");
  const size_t at = text.find("--");
  if (at == std::string::npos) throw Error("link " + quoted(text) + ": expected SWITCH--SWITCH (or [A, B])");
  switch_named(network, text.substr(0, at));  // says which name is unknown
  switch_named(network, text.substr(at + 2));
  throw Error("link " + quoted(text) + ": expected SWITCH--SWITCH (or [A, B])");
}

std::pair<int, int> unreachable_pair(const Network& network) {
  int first = -1;  // the first switch with nodes
  for (int s = 0; s < network.num_switches() && first < 0; ++s)
    if (!network.nodes_of(s).empty()) first = s;
  if (first < 0) return {-1, -1};
  const std::vector<int> dist = bfs_distances(network, first);
  for (int s = 0; s < network.num_switches(); ++s)
    if (dist[s] < 0 && !network.nodes_of(s).empty()) return {network.nodes_of(first).front(), network.nodes_of(s).front()};
  return {-1, -1};
}

Network with_failures(const Network& network, const Failures& failures, std::vector<int>* original_links) {
  std::vector<bool> switch_gone(network.num_switches(), false), link_gone(network.num_links(), false);
  for (const std::string& name : failures.switches) {
    const int s = switch_named(network, name);
    if (!network.nodes_of(s).empty()) without_switches(network, {s});  // throws, naming a node
    if (switch_gone[s]) throw Error("switch " + quoted(name) + " is listed twice");
    switch_gone[s] = true;
  }
  for (const auto& [first, second] : failures.names) {
    const auto [a_name, b_name] = second.empty() ? split_link_name(network, first) : std::make_pair(first, second);
    const std::string shown = quoted(a_name + "--" + b_name);
    const int a = switch_named(network, a_name), b = switch_named(network, b_name);
    if (switch_gone[a] || switch_gone[b])
      throw Error("link " + shown + " is on a failed switch (" + quoted(switch_gone[a] ? a_name : b_name) + ") already");
    int joined = 0, taken = -1;
    for (const Network::Port& port : network.ports_of(a))
      if (port.neighbor == b) {
        ++joined;
        if (taken < 0 && !link_gone[port.link]) taken = port.link;
      }
    if (joined == 0) throw Error("no link joins switches " + quoted(a_name) + " and " + quoted(b_name));
    if (taken < 0)
      throw Error("link " + shown + " is listed more times than the " + std::to_string(joined) + " link(s) joining them");
    link_gone[taken] = true;
  }
  if (failures.links > 0 || failures.spine) {
    std::vector<int> pool;
    if (failures.spine) pool = spine_links(network);
    else
      for (int l = 0; l < network.num_links(); ++l) pool.push_back(l);
    std::vector<int> candidates;
    for (int l : pool) {
      const Link& link = network.link(l);
      if (!link_gone[l] && !switch_gone[link.a] && !switch_gone[link.b]) candidates.push_back(l);
    }
    const std::string what = std::string(failures.spine ? "spine links" : "switch-to-switch links") +
                             (failures.names.empty() && failures.switches.empty() ? "" : " left after the named failures");
    for (int l : choose_links(candidates, failures.links, failures.seed, what)) link_gone[l] = true;
  }
  // A switch without nodes cut off from every node is of no use to the fabric: it leaves with the rest.
  std::vector<int> kept;
  Network left = rebuilt(network, link_gone, switch_gone, &kept);
  if (const auto [a, b] = unreachable_pair(left); a >= 0)
    throw Error("the failures disconnect the network: nodes " + quoted(left.node(a).name) + " and " +
                quoted(left.node(b).name) + " cannot reach each other");
  std::vector<int> leaves;
  for (int s = 0; s < left.num_switches(); ++s)
    if (!left.nodes_of(s).empty()) leaves.push_back(s);
  const std::vector<int> reach = bfs_distances(left, leaves);
  std::vector<int> stranded;
  for (int s = 0; s < left.num_switches(); ++s)
    if (reach[s] < 0) stranded.push_back(s);
  if (stranded.empty()) {
    if (original_links) *original_links = std::move(kept);
    return left;
  }
  std::vector<bool> gone(left.num_switches(), false);
  for (int st : stranded) gone[st] = true;
  std::vector<int> kept_left;
  Network out = rebuilt(left, std::vector<bool>(left.num_links(), false), gone, &kept_left);
  if (original_links)
    for (int l : kept_left) original_links->push_back(kept[l]);
  return out;
}

}  // namespace mapsim
