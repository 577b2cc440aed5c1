// mapsim's own algorithm of each collective (COLLECTIVE=mapsim, MPICH's classic ones), and SimGrid's
// algorithms that the library files do not hold, message for message as SimGrid 3.32 runs them, each
// registered after its function. MPICH's and Open MPI's algorithms and choices:
// collective_algorithms_mpich.cpp, collective_algorithms_ompi*.cpp.
#include <algorithm>
#include <cmath>
#include <vector>

#include "support/error.h"
#include "traces/internal/collective_steps.h"

namespace mapsim::collectives {
namespace {

using Call = const CollectiveCall&;

// mapsim's algorithm, under SimGrid's name of it too.
CollectiveRegistry::Entry also_named(const char* simgrid_name, CollectiveRegistry::Entry entry) {
  entry.aliases.push_back(simgrid_name);
  return entry;
}

void require_power_of_two(int p, const char* algorithm) {
  if (!power_of_two(p))
    throw Error(std::string(algorithm) + " needs a power-of-two number of ranks, the trace has " + std::to_string(p));
}

// bcast, reduce, allreduce

void binomial_bcast(Steps& s, Call c) {
  const int vr = relative(c.rank, c.root, c.p), root = c.root, p = c.p;
  int mask = 1;
  for (; mask < p; mask <<= 1)
    if (vr & mask) {
      s.recv(absolute(vr - mask, root, p), c.bytes);
      s.wait();
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < p) {
      s.send(absolute(vr + mask, root, p), c.bytes);
      s.wait();
    }
}
MAPSIM_REGISTER(collective_registry(),
                also_named("bcast=binomial_tree", {"bcast=mapsim", "binomial tree (the default)", {}, binomial_bcast}));

void binomial_reduce(Steps& s, Call c) {
  const int vr = relative(c.rank, c.root, c.p), root = c.root, p = c.p;
  for (int mask = 1; mask < p; mask <<= 1) {
    if ((vr & mask) == 0) {
      if ((vr | mask) < p) {
        s.recv(absolute(vr | mask, root, p), c.bytes);
        s.wait();
      }
    } else {
      s.send(absolute(vr & ~mask, root, p), c.bytes);
      s.wait();
      break;
    }
  }
}
MAPSIM_REGISTER(collective_registry(),
                also_named("reduce=binomial", {"reduce=mapsim", "binomial tree (the default)", {}, binomial_reduce}));

void recursive_doubling_allreduce(Steps& s, Call c) {
  const int pof2 = lower_power_of_two(c.p);
  if (const int place = fold_to_power_of_two(s, c.rank, c.p, c.bytes); place >= 0)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int dst = real_rank(place ^ mask, c.p - pof2);
      s.exchange(dst, c.bytes, dst, c.bytes);
    }
  unfold_from_power_of_two(s, c.rank, c.p, c.bytes);
}
MAPSIM_REGISTER(collective_registry(),
                also_named("allreduce=rdb", {"allreduce=mapsim",
                                             "recursive doubling, ranks past a power of two folded in (the default)",
                                             {},
                                             recursive_doubling_allreduce}));

// The run's reduce to rank 0, then its bcast, as SimGrid's redbcast.
void reduce_then_bcast(Steps& s, Call c) {
  CollectiveCall part = c;
  part.root = 0;
  part.collective = Collective::Reduce;
  run_collective(s, part);
  part.collective = Collective::Bcast;
  run_collective(s, part);
}
MAPSIM_REGISTER(collective_registry(),
                {"allreduce=redbcast", "the chosen reduce to rank 0, then the chosen bcast", {}, reduce_then_bcast});

// alltoall: `bytes` to and `received` from every rank

void alltoall_mapsim(Steps& s, Call c) {
  for (int i = 1; i < c.p; ++i) s.exchange((c.rank + i) % c.p, c.bytes, (c.rank - i + c.p) % c.p, c.received);
}
MAPSIM_REGISTER(collective_registry(), {"alltoall=mapsim",
                                        "pairwise exchange with rank + i and rank - i, i = 1 .. p - 1 (the default)",
                                        {},
                                        alltoall_mapsim});

void alltoall_ring(Steps& s, Call c) {  // itself first
  for (int i = 0; i < c.p; ++i) s.exchange((c.rank + i) % c.p, c.bytes, (c.rank - i + c.p) % c.p, c.received);
}
MAPSIM_REGISTER(collective_registry(),
                {"alltoall=ring", "sendrecv with rank + i and rank - i, itself first", {}, alltoall_ring});

void alltoall_pair(Steps& s, Call c) {
  require_power_of_two(c.p, "alltoall=pair");
  for (int i = 0; i < c.p; ++i) s.exchange(c.rank ^ i, c.bytes, c.rank ^ i, c.received);
}
MAPSIM_REGISTER(collective_registry(),
                {"alltoall=pair", "sendrecv with rank XOR i; powers of two only", {}, alltoall_pair});

void alltoall_basic_linear(Steps& s, Call c) {
  const int rank = c.rank, p = c.p;
  for (int i = (rank + 1) % p; i != rank; i = (i + 1) % p) s.recv(i, c.received);
  for (int i = (rank + p - 1) % p; i != rank; i = (i + p - 1) % p) s.send(i, c.bytes);
  s.wait();
}
MAPSIM_REGISTER(collective_registry(), {"alltoall=basic_linear",
                                        "every receive, then every send in reverse order, one wait",
                                        {},
                                        alltoall_basic_linear});

// log p store-and-forward steps: the blocks whose index has bit k
void alltoall_bruck(Steps& s, Call c) {
  const int rank = c.rank, p = c.p;
  const double block = c.bytes, received = c.received;
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
}
MAPSIM_REGISTER(collective_registry(), {"alltoall=bruck",
                                        "log p store-and-forward steps, each the blocks whose index has bit k",
                                        {},
                                        alltoall_bruck});

// alltoallv: counts[i] bytes to rank i, counts[p + i] from rank i

void alltoallv_mapsim(Steps& s, Call c) {
  const int rank = c.rank, p = c.p;
  const double* from = c.counts + p;
  for (int i = 1; i < p; ++i)
    s.exchange((rank + i) % p, c.counts[(rank + i) % p], (rank - i + p) % p, from[(rank - i + p) % p]);
}
MAPSIM_REGISTER(collective_registry(), {"alltoallv=mapsim",
                                        "pairwise exchange with rank + i and rank - i, i = 1 .. p - 1 (the default)",
                                        {},
                                        alltoallv_mapsim});

void alltoallv_ring(Steps& s, Call c) {
  const int rank = c.rank, p = c.p;
  const double* from = c.counts + p;
  for (int i = 0; i < p; ++i) {
    const int dst = power_of_two(p) ? rank ^ i : (rank + i) % p, src = power_of_two(p) ? dst : (rank - i + p) % p;
    s.exchange(dst, c.counts[dst], src, from[src]);
  }
}
MAPSIM_REGISTER(collective_registry(),
                {"alltoallv=ring",
                 "sendrecv with rank XOR i at powers of two (MPICH's pairwise exchange), else rank + i and rank - i",
                 {},
                 alltoallv_ring});

void alltoallv_pair(Steps& s, Call c) {
  require_power_of_two(c.p, "alltoallv=pair");
  for (int i = 0; i < c.p; ++i) s.exchange(c.rank ^ i, c.counts[c.rank ^ i], c.rank ^ i, c.counts[c.p + (c.rank ^ i)]);
}
MAPSIM_REGISTER(collective_registry(),
                {"alltoallv=pair", "sendrecv with rank XOR i; powers of two only", {}, alltoallv_pair});

void alltoallv_scattered(Steps& s, Call c) {
  const int rank = c.rank, p = c.p;
  const double* from = c.counts + p;
  for (int first = 0; first < p; first += 4) {
    const int batch = std::min(4, p - first);
    for (int i = 0; i < batch; ++i)
      if (const int src = (rank + i + first) % p; src != rank) s.recv(src, from[src]);
    for (int i = 0; i < batch; ++i)
      if (const int dst = (rank - i - first + 2 * p) % p; dst != rank) s.send(dst, c.counts[dst]);
    s.wait();
  }
}
MAPSIM_REGISTER(collective_registry(), {"alltoallv=bruck",
                                        "MPICH's scattered exchange: 4 receives and 4 sends posted at a time",
                                        {},
                                        alltoallv_scattered});

void alltoallv_basic_linear(Steps& s, Call c) {
  for (int i = 0; i < c.p; ++i)
    if (i != c.rank) s.recv(i, c.counts[c.p + i]);
  for (int i = 0; i < c.p; ++i)
    if (i != c.rank) s.send(i, c.counts[i]);
  s.wait();
}
MAPSIM_REGISTER(collective_registry(), {"alltoallv=ompi_basic_linear",
                                        "every receive, then every send, one wait",
                                        {},
                                        alltoallv_basic_linear});

// allgather: `bytes` sent to and `received` from every rank

void allgather_neighbour_ring(Steps& s, Call c) {  // forwards what came from the left
  for (int i = 0; i + 1 < c.p; ++i) s.exchange((c.rank + 1) % c.p, c.bytes, (c.rank - 1 + c.p) % c.p, c.received);
}
MAPSIM_REGISTER(collective_registry(),
                also_named("allgather=NTSLR", {"allgather=mapsim",
                                               "neighbour ring, forwarding what came from the left (the default)",
                                               {},
                                               allgather_neighbour_ring}));

void allgather_ring(Steps& s, Call c) {
  for (int i = 1; i < c.p; ++i) s.exchange((c.rank + i) % c.p, c.bytes, (c.rank - i + c.p) % c.p, c.received);
}
MAPSIM_REGISTER(collective_registry(),
                {"allgather=ring", "own block to rank + i, rank - i's from it", {}, allgather_ring});

void allgather_pair(Steps& s, Call c) {
  require_power_of_two(c.p, "allgather=pair");
  for (int i = 1; i < c.p; ++i) s.exchange(c.rank ^ i, c.bytes, c.rank ^ i, c.received);
}
MAPSIM_REGISTER(collective_registry(),
                {"allgather=pair", "own block with rank XOR i; powers of two only", {}, allgather_pair});

// allgatherv: counts[i] is rank i's block

void allgatherv_neighbour_ring(Steps& s, Call c) {  // forwards the block received last
  const int rank = c.rank, p = c.p;
  for (int i = 0; i + 1 < p; ++i)
    s.exchange((rank + 1) % p, c.counts[(rank - i + p) % p], (rank - 1 + p) % p, c.counts[(rank - i - 1 + 2 * p) % p]);
}
MAPSIM_REGISTER(collective_registry(),
                {"allgatherv=mapsim",
                 "neighbour ring, forwarding the block received last, empty ones too (the default)",
                 {},
                 allgatherv_neighbour_ring});

void allgatherv_ring(Steps& s, Call c) {  // itself first
  const int rank = c.rank, p = c.p;
  for (int i = 0; i < p; ++i)
    s.exchange((rank + i) % p, c.counts[rank], (rank - i + p) % p, c.counts[(rank - i + p) % p]);
}
MAPSIM_REGISTER(collective_registry(),
                {"allgatherv=ring", "own block to rank + i, rank - i's from it, itself first", {}, allgatherv_ring});

void allgatherv_pair(Steps& s, Call c) {
  require_power_of_two(c.p, "allgatherv=pair");
  for (int i = 1; i < c.p; ++i) s.exchange(c.rank ^ i, c.counts[c.rank], c.rank ^ i, c.counts[c.rank ^ i]);
}
MAPSIM_REGISTER(collective_registry(),
                {"allgatherv=pair", "own block with rank XOR i; powers of two only", {}, allgatherv_pair});

// Gatherv to rank 0, then the run's bcast of the whole (contiguous) vector, as SimGrid's GB.
void allgatherv_gather_bcast(Steps& s, Call c) {
  linear_gatherv(s, c.rank, 0, c.p, c.counts, c.counts[c.rank]);
  CollectiveCall whole = c;
  whole.collective = Collective::Bcast, whole.root = 0, whole.bytes = total_bytes(c);
  run_collective(s, whole);
}
MAPSIM_REGISTER(collective_registry(), {"allgatherv=GB",
                                        "linear gatherv to rank 0, then the chosen bcast of the whole vector",
                                        {},
                                        allgatherv_gather_bcast});

// Neighbour ring in pieces of at most max(smallest block, 256 KiB); empty blocks send nothing.
void allgatherv_mpich_ring(Steps& s, Call c) {
  const int rank = c.rank, p = c.p;
  const double* counts = c.counts;
  const double total = total_bytes(c);
  double piece = counts[0];
  for (int i = 0; i < p; ++i) piece = std::min(piece, counts[i]);
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
}
MAPSIM_REGISTER(collective_registry(),
                {"allgatherv=mpich_ring",
                 "neighbour ring in pieces of at most max(smallest block, 256 KiB); empty blocks send nothing",
                 {},
                 allgatherv_mpich_ring});

// reduce_scatter: counts[i] is rank i's block

void reduce_scatter_pairwise(Steps& s, Call c) {
  if (total_bytes(c) <= 0) return;  // nothing to reduce: no messages (as SimGrid's mpich_pair)
  for (int i = 1; i < c.p; ++i) {  // rank + i's block to it, this rank's from rank - i
    const int to = (c.rank + i) % c.p, from = (c.rank - i + c.p) % c.p;
    s.exchange(to, c.counts[to], from, c.counts[c.rank]);
  }
}
MAPSIM_REGISTER(collective_registry(),
                also_named("reduce_scatter=mpich_pair",
                           {"reduce_scatter=mapsim",
                            "pairwise exchange: rank + i's block to it, this rank's from rank - i (the default)",
                            {},
                            reduce_scatter_pairwise}));

// SMPI's default: equal blocks a linear reduce to rank 0, then its scatterv; others MPICH's choice, as SimGrid.
void reduce_scatter_default(Steps& s, Call c) {
  if (std::count(c.counts, c.counts + c.p, c.counts[0]) != c.p) return run_collective(s, c, "mpich");
  const double total = total_bytes(c);
  const std::vector<double> whole(c.p, total);
  linear_gatherv(s, c.rank, 0, c.p, whole.data(), total);
  linear_scatterv(s, c.rank, 0, c.p, c.counts, c.counts[c.rank]);
}
MAPSIM_REGISTER(collective_registry(),
                {"reduce_scatter=default",
                 "SMPI's: equal blocks a linear reduce to rank 0 and its scatterv; others MPICH's choice",
                 {},
                 reduce_scatter_default});

// gather and scatter: `bytes` is the block

void binomial_gather(Steps& s, Call c) {  // a rank forwards its whole subtree's blocks to its parent
  const int vr = relative(c.rank, c.root, c.p), root = c.root, p = c.p;
  for (int mask = 1; mask < p; mask <<= 1) {
    if ((vr & mask) == 0) {
      const int src = vr | mask;
      if (src < p) {
        s.recv(absolute(src, root, p), c.bytes * std::min(mask, p - src));
        s.wait();
      }
    } else {
      s.send(absolute(vr & ~mask, root, p), c.bytes * std::min(mask, p - vr));
      s.wait();
      break;
    }
  }
}
MAPSIM_REGISTER(collective_registry(),
                also_named("gather=ompi_binomial",
                           {"gather=mapsim",
                            "binomial tree, each rank forwarding its subtree's blocks (the default)",
                            {},
                            binomial_gather}));

void binomial_scatter(Steps& s, Call c) {
  const int vr = relative(c.rank, c.root, c.p), root = c.root, p = c.p;
  int mask = 1;
  for (; mask < p; mask <<= 1)
    if (vr & mask) {
      s.recv(absolute(vr - mask, root, p), c.bytes * std::min(mask, p - vr));
      s.wait();
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < p) {
      s.send(absolute(vr + mask, root, p), c.bytes * std::min(mask, p - vr - mask));
      s.wait();
    }
}
MAPSIM_REGISTER(collective_registry(),
                {"scatter=mapsim", "binomial tree, largest subtree first (the default)", {}, binomial_scatter});

// barrier

void dissemination_barrier(Steps& s, Call c) {
  for (int distance = 1; distance < c.p; distance <<= 1)
    s.exchange((c.rank + distance) % c.p, 0, (c.rank - distance + c.p) % c.p, 0);
}
MAPSIM_REGISTER(collective_registry(),
                also_named("barrier=ompi_bruck", {"barrier=mapsim",
                                                  "dissemination: log p rounds at distances 1, 2, 4, ... (the default)",
                                                  {},
                                                  dissemination_barrier}));

}  // namespace

}  // namespace mapsim::collectives

namespace mapsim {

// Used by algorithms that hand a call on (a library's choice, redbcast, NTSL): declared in collective_algorithm.h.
void run_collective(collectives::Steps& s, const CollectiveCall& c, const std::string& name) {
  const std::string full = std::string(collective_name(c.collective)) + "=" + name;
  const CollectiveRegistry::Entry* algorithm = collective_registry().find(full);
  if (!algorithm) throw InternalError("no collective algorithm '" + full + "' registered");
  algorithm->factory(s, c);
}

void run_collective(collectives::Steps& s, const CollectiveCall& c) {
  static const CollectiveChoice mapsim_own;
  (c.choice ? *c.choice : mapsim_own)[c.collective].factory(s, c);
}

}  // namespace mapsim
