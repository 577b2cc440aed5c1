#include <algorithm>
#include <cmath>
#include <vector>

#include "support/error.h"
#include "traces/action_ops.h"
#include "traces/internal/collective_steps.h"

namespace mapsim {
namespace {

using collectives::absolute;
using collectives::power_of_two;
using collectives::relative;
using collectives::Steps;

void binomial_bcast(Steps& s, int rank, int root, int p, double bytes) {
  const int vr = relative(rank, root, p);
  int mask = 1;
  for (; mask < p; mask <<= 1)
    if (vr & mask) {
      s.recv(absolute(vr - mask, root, p), bytes);
      s.wait();
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < p) {
      s.send(absolute(vr + mask, root, p), bytes);
      s.wait();
    }
}

void binomial_reduce(Steps& s, int rank, int root, int p, double bytes) {
  const int vr = relative(rank, root, p);
  for (int mask = 1; mask < p; mask <<= 1) {
    if ((vr & mask) == 0) {
      if ((vr | mask) < p) {
        s.recv(absolute(vr | mask, root, p), bytes);
        s.wait();
      }
    } else {
      s.send(absolute(vr & ~mask, root, p), bytes);
      s.wait();
      break;
    }
  }
}

void recursive_doubling_allreduce(Steps& s, int rank, int p, double bytes) {
  const int pof2 = collectives::lower_power_of_two(p);
  if (const int place = collectives::fold_to_power_of_two(s, rank, p, bytes); place >= 0)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int dst = collectives::real_rank(place ^ mask, p - pof2);
      s.exchange(dst, bytes, dst, bytes);
    }
  collectives::unfold_from_power_of_two(s, rank, p, bytes);
}

// Binomial gather: a rank forwards its whole subtree's blocks to its parent.
void binomial_gather(Steps& s, int rank, int root, int p, double block) {
  const int vr = relative(rank, root, p);
  for (int mask = 1; mask < p; mask <<= 1) {
    if ((vr & mask) == 0) {
      const int src = vr | mask;
      if (src < p) {
        s.recv(absolute(src, root, p), block * std::min(mask, p - src));
        s.wait();
      }
    } else {
      s.send(absolute(vr & ~mask, root, p), block * std::min(mask, p - vr));
      s.wait();
      break;
    }
  }
}

void binomial_scatter(Steps& s, int rank, int root, int p, double block) {
  const int vr = relative(rank, root, p);
  int mask = 1;
  for (; mask < p; mask <<= 1)
    if (vr & mask) {
      s.recv(absolute(vr - mask, root, p), block * std::min(mask, p - vr));
      s.wait();
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < p) {
      s.send(absolute(vr + mask, root, p), block * std::min(mask, p - vr - mask));
      s.wait();
    }
}

void recursive_doubling_scan(Steps& s, int rank, int p, double bytes) {
  for (int mask = 1; mask < p; mask <<= 1) {
    const int partner = rank ^ mask;
    if (partner < p) s.exchange(partner, bytes, partner, bytes);
  }
}

void require_power_of_two(int p, const char* algorithm) {
  if (!power_of_two(p))
    throw Error(std::string(algorithm) + " needs a power-of-two number of ranks, the trace has " + std::to_string(p));
}

// SimGrid's alltoall algorithms; `block` bytes to and from every rank.
void alltoall(Steps& s, AlltoallAlgorithm algorithm, int rank, int p, double block, double received) {
  switch (algorithm) {
    case AlltoallAlgorithm::Ompi: {  // SimGrid's XOR pairs where they exist, else Open MPI's own rank +- i order
      const AlltoallAlgorithm chosen = collectives::ompi_alltoall_choice(p, block);
      alltoall(s, chosen == AlltoallAlgorithm::Pair && !power_of_two(p) ? AlltoallAlgorithm::Ring : chosen, rank, p, block,
               received);
      break;
    }
    case AlltoallAlgorithm::Mpich: {  // MPICH: Bruck for short blocks, scattered for medium, pairwise for long
      AlltoallAlgorithm chosen = power_of_two(p) ? AlltoallAlgorithm::Pair : AlltoallAlgorithm::Ring;
      if (block < 256 && p >= 8) chosen = AlltoallAlgorithm::Bruck;
      else if (block < 32768) chosen = AlltoallAlgorithm::ScatterDest;
      alltoall(s, chosen, rank, p, block, received);
      break;
    }
    case AlltoallAlgorithm::ScatterDest: collectives::alltoall_scatter_dest(s, rank, p, block, received); break;
    case AlltoallAlgorithm::Mapsim:
      for (int i = 1; i < p; ++i) s.exchange((rank + i) % p, block, (rank - i + p) % p, received);
      break;
    case AlltoallAlgorithm::Ring:  // sendrecv with rank + i / rank - i, itself first
      for (int i = 0; i < p; ++i) s.exchange((rank + i) % p, block, (rank - i + p) % p, received);
      break;
    case AlltoallAlgorithm::Pair:  // sendrecv with rank ^ i
      require_power_of_two(p, "alltoall=pair");
      for (int i = 0; i < p; ++i) s.exchange(rank ^ i, block, rank ^ i, received);
      break;
    case AlltoallAlgorithm::BasicLinear:  // every receive, then every send in reverse order, one wait
      for (int i = (rank + 1) % p; i != rank; i = (i + 1) % p) s.recv(i, received);
      for (int i = (rank + p - 1) % p; i != rank; i = (i + p - 1) % p) s.send(i, block);
      s.wait();
      break;
    case AlltoallAlgorithm::Bruck: {  // log p store-and-forward steps: the blocks whose index has bit k
      s.exchange(rank, (p - rank) * block, rank, (p - rank) * received);  // local rotation, as SimGrid
      s.exchange(rank, rank * block, rank, rank * received);
      for (int bit = 1; bit < p; bit <<= 1) {
        int blocks = 0;
        for (int b = 1; b < p; ++b) blocks += (b & bit) != 0;
        s.exchange((rank + bit) % p, blocks * block, (rank - bit + p) % p, blocks * received);
      }
      s.exchange(rank, (p - rank - 1) * received, rank, (p - rank - 1) * received);  // inverse rotation
      s.exchange(rank, (rank + 1) * received, rank, (rank + 1) * received);
      for (int i = 0; i < p; ++i) s.exchange(rank, received, rank, received);
      break;
    }
  }
}

// SimGrid's alltoallv algorithms: counts[i] bytes to rank i, counts[p + i] from rank i.
void alltoallv(Steps& s, AlltoallvAlgorithm algorithm, int rank, int p, const double* counts) {
  const double* from = counts + p;
  switch (algorithm) {
    case AlltoallvAlgorithm::Ompi: {  // Open MPI by ranks only (SimGrid's ompi selector); pairwise as above
      const bool pairwise = p < 4 || (p >= 64 && p < 128) || (p >= 256 && p < 1024);
      const AlltoallvAlgorithm pairs = power_of_two(p) ? AlltoallvAlgorithm::Pair : AlltoallvAlgorithm::Ring;
      alltoallv(s, pairwise ? pairs : AlltoallvAlgorithm::OmpiBasicLinear, rank, p, counts);
      break;
    }
    case AlltoallvAlgorithm::Mpich: alltoallv(s, AlltoallvAlgorithm::Bruck, rank, p, counts); break;  // SimGrid's mpich
    case AlltoallvAlgorithm::Mapsim:
      for (int i = 1; i < p; ++i) s.exchange((rank + i) % p, counts[(rank + i) % p], (rank - i + p) % p, from[(rank - i + p) % p]);
      break;
    case AlltoallvAlgorithm::Ring:  // rank ^ i at powers of two (MPICH's pairwise exchange), else rank +- i
      for (int i = 0; i < p; ++i) {
        const int dst = power_of_two(p) ? rank ^ i : (rank + i) % p, src = power_of_two(p) ? dst : (rank - i + p) % p;
        s.exchange(dst, counts[dst], src, from[src]);
      }
      break;
    case AlltoallvAlgorithm::Pair:
      require_power_of_two(p, "alltoallv=pair");
      for (int i = 0; i < p; ++i) s.exchange(rank ^ i, counts[rank ^ i], rank ^ i, from[rank ^ i]);
      break;
    case AlltoallvAlgorithm::Bruck:  // MPICH's scattered exchange, 4 receives and sends posted at a time
      for (int first = 0; first < p; first += 4) {
        const int batch = std::min(4, p - first);
        for (int i = 0; i < batch; ++i)
          if (const int src = (rank + i + first) % p; src != rank) s.recv(src, from[src]);
        for (int i = 0; i < batch; ++i)
          if (const int dst = (rank - i - first + 2 * p) % p; dst != rank) s.send(dst, counts[dst]);
        s.wait();
      }
      break;
    case AlltoallvAlgorithm::OmpiBasicLinear:  // every receive, then every send, one wait
      for (int i = 0; i < p; ++i)
        if (i != rank) s.recv(i, from[i]);
      for (int i = 0; i < p; ++i)
        if (i != rank) s.send(i, counts[i]);
      s.wait();
      break;
  }
}

// SMPI's gatherv and scatterv: every block straight from or to the root, one wait.
void linear_gatherv(Steps& s, int rank, int root, int p, const double* counts, double own) {
  if (rank == root) {
    for (int i = 0; i < p; ++i)
      if (i != rank) s.recv(i, counts[i]);
  } else {
    s.send(root, own);
  }
  s.wait();
}
void linear_scatterv(Steps& s, int rank, int root, int p, const double* counts, double own) {
  if (rank == root) {
    for (int i = 0; i < p; ++i)
      if (i != rank) s.send(i, counts[i]);
  } else {
    s.recv(root, own);
  }
  s.wait();
}

void bcast(Steps& s, BcastAlgorithm configured, int rank, int root, int p, double bytes, int element);

// SimGrid's allgatherv algorithms; counts[i] is rank i's block.
void allgatherv(Steps& s, const CollectiveChoice& choice, AllgathervAlgorithm algorithm, int rank, int p,
                const double* counts, int element) {
  double total = 0;
  for (int i = 0; i < p; ++i) total += counts[i];
  if (algorithm == AllgathervAlgorithm::Ompi) algorithm = collectives::ompi_allgatherv_choice(p, total);
  switch (algorithm) {
    case AllgathervAlgorithm::Ompi: break;
    case AllgathervAlgorithm::Mpich: {  // by the total element count: nothing, rdb, Bruck, ring
      if (total <= 0) break;
      const double elements = total / element;
      const auto chosen = power_of_two(p) && elements < 524288 ? AllgathervAlgorithm::MpichRdb
                          : elements <= 81920                  ? AllgathervAlgorithm::OmpiBruck
                                                               : AllgathervAlgorithm::MpichRing;
      allgatherv(s, choice, chosen, rank, p, counts, element);
      break;
    }
    case AllgathervAlgorithm::Gb:  // gatherv to rank 0, then the configured bcast of the whole (contiguous) vector
      linear_gatherv(s, rank, 0, p, counts, counts[rank]);
      bcast(s, choice.bcast, rank, 0, p, total, element);
      break;
    case AllgathervAlgorithm::OmpiNeighborExchange: collectives::allgatherv_neighbor_exchange(s, rank, p, counts); break;
    case AllgathervAlgorithm::Pair:  // own block with rank XOR i
      require_power_of_two(p, "allgatherv=pair");
      for (int i = 1; i < p; ++i) s.exchange(rank ^ i, counts[rank], rank ^ i, counts[rank ^ i]);
      break;
    case AllgathervAlgorithm::MpichRdb: collectives::allgatherv_recursive_doubling(s, rank, p, counts); break;
    case AllgathervAlgorithm::OmpiBruck: collectives::allgatherv_ompi_bruck(s, rank, p, counts); break;
    case AllgathervAlgorithm::Mapsim:  // ring: forward the block received last to the right
      for (int i = 0; i + 1 < p; ++i)
        s.exchange((rank + 1) % p, counts[(rank - i + p) % p], (rank - 1 + p) % p, counts[(rank - i - 1 + 2 * p) % p]);
      break;
    case AllgathervAlgorithm::Ring:  // own block to rank + i, rank - i's from it, itself first
      for (int i = 0; i < p; ++i) s.exchange((rank + i) % p, counts[rank], (rank - i + p) % p, counts[(rank - i + p) % p]);
      break;
    case AllgathervAlgorithm::MpichRing: {
      // Neighbour ring in pieces of at most max(smallest block, 256 KiB); empty blocks send nothing.
      double total = 0, piece = counts[0];
      for (int i = 0; i < p; ++i) total += counts[i], piece = std::min(piece, counts[i]);
      piece = std::max(piece, 262144.0);
      const int left = (rank + p - 1) % p, right = (rank + 1) % p;
      double to_send = total - counts[right], to_receive = total - counts[rank], sent = 0, got = 0;
      int sending = rank, receiving = left;
      while (to_send > 0 || to_receive > 0) {
        const double send_now = to_send > 0 ? std::min(piece, counts[sending] - sent) : 0;
        const double receive_now = to_receive > 0 ? std::min(piece, counts[receiving] - got) : 0;
        if (send_now > 0) s.send(right, send_now);
        if (receive_now > 0) s.recv(left, receive_now);
        if (send_now > 0 || receive_now > 0) s.wait();
        to_send -= send_now, to_receive -= receive_now, sent += send_now, got += receive_now;
        if (sent == counts[sending]) sent = 0, sending = (sending + p - 1) % p;
        if (got == counts[receiving]) got = 0, receiving = (receiving + p - 1) % p;
      }
      break;
    }
  }
}

int element_size(int8_t datatype) { return datatype >= 0 ? datatype_size(datatype) : 1; }

// MPICH's choices (SimGrid's `mpich` selector for one rank per node) by size and rank count, Open
// MPI's by its tables. What an algorithm leaves over goes to the configured algorithm, as in SimGrid.
void bcast(Steps& s, BcastAlgorithm configured, int rank, int root, int p, double bytes, int element) {
  using B = BcastAlgorithm;
  B algorithm = configured;
  if (algorithm == B::Mpich)
    algorithm = bytes < 12288 || p <= 8 ? B::Mapsim : bytes < 524288 && p % 2 == 0 ? B::ScatterRdbAllgather : B::ScatterLrAllgather;
  if (algorithm == B::Ompi) algorithm = collectives::ompi_bcast_choice(p, bytes);
  double rest = 0;
  switch (algorithm) {
    case B::ScatterRdbAllgather: collectives::bcast_scatter_rdb_allgather(s, rank, root, p, bytes); break;
    case B::ScatterLrAllgather: collectives::bcast_scatter_lr_allgather(s, rank, root, p, bytes); break;
    case B::Ntsl: rest = collectives::bcast_ntsl(s, rank, root, p, bytes, element); break;
    case B::Ntsb: rest = collectives::bcast_ntsb(s, rank, root, p, bytes, element); break;
    case B::OmpiPipeline: collectives::bcast_ompi_pipeline(s, rank, root, p, bytes, element); break;
    case B::OmpiSplitBintree: collectives::bcast_ompi_split_bintree(s, rank, root, p, bytes, element); break;
    case B::Knomial: collectives::bcast_knomial(s, rank, root, p, bytes); break;
    default: binomial_bcast(s, rank, root, p, bytes);
  }
  if (rest > 0) bcast(s, configured, rank, root, p, rest, element);
}

void reduce(Steps& s, ReduceAlgorithm algorithm, int rank, int root, int p, double bytes, int element) {
  if (algorithm == ReduceAlgorithm::Mpich)
    algorithm = bytes / element < collectives::lower_power_of_two(p) || bytes < 2048 ? ReduceAlgorithm::Mapsim
                                                                                      : ReduceAlgorithm::ScatterGather;
  if (algorithm == ReduceAlgorithm::Ompi) algorithm = collectives::ompi_reduce_choice(p, bytes);
  if (algorithm == ReduceAlgorithm::Mapsim) binomial_reduce(s, rank, root, p, bytes);
  else if (algorithm == ReduceAlgorithm::ScatterGather) collectives::reduce_scatter_gather(s, rank, root, p, bytes, element);
  else collectives::reduce_ompi(s, algorithm, rank, root, p, bytes, element);
}

void allreduce(Steps& s, const CollectiveChoice& choice, int rank, int p, double bytes, int element) {
  using A = AllreduceAlgorithm;
  A algorithm = choice.allreduce;
  if (algorithm == A::Mpich)
    algorithm = bytes > 2048 && bytes / element >= collectives::lower_power_of_two(p) ? A::RabRdb : A::Mapsim;
  if (algorithm == A::Ompi) algorithm = collectives::ompi_allreduce_choice(p, bytes);
  double rest = 0;  // -1: reduce then bcast the whole (redbcast)
  switch (algorithm) {
    case A::RabRdb: collectives::allreduce_rabenseifner(s, rank, p, bytes, element); break;
    case A::Redbcast: rest = -1; break;
    case A::Lr: rest = collectives::allreduce_lr(s, rank, p, bytes, element); break;
    case A::OmpiRingSegmented: rest = collectives::allreduce_ring_segmented(s, rank, p, bytes, element); break;
    default: recursive_doubling_allreduce(s, rank, p, bytes);
  }
  if (rest < 0) {
    reduce(s, choice.reduce, rank, 0, p, bytes, element);
    bcast(s, choice.bcast, rank, 0, p, bytes, element);
  } else if (rest > 0) {
    allreduce(s, choice, rank, p, rest, element);
  }
}

void allgather(Steps& s, AllgatherAlgorithm algorithm, int rank, int p, double block, double received) {
  if (algorithm == AllgatherAlgorithm::Mpich)
    algorithm = power_of_two(p) && block * p < 524288 ? AllgatherAlgorithm::Rdb
                : block * p <= 81920                  ? AllgatherAlgorithm::Bruck
                                                      : AllgatherAlgorithm::Ring;
  if (algorithm == AllgatherAlgorithm::Ompi) algorithm = collectives::ompi_allgather_choice(p, block);
  switch (algorithm) {
    case AllgatherAlgorithm::Rdb: collectives::allgather_recursive_doubling(s, rank, p, received); break;
    case AllgatherAlgorithm::Bruck: collectives::allgather_bruck(s, rank, p, received); break;
    case AllgatherAlgorithm::OmpiNeighborExchange: {
      const std::vector<double> blocks(p, block);
      collectives::allgatherv_neighbor_exchange(s, rank, p, blocks.data());
      break;
    }
    case AllgatherAlgorithm::Pair:  // own block with rank XOR i
      require_power_of_two(p, "allgather=pair");
      for (int i = 1; i < p; ++i) s.exchange(rank ^ i, block, rank ^ i, received);
      break;
    case AllgatherAlgorithm::Ring:  // own block to rank + i, rank - i's from it
      for (int i = 1; i < p; ++i) s.exchange((rank + i) % p, block, (rank - i + p) % p, received);
      break;
    default:  // neighbour ring: forward what came from the left
      for (int i = 0; i + 1 < p; ++i) s.exchange((rank + 1) % p, block, (rank - 1 + p) % p, received);
  }
}

// `block`: the root's receive size, the others' send size (Open MPI decides by them).
void gather(Steps& s, GatherAlgorithm algorithm, int rank, int root, int p, double block, int element) {
  if (algorithm == GatherAlgorithm::Ompi) algorithm = collectives::ompi_gather_choice(p, block);
  if (algorithm == GatherAlgorithm::Mapsim) binomial_gather(s, rank, root, p, block);
  else collectives::gather_ompi(s, algorithm, rank, root, p, block, element);
}

// `block`: the root's send size, the others' receive size.
void scatter(Steps& s, ScatterAlgorithm algorithm, int rank, int root, int p, double block) {
  if (algorithm == ScatterAlgorithm::Ompi) algorithm = collectives::ompi_scatter_choice(p, block);
  if (algorithm == ScatterAlgorithm::Mpich) algorithm = ScatterAlgorithm::OmpiBinomial;  // SimGrid's mpich choice
  if (algorithm == ScatterAlgorithm::Mapsim) binomial_scatter(s, rank, root, p, block);
  else collectives::scatter_ompi(s, algorithm, rank, root, p, block);
}

void reduce_scatter(Steps& s, ReduceScatterAlgorithm algorithm, int rank, int p, const double* counts, int element) {
  using R = ReduceScatterAlgorithm;
  double total = 0;
  for (int i = 0; i < p; ++i) total += counts[i];
  if (algorithm == R::Ompi) algorithm = collectives::ompi_reduce_scatter_choice(p, total);
  if (algorithm == R::Default && std::count(counts, counts + p, counts[0]) != p) algorithm = R::Mpich;  // as SimGrid
  if (algorithm == R::Mpich) algorithm = total / element > 524288 ? R::Mapsim : R::MpichRdb;
  switch (algorithm) {
    case R::Ompi: case R::Mpich: break;  // resolved above
    case R::MpichRdb: return collectives::reduce_scatter_recursive_doubling(s, rank, p, counts);
    case R::OmpiRecursiveHalving: return collectives::reduce_scatter_recursive_halving(s, rank, p, counts);
    case R::OmpiRing: return collectives::reduce_scatter_ring(s, rank, p, counts);
    case R::OmpiButterfly: return collectives::reduce_scatter_butterfly(s, rank, p, counts);
    case R::Default: {  // equal blocks: SMPI's linear reduce to rank 0, then its scatterv
      const std::vector<double> whole(p, total);
      linear_gatherv(s, rank, 0, p, whole.data(), total);
      linear_scatterv(s, rank, 0, p, counts, counts[rank]);
      return;
    }
    case R::Mapsim:
      if (total <= 0) return;  // nothing to reduce: no messages (as SimGrid's mpich_pair)
      for (int i = 1; i < p; ++i) {  // pairwise exchange: rank + i's block to it, this rank's from rank - i
        const int to = (rank + i) % p, from = (rank - i + p) % p;
        s.exchange(to, counts[to], from, counts[rank]);
      }
  }
}

}  // namespace

