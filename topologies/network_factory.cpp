#include "topologies/network_factory.h"

#include <algorithm>

#include "support/error.h"
#include "topologies/link_params.h"
#include "topologies/node_file.h"

namespace mapsim {

NetworkRegistry& network_registry() {
  static NetworkRegistry registry("network");
  return registry;
}

// Generators declare the link parameters (with_link_params); file: and ibnet: read them from their files.
bool takes_link_overrides(const NetworkRegistry::Entry& entry) {
  const std::string any_link_key = link_params().front().name;
  return std::any_of(entry.params.begin(), entry.params.end(), [&](const Param& p) { return p.name == any_link_key; });
}

Network make_network(const std::string& text, const LinkOverrides& links) {
  Spec spec = parse_spec(network_registry(), text);
  const auto& entry = lookup(network_registry(), spec);
  if (!links.empty() && !takes_link_overrides(entry))
    throw Error("link parameters cannot override the link values of a " + entry.name + " network; set them in the file");
  Network network = entry.factory(spec, links);
  // Any network takes its nodes' insides from a node file (topologies/node_file.h); file: networks from their own section.
  if (const std::string node_file = spec.get_string("node", ""); !node_file.empty()) {
    if (!network.node_insides.empty()) throw Error("bad network spec '" + text + "': its file already describes the nodes' insides");
    network.node_insides = load_node_file(node_file);
  }
  spec.finish();
  return network;
}

}  // namespace mapsim
