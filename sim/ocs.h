// Static circuits of a hybrid network (takizawa2008 section 3.2), from the application's pattern:
//   large_message_traffic  who sends how many messages above the threshold to whom (from a trace)
//   assign_pathways        SP: round robin over end-tier switch pairs, the pair of nodes that
//                          exchange most messages first, ties to the smallest rank
//   cp_mapper              CP: the mapper that regroups ranks before SP
// The network side (ocs spec, circuits, forwarding) is topologies/optical.h.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mappers/mapping.h"
#include "topologies/optical.h"
#include "traces/ti_trace.h"
#include "traces/trace_source.h"

namespace mapsim {

// CP regroups communicating ranks onto switches before assigning pathways: under CP the `default`
// mapper (ranks in order) becomes `metis`; any other mapper is taken as the regrouping (switch, best, ...).
std::string cp_mapper(const std::optional<OcsConfig>& ocs, const std::string& requested);

struct PairTraffic {
  long messages = 0;
  double bytes = 0;
};
// Point-to-point messages larger than `threshold` per unordered rank pair (a < b), both directions.
std::map<std::pair<int, int>, PairTraffic> large_message_traffic(const Trace& trace, double threshold);
std::map<std::pair<int, int>, PairTraffic> large_message_traffic(const TraceSource& trace, double threshold);  // a streaming pass

// SP (takizawa2008 section 3.2): candidate rank pairs are those on different switches, both on optical
// nodes, exchanging messages above the threshold. Switch pairs take turns (in order of their ids),
// each taking its next candidate whose two nodes still have a free port, most messages first (then
// most bytes, then the smallest rank); rounds repeat while pathways and candidates remain. The
// circuit budget, if any, also bounds the count. CP is the same on a placement that groups
// communicating ranks (mapsim map --mapper metis or best).
std::vector<Circuit> assign_pathways(const Network& network, const Placement& placement,
                                     const std::map<std::pair<int, int>, PairTraffic>& traffic, const OcsConfig& ocs);

}  // namespace mapsim
