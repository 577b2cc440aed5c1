#include "topologies/node_list.h"

#include <fstream>
#include <sstream>

#include "support/error.h"
#include "support/message.h"
#include "support/input_file.h"

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

namespace {

constexpr size_t kMaxHosts = 1 << 20;

// The names of one hostlist and what they take, bounded as they are made.
struct Names {
  std::vector<std::string>& out;
  size_t max_bytes;
  size_t& bytes;
  // Appends prefix + digits + tail after checking the bounds; `entry` names the hostlist in errors.
  void add(const std::string& prefix, const std::string& digits, const std::string& tail, const std::string& entry) {
    if (out.size() >= kMaxHosts) throw Error("hostlist " + excerpt(entry) + " names over a million hosts");
    const size_t size = name_bytes(prefix.size() + digits.size() + tail.size());
    if (size > max_bytes || bytes > max_bytes - size)
      throw HostlistTooLarge("hostlist " + excerpt(entry) + " names over " + std::to_string(max_bytes >> 20) +
                             " MiB of host names (at name " + std::to_string(out.size() + 1) + ", of " +
                             std::to_string(prefix.size() + digits.size() + tail.size()) + " bytes)");
    bytes += size;
    out.push_back(prefix + digits + tail);
  }
};

// One entry (no top-level comma): the prefix, the first bracket's names, the rest expanded again.
void expand_entry(const std::string& entry, Names& names) {
  const size_t open = entry.find('[');
  if (open == std::string::npos) {
    if (entry.find(']') != std::string::npos) throw Error("']' without '[' in " + excerpt(entry));
    names.add(entry, "", "", entry);
    return;
  }
  const size_t close = entry.find(']', open);
  if (close == std::string::npos) throw Error("'[' without ']' in " + excerpt(entry));
  const std::string prefix = entry.substr(0, open), ranges = entry.substr(open + 1, close - open - 1);
  std::vector<std::string> rest;
  size_t rest_bytes = 0;
  Names tails{rest, names.max_bytes, rest_bytes};
  expand_entry(entry.substr(close + 1), tails);
  std::stringstream items(ranges);
  for (std::string item; std::getline(items, item, ',');) {
    const size_t dash = item.find('-');
    const std::string first = item.substr(0, dash), last = dash == std::string::npos ? first : item.substr(dash + 1);
    auto number = [&](const std::string& digits) {
      if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
        throw Error("bad range " + excerpt(item) + " in " + excerpt(entry) + ": expected N or N-M");
      return std::stol(digits);
    };
    const long from = number(first), to = number(last);
    if (to < from) throw Error("reversed range " + excerpt(item) + " in " + excerpt(entry));
    for (long i = from; i <= to; ++i) {
      std::string digits = std::to_string(i);
      if (digits.size() < first.size()) digits.insert(0, first.size() - digits.size(), '0');
      for (const std::string& tail : rest) names.add(prefix, digits, tail, entry);
    }
  }
}

}  // namespace

std::vector<std::string> expand_hostlist(const std::string& text, size_t max_bytes, size_t* used) {
  std::vector<std::string> out;
  size_t bytes = used ? *used : 0;
  Names names{out, max_bytes, bytes};
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '[') ++depth;
    if (i < text.size() && text[i] == ']') --depth;
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      if (i > start) expand_entry(text.substr(start, i - start), names);
      start = i + 1;
    }
  }
  if (used) *used = bytes;
  return out;
}

std::vector<int> read_node_list(const std::string& path, const Network& net) {
  std::ifstream in = open_input(path, "node list file");
  const NodeLookup lookup(net);
  std::vector<int> nodes;
  std::vector<bool> seen(net.num_nodes(), false);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number) + ": ";
    std::istringstream words(line);
    std::string word;
    if (words >> word && word[0] != '#') {
      std::vector<std::string> names;
      try {
        names = lookup.find(word) >= 0 ? std::vector<std::string>{word} : expand_hostlist(word);
      } catch (const Error& e) {
        throw Error(where + e.what());
      }
      for (const std::string& name : names) {
        const int node = lookup.find(name);
        if (node < 0) throw Error(where + excerpt(name) + " is neither a node name nor a node id below " + std::to_string(net.num_nodes()));
        if (seen[node]) throw Error(where + "node '" + name + "' listed twice");
        seen[node] = true;
        nodes.push_back(node);
      }
    }
  }
  if (nodes.empty()) throw Error(path + ": no nodes listed");
  return nodes;
}

}  // namespace mapsim
