// Which algorithm the replay uses for each collective that offers a choice: --collectives and
// model.collectives take "alltoallv=pair,allgatherv=mpich_ring", or a whole library first: "mpich" or
// "ompi" (then overrides, "mpich,alltoall=ring"). The names are SimGrid 3.32's, and each algorithm sends
// the messages SimGrid's does, so `smpirun -replay --cfg=smpi/alltoallv:pair` replays the same
// collective (docs/simulation.md lists them); `ompi` and `mpich` choose among them by size as
// SimGrid's selectors of those names do. A collective not named keeps mapsim's own.
#pragma once
#include <cstdint>
#include <string>

namespace mapsim {

enum class BcastAlgorithm : uint8_t {
  Mapsim, ScatterRdbAllgather, ScatterLrAllgather, Ntsl, Ntsb, OmpiPipeline, OmpiSplitBintree, Knomial, Ompi, Mpich
};
enum class ReduceAlgorithm : uint8_t {
  Mapsim, ScatterGather, OmpiBasicLinear, OmpiChain, OmpiPipeline, OmpiBinary, OmpiBinomial, OmpiInOrderBinary, Ompi, Mpich
};
enum class AllreduceAlgorithm : uint8_t { Mapsim, RabRdb, Redbcast, Lr, OmpiRingSegmented, Ompi, Mpich };
enum class AlltoallAlgorithm : uint8_t { Mapsim, Ring, Pair, BasicLinear, Bruck, ScatterDest, Ompi, Mpich };
enum class AlltoallvAlgorithm : uint8_t { Mapsim, Ring, Pair, Bruck, OmpiBasicLinear, Ompi, Mpich };
enum class AllgatherAlgorithm : uint8_t { Mapsim, Ring, Rdb, Bruck, Pair, OmpiNeighborExchange, Ompi, Mpich };
enum class AllgathervAlgorithm : uint8_t {
  Mapsim, Ring, MpichRing, MpichRdb, OmpiBruck, Gb, OmpiNeighborExchange, Pair, Ompi, Mpich
};
enum class ReduceScatterAlgorithm : uint8_t {
  Mapsim, MpichRdb, Default, OmpiRecursiveHalving, OmpiRing, OmpiButterfly, Ompi, Mpich
};
enum class ScatterAlgorithm : uint8_t { Mapsim, OmpiBinomial, OmpiBasicLinear, OmpiLinearNb, Ompi, Mpich };
enum class BarrierAlgorithm : uint8_t { Mapsim, OmpiBasicLinear, OmpiRecursiveDoubling, OmpiTree, Ompi };
enum class GatherAlgorithm : uint8_t { Mapsim, OmpiBasicLinear, OmpiLinearSync, Ompi };

struct CollectiveChoice {
  BcastAlgorithm bcast = BcastAlgorithm::Mapsim;
  ReduceAlgorithm reduce = ReduceAlgorithm::Mapsim;
  AllreduceAlgorithm allreduce = AllreduceAlgorithm::Mapsim;
  AlltoallAlgorithm alltoall = AlltoallAlgorithm::Mapsim;
  AlltoallvAlgorithm alltoallv = AlltoallvAlgorithm::Mapsim;
  AllgatherAlgorithm allgather = AllgatherAlgorithm::Mapsim;
  AllgathervAlgorithm allgatherv = AllgathervAlgorithm::Mapsim;
  ReduceScatterAlgorithm reduce_scatter = ReduceScatterAlgorithm::Mapsim;
  ScatterAlgorithm scatter = ScatterAlgorithm::Mapsim;
  BarrierAlgorithm barrier = BarrierAlgorithm::Mapsim;
  GatherAlgorithm gather = GatherAlgorithm::Mapsim;
};

// Throws mapsim::Error naming the bad collective or algorithm and the valid ones.
CollectiveChoice parse_collectives(const std::string& text);
std::string collectives_help();  // "every collective: mapsim, mpich, ompi; bcast: mapsim (binomial_tree), ...; ..."

}  // namespace mapsim
