// Open MPI's algorithms for barrier, gather, scatter, allgather(v) and reduce that mapsim's defaults
// lack, its trees, and the tables by which Open MPI's fixed decision picks among them (alltoall's too),
// message for message as SimGrid 3.32 runs them (src/smpi/colls/, the function named in each comment;
// smpi_openmpi_selector.cpp).
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

// Open MPI's alltoall: basic_linear, pairwise (SimGrid's pair) or modified Bruck.
AlltoallAlgorithm ompi_alltoall_choice(int p, double block) {
  using A = AlltoallAlgorithm;
  constexpr A L = A::BasicLinear, P = A::Pair, B = A::Bruck;
  static const std::vector<Band<A>> table = {
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
  return decide(table, p, block);
}

BarrierAlgorithm ompi_barrier_choice(int p) {
  using B = BarrierAlgorithm;
  if (p < 4) return B::OmpiRecursiveDoubling;
  if (p < 8) return B::OmpiBasicLinear;
  if (p < 64) return B::OmpiRecursiveDoubling;
  if (p < 256 || (p >= 512 && p < 1024) || p >= 4096) return B::Mapsim;  // ompi_bruck
  return B::OmpiTree;
}

void barrier(Steps& s, BarrierAlgorithm algorithm, int rank, int p) {
  switch (algorithm) {
    case BarrierAlgorithm::Ompi: return barrier(s, ompi_barrier_choice(p), rank, p);
    case BarrierAlgorithm::Mapsim:  // barrier__ompi_bruck: dissemination
      for (int distance = 1; distance < p; distance <<= 1) s.exchange((rank + distance) % p, 0, (rank - distance + p) % p, 0);
      break;
    case BarrierAlgorithm::OmpiBasicLinear:  // everyone to rank 0, then rank 0 to everyone
      if (rank > 0) {
        s.blocking_send(0, 0);
        s.blocking_recv(0, 0);
        break;
      }
      for (int i = 1; i < p; ++i) s.recv(i, 0);
      s.wait();
      for (int i = 1; i < p; ++i) s.send(i, 0);
      s.wait();
      break;
    case BarrierAlgorithm::OmpiRecursiveDoubling: {  // ranks past the largest power of two pair with those below
      const int pof2 = lower_power_of_two(p), extra = p - pof2;
      if (rank >= pof2) s.exchange(rank - pof2, 0, rank - pof2, 0);
      else if (rank < extra) s.blocking_recv(rank + pof2, 0);
      if (rank < pof2)
        for (int mask = 1; mask < pof2; mask <<= 1) s.exchange(rank ^ mask, 0, rank ^ mask, 0);
      if (rank < extra) s.blocking_send(rank + pof2, 0);
      break;
    }
    case BarrierAlgorithm::OmpiTree: {  // fan in along a binomial tree to rank 0, fan out back
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
      break;
    }
  }
}

GatherAlgorithm ompi_gather_choice(int p, double block) {
  using G = GatherAlgorithm;
  constexpr G M = G::Mapsim, L = G::OmpiBasicLinear, S = G::OmpiLinearSync;  // Mapsim: ompi_binomial
  static const std::vector<Band<G>> table = {
      {4, {{2, S}, {4, L}, {32768, M}, {65536, L}, {131072, M}, {kAll, S}}},
      {8, {{1024, M}, {8192, L}, {32768, M}, {262144, L}, {kAll, S}}},
      {256, {{kAll, M}}},
      {512, {{2048, M}, {8192, L}, {kAll, M}}},
      {INT_MAX, {{kAll, M}}}};
  return decide(table, p, block);
}

ScatterAlgorithm ompi_scatter_choice(int p, double block) {
  using S = ScatterAlgorithm;
  constexpr S M = S::OmpiBinomial, L = S::OmpiBasicLinear, N = S::OmpiLinearNb;
  static const std::vector<Band<S>> table = {
      {4, {{2, N}, {131072, L}, {262144, N}, {kAll, L}}},
      {8, {{2048, M}, {4096, L}, {8192, M}, {32768, L}, {1048576, N}, {kAll, L}}},
      {16, {{16384, M}, {1048576, N}, {kAll, L}}},
      {32, {{16384, M}, {32768, L}, {kAll, N}}},
      {64, {{512, M}, {8192, N}, {16384, M}, {kAll, N}}},
      {INT_MAX, {{512, M}, {kAll, N}}}};
  return decide(table, p, block);
}

// gather__ompi_basic_linear and gather__ompi_linear_sync (binomial is mapsim's own gather). In the
// synchronous one the root calls each rank in turn with an empty message, and each sends its block in
// two parts, the first of 1 KiB (32 KiB for blocks above 90 KiB), which the root waits for before the
// next call.
void gather_ompi(Steps& s, GatherAlgorithm algorithm, int rank, int root, int p, double block, int element) {
  if (algorithm == GatherAlgorithm::OmpiBasicLinear) {
    if (rank != root) s.blocking_send(root, block);
    else
      for (int i = 0; i < p; ++i)
        if (i != rank) s.blocking_recv(i, block);
    return;
  }
  const double count = std::floor(block / element);
  const double first = segment_count(block > 92160 ? 32768 : 1024, element, count) * element;
  if (rank != root) {
    s.blocking_recv(root, 0);
    s.blocking_send(root, first);
    s.blocking_send(root, block - first);
    return;
  }
  for (int i = 0; i < p; ++i) {
    if (i == rank) continue;
    s.recv_tracked(i, first);
    s.send(i, 0);  // eager: done at once, as SMPI's blocking send of it
    s.recv(i, block - first);
    s.wait_for(i);
  }
  s.wait();
}

// scatter__ompi_binomial (the binomial tree, each rank serving its nearest, smallest subtree first),
// scatter__ompi_basic_linear (a blocking send to each rank in turn) and scatter__ompi_linear_nb (all
// sends at once, one wait).
void scatter_ompi(Steps& s, ScatterAlgorithm algorithm, int rank, int root, int p, double block) {
  if (algorithm == ScatterAlgorithm::OmpiBinomial) {
    const TreeNode node = in_order_bmtree(rank, root, p);
    const int vrank = relative(rank, root, p);
    if (node.parent >= 0) s.blocking_recv(node.parent, block * std::min(vrank & -vrank, p - vrank));
    for (int child : node.children) {
      const int vchild = relative(child, root, p);
      s.blocking_send(child, block * std::min(vchild - vrank, p - vchild));
    }
    return;
  }
  if (rank != root) {
    s.blocking_recv(root, block);
    return;
  }
  const bool nonblocking = algorithm == ScatterAlgorithm::OmpiLinearNb;
  for (int i = 0; i < p; ++i)
    if (i != rank) {
      s.send(i, block);
      if (!nonblocking) s.wait();
    }
  if (nonblocking) s.wait();
}

AllgatherAlgorithm ompi_allgather_choice(int p, double block) {
  using A = AllgatherAlgorithm;
  constexpr A R = A::Rdb, B = A::Bruck, N = A::OmpiNeighborExchange, G = A::Ring;
  static const std::vector<Band<A>> table = {
      {3, {{kAll, A::Pair}}},  // two ranks (one rank has nothing to gather)
      {32, {{kAll, R}}},
      {64, {{1024, R}, {65536, N}, {kAll, G}}},
      {128, {{512, R}, {65536, N}, {kAll, G}}},
      {256, {{512, R}, {131072, N}, {524288, G}, {1048576, N}, {kAll, G}}},
      {512, {{32, R}, {128, B}, {1024, R}, {131072, N}, {524288, G}, {1048576, N}, {kAll, G}}},
      {1024, {{64, R}, {256, B}, {2048, R}, {kAll, N}}},
      {2048, {{4, R}, {8, B}, {16, R}, {32, B}, {256, R}, {512, B}, {4096, R}, {kAll, N}}},
      {4096, {{32, B}, {128, R}, {512, B}, {4096, R}, {kAll, N}}},
      {INT_MAX, {{2, R}, {8, B}, {16, R}, {512, B}, {4096, R}, {kAll, N}}}};
  return p == 1 ? R : decide(table, p, block);
}

// Open MPI's allgatherv, by the mean block.
AllgathervAlgorithm ompi_allgatherv_choice(int p, double total) {
  using A = AllgathervAlgorithm;
  constexpr A G = A::Gb, B = A::OmpiBruck, R = A::MpichRing, N = A::OmpiNeighborExchange, P = A::Pair;
  static const std::vector<Band<A>> table = {
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
  return decide(table, p, std::floor(total / p));
}

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

}  // namespace

ReduceAlgorithm ompi_reduce_choice(int p, double bytes) {
  using R = ReduceAlgorithm;
  constexpr R L = R::OmpiBasicLinear, C = R::OmpiChain, P = R::OmpiPipeline, B = R::OmpiBinary, M = R::OmpiBinomial,
              I = R::OmpiInOrderBinary;
  static const std::vector<Band<R>> table = {  // commutative operations (a trace's reductions)
      {4, {{8, L}, {16, B}, {32, P}, {262144, L}, {524288, P}, {1048576, C}, {kAll, P}}},
      {8, {{4096, B}, {65536, C}, {262144, M}, {524288, L}, {1048576, M}, {kAll, L}}},
      {16, {{8192, B}, {kAll, M}}},
      {32, {{4096, B}, {kAll, M}}},
      {256, {{kAll, M}}},
      {512, {{8192, M}, {16384, I}, {kAll, M}}},
      {2048, {{kAll, M}}},
      {4096, {{512, M}, {1024, I}, {8192, M}, {16384, I}, {kAll, M}}},
      {INT_MAX, {{16, M}, {32, I}, {1024, M}, {2048, I}, {8192, M}, {16384, I}, {kAll, M}}}};
  return decide(table, p, bytes);
}

void reduce_ompi(Steps& s, ReduceAlgorithm algorithm, int rank, int root, int p, double bytes, int element) {
  if (p == 1) return;
  const double count = std::floor(bytes / element), size = count * element;
  auto segmented = [&](double segment_bytes) { return segment_count(segment_bytes, element, count); };
  switch (algorithm) {
    case ReduceAlgorithm::OmpiBasicLinear:  // every rank to the root, which takes p - 1 first, then p - 2 .. 0
      if (rank != root) {
        s.blocking_send(root, size);
        return;
      }
      for (int i = p - 1; i >= 0; --i)
        if (i != rank) s.blocking_recv(i, size);
      return;
    case ReduceAlgorithm::OmpiChain:  // p/2 chains, 64 KiB segments
      return reduce_generic(s, chain(p / 2, rank, root, p), count, segmented(65536), element);
    case ReduceAlgorithm::OmpiPipeline: {  // one chain; segments by Open MPI's fit of message size and ranks
      const double segment = p > 0.0410 / 1024 * size + 9.7128 ? 1024 : p > 0.0033 / 1024 * size + 1.6761 ? 32768 : 65536;
      return reduce_generic(s, chain(1, rank, root, p), count, segmented(segment), element);
    }
    case ReduceAlgorithm::OmpiBinary:  // binary tree, 32 KiB segments
      return reduce_generic(s, kary_tree(2, rank, root, p), count, segmented(32768), element);
    case ReduceAlgorithm::OmpiBinomial: {  // binomial tree; 1 KiB segments only for many ranks and large messages
      const bool whole = (p < 8 && size < 20480) || size < 2048 || count <= 1;
      const double segment = !whole && p > 0.6016 / 1024 * size + 1.3496 ? 1024 : 0;
      return reduce_generic(s, in_order_bmtree(rank, root, p), count, segmented(segment), element);
    }
    case ReduceAlgorithm::OmpiInOrderBinary: {  // in-order binary tree to p - 1, which hands the result to the root
      reduce_generic(s, in_order_bintree(rank, p), count, count, element);
      if (root != p - 1 && rank == root) s.blocking_recv(p - 1, size);
      else if (root != p - 1 && rank == p - 1) s.blocking_send(root, size);
      return;
    }
    default: return;  // not one of Open MPI's (the caller's)
  }
}

}  // namespace mapsim::collectives
