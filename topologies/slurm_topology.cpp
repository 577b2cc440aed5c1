// slurm:PATH -- a cluster described by Slurm's topology.conf (the topology/tree plugin's format):
//   SwitchName=NAME [Switches=HOSTLIST] [Nodes=HOSTLIST] [LinkSpeed=N]
// one switch per SwitchName, a link between a switch and each switch it lists, one compute node per
// node name listed (on the switch that lists it). Names are kept as written, so that rankfiles and
// placements name the real hosts. Link values come from the spec's link keys, as for every generator.
#include "topologies/network_factory.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "support/error.h"
#include "support/input_file.h"
#include "support/message.h"
#include "topologies/link_params.h"
#include "topologies/node_list.h"

namespace mapsim {
namespace {

// topology.conf lines hold hostlists, normally compressed; a longer line is refused as it is read.
constexpr size_t kMaxLineBytes = 1 << 20;
// The names all its hostlists expand to (node_list.h's unit): a short line of long names times a
// range is refused before it takes the memory.
constexpr size_t kMaxNameBytes = 4 * kMaxHostlistBytes;

struct SwitchLine {
  std::string name;
  int line = 0;
  std::vector<std::string> switches;  // names listed in Switches=, expanded
  std::vector<std::string> nodes;     // names listed in Nodes=, expanded
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

Network load_slurm_topology(const std::string& path, const LinkDefaults& d) {
  std::ifstream in = open_input(path, "Slurm topology.conf file");
  std::vector<SwitchLine> lines;
  std::unordered_map<std::string, int> switch_index;  // name -> index in lines
  std::unordered_map<std::string, int> node_switch;    // node name -> index of the switch listing it
  long total_nodes = 0, total_links = 0;
  size_t name_bytes_used = 0;  // by the expanded hostlists so far
  std::string text;
  int line = 1;
  for (; read_bounded_line(in, text, kMaxLineBytes, path, line, "a topology.conf line 'SwitchName=NAME [Switches=HOSTLIST] [Nodes=HOSTLIST]'"); ++line) {
    const std::string where = path + ":" + std::to_string(line) + ": ";
    if (const size_t hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    const std::vector<std::string> words = split_words(text);
    if (words.empty()) continue;
    SwitchLine entry;
    entry.line = line;
    std::map<std::string, std::string> given;  // lower-case key -> the key as written
    bool has_name = false;
    for (const std::string& word : words) {
      const size_t eq = word.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Error(where + "expected KEY=VALUE (SwitchName, Switches, Nodes or LinkSpeed), got " + excerpt(word));
      const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      const std::string k = lower(key);
      if (k != "switchname" && k != "switches" && k != "nodes" && k != "linkspeed") {
        const std::string near = nearest_word(k, {"switchname", "switches", "nodes", "linkspeed"});
        const std::map<std::string, std::string> written{
            {"switchname", "SwitchName"}, {"switches", "Switches"}, {"nodes", "Nodes"}, {"linkspeed", "LinkSpeed"}};
        throw Error(where + "unknown key " + excerpt(key) + (near.empty() ? "" : " (did you mean '" + written.at(near) + "'?)") +
                    "; expected SwitchName, Switches, Nodes or LinkSpeed" +
                    (k == "blockname" || k == "blocksizes" ? " (the topology/tree format; topology/block is not read)" : ""));
      }
      if (auto [at, added] = given.emplace(k, key); !added)
        throw Error(where + "'" + key + "' is given twice on one line (also as '" + at->second + "')");
      if (value.empty()) throw Error(where + "'" + key + "' has no value; expected " + (k == "linkspeed" ? "a number" : k == "switchname" ? "a switch name" : "a hostlist such as node[01-16]"));
      if (k == "switchname") {
        if (!plain_name(value) || value.find_first_of("[],") != std::string::npos)
          throw Error(where + "switch name " + excerpt(value) + " is not a plain name; expected printable ASCII without blanks, brackets or commas");
        entry.name = value;
        has_name = true;
      } else if (k == "linkspeed") {  // arbitrary units in Slurm, unused there: checked, then ignored
        if (value.size() > 10 || value.find_first_not_of("0123456789") != std::string::npos)
          throw Error(where + "LinkSpeed " + excerpt(value) + ": expected a non-negative integer");
      } else {
        std::vector<std::string> names;
        try {
          if (value.find("[]") != std::string::npos) throw Error("empty brackets in " + excerpt(value));
          names = expand_hostlist(value, kMaxNameBytes, &name_bytes_used);
        } catch (const HostlistTooLarge& e) {
          throw Error(where + key + ": " + e.what() + "; expected a cluster's hostlists (at most " +
                      std::to_string(kMaxNameBytes >> 20) + " MiB of names in one file, these lines' included)");
        } catch (const Error& e) {
          throw Error(where + "malformed hostlist in " + key + ": " + e.what() + "; expected a hostlist such as node[01-16,20],gpu[1-2]");
        }
        if (names.empty()) throw Error(where + key + "=" + excerpt(value) + " names nothing; expected a hostlist such as node[01-16]");
        for (const std::string& name : names)
          if (!plain_name(name))
            throw Error(where + (k == "nodes" ? "node" : "switch") + " name " + excerpt(name) +
                        " is not a plain name; expected printable ASCII without blanks");
        if (k == "nodes") {
          total_nodes += static_cast<long>(names.size());
          if (total_nodes > kMaxNetworkNodes)
            throw Error(where + "over " + std::to_string(kMaxNetworkNodes) + " nodes listed (the network limit)");
          entry.nodes = std::move(names);
        } else {
          total_links += static_cast<long>(names.size());
          if (total_links > kMaxNetworkLinks)
            throw Error(where + "over " + std::to_string(kMaxNetworkLinks) + " switch links listed (the network limit)");
          entry.switches = std::move(names);
        }
      }
    }
    if (!has_name) throw Error(where + "no SwitchName; expected SwitchName=NAME [Switches=HOSTLIST] [Nodes=HOSTLIST]");
    if (auto [at, added] = switch_index.emplace(entry.name, static_cast<int>(lines.size())); !added)
      throw Error(where + "switch '" + entry.name + "' is listed twice (first on line " + std::to_string(lines[at->second].line) + ")");
    if (static_cast<long>(lines.size()) >= kMaxNetworkSwitches)
      throw Error(where + "over " + std::to_string(kMaxNetworkSwitches) + " switches (the network limit)");
    for (const std::string& node : entry.nodes)
      if (auto [at, added] = node_switch.emplace(node, static_cast<int>(lines.size())); !added && at->second == static_cast<int>(lines.size()))
        throw Error(where + "node '" + node + "' is listed twice on switch '" + entry.name + "'");
      else if (!added)
        throw Error(where + "node '" + node + "' is on two switches: '" + lines[at->second].name + "' (line " +
                    std::to_string(lines[at->second].line) + ") and '" + entry.name + "'");
    lines.push_back(std::move(entry));
  }
  if (lines.empty()) throw Error(path + ": no switches; expected lines 'SwitchName=NAME [Switches=HOSTLIST] [Nodes=HOSTLIST]'");
  if (total_nodes == 0) throw Error(path + ": no nodes; expected Nodes=HOSTLIST on at least one switch");

  // The switch graph: links in line order, each switch's Switches= in the order written.
  const int S = static_cast<int>(lines.size());
  std::vector<std::pair<int, int>> links;
  std::map<std::pair<int, int>, int> linked;  // (lower, higher switch) -> line that linked them
  std::vector<std::vector<int>> adjacent(S);
  std::vector<int> ports(S, 0);
  for (int s = 0; s < S; ++s) {
    const SwitchLine& entry = lines[s];
    const std::string where = path + ":" + std::to_string(entry.line) + ": ";
    for (const std::string& name : entry.switches) {
      const auto it = switch_index.find(name);
      if (it == switch_index.end())
        throw Error(where + "switch '" + entry.name + "' lists switch '" + name + "', which has no SwitchName line");
      const int t = it->second;
      if (t == s) throw Error(where + "switch '" + entry.name + "' lists itself");
      if (auto [at, added] = linked.emplace(std::minmax(s, t), entry.line); !added)
        throw Error(where + "switches '" + entry.name + "' and '" + name + "' are already linked (line " + std::to_string(at->second) + ")");
      links.emplace_back(s, t);
      adjacent[s].push_back(t);
      adjacent[t].push_back(s);
      ++ports[s];
      ++ports[t];
    }
    ports[s] += static_cast<int>(entry.nodes.size());
  }
  std::vector<bool> reached(S, false);
  std::vector<int> stack{0};
  reached[0] = true;
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    for (int t : adjacent[s])
      if (!reached[t]) reached[t] = true, stack.push_back(t);
  }
  for (int s = 0; s < S; ++s)
    if (!reached[s])
      throw Error(path + ":" + std::to_string(lines[s].line) + ": switch '" + lines[s].name + "' is not connected to switch '" +
                  lines[0].name + "' (line " + std::to_string(lines[0].line) +
                  "); expected one switch graph: list it in another switch's Switches=");

  Network net;
  net.shape.family = Family::Irregular;
  net.startup = d.startup;
  for (int s = 0; s < S; ++s) net.add_switch(lines[s].name, ports[s], d.router_delay);
  for (const auto& [a, b] : links) net.add_link(a, b, d.link_bandwidth, d.link_latency);
  for (int s = 0; s < S; ++s)
    for (const std::string& node : lines[s].nodes) net.add_node(node, s, d.node_bandwidth, d.node_latency);
  try {
    net.validate();
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  return net;
}

}  // namespace

MAPSIM_REGISTER(network_registry(),
                {"slurm", "a cluster from a Slurm topology.conf (tree plugin: SwitchName, Switches, Nodes), names kept",
                 with_link_params({}),
                 [](Spec& spec, const LinkOverrides& links) {
                   const std::string path = spec.require_positional("PATH");
                   return load_slurm_topology(path, read_link_params(spec, links, LinkDefaults{}));
                 },
                 "PATH", "path"});

}  // namespace mapsim
