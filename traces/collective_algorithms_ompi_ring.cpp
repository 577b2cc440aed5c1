// The allreduces and reduce_scatters of Open MPI's fixed decision beyond mapsim's and MPICH's: the
// logical ring (lr) and Open MPI's segmented ring allreduce, Open MPI's recursive halving, ring and
// butterfly reduce_scatter, message for message as SimGrid 3.32 runs them (src/smpi/colls/allreduce/,
// reduce_scatter/reduce_scatter-ompi.cpp), and the tables that pick among them.
#include <algorithm>
#include <climits>
#include <cmath>

#include "traces/internal/collective_steps.h"

namespace mapsim::collectives {
namespace {

// COLL_TUNED_COMPUTE_BLOCKCOUNT: `count` elements in `blocks` blocks, the first count % blocks one larger.
struct Blocks {
  double count, blocks;
  double early() const { return std::ceil(count / blocks); }
  double size(double index) const { return index < std::fmod(count, blocks) ? early() : std::floor(count / blocks); }
};

// ompi_sum_counts: the bytes of places [from, to) of a communicator folded to a power of two, where
// each of the first `extra` places holds two ranks' blocks.
double folded_bytes(const double* counts, int extra, int from, int to) {
  double bytes = 0;
  if (from < to)
    for (int i = real_rank(from, extra, false); i <= real_rank(to - 1, extra, true); ++i) bytes += counts[i];
  return bytes;
}

int mirror(int x, int bits) {  // x with its low `bits` bits reversed
  int reversed = 0;
  for (int i = 0; i < bits; ++i) reversed |= ((x >> i) & 1) << (bits - 1 - i);
  return reversed;
}

// allreduce__lr: a ring reduce-scatter, then a ring allgather, of blocks of count / p elements.
double allreduce_lr(Steps& s, int rank, int p, double bytes, int element) {
  const double count = std::floor(bytes / element);
  if (count < p) return -1;
  const double block = std::floor(count / p) * element;
  const int right = (rank + 1) % p, left = (rank + p - 1) % p;
  for (int i = 0; i < 2 * (p - 1); ++i) s.exchange(right, block, left, block);
  return (count - std::floor(count / p) * p) * element;
}

// allreduce__ompi_ring_segmented: the ring in phases of at most 1 MiB per block; below one full phase,
// lr.
double allreduce_ring_segmented(Steps& s, int rank, int p, double bytes, int element) {
  const double count = std::floor(bytes / element), segment = segment_count(1 << 20, element, count);
  if (p == 1) return 0;
  if (count < p * segment) return allreduce_lr(s, rank, p, bytes, element);
  double phases = std::floor(count / (p * segment));
  const double rest = std::fmod(count, p * segment);
  if (rest >= p && rest > std::floor(p * segment / 2)) ++phases;
  const Blocks blocks{count, static_cast<double>(p)};
  auto phase_bytes = [&](int block, int phase) { return Blocks{blocks.size(block), phases}.size(phase) * element; };
  const int right = (rank + 1) % p, left = (rank + p - 1) % p;
  for (int phase = 0; phase < phases; ++phase) {
    s.recv_tracked(left, blocks.early() * element);
    s.blocking_send(right, phase_bytes(rank, phase));
    for (int k = 2; k < p; ++k) {
      s.recv_tracked(left, blocks.early() * element);
      s.wait_for(left);
      s.blocking_send(right, phase_bytes((rank + p - k + 1) % p, phase));
    }
    s.wait_for(left);
  }
  for (int k = 0; k < p - 1; ++k)
    s.exchange(right, blocks.size((rank + 1 + p - k) % p) * element, left, blocks.size((rank + p - k) % p) * element);
  return 0;
}

// reduce_scatter__ompi_basic_recursivehalving: the ranks past the largest power of two fold into
// their neighbours, the others halve the vector log p times, and the folded ranks get their block back.
void reduce_scatter_recursive_halving(Steps& s, int rank, int p, const double* counts) {
  double total = 0;
  for (int i = 0; i < p; ++i) total += counts[i];
  if (total == 0) return;
  const int pof2 = lower_power_of_two(p), extra = p - pof2;
  if (const int vrank = fold_to_power_of_two(s, rank, p, total); vrank >= 0) {
    auto sum = [&](int from, int to) { return folded_bytes(counts, extra, from, to); };
    int send_index = 0, recv_index = 0, last_index = pof2;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
      const int vpeer = vrank ^ mask, peer = real_rank(vpeer, extra);
      double send_bytes, recv_bytes;
      if (vrank < vpeer) {
        send_index = recv_index + mask;
        send_bytes = sum(send_index, last_index), recv_bytes = sum(recv_index, send_index);
      } else {
        recv_index = send_index + mask;
        send_bytes = sum(send_index, recv_index), recv_bytes = sum(recv_index, last_index);
      }
      if (send_bytes > 0 && recv_bytes > 0) {
        s.recv(peer, recv_bytes);
        s.send(peer, send_bytes);
        s.wait();
      }
      send_index = recv_index;
      last_index = recv_index + mask;
    }
  }
  if (rank < 2 * extra) {
    if (rank % 2 == 0 && counts[rank] > 0) s.blocking_recv(rank + 1, counts[rank]);
    else if (rank % 2 == 1 && counts[rank - 1] > 0) s.blocking_send(rank - 1, counts[rank - 1]);
  }
}

// reduce_scatter__ompi_ring: each block travels p - 1 steps to the right, reduced on the way, the
// next receive posted before the previous is awaited.
void reduce_scatter_ring(Steps& s, int rank, int p, const double* counts) {
  if (p == 1) return;
  const double largest = *std::max_element(counts, counts + p);
  const int right = (rank + 1) % p, left = (rank + p - 1) % p;
  s.recv_tracked(left, largest);
  s.blocking_send(right, counts[left]);
  for (int k = 2; k < p; ++k) {
    s.recv_tracked(left, largest);
    s.wait_for(left);
    s.blocking_send(right, counts[(rank + p - k) % p]);
  }
  s.wait_for(left);
}

// reduce_scatter__ompi_butterfly: the ranks past the largest power of two fold into their neighbours,
// the others exchange halves log p times, then send each result block to its owner, found by the
// bit-reversal permutation.
void reduce_scatter_butterfly(Steps& s, int rank, int p, const double* counts) {
  if (p < 2) return;
  double total = 0;
  for (int i = 0; i < p; ++i) total += counts[i];
  const int pof2 = lower_power_of_two(p), extra = p - pof2;
  int bits = 0;
  while ((1 << bits) < pof2) ++bits;
  const int vrank = fold_to_power_of_two(s, rank, p, total);
  if (vrank < 0) {
    s.blocking_recv(real_rank(mirror((rank + 1) / 2, bits), extra), counts[rank]);
    return;
  }
  int blocks = pof2, send_index = 0, recv_index = 0;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int peer = real_rank(vrank ^ mask, extra);
    blocks /= 2;
    if ((vrank & mask) == 0) send_index += blocks;
    else recv_index += blocks;
    s.exchange(peer, folded_bytes(counts, extra, send_index, send_index + blocks), peer,
               folded_bytes(counts, extra, recv_index, recv_index + blocks));
    send_index = recv_index;
  }
  const int vpeer = mirror(vrank, bits), peer = real_rank(vpeer, extra);
  int index = real_rank(send_index, extra, false);
  if (vpeer < extra) s.blocking_send(peer - 1, counts[index++]);
  if (vpeer != vrank) s.exchange(peer, counts[index], peer, counts[rank]);
}

