// Builds a network from a spec string ("irregular:nodes=256,seed=3", "mesh:16x16", "file:PATH").
// Each generator registers itself in network_registry() from its own file, with its parameters
// (every generator also takes the link parameters of link_params.h, and applies the typed overrides
// it is given with read_link_params); docs/components.md lists them.
#pragma once
#include <functional>
#include <string>

#include "support/registry.h"
#include "topologies/link_params.h"
#include "topologies/network.h"

namespace mapsim {

using NetworkRegistry = Registry<std::function<Network(Spec&, const LinkOverrides&)>>;
NetworkRegistry& network_registry();

// `links`: link values set outside the spec (a scenario's model: keys). A generator that does not
// declare the link parameters (file:, ibnet:, whose files carry their own) refuses them.
Network make_network(const std::string& spec, const LinkOverrides& links = {});
// Whether a registered network takes link values from outside its spec (LinkOverrides): the generators and
// slurm: do; file: and ibnet: read them from their files.
bool takes_link_overrides(const NetworkRegistry::Entry& entry);

}  // namespace mapsim
