// Open MPI's algorithms for barrier, gather, scatter, allgather(v) and reduce that mapsim's defaults
// lack, its trees, and the tables by which Open MPI's fixed decision (COLLECTIVE=ompi) picks among them
// (alltoall's and alltoallv's too), message for message as SimGrid 3.32 runs them (src/smpi/colls/,
// the function named in each comment; smpi_openmpi_selector.cpp).
#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

#include "traces/internal/collective_steps.h"

namespace mapsim::collectives {

double segment_count(double segment, int element, double count) {
  if (segment < element || segment >= element * count) return count;
  const double whole = std::floor(segment / element);
  return segment - whole * element > element / 2 ? whole + 1 : whole;
}

namespace {

using Call = const CollectiveCall&;

// Open MPI's alltoall: basic_linear, pairwise (SimGrid's pair) or modified Bruck. SimGrid takes XOR
// pairs where they exist, else Open MPI's own rank +- i order.
void alltoall_choice(Steps& s, Call c) {
  constexpr const char *L = "basic_linear", *P = "pair", *B = "bruck";
  static const std::vector<Band<const char*>> table = {
      {3, {{2, P}, {4, L}, {16, P}, {64, L}, {256, P}, {4096, L}, {32768, P}, {1048576, L}, {kAll, P}}},
      {8, {{524288, L}, {1048576, P}, {kAll, L}}},
      {16, {{kAll, L}}},
      {32, {{4, L}, {512, B}, {kAll, L}}},
      {64, {{512, B}, {kAll, L}}},
      {128, {{1024, B}, {262144, L}, {kAll, P}}},
      {256, {{1024, B}, {262144, L}, {kAll, P}}},
      {512, {{1024, B}, {32768, L}, {kAll, P}}},
      {1024, {{512, B}, {262144, L}, {kAll, P}}},
      {2048, {{512, B}, {kAll, L}}},
      {4096, {{1024, B}, {kAll, L}}},
      {INT_MAX, {{2048, B}, {kAll, L}}}};
  const std::string chosen = decide(table, c.p, c.bytes);
  run_collective(s, c, chosen == P && !power_of_two(c.p) ? "ring" : chosen);
}
MAPSIM_REGISTER(collective_registry(), {"alltoall=ompi",
                                        "Open MPI's table: basic_linear, pair (ring below powers of two) or bruck",
                                        {},
                                        alltoall_choice});

// By ranks only (SimGrid's ompi selector); pairwise as the alltoall's.
void alltoallv_choice(Steps& s, Call c) {
  const int p = c.p;
  const bool pairwise = p < 4 || (p >= 64 && p < 128) || (p >= 256 && p < 1024);
  run_collective(s, c, !pairwise ? "ompi_basic_linear" : power_of_two(p) ? "pair" : "ring");
}
MAPSIM_REGISTER(collective_registry(), {"alltoallv=ompi",
                                        "Open MPI by ranks: pair (ring below powers of two) or ompi_basic_linear",
                                        {},
                                        alltoallv_choice});

void barrier_choice(Steps& s, Call c) {
  const int p = c.p;
  run_collective(s, c,
                 p < 4                                            ? "ompi_recursivedoubling"
                 : p < 8                                          ? "ompi_basic_linear"
                 : p < 64                                         ? "ompi_recursivedoubling"
                 : p < 256 || (p >= 512 && p < 1024) || p >= 4096 ? "mapsim"  // ompi_bruck
                                                                  : "ompi_tree");
}
MAPSIM_REGISTER(collective_registry(),
                {"barrier=ompi",
                 "Open MPI by ranks: ompi_recursivedoubling, ompi_basic_linear, ompi_bruck or ompi_tree",
                 {},
                 barrier_choice});

void barrier_basic_linear(Steps& s, Call c) {
  if (c.rank > 0) {
    s.blocking_send(0, 0);
    s.blocking_recv(0, 0);
    return;
  }
  for (int i = 1; i < c.p; ++i) s.recv(i, 0);
  s.wait();
  for (int i = 1; i < c.p; ++i) s.send(i, 0);
  s.wait();
}
MAPSIM_REGISTER(collective_registry(), {"barrier=ompi_basic_linear",
                                        "everyone to rank 0, then rank 0 to everyone",
                                        {},
                                        barrier_basic_linear});

void barrier_recursive_doubling(Steps& s, Call c) {
  const int rank = c.rank, pof2 = lower_power_of_two(c.p), extra = c.p - pof2;
  if (rank >= pof2) s.exchange(rank - pof2, 0, rank - pof2, 0);
  else if (rank < extra) s.blocking_recv(rank + pof2, 0);
  if (rank < pof2)
    for (int mask = 1; mask < pof2; mask <<= 1) s.exchange(rank ^ mask, 0, rank ^ mask, 0);
  if (rank < extra) s.blocking_send(rank + pof2, 0);
}
MAPSIM_REGISTER(collective_registry(), {"barrier=ompi_recursivedoubling",
                                        "recursive doubling; ranks past the largest power of two pair with those below",
                                        {},
                                        barrier_recursive_doubling});

void barrier_tree(Steps& s, Call c) {
  const int rank = c.rank, p = c.p;
  int depth = 1;
  while (depth < p) depth <<= 1;
  for (int jump = 1; jump < depth; jump <<= 1)
    if (const int partner = rank ^ jump; !(partner & (jump - 1)) && partner < p) {
      if (partner > rank) s.blocking_recv(partner, 0);
      else s.blocking_send(partner, 0);
    }
  for (int jump = depth >> 1; jump > 0; jump >>= 1)
    if (const int partner = rank ^ jump; !(partner & (jump - 1)) && partner < p) {
      if (partner > rank) s.blocking_send(partner, 0);
      else s.blocking_recv(partner, 0);
    }
}
MAPSIM_REGISTER(collective_registry(),
                {"barrier=ompi_tree", "fan in along a binomial tree to rank 0, fan out back", {}, barrier_tree});

void gather_choice(Steps& s, Call c) {
  constexpr const char *M = "mapsim", *L = "ompi_basic_linear", *S = "ompi_linear_sync";  // mapsim: ompi_binomial
  static const std::vector<Band<const char*>> table = {
      {4, {{2, S}, {4, L}, {32768, M}, {65536, L}, {131072, M}, {kAll, S}}},
      {8, {{1024, M}, {8192, L}, {32768, M}, {262144, L}, {kAll, S}}},
      {256, {{kAll, M}}},
      {512, {{2048, M}, {8192, L}, {kAll, M}}},
      {INT_MAX, {{kAll, M}}}};
  run_collective(s, c, decide(table, c.p, c.bytes));
}
MAPSIM_REGISTER(collective_registry(), {"gather=ompi",
                                        "Open MPI's table: ompi_binomial, ompi_basic_linear or ompi_linear_sync",
                                        {},
                                        gather_choice});

void gather_basic_linear(Steps& s, Call c) {
  if (c.rank != c.root) s.blocking_send(c.root, c.bytes);
  else
    for (int i = 0; i < c.p; ++i)
      if (i != c.rank) s.blocking_recv(i, c.bytes);
}
MAPSIM_REGISTER(collective_registry(), {"gather=ompi_basic_linear",
                                        "a blocking send from each rank, received in rank order",
                                        {},
                                        gather_basic_linear});

// The root calls each rank in turn with an empty message, and each sends its block in two parts, the
// first of 1 KiB (32 KiB for blocks above 90 KiB), which the root waits for before the next call.
void gather_linear_sync(Steps& s, Call c) {
  const double block = c.bytes, count = std::floor(block / c.element);
  const double first = segment_count(block > 92160 ? 32768 : 1024, c.element, count) * c.element;
  if (c.rank != c.root) {
    s.blocking_recv(c.root, 0);
    s.blocking_send(c.root, first);
    s.blocking_send(c.root, block - first);
    return;
  }
  for (int i = 0; i < c.p; ++i) {
    if (i == c.rank) continue;
    s.recv_tracked(i, first);
    s.send(i, 0);  // eager: done at once, as SMPI's blocking send of it
    s.recv(i, block - first);
    s.wait_for(i);
  }
  s.wait();
}
MAPSIM_REGISTER(collective_registry(), {"gather=ompi_linear_sync",
                                        "the root calls each rank in turn, which sends its block in two parts",
                                        {},
                                        gather_linear_sync});

void scatter_choice(Steps& s, Call c) {
  constexpr const char *M = "ompi_binomial", *L = "ompi_basic_linear", *N = "ompi_linear_nb";
  static const std::vector<Band<const char*>> table = {
      {4, {{2, N}, {131072, L}, {262144, N}, {kAll, L}}},
      {8, {{2048, M}, {4096, L}, {8192, M}, {32768, L}, {1048576, N}, {kAll, L}}},
      {16, {{16384, M}, {1048576, N}, {kAll, L}}},
      {32, {{16384, M}, {32768, L}, {kAll, N}}},
      {64, {{512, M}, {8192, N}, {16384, M}, {kAll, N}}},
      {INT_MAX, {{512, M}, {kAll, N}}}};
  run_collective(s, c, decide(table, c.p, c.bytes));
}
MAPSIM_REGISTER(collective_registry(), {"scatter=ompi",
                                        "Open MPI's table: ompi_binomial, ompi_basic_linear or ompi_linear_nb",
                                        {},
                                        scatter_choice});

// The binomial tree, each rank serving its nearest, smallest subtree first.
void scatter_binomial(Steps& s, Call c) {
  const TreeNode node = in_order_bmtree(c.rank, c.root, c.p);
  const int vrank = relative(c.rank, c.root, c.p);
  if (node.parent >= 0) s.blocking_recv(node.parent, c.bytes * std::min(vrank & -vrank, c.p - vrank));
  for (int child : node.children) {
    const int vchild = relative(child, c.root, c.p);
    s.blocking_send(child, c.bytes * std::min(vchild - vrank, c.p - vchild));
  }
}
MAPSIM_REGISTER(collective_registry(), {"scatter=ompi_binomial",
                                        "binomial tree, each rank serving its nearest, smallest subtree first",
                                        {},
                                        scatter_binomial});

// The root's sends one after the other (basic_linear) or all at once with one wait (linear_nb).
template <bool nonblocking>
void scatter_linear(Steps& s, Call c) {
  if (c.rank != c.root) {
    s.blocking_recv(c.root, c.bytes);
    return;
  }
  for (int i = 0; i < c.p; ++i)
    if (i != c.rank) {
      s.send(i, c.bytes);
      if (!nonblocking) s.wait();
    }
  if (nonblocking) s.wait();
}
MAPSIM_REGISTER(collective_registry(),
                {"scatter=ompi_basic_linear", "a blocking send to each rank in turn", {}, scatter_linear<false>});
MAPSIM_REGISTER(collective_registry(),
                {"scatter=ompi_linear_nb", "all sends at once, one wait", {}, scatter_linear<true>});

// allgather(v)__ompi_neighborexchange: p/2 steps with the two neighbours in turn, the own block
// first, then the two blocks received last (an even rank's and its right neighbour's). Odd rank
// counts take SimGrid's ring: the own block to rank + i, rank - i's from it.
void allgatherv_neighbor_exchange(Steps& s, int rank, int p, const double* counts) {
  if (p % 2) {
    for (int i = 1; i < p; ++i) s.exchange((rank + i) % p, counts[rank], (rank - i + p) % p, counts[(rank - i + p) % p]);
    return;
  }
  const bool even = rank % 2 == 0;
  const int neighbor[2] = {even ? (rank + 1) % p : (rank - 1 + p) % p, even ? (rank - 1 + p) % p : (rank + 1) % p};
  const int offset[2] = {even ? 2 : -2, even ? -2 : 2};
  s.exchange(neighbor[0], counts[rank], neighbor[0], counts[neighbor[0]]);
  int from[2] = {even ? rank : neighbor[0], even ? rank : neighbor[0]}, sending = from[0];
  for (int i = 1; i < p / 2; ++i) {
    const int parity = i % 2;
    from[parity] = (from[parity] + offset[parity] + p) % p;
    s.exchange(neighbor[parity], counts[sending] + counts[sending + 1], neighbor[parity],
               counts[from[parity]] + counts[from[parity] + 1]);
    sending = from[parity];
  }
}
void allgatherv_neighbors(Steps& s, Call c) { allgatherv_neighbor_exchange(s, c.rank, c.p, c.counts); }
MAPSIM_REGISTER(collective_registry(), {"allgatherv=ompi_neighborexchange",
                                        "p/2 steps with the two neighbours in turn (ring for odd p)",
                                        {},
                                        allgatherv_neighbors});

void allgather_neighbors(Steps& s, Call c) {
  const std::vector<double> blocks(c.p, c.bytes);
  allgatherv_neighbor_exchange(s, c.rank, c.p, blocks.data());
}
MAPSIM_REGISTER(collective_registry(), {"allgather=ompi_neighborexchange",
                                        "p/2 steps with the two neighbours in turn (ring for odd p)",
                                        {},
                                        allgather_neighbors});

void allgather_choice(Steps& s, Call c) {
  constexpr const char *R = "rdb", *B = "bruck", *N = "ompi_neighborexchange", *G = "ring";
  static const std::vector<Band<const char*>> table = {
      {3, {{kAll, "pair"}}},  // two ranks (one rank has nothing to gather)
      {32, {{kAll, R}}},
      {64, {{1024, R}, {65536, N}, {kAll, G}}},
      {128, {{512, R}, {65536, N}, {kAll, G}}},
      {256, {{512, R}, {131072, N}, {524288, G}, {1048576, N}, {kAll, G}}},
      {512, {{32, R}, {128, B}, {1024, R}, {131072, N}, {524288, G}, {1048576, N}, {kAll, G}}},
      {1024, {{64, R}, {256, B}, {2048, R}, {kAll, N}}},
      {2048, {{4, R}, {8, B}, {16, R}, {32, B}, {256, R}, {512, B}, {4096, R}, {kAll, N}}},
      {4096, {{32, B}, {128, R}, {512, B}, {4096, R}, {kAll, N}}},
      {INT_MAX, {{2, R}, {8, B}, {16, R}, {512, B}, {4096, R}, {kAll, N}}}};
  run_collective(s, c, c.p == 1 ? R : decide(table, c.p, c.bytes));
}
MAPSIM_REGISTER(collective_registry(), {"allgather=ompi",
                                        "Open MPI's table: pair, rdb, bruck, ompi_neighborexchange or ring",
                                        {},
                                        allgather_choice});

// Open MPI's allgatherv, by the mean block.
void allgatherv_choice(Steps& s, Call c) {
  constexpr const char *G = "GB", *B = "ompi_bruck", *R = "mpich_ring", *N = "ompi_neighborexchange", *P = "pair";
  static const std::vector<Band<const char*>> table = {
      {3, {{2048, R}, {4096, P}, {8192, R}, {kAll, P}}},
      {8, {{256, G}, {4096, N}, {8192, R}, {16384, N}, {262144, B}, {kAll, N}}},
      {16, {{1024, G}, {kAll, B}}},
      {32, {{128, G}, {262144, B}, {kAll, R}}},
      {64, {{256, G}, {8192, B}, {kAll, R}}},
      {128, {{256, G}, {4096, B}, {kAll, R}}},
      {256, {{1024, B}, {65536, N}, {kAll, R}}},
      {512, {{1024, B}, {kAll, R}}},
      {1024, {{512, B}, {1024, G}, {4096, B}, {1048576, N}, {kAll, R}}},
      {INT_MAX, {{4096, B}, {kAll, N}}}};
  run_collective(s, c, decide(table, c.p, std::floor(total_bytes(c) / c.p)));
}
MAPSIM_REGISTER(collective_registry(),
                {"allgatherv=ompi",
                 "Open MPI's table by the mean block: GB, ompi_bruck, mpich_ring, ompi_neighborexchange or pair",
                 {},
                 allgatherv_choice});

}  // namespace

// Open MPI's trees.
namespace {

int power(int base, int exponent) {
  int value = 1;
  for (int i = 0; i < exponent; ++i) value *= base;
  return value;
}

}  // namespace

// ompi_coll_tuned_topo_build_tree: a `fanout`-ary tree filled level by level, children of a rank on
// level l at rank + fanout^l * (1 .. fanout).
TreeNode kary_tree(int fanout, int rank, int root, int p) {
  TreeNode node;
  if (p < 2) return node;
  const int shifted = relative(rank, root, p);
  int level = 0;
  for (int seen = 0; seen <= shifted; ++level) seen += power(fanout, level);
  --level;
  const int delta = power(fanout, level);
  for (int i = 0; i < fanout && shifted + delta * (i + 1) < p; ++i) node.children.push_back(absolute(shifted + delta * (i + 1), root, p));
  const int above = (power(fanout, level) - 1) / (fanout - 1);  // ranks on the levels above
  int parent = shifted;
  if (parent < fanout) parent = 0;
  else
    while (parent >= above) parent -= delta / fanout;
  if (rank != root) node.parent = absolute(parent, root, p);
  return node;
}

namespace {

// ompi_coll_tuned_topo_build_in_order_bintree: rooted at p - 1, its left subtree the ranks just below
// it, the right subtree the lowest ones.
TreeNode in_order_bintree(int rank, int p) {
  TreeNode node;
  int me = rank, size = p, parent = p - 1, delta = 0;
  while (true) {
    const int right_size = size >> 1;
    int left = -1, right = -1;
    if (size - 1 > 0) {
      left = parent - 1;
      if (left > 0) right = right_size - 1;
    }
    if (me == parent) {
      if (left >= 0) node.children.push_back(left + delta);
      if (right >= 0) node.children.push_back(right + delta);
      return node;
    }
    if (me > right) {
      if (me == left) node.parent = parent + delta;
      size -= right_size + 1, delta += right_size, me -= right_size, parent = size - 1;
    } else {
      if (me == right) node.parent = parent + delta;
      size = right_size, parent = right;
    }
  }
}

}  // namespace

// ompi_coll_tuned_topo_build_in_order_bmtree: the binomial tree, children nearest first.
TreeNode in_order_bmtree(int rank, int root, int p) {
  TreeNode node;
  const int vrank = relative(rank, root, p);
  for (int mask = 1; mask < p; mask <<= 1) {
    const int remote = vrank ^ mask;
    if (remote < vrank) {
      node.parent = absolute(remote, root, p);
      break;
    }
    if (remote < p) node.children.push_back(absolute(remote, root, p));
  }
  return node;
}

// ompi_coll_tuned_topo_build_chain: `fanout` chains hanging from the root, the first (p-1) % fanout
// of them one rank longer.
TreeNode chain(int fanout, int rank, int root, int p) {
  TreeNode node;
  fanout = std::clamp(fanout, 1, 32);
  if (p - 1 < fanout) fanout = p - 1;
  const int shifted = relative(rank, root, p);
  if (fanout <= 1) {
    if (shifted > 0) node.parent = absolute(shifted - 1, root, p);
    if (shifted + 1 < p) node.children.push_back(absolute(shifted + 1, root, p));
    return node;
  }
  int longest = (p - 1) / fanout, mark = fanout + 1;
  if ((p - 1) % fanout != 0) ++longest, mark = (p - 1) % fanout;
  if (shifted == 0) {
    int next = 1;
    for (int i = 0; i < fanout; ++i) {
      node.children.push_back(absolute(next, root, p));
      next += longest - (i + 1 > mark ? 1 : 0);
    }
    return node;
  }
  int head, length;
  if (shifted - 1 < mark * longest) {
    head = 1 + (shifted - 1) / longest * longest, length = longest;
  } else {
    const int column = mark + (shifted - 1 - mark * longest) / (longest - 1);
    head = mark * longest + 1 + (column - mark) * (longest - 1), length = longest - 1;
  }
  node.parent = absolute(shifted == head ? 0 : shifted - 1, root, p);
  if (shifted != head + length - 1 && shifted + 1 < p) node.children.push_back(absolute(shifted + 1, root, p));
  return node;
}

namespace {

// ompi_coll_tuned_reduce_generic: the data travels up `node`'s tree in segments of `segment`
// elements. An inner rank keeps one receive in flight: it posts the next (child by child, segment by
// segment), then waits for the one before; once a segment is in from every child it is passed up.
// Leaves send their segments one after the other.
void reduce_generic(Steps& s, const TreeNode& node, double count, double segment, int element) {
  if (node.parent < 0 && node.children.empty()) return;  // one rank: nothing to reduce
  const double segments = segment > 0 ? std::ceil(count / segment) : 0;
  if (node.children.empty()) {
    for (double left = count; left > 0; left -= segment) s.blocking_send(node.parent, std::min(left, segment) * element);
    return;
  }
  int in_flight[2] = {-1, -1}, slot = 0;
  double received = 0, previous = 0;
  for (double index = 0; index <= segments; ++index) {
    previous = received;
    received = index == segments - 1 ? count - segment * index : segment;
    for (size_t i = 0; i < node.children.size(); ++i) {
      if (index < segments) {
        s.recv_tracked(node.children[i], received * element);
        in_flight[slot] = node.children[i];
      }
      if (in_flight[slot ^ 1] >= 0) s.wait_for(in_flight[slot ^ 1]), in_flight[slot ^ 1] = -1;
      if (i == 0 && index > 0) {
        if (node.parent >= 0) s.blocking_send(node.parent, previous * element);
        if (index == segments) break;
      }
      slot ^= 1;
    }
  }
}

double whole_elements(Call c) { return std::floor(c.bytes / c.element); }

// Up `node`'s tree in whole elements, segments of about `segment_bytes` (0: none).
void reduce_segmented(Steps& s, Call c, const TreeNode& node, double segment_bytes) {
  const double count = whole_elements(c);
  reduce_generic(s, node, count, segment_count(segment_bytes, c.element, count), c.element);
}

// Every rank to the root, which takes p - 1 first, then p - 2 .. 0.
void reduce_basic_linear(Steps& s, Call c) {
  const double size = whole_elements(c) * c.element;
  if (c.rank != c.root) {
    s.blocking_send(c.root, size);
    return;
  }
  for (int i = c.p - 1; i >= 0; --i)
    if (i != c.rank) s.blocking_recv(i, size);
}
MAPSIM_REGISTER(collective_registry(), {"reduce=ompi_basic_linear",
                                        "every rank to the root, which takes p - 1 first, then p - 2 .. 0",
                                        {},
                                        reduce_basic_linear});

void reduce_chain(Steps& s, Call c) { reduce_segmented(s, c, chain(c.p / 2, c.rank, c.root, c.p), 65536); }
MAPSIM_REGISTER(collective_registry(), {"reduce=ompi_chain", "p/2 chains, 64 KiB segments", {}, reduce_chain});

// One chain; segments by Open MPI's fit of message size and ranks.
void reduce_pipeline(Steps& s, Call c) {
  const double size = whole_elements(c) * c.element;
  const double segment = c.p > 0.0410 / 1024 * size + 9.7128   ? 1024
                         : c.p > 0.0033 / 1024 * size + 1.6761 ? 32768
                                                               : 65536;
  reduce_segmented(s, c, chain(1, c.rank, c.root, c.p), segment);
}
MAPSIM_REGISTER(collective_registry(), {"reduce=ompi_pipeline",
                                        "one chain; segments by Open MPI's fit of message size and ranks",
                                        {},
                                        reduce_pipeline});

void reduce_binary(Steps& s, Call c) { reduce_segmented(s, c, kary_tree(2, c.rank, c.root, c.p), 32768); }
MAPSIM_REGISTER(collective_registry(), {"reduce=ompi_binary", "binary tree, 32 KiB segments", {}, reduce_binary});

// Binomial tree; 1 KiB segments only for many ranks and large messages.
void reduce_binomial(Steps& s, Call c) {
  const double count = whole_elements(c), size = count * c.element;
  const bool whole = (c.p < 8 && size < 20480) || size < 2048 || count <= 1;
  const double segment = !whole && c.p > 0.6016 / 1024 * size + 1.3496 ? 1024 : 0;
  reduce_segmented(s, c, in_order_bmtree(c.rank, c.root, c.p), segment);
}
MAPSIM_REGISTER(collective_registry(), {"reduce=ompi_binomial",
                                        "binomial tree; 1 KiB segments only for many ranks and large messages",
                                        {},
                                        reduce_binomial});

// In-order binary tree to p - 1, which hands the result to the root.
void reduce_in_order_binary(Steps& s, Call c) {
  const double count = whole_elements(c), size = count * c.element;
  reduce_generic(s, in_order_bintree(c.rank, c.p), count, count, c.element);
  if (c.root != c.p - 1 && c.rank == c.root) s.blocking_recv(c.p - 1, size);
  else if (c.root != c.p - 1 && c.rank == c.p - 1) s.blocking_send(c.root, size);
}
MAPSIM_REGISTER(collective_registry(), {"reduce=ompi_in_order_binary",
                                        "in-order binary tree to p - 1, which hands the result to the root",
                                        {},
                                        reduce_in_order_binary});

void reduce_choice(Steps& s, Call c) {
  constexpr const char *L = "ompi_basic_linear", *C = "ompi_chain", *P = "ompi_pipeline", *B = "ompi_binary",
                       *M = "ompi_binomial", *I = "ompi_in_order_binary";
  static const std::vector<Band<const char*>> table = {  // commutative operations (a trace's reductions)
      {4, {{8, L}, {16, B}, {32, P}, {262144, L}, {524288, P}, {1048576, C}, {kAll, P}}},
      {8, {{4096, B}, {65536, C}, {262144, M}, {524288, L}, {1048576, M}, {kAll, L}}},
      {16, {{8192, B}, {kAll, M}}},
      {32, {{4096, B}, {kAll, M}}},
      {256, {{kAll, M}}},
      {512, {{8192, M}, {16384, I}, {kAll, M}}},
      {2048, {{kAll, M}}},
      {4096, {{512, M}, {1024, I}, {8192, M}, {16384, I}, {kAll, M}}},
      {INT_MAX, {{16, M}, {32, I}, {1024, M}, {2048, I}, {8192, M}, {16384, I}, {kAll, M}}}};
  run_collective(s, c, decide(table, c.p, c.bytes));
}
MAPSIM_REGISTER(collective_registry(), {"reduce=ompi",
                                        "Open MPI's table (commutative operations): one of the ompi_* reduces",
                                        {},
                                        reduce_choice});

}  // namespace
}  // namespace mapsim::collectives
