#include "apps/common_options.h"

#include <sstream>

#include "support/error.h"

#include "support/component_reference.h"
#include "mappers/allocation.h"
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
  return cmd->add_option("--allocation", allocation,
                         "Allocation policy: " + component_list(allocation_registry().infos()) +
                             "; all but list take busy=FRACTION (default all)");
}

CLI::Option* add_slots_option(CLI::App* cmd, std::string& slots) {
  return cmd->add_option("--slots", slots, "Slots (ranks) per node (default 1)");
}

CLI::Option* add_format_option(CLI::App* cmd, std::string& format, bool& json, const std::vector<std::string>& formats,
                               const std::string& json_help) {
  format = formats.front();
  std::string names;
  for (size_t i = 0; i < formats.size(); ++i)
    names += (i == 0 ? "" : i + 1 == formats.size() ? " or " : ", ") + formats[i] + (i == 0 ? " (default)" : "");
  CLI::Option* option = cmd->add_option("--format", format, "Output format: " + names)->check(CLI::IsMember(formats));
  cmd->add_flag("--json", json, json_help)->excludes(option);
  return option;
}

CLI::Option* add_mapper_option(CLI::App* cmd, std::string& mapper, const std::string& help) {
  return cmd->add_option("--mapper,--mappers", mapper, help + "; one mapper (--mappers is the same flag)");
}

CLI::Option* add_mappers_option(CLI::App* cmd, std::string& mappers, const std::string& help) {
  return cmd->add_option("--mappers,--mapper", mappers, help + " (--mapper is the same flag)");
}

std::vector<std::string> split_mappers(const std::string& list) {
  std::vector<std::string> names;
  std::string piece;
  std::istringstream in(list);
  while (std::getline(in, piece, ',')) {
    if (piece.empty()) continue;
    if (piece.find('=') != std::string::npos && piece.find(':') == std::string::npos && !names.empty())
      names.back() += "," + piece;
    else
      names.push_back(piece);
  }
  return names;
}

std::string one_mapper(const std::string& command, const std::string& mapper) {
  const std::vector<std::string> names = split_mappers(mapper);
  if (names.size() > 1)
    throw Error("--mapper: " + command + " runs one mapper, got " + std::to_string(names.size()) + " (" + mapper +
                "); mapsim compare runs several");
  return mapper;
}

}  // namespace mapsim
