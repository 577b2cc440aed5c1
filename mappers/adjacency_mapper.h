// Adjacency-based mapping, AM (moh2010 section III): the centre process of a 2-D mesh goes to a
// slot closest to the routing root (the up*/down* root; the most central switch otherwise); the
// rest of the mesh is cut into four pinwheel quadrants (+X, +Y, -X, -Y) around it, and the slots
// into four sets of the same sizes, switches farthest from the root first. A switch joins the set
// that already holds most of its linked neighbour switches (keeping subtrees together); a switch
// with none starts an empty set, else joins the set with the smallest average distance to the root
// (the paper's balanced AMD). Each quadrant recurses from its process closest to the base.
// 1-D grids are treated as n x 1; other process topologies are rejected. O(T^1.5 log T).
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class AdjacencyMapper : public Mapper {
 public:
  std::string name() const override { return "adjacency"; }
  Placement map(const MappingProblem& problem) const override;
};

}  // namespace mapsim