using Call = const CollectiveCall&;

// The ring allreduces' `rest`: -1, the whole reduction by redbcast, as SimGrid; > 0, the remainder by
// the run's allreduce.
void allreduce_rest(Steps& s, Call c, double rest) {
  if (rest < 0) return run_collective(s, c, "redbcast");
  if (rest == 0) return;
  CollectiveCall remainder = c;
  remainder.bytes = rest;
  run_collective(s, remainder);
}

MAPSIM_REGISTER(collective_registry(),
                {"allreduce=lr",
                 "ring reduce-scatter, then ring allgather, of count / p elements; the rest by the chosen allreduce",
                 {},
                 [](Steps& s, Call c) { allreduce_rest(s, c, allreduce_lr(s, c.rank, c.p, c.bytes, c.element)); }});
MAPSIM_REGISTER(collective_registry(), {"allreduce=ompi_ring_segmented",
                                        "the ring in phases of at most 1 MiB per block; lr below one phase",
                                        {},
                                        [](Steps& s, Call c) {
                                          allreduce_rest(s, c,
                                                         allreduce_ring_segmented(s, c.rank, c.p, c.bytes, c.element));
                                        }});

void allreduce_choice(Steps& s, Call c) {
  constexpr const char *N = "redbcast", *D = "mapsim", *L = "lr", *S = "ompi_ring_segmented", *R = "rab_rdb";
  static const std::vector<Band<const char*>> table = {  // commutative operations (a trace's reductions)
      {4, {{8, L}, {4096, D}, {8192, L}, {16384, D}, {65536, L}, {262144, S}, {kAll, R}}},
      {8, {{16, L}, {8192, D}, {kAll, R}}},
      {16, {{8192, D}, {kAll, R}}},
      {32, {{64, S}, {4096, D}, {kAll, R}}},
      {64, {{128, S}, {kAll, R}}},
      {128, {{262144, D}, {kAll, R}}},
      {256, {{131072, N}, {262144, D}, {kAll, R}}},
      {512, {{4096, N}, {kAll, R}}},
      {2048, {{2048, N}, {16384, D}, {kAll, R}}},
      {4096, {{2048, N}, {4096, S}, {16384, D}, {kAll, R}}},
      {INT_MAX, {{2048, N}, {16384, S}, {32768, D}, {kAll, R}}}};
  run_collective(s, c, decide(table, c.p, c.bytes));
}
MAPSIM_REGISTER(collective_registry(),
                {"allreduce=ompi",
                 "Open MPI's table (commutative operations): redbcast, rdb, lr, ompi_ring_segmented or rab_rdb",
                 {},
                 allreduce_choice});

