// Node insides in YAML: the `node:` section of a network file, or a file of its own that any generator
// takes as `node=PATH` (docs/network-file.md#node-insides): the levels outermost first, each with the
// bandwidth and latency between two slots that share it, their counts declared or imported from an
// hwloc XML (`hwloc: FILE`, relative to the YAML file).
#pragma once
#include <string>

#include "support/yaml_reader.h"
#include "topologies/node_hierarchy.h"

namespace mapsim {

NodeHierarchy read_node_insides(const YamlReader& reader, const YAML::Node& node);
NodeHierarchy load_node_file(const std::string& path);

}  // namespace mapsim
