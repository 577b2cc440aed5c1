// Which algorithm the replay uses for each collective that offers a choice: --collectives and
// model.collectives take "alltoallv=pair,allgatherv=mpich_ring", or a whole library first: "mpich" or
// "ompi" (then overrides, "mpich,alltoall=ring"). Every algorithm is registered, from the file that
// implements it, as "COLLECTIVE=NAME" in collective_registry() (traces/collective_algorithm.h). The
// names are SimGrid 3.32's, and each algorithm sends the messages SimGrid's does, so `smpirun -replay
// --cfg=smpi/alltoallv:pair` replays the same collective (docs/simulation.md lists them); `ompi` and
// `mpich` choose among them by size as SimGrid's selectors of those names do. A collective not named
// keeps mapsim's own, "COLLECTIVE=mapsim".
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "support/registry.h"

namespace mapsim {

// The collectives with a choice of algorithm (the MPI ones the trace format has; a new algorithm
// needs no change here).
enum class Collective : uint8_t {
  Bcast,
  Reduce,
  Allreduce,
  Alltoall,
  Alltoallv,
  Allgather,
  Allgatherv,
  ReduceScatter,
  Scatter,
  Barrier,
  Gather
};
constexpr size_t kCollectiveCount = 11;
const char* collective_name(Collective collective);  // as --collectives names it: "bcast", ..., "reduce_scatter"

namespace collectives {
class Steps;
}
struct CollectiveCall;
// An algorithm appends one rank's steps of one call of its collective (traces/collective_algorithm.h).
using CollectiveAlgorithm = void (*)(collectives::Steps&, const CollectiveCall&);
using CollectiveRegistry = Registry<CollectiveAlgorithm>;
CollectiveRegistry& collective_registry();  // entries named "COLLECTIVE=NAME"

class CollectiveChoice {
 public:
  // The algorithm chosen for `collective`: the one named, else mapsim's own.
  const CollectiveRegistry::Entry& operator[](Collective collective) const;
  void choose(Collective collective, const CollectiveRegistry::Entry* algorithm) {
    chosen_[static_cast<size_t>(collective)] = algorithm;
  }

 private:
  std::array<const CollectiveRegistry::Entry*, kCollectiveCount> chosen_{};  // nullptr: mapsim's own
};

// Throws mapsim::Error naming the bad collective or algorithm and the valid ones.
CollectiveChoice parse_collectives(const std::string& text);
std::string collectives_help();  // "every collective: mapsim, mpich, ompi; bcast: mapsim (binomial_tree), ...; ..."

}  // namespace mapsim