MAPSIM_REGISTER(collective_registry(),
                {"reduce_scatter=ompi_basic_recursivehalving",
                 "ranks past a power of two fold in, the others halve the vector log p times",
                 {},
                 [](Steps& s, Call c) { reduce_scatter_recursive_halving(s, c.rank, c.p, c.counts); }});
MAPSIM_REGISTER(collective_registry(), {"reduce_scatter=ompi_ring",
                                        "each block p - 1 steps to the right, reduced on the way",
                                        {},
                                        [](Steps& s, Call c) { reduce_scatter_ring(s, c.rank, c.p, c.counts); }});
MAPSIM_REGISTER(collective_registry(), {"reduce_scatter=ompi_butterfly",
                                        "halves exchanged log p times, each result block to its bit-reversed owner",
                                        {},
                                        [](Steps& s, Call c) { reduce_scatter_butterfly(s, c.rank, c.p, c.counts); }});

void reduce_scatter_choice(Steps& s, Call c) {
  constexpr const char *D = "default", *H = "ompi_basic_recursivehalving", *G = "ompi_ring", *B = "ompi_butterfly";
  static const std::vector<Band<const char*>> table = {  // commutative operations
      {4, {{65536, G}, {131072, B}, {kAll, G}}},
      {8, {{8, D}, {262144, H}, {kAll, G}}},
      {32, {{262144, H}, {kAll, G}}},
      {64, {{64, D}, {2048, H}, {524288, B}, {kAll, G}}},
      {128, {{256, D}, {512, H}, {2048, B}, {4096, H}, {kAll, B}}},
      {256, {{256, D}, {512, H}, {kAll, B}}},
      {512, {{256, D}, {1024, H}, {kAll, B}}},
      {1024, {{512, D}, {2048, H}, {8192, B}, {16384, H}, {kAll, B}}},
      {2048, {{512, D}, {4096, H}, {16384, B}, {32768, H}, {kAll, B}}},
      {4096, {{512, D}, {4096, H}, {kAll, B}}},
      {INT_MAX, {{1024, D}, {8192, H}, {kAll, B}}}};
  run_collective(s, c, decide(table, c.p, total_bytes(c)));
}
MAPSIM_REGISTER(collective_registry(),
                {"reduce_scatter=ompi",
                 "Open MPI's table (commutative operations): default, the recursive halving, ring or butterfly",
                 {},
                 reduce_scatter_choice});

}  // namespace
}  // namespace mapsim::collectives
