#include "topologies/node_list.h"

#include <fstream>
#include <sstream>

#include "support/error.h"

namespace mapsim {

NodeLookup::NodeLookup(const Network& network) : network_(network) {
  for (int n = 0; n < network.num_nodes(); ++n) by_name_[network.node(n).name] = n;
}

int NodeLookup::find(const std::string& word) const {
  if (auto it = by_name_.find(word); it != by_name_.end()) return it->second;
  if (word.size() <= 9 && !word.empty() && word.find_first_not_of("0123456789") == std::string::npos &&
      std::stol(word) < network_.num_nodes())
    return std::stoi(word);
  return -1;
}

std::vector<int> read_node_list(const std::string& path, const Network& net) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open file");
  const NodeLookup lookup(net);
  std::vector<int> nodes;
  std::vector<bool> seen(net.num_nodes(), false);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || word[0] == '#') continue;
    const int node = lookup.find(word);
    if (node < 0) throw Error(path + ":" + std::to_string(number) + ": '" + word + "' is neither a node name nor a node id below " + std::to_string(net.num_nodes()));
    if (seen[node]) throw Error(path + ":" + std::to_string(number) + ": node '" + word + "' listed twice");
    seen[node] = true;
    nodes.push_back(node);
  }
  if (nodes.empty()) throw Error(path + ": no nodes listed");
  return nodes;
}

}  // namespace mapsim
