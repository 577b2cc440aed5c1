#include "mappers/mapping.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include "mappers/allocation.h"
#include "support/error.h"
#include "support/message.h"
#include "support/input_file.h"
#include "topologies/node_list.h"

namespace mapsim {

int MappingProblem::total_slots() const { return std::accumulate(slots.begin(), slots.end(), 0); }

namespace {
std::string slots_message(int tasks, int nodes, int slots_per_node, const std::string& whose) {
  return std::to_string(tasks) + " tasks do not fit in " + std::to_string(static_cast<long>(nodes) * slots_per_node) +
         " slots (" + whose + " " + std::to_string(nodes) + " nodes x " + std::to_string(slots_per_node) +
         "); give more slots per node or a larger allocation";
}
}  // namespace


Placement read_placement(const std::string& path, const Network& net) {
  std::ifstream in = open_input(path, "placement file");
  const NodeLookup lookup(net);
  std::map<long, int> node_of;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    std::string rank_text, node_text, extra;
    if (!(words >> rank_text) || rank_text[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (!(words >> node_text) || (words >> extra))
      throw Error(where + "expected 'RANK NODE', got " + excerpt(line));
    char* end = nullptr;
    const long rank = std::strtol(rank_text.c_str(), &end, 10);
    if (*end != '\0' || rank < 0) throw Error(where + "expected a rank number, got '" + rank_text + "'");
    const int node = lookup.find(node_text);
    if (node < 0)
      throw Error(where + "'" + node_text + "' is neither a node name nor a node id below " +
                  std::to_string(net.num_nodes()));
    if (!node_of.emplace(rank, node).second) throw Error(where + "rank " + rank_text + " placed twice");
  }
  if (node_of.empty()) throw Error(path + ": no 'RANK NODE' lines");
  Placement placement(node_of.size());
  for (const auto& [rank, node] : node_of) {
    if (rank >= static_cast<long>(placement.size()))
      throw Error(path + ": ranks must be 0.." + std::to_string(placement.size() - 1) + "; rank " +
                  std::to_string(rank) + " is beyond a gap");
    placement[rank] = node;
  }
  return placement;
}

MappingProblem make_problem(const RoutedNetwork& network, const ProcessGraph& graph, const std::string& allocation,
                            int slots_per_node, uint64_t seed) {
  if (slots_per_node < 1) throw Error("slots per node must be >= 1");
  MappingProblem problem;
  problem.network = &network;
  problem.graph = &graph;
  problem.seed = seed;
  const Network& net = network.network();
  const int tasks = graph.num_tasks();
  if (const NodeHierarchy& insides = net.node_insides; !insides.empty() && slots_per_node > insides.slots())
    throw Error("slots per node (" + std::to_string(slots_per_node) + ") exceed the " + std::to_string(insides.slots()) +
                " slots of the network's nodes (" + insides.describe() + "); give --slots " + std::to_string(insides.slots()) + " or fewer");
  const int needed = (tasks + slots_per_node - 1) / slots_per_node;
  if (needed > net.num_nodes()) throw Error(slots_message(tasks, net.num_nodes(), slots_per_node, "the network's"));
  problem.nodes = allocate_nodes(network, allocation, needed, {}, seed);
  problem.slots.assign(problem.nodes.size(), slots_per_node);
  return problem;
}

void check_placement(const MappingProblem& problem, const Placement& placement) {
  const int tasks = problem.graph->num_tasks();
  if (static_cast<int>(placement.size()) != tasks)
    throw Error("placement has " + std::to_string(placement.size()) + " entries for " + std::to_string(tasks) + " tasks");
  std::map<int, int> room;
  for (size_t i = 0; i < problem.nodes.size(); ++i) room[problem.nodes[i]] = problem.slots[i];
  for (int t = 0; t < tasks; ++t) {
    auto it = room.find(placement[t]);
    if (it == room.end()) throw Error("task " + std::to_string(t) + " is placed on node " + std::to_string(placement[t]) + ", which is not in the allocation");
    if (--it->second < 0)
      throw Error("task " + std::to_string(t) + " overfills node " + std::to_string(placement[t]) + " (" +
                  problem.network->network().node(placement[t]).name + "): its slots are taken; give more slots per node");
  }
}

}  // namespace mapsim
