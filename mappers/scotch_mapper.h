// Scotch static mapping (libscotch 7): the target is the switch graph as a decomposition-defined
// architecture (SCOTCH_archBuild0) whose terminals are the switches with slots, weighted by their
// slot count; Scotch maps the process graph (edge weights = volumes) onto it with its default
// strategy in a deterministic context seeded by the problem's seed. Scotch uses shortest paths in
// the switch graph, not the routing. Tasks beyond a switch's slots are then moved (place_groups).
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class ScotchMapper : public Mapper {
 public:
  std::string name() const override { return "scotch"; }
  void check(const MappingProblem& problem) const override;
  Placement map(const MappingProblem& problem) const override;
};

}  // namespace mapsim
