#include <algorithm>
#include "topologies/link_params.h"
#include "topologies/network_factory.h"
#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "support/error.h"
#include "topologies/generators.h"
#include "support/random.h"
#include "support/units.h"

namespace mapsim {
namespace {

std::string numbers(const IrregularParams& p) {
  return std::to_string(p.switches) + " switches of " + std::to_string(p.ports) + " ports at connectivity " +
         format_number(p.connectivity);
}

// Number of switch-to-switch links implied by the parameters; throws if impossible.
int link_count(const IrregularParams& p) {
  if (p.nodes < 1 || p.switches < 1 || p.ports < 1)
    throw Error("irregular: nodes, switches and ports must be >= 1");
  if (!(p.connectivity > 0 && p.connectivity <= 1))
    throw Error("irregular: connectivity must be in (0, 1], got " + format_number(p.connectivity));
  const long total_ports = static_cast<long>(p.ports) * p.switches;
  const long used = std::lround(p.connectivity * static_cast<double>(total_ports));
  const long for_links = used - p.nodes;
  const long needed = 2L * (p.switches - 1);
  if (for_links < needed)
    throw Error("irregular: " + numbers(p) + " use " + std::to_string(used) + " ports; " +
                std::to_string(p.nodes) + " nodes leave " + std::to_string(std::max(0L, for_links)) +
                " for switch links, but connecting " + std::to_string(p.switches) +
                " switches needs at least " + std::to_string(needed) +
                " (raise connectivity or ports, or lower nodes)");
  const long links = for_links / 2;
  if (!p.duplicate_links && links > static_cast<long>(p.switches) * (p.switches - 1) / 2)
    throw Error("irregular: " + std::to_string(links) + " switch links do not fit between " +
                std::to_string(p.switches) + " switches without duplicate links");
  if (p.switches > 1 && p.ports < 2 && p.switches > 2)
    throw Error("irregular: switches with 1 port cannot form a connected network of " +
                std::to_string(p.switches) + " switches");
  return static_cast<int>(links);
}

}  // namespace

Network make_irregular(const IrregularParams& p) {
  const int links = link_count(p);
  const LinkDefaults& d = p.defaults;
  Rng rng(p.seed);
  Network net;
  net.shape.family = Family::Irregular;
  net.startup = d.startup;
  for (int s = 0; s < p.switches; ++s) net.add_switch("sw-" + std::to_string(s), p.ports, d.router_delay);

  std::vector<int> degree(p.switches, 0);
  std::set<std::pair<int, int>> linked;
  auto join = [&](int a, int b) {
    net.add_link(a, b, d.link_bandwidth, d.link_latency);
    ++degree[a];
    ++degree[b];
    linked.insert({std::min(a, b), std::max(a, b)});
  };

  // Random spanning tree: switches in random order, each attached to an earlier one with a free port.
  std::vector<int> order(p.switches);
  for (int s = 0; s < p.switches; ++s) order[s] = s;
  rng.shuffle(order);
  std::vector<int> open{order[0]};  // tree switches with a free port
  for (int i = 1; i < p.switches; ++i) {
    if (open.empty())
      throw Error("irregular: " + numbers(p) + " ran out of ports while connecting the switches");
    size_t pick = rng.below(open.size());
    int parent = open[pick];
    join(parent, order[i]);
    if (degree[parent] == p.ports) {
      open[pick] = open.back();
      open.pop_back();
    }
    if (degree[order[i]] < p.ports) open.push_back(order[i]);
  }

  // Extra links between random switch pairs with free ports. Ports kept free for nodes are
  // guaranteed by link_count, so this only fails when no unlinked pair with free ports is left.
  for (int extra = links - (p.switches - 1); extra > 0; --extra) {
    std::vector<int> free_switches;
    for (int s = 0; s < p.switches; ++s)
      if (degree[s] < p.ports) free_switches.push_back(s);
    bool done = false;
    for (int attempt = 0; attempt < 64 && !done && free_switches.size() >= 2; ++attempt) {
      int a = free_switches[rng.below(free_switches.size())];
      int b = free_switches[rng.below(free_switches.size())];
      if (a == b || (!p.duplicate_links && linked.count({std::min(a, b), std::max(a, b)}))) continue;
      join(a, b);
      done = true;
    }
    if (done) continue;
    std::vector<std::pair<int, int>> candidates;  // exhaustive fallback when random picks keep failing
    for (size_t i = 0; i < free_switches.size(); ++i)
      for (size_t j = i + 1; j < free_switches.size(); ++j)
        if (p.duplicate_links || !linked.count({free_switches[i], free_switches[j]}))
          candidates.push_back({free_switches[i], free_switches[j]});
    if (candidates.empty())
      throw Error("irregular: " + numbers(p) + ": no pair of switches with free ports is left for " +
                  std::to_string(extra) + " more links (allow duplicate links or lower connectivity)");
    auto [a, b] = candidates[rng.below(candidates.size())];
    join(a, b);
  }

  // Nodes on random free ports.
  std::vector<int> free_ports;
  for (int s = 0; s < p.switches; ++s)
    for (int k = degree[s]; k < p.ports; ++k) free_ports.push_back(s);
  rng.shuffle(free_ports);
  free_ports.resize(p.nodes);  // link_count guarantees enough
  std::sort(free_ports.begin(), free_ports.end());  // node ids grouped by switch, like a real cabling
  for (int n = 0; n < p.nodes; ++n)
    net.add_node("node-" + std::to_string(n), free_ports[n], d.node_bandwidth, d.node_latency);
  net.validate();
  return net;
}

MAPSIM_REGISTER(network_registry(),
                {"irregular", "random k-port switches joined at a connectivity ratio (moh2001 section 5.1)",
                 with_link_params({integer_param("nodes", IrregularParams{}.nodes, "compute nodes", 1, 1 << 24),
                                   integer_param("switches", IrregularParams{}.switches, "switches", 1, 1 << 24),
                                   integer_param("ports", IrregularParams{}.ports, "ports per switch", 1, 4096),
                                   above(real_param("connectivity", IrregularParams{}.connectivity, "fraction of all ports in use", 0, 1), 0),
                                   integer_param("seed", static_cast<long>(IrregularParams{}.seed), "random seed", 0),
                                   integer_param("duplicates", 0, "allow parallel links (1) or not (0)", 0, 1)}),
                 [](Spec& spec, const LinkOverrides& links) {
                   IrregularParams p;
                   p.nodes = static_cast<int>(spec.get_int("nodes"));
                   p.switches = static_cast<int>(spec.get_int("switches"));
                   p.ports = static_cast<int>(spec.get_int("ports"));
                   p.connectivity = spec.get_double("connectivity");
                   p.seed = static_cast<uint64_t>(spec.get_int("seed"));
                   p.duplicate_links = spec.get_int("duplicates") != 0;
                   p.defaults = read_link_params(spec, links, p.defaults);
                   return make_irregular(p);
                 }});

}  // namespace mapsim
