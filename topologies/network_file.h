// Network description files: a YAML (or JSON, its subset) list of switches, nodes and links
// with attributes; format documented in docs/network-file.md, example in configs/networks/.
#pragma once
#include <string>

#include "topologies/network.h"

namespace mapsim {

Network load_network_file(const std::string& path);
// The same format as JSON, base units (bytes/s, seconds), full precision: loads back identically.
std::string network_to_json(const Network& network);

}  // namespace mapsim
