// The bcasts of Open MPI's fixed decision beyond mapsim's binomial tree and MPICH's scatter-allgathers:
// Open MPI's segmented pipeline and split binary tree, SimGrid's pipelined chain and binary tree (NTSL,
// NTSB) and MVAPICH2's 4-nomial tree, message for message as SimGrid 3.32 runs them
// (src/smpi/colls/bcast/, the function named in each comment), and the table that picks among them.
#include <algorithm>
#include <climits>
#include <cmath>

#include "traces/internal/collective_steps.h"

namespace mapsim::collectives {
namespace {

// SimGrid's NTSL and NTSB: the root hands the message to rank 0, whence it flows down a tree of ranks
// (`parent` -1 at rank 0) in segments of 8 KiB, every receive posted at once; a message of one segment
// or less goes whole, and what does not fill a last segment is left to the caller.
double bcast_from_rank_zero(Steps& s, int rank, int root, int p, double bytes, int element, int parent,
                            const std::vector<int>& children) {
  if (p == 1) return 0;
  if (root != 0 && rank == root) s.blocking_send(0, bytes);
  else if (root != 0 && rank == 0) s.blocking_recv(root, bytes);
  const double count = std::floor(bytes / element), segment = std::max(1, 8192 / element);
  if (count <= segment) {
    if (parent >= 0) s.blocking_recv(parent, bytes);
    for (int child : children) s.blocking_send(child, bytes);
    return 0;
  }
  const double segments = std::floor(count / segment), segment_bytes = segment * element;
  if (parent < 0 || children.empty()) {  // rank 0 sends, a leaf receives, all at once
    for (double i = 0; i < segments; ++i) {
      if (parent >= 0) s.recv(parent, segment_bytes);
      for (int child : children) s.send(child, segment_bytes);
    }
  } else {  // an inner rank passes each segment on as it arrives
    for (double i = 0; i < segments; ++i) s.recv_tracked(parent, segment_bytes);
    for (double i = 0; i < segments; ++i) {
      s.wait_for(parent);
      for (int child : children) s.send(child, segment_bytes);
    }
  }
  s.wait();
  return (count - segments * segment) * element;
}

// ompi_coll_tuned_bcast_intra_generic: down `node`'s tree in segments of `per_segment` elements; an
// inner rank keeps the next receive posted while it forwards the one before.
void bcast_generic(Steps& s, const TreeNode& node, double count, double per_segment, int element) {
  const double segments = std::ceil(count / per_segment), last = count - (segments - 1) * per_segment;
  if (node.parent < 0) {
    for (double i = 0; i < segments; ++i) {
      for (int child : node.children) s.send(child, (i == segments - 1 ? last : per_segment) * element);
      s.wait();
    }
    return;
  }
  s.recv_tracked(node.parent, per_segment * element);
  for (double i = 1; i < segments; ++i) {
    s.recv_tracked(node.parent, per_segment * element);
    s.wait_for(node.parent);
    for (int child : node.children) s.send(child, per_segment * element);
    s.wait();
  }
  s.wait_for(node.parent);
  for (int child : node.children) s.send(child, last * element);
  s.wait();
}

// bcast__NTSL: a chain 0 -> 1 -> ... -> p - 1.
double bcast_ntsl(Steps& s, int rank, int root, int p, double bytes, int element) {
  const std::vector<int> next = rank + 1 < p ? std::vector<int>{rank + 1} : std::vector<int>{};
  return bcast_from_rank_zero(s, rank, root, p, bytes, element, rank - 1, next);
}

// bcast__NTSB: the binary heap, children 2r + 1 and 2r + 2.
double bcast_ntsb(Steps& s, int rank, int root, int p, double bytes, int element) {
  std::vector<int> children;
  for (int child = 2 * rank + 1; child <= 2 * rank + 2 && child < p; ++child) children.push_back(child);
  return bcast_from_rank_zero(s, rank, root, p, bytes, element, rank > 0 ? (rank - 1) / 2 : -1, children);
}

// bcast__ompi_pipeline: a chain from the root, segments of 128, 64 or 16 KiB by Open MPI's fit of
// message size and ranks.
void bcast_ompi_pipeline(Steps& s, int rank, int root, int p, double bytes, int element) {
  const double count = std::floor(bytes / element);
  if (p == 1 || count == 0) return;  // (SimGrid divides by the zero count)
  double segment = 131072;
  if (p < 1.6134e-6 * bytes + 2.1102) segment = 131072;
  else if (p < 2.3679e-6 * bytes + 1.1787) segment = 65536;
  else if (p < 3.2118e-6 * bytes + 8.7936) segment = 16384;
  bcast_generic(s, chain(1, rank, root, p), count, segment_count(segment, element, count), element);
}

// bcast__ompi_split_bintree: the root sends the two halves of the message down the two subtrees of a
// binary tree in 1 KiB segments (8 KiB from 362 KiB), then each rank swaps halves with its twin in
// the other subtree. Where a half is smaller than a segment SimGrid calls SMP_linear, which with one
// rank per node sends every message twice and leaves half unreceived; mapsim takes Open MPI's own
// fallback there, the segmented chain.
void bcast_ompi_split_bintree(Steps& s, int rank, int root, int p, double bytes, int element) {
  if (p == 1) return;
  const double count = std::floor(bytes / element);
  const double segment_bytes = std::max<double>(bytes < 370728 ? 1024 : 8192, element);
  const double half[2] = {std::ceil(count / 2), count - std::ceil(count / 2)};
  if (half[1] == 0 || segment_bytes > half[1] * element) {
    if (count > 0) bcast_generic(s, chain(1, rank, root, p), count, segment_count(segment_bytes, element, count), element);
    return;
  }
  const double segment = std::floor(segment_bytes / element);
  const double segments[2] = {std::ceil(half[0] / segment), std::ceil(half[1] / segment)};
  auto piece = [&](int side, double index) {  // elements in segment `index` of a half
    return (index == segments[side] - 1 ? half[side] - index * segment : segment) * element;
  };
  const TreeNode node = kary_tree(2, rank, root, p);
  const int shifted = relative(rank, root, p), side = (shifted + 1) % 2;  // 0: left subtree; the root is right
  if (rank == root) {
    for (double index = 0; index < segments[0]; ++index)
      for (int i = 0; i < 2 && i < static_cast<int>(node.children.size()); ++i)
        if (index < segments[i]) s.blocking_send(node.children[i], piece(i, index));
  } else if (!node.children.empty()) {
    s.recv_tracked(node.parent, segment * element);
    for (double index = 1; index < segments[side]; ++index) {
      s.recv_tracked(node.parent, piece(side, index));
      s.wait_for(node.parent);
      for (int child : node.children) s.blocking_send(child, segment * element);
    }
    s.wait_for(node.parent);
    for (int child : node.children) s.blocking_send(child, piece(side, segments[side] - 1));
  } else {
    for (double index = 0; index < segments[side]; ++index) s.blocking_recv(node.parent, piece(side, index));
  }
  const int twin = side == 0 ? (rank + 1) % p : (rank + p - 1) % p, last = (root + p - 1) % p;
  const double mine = half[side] * element, other = half[1 - side] * element;
  if (p % 2 != 0) {
    if (rank != root) s.exchange(twin, mine, twin, other);
  } else if (rank == root) {
    s.blocking_send(last, half[1] * element);
  } else if (rank == last) {
    s.blocking_recv(root, half[1] * element);
  } else {
    s.exchange(twin, mine, twin, other);
  }
}

// bcast__mvapich2_knomial_intra_node: a 4-nomial tree; a rank receives from its parent, then sends to
// up to three children per level, nearest level last.
void bcast_knomial(Steps& s, int rank, int root, int p, double bytes) {
  constexpr int k = 4;
  const int vrank = relative(rank, root, p);
  int mask = 1;
  for (; mask < p; mask *= k)
    if (vrank % (k * mask)) {
      s.blocking_recv(absolute(vrank / (k * mask) * (k * mask), root, p), bytes);
      break;
    }
  for (mask /= k; mask > 0; mask /= k) {
    for (int i = 1; i < k; ++i)
      if (vrank + mask * i < p) s.send((rank + mask * i) % p, bytes);
    s.wait();
  }
}

using Call = const CollectiveCall&;

// NTSL and NTSB leave what does not fill a last segment to the run's bcast, as SimGrid does.
void bcast_rest(Steps& s, Call c, double rest) {
  if (rest <= 0) return;
  CollectiveCall remainder = c;
  remainder.bytes = rest;
  run_collective(s, remainder);
}

MAPSIM_REGISTER(collective_registry(),
                {"bcast=NTSL",
                 "SimGrid's: via rank 0 down a chain in 8 KiB segments, the rest by the chosen bcast",
                 {},
                 [](Steps& s, Call c) { bcast_rest(s, c, bcast_ntsl(s, c.rank, c.root, c.p, c.bytes, c.element)); }});
MAPSIM_REGISTER(collective_registry(),
                {"bcast=NTSB",
                 "SimGrid's: via rank 0 down a binary heap in 8 KiB segments, the rest by the chosen bcast",
                 {},
                 [](Steps& s, Call c) { bcast_rest(s, c, bcast_ntsb(s, c.rank, c.root, c.p, c.bytes, c.element)); }});
MAPSIM_REGISTER(collective_registry(),
                {"bcast=ompi_pipeline",
                 "a chain from the root, segments by Open MPI's fit of message size and ranks",
                 {},
                 [](Steps& s, Call c) { bcast_ompi_pipeline(s, c.rank, c.root, c.p, c.bytes, c.element); }});
MAPSIM_REGISTER(collective_registry(),
                {"bcast=ompi_split_bintree",
                 "two halves down the two subtrees of a binary tree, then swapped between twins",
                 {},
                 [](Steps& s, Call c) { bcast_ompi_split_bintree(s, c.rank, c.root, c.p, c.bytes, c.element); }});
MAPSIM_REGISTER(collective_registry(),
                {"bcast=mvapich2_knomial_intra_node", "MVAPICH2's 4-nomial tree", {}, [](Steps& s, Call c) {
                   bcast_knomial(s, c.rank, c.root, c.p, c.bytes);
                 }});
void bcast_choice(Steps& s, Call c) {
  constexpr const char *L = "NTSL", *P = "ompi_pipeline", *S = "ompi_split_bintree", *T = "NTSB", *M = "mapsim",
                       *K = "mvapich2_knomial_intra_node", *R = "scatter_rdb_allgather";
  static const std::vector<Band<const char*>> table = {
      {4, {{32, P}, {256, T}, {512, P}, {1024, K}, {32768, L}, {131072, T}, {262144, P}, {524288, L}, {1048576, M}, {kAll, T}}},
      {8, {{64, T}, {128, M}, {2048, T}, {8192, M}, {1048576, L}, {kAll, P}}},
      {16, {{8, K}, {64, T}, {4096, K}, {16384, T}, {32768, M}, {kAll, L}}},
      {32, {{4096, K}, {1048576, M}, {kAll, R}}},
      {64, {{2048, M}, {kAll, K}}},
      {128, {{kAll, K}}},
      {256, {{2, M}, {16384, T}, {32768, L}, {65536, T}, {kAll, K}}},
      {1024, {{16384, K}, {32768, S}, {kAll, K}}},
      {2048, {{524288, K}, {kAll, R}}},
      {4096, {{262144, K}, {kAll, R}}},
      {INT_MAX, {{8192, K}, {16384, T}, {262144, K}, {kAll, R}}}};
  run_collective(s, c, decide(table, c.p, c.bytes));
}
MAPSIM_REGISTER(collective_registry(),
                {"bcast=ompi",
                 "Open MPI's table: binomial_tree, NTSL, NTSB, ompi_pipeline, ompi_split_bintree, knomial or "
                 "scatter_rdb_allgather",
                 {},
                 bcast_choice});

}  // namespace
}  // namespace mapsim::collectives
