// Which algorithm the replay uses for the collectives that offer a choice: --collectives and
// model.collectives take "alltoallv=pair,allgatherv=mpich_ring". The names are SimGrid's, and each
// algorithm sends the messages SimGrid's does, so `smpirun -replay --cfg=smpi/alltoallv:pair` replays
// the same collective (docs/simulation.md lists them); `ompi` and `mpich` choose among them by size as
// SimGrid's selectors of those names do. A collective not named keeps mapsim's own.
#pragma once
#include <cstdint>
#include <string>

namespace mapsim {

enum class AlltoallAlgorithm : uint8_t { Mapsim, Ring, Pair, BasicLinear, Bruck, Ompi };
enum class AlltoallvAlgorithm : uint8_t { Mapsim, Ring, Pair, Bruck, OmpiBasicLinear, Ompi, Mpich };
enum class AllgathervAlgorithm : uint8_t { Mapsim, Ring, MpichRing };

struct CollectiveChoice {
  AlltoallAlgorithm alltoall = AlltoallAlgorithm::Mapsim;
  AlltoallvAlgorithm alltoallv = AlltoallvAlgorithm::Mapsim;
  AllgathervAlgorithm allgatherv = AllgathervAlgorithm::Mapsim;
};

// Throws mapsim::Error naming the bad collective or algorithm and the valid ones.
CollectiveChoice parse_collectives(const std::string& text);
std::string collectives_help();  // "alltoall: mapsim ring pair basic_linear bruck; ..."

}  // namespace mapsim
