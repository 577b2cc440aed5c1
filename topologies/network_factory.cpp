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

std::string network_spec_help() {
  std::set<std::string> link_keys;
  for (const Param& p : link_params()) link_keys.insert(p.name);
  std::string help;
  for (const auto* entry : network_registry().entries()) {
    std::string line = "  " + entry->name + (entry->positional.empty() ? "" : ":" + entry->positional);
    std::string keys;
    for (const Param& p : entry->params)
      if (!link_keys.count(p.name))
        keys += (keys.empty() ? "" : ",") + p.name + "=" + param_default_text(p);
    if (!keys.empty()) line += (entry->positional.empty() ? ":" : ",") + keys;
    help += line + "\n      " + entry->description + "\n";
  }
  return help + "  link keys for all generators: link_bandwidth=10Gbps,t_p=20ns,t_r=300ns,t_s=2us,node_bandwidth=10Gbps,node_latency=0s\n";
}

}  // namespace mapsim