void expand_action(const Action& a, const RankTrace& trace, int rank, int p, std::vector<Op>& ops,
                   const CollectiveChoice& choice) {
  Steps user(ops, a.tag, false, rank);
  Steps s(ops, collective_tag(a.type), true, rank);
  const double* counts = trace.counts.empty() ? nullptr : trace.counts.data() + a.counts;
  switch (a.type) {
    case ActionType::Send: user.send(a.peer, a.bytes); user.wait(); break;
    case ActionType::Recv: user.recv(a.peer, a.bytes); user.wait(); break;
    case ActionType::Isend: case ActionType::Irecv: {
      Op op{a.type == ActionType::Isend ? Op::Isend : Op::Irecv, true, a.distant};
      op.peer = a.peer;
      op.tag = a.tag;
      op.amount = a.bytes;
      ops.push_back(op);
      break;
    }
    case ActionType::Wait: case ActionType::Test: {
      Op op{a.type == ActionType::Wait ? Op::WaitKey : Op::TestKey};
      op.peer = a.peer;
      op.dst = a.root;
      op.tag = a.tag;
      ops.push_back(op);
      break;
    }
    case ActionType::Waitall: ops.push_back(Op{Op::WaitAll}); break;
    case ActionType::SendRecv: {
      Steps tag0(ops, 0, false, rank);
      tag0.exchange(a.peer, a.bytes, a.root, a.bytes2);
      break;
    }
    case ActionType::Barrier: collectives::barrier(s, choice.barrier, rank, p); break;
    case ActionType::Bcast: bcast(s, choice.bcast, rank, a.root, p, a.bytes, element_size(a.datatype)); break;
    case ActionType::Reduce:
      reduce(s, choice.reduce, rank, a.root, p, a.bytes, element_size(a.datatype));
      s.compute(a.flops);
      break;
    case ActionType::Allreduce:
      allreduce(s, choice, rank, p, a.bytes, element_size(a.datatype));
      s.compute(a.flops);
      break;
    case ActionType::Alltoall: alltoall(s, choice.alltoall, rank, p, a.bytes, a.bytes2); break;
    case ActionType::Alltoallv: alltoallv(s, choice.alltoallv, rank, p, counts); break;
    case ActionType::Gather:
      gather(s, choice.gather, rank, a.root, p, rank == a.root ? a.bytes2 : a.bytes, element_size(a.datatype));
      break;
    case ActionType::Scatter: scatter(s, choice.scatter, rank, a.root, p, rank == a.root ? a.bytes : a.bytes2); break;
    case ActionType::Gatherv: linear_gatherv(s, rank, a.root, p, counts, a.bytes); break;
    case ActionType::Scatterv: linear_scatterv(s, rank, a.root, p, counts, a.bytes2); break;
    case ActionType::Allgather: allgather(s, choice.allgather, rank, p, a.bytes, a.bytes2); break;
    case ActionType::Allgatherv:
      allgatherv(s, choice, choice.allgatherv, rank, p, counts, element_size(a.datatype2));
      break;
    case ActionType::ReduceScatter:
      reduce_scatter(s, choice.reduce_scatter, rank, p, counts, element_size(a.datatype));
      s.compute(a.flops);
      break;
    case ActionType::Scan: case ActionType::Exscan:
      recursive_doubling_scan(s, rank, p, a.bytes);
      s.compute(a.flops);
      break;
    case ActionType::Compute: s.compute(a.flops); break;
    case ActionType::Sleep:
      if (a.flops > 0) ops.push_back(Op{Op::Sleep, false, false, false, -1, 0, -1, a.flops});
      break;
    default: break;  // init, finalize, comm_size, comm_split, comm_dup, location
  }
}

std::vector<Action> point_to_point(const Action& collective, const RankTrace& context, int member,
                                   const std::vector<int>& members, int tag) {
  std::vector<Op> ops;
  expand_action(collective, context, member, static_cast<int>(members.size()), ops);
  std::vector<Action> actions, step;
  const int self = members[member];
  for (const Op& op : ops) {
    if (op.kind == Op::Isend || op.kind == Op::Irecv) {
      Action a{op.kind == Op::Isend ? ActionType::Isend : ActionType::Irecv};
      a.peer = members[op.peer], a.tag = tag, a.bytes = op.amount;
      actions.push_back(a);
      Action wait{ActionType::Wait};
      wait.peer = op.kind == Op::Isend ? self : a.peer, wait.root = op.kind == Op::Isend ? a.peer : self, wait.tag = tag;
      step.push_back(wait);
    } else if (op.kind == Op::WaitGroup) {
      actions.insert(actions.end(), step.begin(), step.end());
      step.clear();
    }
  }
  return actions;
}

}  // namespace mapsim
