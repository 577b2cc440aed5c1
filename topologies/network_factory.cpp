#include "topologies/network_factory.h"

#include <algorithm>

#include "support/error.h"
#include "topologies/link_params.h"

namespace mapsim {

NetworkRegistry& network_registry() {
  static NetworkRegistry registry("network");
  return registry;
}

Network make_network(const std::string& text, const LinkOverrides& links) {
  Spec spec = parse_spec(network_registry(), text);
  const auto& entry = lookup(network_registry(), spec);
  // Generators declare the link parameters (with_link_params); file: and ibnet: read them from their files.
  const std::string any_link_key = link_params().front().name;
  if (!links.empty() && std::none_of(entry.params.begin(), entry.params.end(),
                                     [&](const Param& p) { return p.name == any_link_key; }))
    throw Error("link parameters cannot override the link values of a " + entry.name + " network; set them in the file");
  Network network = entry.factory(spec, links);
  spec.finish();
  return network;
}

}  // namespace mapsim
