// Partitioning of a process graph with a small cut: bisection to an exact size (geometric halving
// of Cartesian graphs, else breadth-first growth from a peripheral task; then Fiduccia-Mattheyses
// passes, the linear-time form of Kernighan-Lin), and recursive bisection into parts of given sizes.
#pragma once
#include <vector>

#include "mappers/process_graph.h"

namespace mapsim {

class GraphPartitioner {
 public:
  explicit GraphPartitioner(const ProcessGraph& graph);

  // Splits `tasks` into the first `first_size` of the returned order and the rest.
  std::vector<int> bisect(const std::vector<int>& tasks, int first_size);
  // Part index of each task of `tasks` (same order); part p gets exactly sizes[p] tasks
  // (the sizes must add up to tasks.size()).
  std::vector<int> partition(const std::vector<int>& tasks, const std::vector<int>& sizes);

 private:
  std::vector<int> initial_split(const std::vector<int>& tasks);
  void refine(const std::vector<int>& tasks, int first_size);
  void split_parts(const std::vector<int>& tasks, const std::vector<int>& sizes, size_t first, size_t count);

  const ProcessGraph& graph_;
  // Scratch indexed by task id, valid for the tasks of the current call only.
  std::vector<int> member_, visit_;  // stamps: task is in the current set / was reached
  std::vector<char> side_, locked_;
  std::vector<double> gain_;
  std::vector<int> part_of_;  // result of partition(), indexed by task id
  int stamp_ = 0;
  int member_stamp_ = 0;
};

}  // namespace mapsim
