// Mapper: an algorithm that places the tasks of a MappingProblem. All are deterministic for the
// problem's seed. Available (see docs/mappers.md for papers and complexity):
//   random   RM: tasks on a random permutation of the slots            O(T)
//   default  task i on the i-th slot in allocation order (i mod N)     O(T)
//   switch   SM (moh2001): largest switch first, buddy order of tasks  O(T log T)
//   greedy   OMARS greedy: most mapped neighbours next, Gray-code/BFS slots  O(E log E)
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "mappers/mapping.h"

namespace mapsim {

class Mapper {
 public:
  virtual ~Mapper() = default;
  virtual std::string name() const = 0;
  virtual Placement map(const MappingProblem& problem) const = 0;
};

std::unique_ptr<Mapper> make_mapper(const std::string& name);
std::vector<std::string> mapper_names();

// The slots of a problem as a flat list of node ids, in allocation order, slot by slot
// (node0, node0, ..., node1, ...): the order `default` fills.
std::vector<int> slot_list(const MappingProblem& problem);

}  // namespace mapsim
