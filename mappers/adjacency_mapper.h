// Adjacency-based mapping, AM (moh2010 section III): the centre process of a 2-D mesh goes to a
// slot closest to the routing root (the up*/down* root; the most central switch otherwise); the
// rest of the mesh is cut into four pinwheel quadrants (+X, +Y, -X, -Y) around it, and the slots
// into sets of the quadrants' sizes; each quadrant recurses from its process closest to the base.
// How the slots are split (`adjacency:split=...`):
//  - `distance` (default, the paper's steps 4-7): switches farthest from the root first, dealt to
//    the quadrants in counter-clockwise turns; a quadrant whose average distance to the root (AMD)
//    is still above the previous quadrant's takes the next switch too, so the AMDs level out.
//  - `cut`: mapsim's variant: the slots are bisected as BM does (largest routed hops across the
//    cut), quadrants paired counter-clockwise, each half going to the quadrants whose already
//    placed neighbours it is closer to.
// 1-D grids are treated as n x 1; other process topologies are rejected. O(T^1.5 log T) (`cut`:
// plus the bisections).
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

enum class AdjacencySplit { Distance, Cut };

class AdjacencyMapper : public Mapper {
 public:
  explicit AdjacencyMapper(AdjacencySplit split = AdjacencySplit::Distance) : split_(split) {}
  std::string name() const override { return "adjacency"; }
  void check(const MappingProblem& problem) const override;
  Placement map(const MappingProblem& problem) const override;
  bool uses_seed() const override { return false; }

 private:
  AdjacencySplit split_;
};

}  // namespace mapsim
