#include "apps/common_options.h"

#include "support/component_reference.h"
#include "routing/routing.h"

namespace mapsim {

CLI::Option* add_topology_option(CLI::App* cmd, std::string& topology, const std::string& help) {
  return cmd->add_option("--topology", topology, help)->required();
}

CLI::Option* add_routing_option(CLI::App* cmd, std::string& routing) {
  return cmd->add_option("--routing", routing,
                         "Routing: " + component_list(routing_registry().infos()) +
                             " (default: the network's own; minimal, valiant, ugal-l, ugal-g on a dragonfly)");
}

CLI::Option* add_allocation_option(CLI::App* cmd, std::string& allocation) {
  return cmd->add_option("--allocation", allocation, "all, random[:seed=S] or list:FILE");
}

CLI::Option* add_slots_option(CLI::App* cmd, std::string& slots) {
  return cmd->add_option("--slots", slots, "Slots (ranks) per node (default 1)");
}

}  // namespace mapsim
