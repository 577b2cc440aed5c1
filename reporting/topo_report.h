// What `mapsim topo` prints of a routed network and its route analysis (routing/route_analysis.h):
// a text summary, or one JSON object.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "routing/route_analysis.h"
#include "routing/routed_network.h"

namespace mapsim {

// `spec` is the network spec as given.
nlohmann::ordered_json topo_json(const std::string& spec, const RoutedNetwork& routed, const RouteAnalysis& analysis);
// The summary lines; then a warning (log) when a few links carry most routes.
void write_topo_summary(const std::string& spec, const RoutedNetwork& routed, const RouteAnalysis& analysis,
                        std::ostream& out);

}  // namespace mapsim
