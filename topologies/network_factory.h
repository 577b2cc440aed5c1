// Builds a network from a spec string: irregular, hypercube, mesh, torus, fattree, tree2,
// suprenum, file:PATH, ibnet:PATH. Every generator also takes the link keys link_bw, t_p, t_r,
// t_s, node_bw, node_latency. See docs/topologies.md for each generator's keys and defaults.
#pragma once
#include <string>

#include "topologies/network.h"

namespace mapsim {

Network make_network(const std::string& spec);
// One line per generator with its keys, for --help texts.
std::string network_spec_help();

}  // namespace mapsim
