// Builds a network from a spec string ("irregular:nodes=256,seed=3", "mesh:16x16", "file:PATH").
// Each generator registers itself in network_registry() from its own file, with its parameters
// (every generator also takes the link parameters of link_params.h); docs/components.md lists them.
#pragma once
#include <functional>
#include <string>

#include "support/registry.h"
#include "topologies/network.h"

namespace mapsim {

using NetworkRegistry = Registry<std::function<Network(Spec&)>>;
NetworkRegistry& network_registry();

Network make_network(const std::string& spec);
// One line per generator with its keys, for --help texts.
std::string network_spec_help();

}  // namespace mapsim
