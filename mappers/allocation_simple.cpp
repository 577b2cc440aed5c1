// The allocation policies that need no topology: all, contiguous, random and list:FILE.
#include <algorithm>

#include "mappers/allocation.h"
#include "support/error.h"
#include "support/random.h"
#include "topologies/node_list.h"

namespace mapsim {
namespace {

std::vector<int> free_list(const std::vector<char>& free) {
  std::vector<int> nodes;
  for (size_t v = 0; v < free.size(); ++v)
    if (free[v]) nodes.push_back(static_cast<int>(v));
  return nodes;
}

class AllPolicy : public AllocationPolicy {
 public:
  std::vector<int> choose(const Network&, const std::vector<char>& free, int, uint64_t) const override {
    return free_list(free);
  }
};

// First fit in node order, as a scheduler that sees the nodes as one array: the first run of
// consecutive free nodes long enough; on a machine too fragmented for one, the lowest free nodes.
class ContiguousPolicy : public AllocationPolicy {
 public:
  std::vector<int> choose(const Network&, const std::vector<char>& free, int needed, uint64_t) const override {
    const int n = static_cast<int>(free.size());
    for (int start = 0, run = 0; start + run < n;) {
      if (!free[start + run]) {
        start += run + 1;
        run = 0;
      } else if (++run == needed) {
        std::vector<int> nodes(needed);
        for (int i = 0; i < needed; ++i) nodes[i] = start + i;
        return nodes;
      }
    }
    std::vector<int> nodes = free_list(free);
    nodes.resize(needed);
    return nodes;
  }
};

// The papers' randomly chosen member processors. On an idle machine this is the draw mapsim has
// always made (shuffle of every node by the seed, the first ones kept, sorted): reproductions
// depend on it.
class RandomPolicy : public AllocationPolicy {
 public:
  std::vector<int> choose(const Network&, const std::vector<char>& free, int needed, uint64_t seed) const override {
    std::vector<int> nodes = free_list(free);
    Rng rng(seed);
    rng.shuffle(nodes);
    nodes.resize(needed);
    std::sort(nodes.begin(), nodes.end());
    return nodes;
  }
  bool uses_seed() const override { return true; }
};

class ListPolicy : public AllocationPolicy {
 public:
  explicit ListPolicy(std::string path) : path_(std::move(path)) {}
  std::vector<int> choose(const Network& network, const std::vector<char>& free, int needed, uint64_t) const override {
    std::vector<int> nodes = read_node_list(path_, network);
    if (static_cast<int>(nodes.size()) < needed)
      throw Error("allocation 'list': " + std::to_string(needed) + " nodes needed, " + path_ + " lists only " +
                  std::to_string(nodes.size()));
    for (const int v : nodes)
      if (!free[v])
        throw Error("allocation 'list': node " + network.node(v).name + " in " + path_ + " is already taken by another job");
    return nodes;
  }

 private:
  std::string path_;
};

MAPSIM_REGISTER(allocation_registry(), {"all", "every free node: the mapper chooses among them (the papers' whole machine)",
                                        with_busy_params({}), [](Spec&) { return std::make_unique<AllPolicy>(); }});
MAPSIM_REGISTER(allocation_registry(),
                {"contiguous", "first fit in node order: the first run of enough consecutive free nodes, else the lowest free ones",
                 with_busy_params({}), [](Spec&) { return std::make_unique<ContiguousPolicy>(); }});
MAPSIM_REGISTER(allocation_registry(),
                {"random", "as many free nodes as the job needs, drawn at random (the papers' member processors)",
                 with_busy_params({}), [](Spec&) { return std::make_unique<RandomPolicy>(); }});
MAPSIM_REGISTER(allocation_registry(),
                {"list", "the nodes of a file: ids, names or Slurm hostlists, one per line, in the file's order",
                 {}, [](Spec& spec) { return std::make_unique<ListPolicy>(spec.require_positional("FILE")); },
                 "PATH", "path"});

}  // namespace
}  // namespace mapsim
