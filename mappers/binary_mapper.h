// Binary mapping, BM (moh2001 section 4.2): recursive bisection of both graphs. The process set is
// cut to a small communication volume (GraphPartitioner), the processor set is cut so that the
// routed hops across the cut are as large as possible: initial halves by merging the largest
// switches, improved with Kernighan-Lin/Fiduccia-Mattheyses moves of slots between the halves;
// then each process half goes to one processor half. Works at switch level (nodes of one switch
// are interchangeable): O(T S log T) for T tasks on S switches.
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class BinaryMapper : public Mapper {
 public:
  std::string name() const override { return "binary"; }
  Placement map(const MappingProblem& problem) const override;
  bool uses_seed() const override { return false; }
};

}  // namespace mapsim
