// METIS grouping: METIS_PartGraphRecursive splits the process graph into one group per switch with
// slots (target weights = the switch's share of the slots), then the groups are placed: the
// heaviest-communicating group first, each on the free switch with enough slots that is closest
// (routed hops, weighted by volume) to the groups already placed. Overflow is repaired by
// place_groups.
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class MetisMapper : public Mapper {
 public:
  std::string name() const override { return "metis"; }
  Placement map(const MappingProblem& problem) const override;
};

}  // namespace mapsim
