// The algorithms MPICH's size-based selection uses beyond mapsim's defaults, message for message as
// SimGrid 3.32 runs them (src/smpi/colls/, the function named in each comment), and that selection
// (COLLECTIVE=mpich: SimGrid's `mpich` selector for one rank per node), all registered at the end.
#include <algorithm>
#include <cmath>
#include <utility>

#include "traces/internal/collective_steps.h"

namespace mapsim::collectives {
namespace {

// What one rank does in one step of a recursive-doubling allgather.
struct Transfer {
  enum Kind : unsigned char { Exchange, Send, Recv } kind;
  int peer;        // relative rank
  double bytes;    // sent (Exchange, Send) or received (Recv)
  double received;  // Exchange
};
using Schedule = std::vector<std::vector<Transfer>>;  // per relative rank

// MPICH's recursive-doubling allgather (allgather__rdb, allgatherv__mpich_rdb and the allgather of
// bcast__scatter_rdb_allgather): at distance 2^i every rank exchanges all it holds with rank ^ 2^i;
// where that partner does not exist (p not a power of two), the ranks of the subtree that had one
// pass what they last received on, by recursive halving. `held()[v]`: what rank v starts with. What a
// rank sends depends on what others sent before, so every rank is followed; the last schedules are
// kept by `key` (the blocks, or a short tag for uniform ones), as each of the p ranks expands the same
// collective in turn.
template <class Held>
const Schedule& recursive_doubling_schedule(const std::vector<double>& key, const Held& held_of) {
  thread_local std::vector<std::pair<std::vector<double>, Schedule>> recent;  // most recent last
  for (size_t i = recent.size(); i-- > 0;)
    if (recent[i].first == key) {
      std::rotate(recent.begin() + static_cast<long>(i), recent.begin() + static_cast<long>(i) + 1, recent.end());
      return recent.back().second;
    }
  const std::vector<double> held = held_of();
  const int p = static_cast<int>(held.size());
  Schedule plan(p);
  std::vector<double> has = held, last(p, 0);
  for (int mask = 1, bits = 0; mask < p; mask <<= 1, ++bits) {
    const std::vector<double> before = has;
    for (int r = 0; r < p; ++r)
      if (const int dst = r ^ mask; dst < p) {
        plan[r].push_back({Transfer::Exchange, dst, before[r], before[dst]});
        last[r] = before[dst];
        has[r] += last[r];
      }
    for (int half = mask >> 1, k = bits; half > 0; half >>= 1, --k) {
      const std::vector<double> sending = last;
      for (int r = 0; r < p; ++r) {
        const int my_root = r >> bits << bits;
        if ((my_root ^ mask) + mask <= p) continue;  // every rank of this subtree had a partner
        const int completed = p - my_root - mask, dst = r ^ half, tree_root = r >> k << k;
        if (dst > r && r < tree_root + completed && dst >= tree_root + completed) {
          plan[r].push_back({Transfer::Send, dst, sending[r], 0});
        } else if (dst < r && dst < tree_root + completed && r >= tree_root + completed) {
          plan[r].push_back({Transfer::Recv, dst, sending[dst], 0});
          last[r] = sending[dst];
          has[r] += last[r];
        }
      }
    }
  }
  if (recent.size() == 4) recent.erase(recent.begin());
  recent.emplace_back(key, std::move(plan));
  return recent.back().second;
}

template <class Held>
void recursive_doubling(Steps& s, int rank, int root, int p, const std::vector<double>& key, const Held& held_of) {
  for (const Transfer& t : recursive_doubling_schedule(key, held_of)[relative(rank, root, p)]) {
    const int peer = absolute(t.peer, root, p);
    if (t.kind == Transfer::Exchange) s.exchange(peer, t.bytes, peer, t.received);
    else if (t.kind == Transfer::Send) s.blocking_send(peer, t.bytes);
    else s.blocking_recv(peer, t.bytes);
  }
}

// The binomial scatter that starts MPICH's long bcasts (scatter_for_bcast): relative rank v gets
// bytes [v * piece, (v + 1) * piece) and forwards its subtree's; ranks past the end get nothing.
void scatter_for_bcast(Steps& s, int rank, int root, int p, double bytes, double piece) {
  const int vr = relative(rank, root, p);
  double have = vr == 0 ? bytes : 0;
  int mask = 1;
  for (; mask < p; mask <<= 1)
    if (vr & mask) {
      if (const double expected = bytes - vr * piece; expected > 0) {
        have = std::min(expected, mask * piece);  // what the parent sends: this subtree's part
        s.blocking_recv(absolute(vr - mask, root, p), expected);
      }
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < p)
      if (const double forward = have - piece * mask; forward > 0) {
        s.blocking_send(absolute(vr + mask, root, p), forward);
        have -= forward;
      }
}

double ceiling_piece(double bytes, int p) { return std::floor((bytes + p - 1) / p); }
double piece_of(int vrank, double bytes, double piece) { return std::clamp(bytes - vrank * piece, 0.0, piece); }

// The element counts of the pof2 blocks of Rabenseifner's algorithms: equal, the last takes the rest.
std::vector<double> block_counts(double count, int pof2) {
  std::vector<double> counts(pof2, std::floor(count / pof2));
  counts.back() = count - counts[0] * (pof2 - 1);
  return counts;
}

double sum(const std::vector<double>& counts, int from, int to) {
  double total = 0;
  for (int i = from; i < to; ++i) total += counts[i];
  return total;
}

// Recursive halving (the reduce-scatter of Rabenseifner's algorithms): returns the block range
// [send_idx, last_idx) each new rank holds at the end.
std::pair<int, int> recursive_halving(Steps& s, int newrank, int pof2, int rem, bool odd_stays,
                                      const std::vector<double>& counts, int element) {
  int send_idx = 0, recv_idx = 0, last_idx = pof2;
  for (int mask = 1; mask < pof2;) {
    const int newdst = newrank ^ mask, dst = real_rank(newdst, rem, odd_stays);
    double sent, got;
    if (newrank < newdst) {
      send_idx = recv_idx + pof2 / (mask * 2);
      sent = sum(counts, send_idx, last_idx), got = sum(counts, recv_idx, send_idx);
    } else {
      recv_idx = send_idx + pof2 / (mask * 2);
      sent = sum(counts, send_idx, recv_idx), got = sum(counts, recv_idx, last_idx);
    }
    s.exchange(dst, sent * element, dst, got * element);
    send_idx = recv_idx;
    mask <<= 1;
    if (mask < pof2) last_idx = recv_idx + pof2 / mask;
  }
  return {send_idx, last_idx};
}

// One step at distance `mask` of the doubling half of Rabenseifner's algorithms (the allgather, or
// the gather to the root), which walks the halving's blocks back: what is sent and received, and
// where the received blocks start; widens [send_idx, last_idx) on the lower rank's side.
struct Doubling {
  int recv_idx;
  double sent, got;
};
Doubling doubling_step(int newrank, int newdst, int mask, int pof2, const std::vector<double>& counts, int send_idx,
                       int& last_idx) {
  const int half = pof2 / (mask * 2);
  if (newrank < newdst) {
    if (mask != pof2 / 2) last_idx += half;
    return {send_idx + half, sum(counts, send_idx, send_idx + half), sum(counts, send_idx + half, last_idx)};
  }
  return {send_idx - half, sum(counts, send_idx, last_idx), sum(counts, send_idx - half, send_idx)};
}

// bcast__scatter_rdb_allgather: binomial scatter of p pieces, then recursive-doubling allgather.
void bcast_scatter_rdb_allgather(Steps& s, int rank, int root, int p, double bytes) {
  if (p == 1 || bytes <= 0) return;
  const double piece = ceiling_piece(bytes, p);
  scatter_for_bcast(s, rank, root, p, bytes, piece);
  recursive_doubling(s, rank, root, p, {-1.0, double(p), bytes}, [&] {  // (a block is never negative)
    std::vector<double> held(p);
    for (int v = 0; v < p; ++v) held[v] = piece_of(v, bytes, piece);
    return held;
  });
}

// bcast__scatter_LR_allgather: binomial scatter, then a ring allgather of the pieces (empty ones too).
void bcast_scatter_lr_allgather(Steps& s, int rank, int root, int p, double bytes) {
  const double piece = ceiling_piece(bytes, p);
  scatter_for_bcast(s, rank, root, p, bytes, piece);
  const int left = (rank + p - 1) % p, right = (rank + 1) % p;
  for (int i = 1, src = rank; i < p; ++i, src = (src + p - 1) % p) {
    const int next = (src + p - 1) % p;
    s.exchange(right, piece_of(relative(src, root, p), bytes, piece), left, piece_of(relative(next, root, p), bytes, piece));
  }
}

// allreduce__rab_rdb: Rabenseifner's allreduce. Even ranks below 2 * rem hand their data to the next
// odd rank; the other pof2 ranks reduce-scatter by recursive halving and allgather by recursive
// doubling; the odd ranks hand the result back.
void allreduce_rabenseifner(Steps& s, int rank, int p, double bytes, int element) {
  const double count = std::floor(bytes / element);
  const int pof2 = lower_power_of_two(p), rem = p - pof2;
  if (const int newrank = fold_to_power_of_two(s, rank, p, bytes); newrank != -1) {
    const std::vector<double> counts = block_counts(count, pof2);
    auto [send_idx, last_idx] = recursive_halving(s, newrank, pof2, rem, true, counts, element);
    for (int mask = pof2 / 2; mask > 0; mask >>= 1) {
      const int newdst = newrank ^ mask, dst = real_rank(newdst, rem, true);
      const Doubling step = doubling_step(newrank, newdst, mask, pof2, counts, send_idx, last_idx);
      s.exchange(dst, step.sent * element, dst, step.got * element);
      if (newrank > newdst) send_idx = step.recv_idx;
    }
  }
  unfold_from_power_of_two(s, rank, p, bytes);
}

// reduce__scatter_gather: Rabenseifner's reduce (odd ranks below 2 * rem hand over to the previous
// even one), the reduce-scatter by recursive halving, then a binomial gather of the blocks to the
// root. Fewer elements than ranks are padded to p.
void reduce_scatter_gather(Steps& s, int rank, int root, int p, double bytes, int element) {
  double count = std::floor(bytes / element);
  if (count <= 0) return;
  count = std::max(count, static_cast<double>(p));
  const int pof2 = lower_power_of_two(p), rem = p - pof2;
  int newrank = fold_to_power_of_two(s, rank, p, count * element, true);
  const std::vector<double> counts = block_counts(count, pof2);
  int send_idx = 0, last_idx = 0;
  if (newrank != -1) std::tie(send_idx, last_idx) = recursive_halving(s, newrank, pof2, rem, false, counts, element);

  int newroot = root - rem;
  const bool odd_root = root < 2 * rem && root % 2 != 0;  // handed over: new rank 0 passes its block
  if (root < 2 * rem) newroot = odd_root ? 0 : root / 2;
  if (odd_root) {
    if (rank == root) {
      s.blocking_recv(0, counts[0] * element);
      newrank = 0, send_idx = 0, last_idx = 2;
    } else if (newrank == 0) {
      s.blocking_send(root, counts[0] * element);
      newrank = -1;
    }
  }
  if (newrank == -1) return;
  int bits = 0;
  while ((1 << bits) < pof2) ++bits;
  for (int mask = pof2 / 2, j = bits - 1; mask > 0; mask >>= 1, --j) {
    const int newdst = newrank ^ mask;
    const int dst = newdst == 0 && odd_root ? root : real_rank(newdst, rem, false);
    const Doubling step = doubling_step(newrank, newdst, mask, pof2, counts, send_idx, last_idx);
    if ((newdst >> j) == (newroot >> j)) {  // the partner is on the root's side: hand over, done
      s.blocking_send(dst, step.sent * element);
      break;
    }
    s.blocking_recv(dst, step.got * element);
    if (newrank > newdst) send_idx = step.recv_idx;
  }
}

// alltoall__mvapich2_scatter_dest: irecvs from rank + i and isends to rank - i (itself included),
// 4 of each at a time, a wait per batch.
void alltoall_scatter_dest(Steps& s, int rank, int p, double block, double received) {
  if (received <= 0) return;
  for (int first = 0; first < p; first += 4) {
    const int batch = std::min(4, p - first);
    for (int i = 0; i < batch; ++i) s.recv((rank + i + first) % p, received);
    for (int i = 0; i < batch; ++i) s.send((rank - i - first + 2 * p) % p, block);
    s.wait();
  }
}

void allgather_recursive_doubling(Steps& s, int rank, int p, double block) {
  recursive_doubling(s, rank, 0, p, {-2.0, double(p), block}, [&] { return std::vector<double>(p, block); });
}

// allgather__bruck: at distance 2^k, everything gathered so far to rank - 2^k, from rank + 2^k;
// a last step with the remaining blocks.
void allgather_bruck(Steps& s, int rank, int p, double block) {
  int pof2 = 1;
  double blocks = 1;
  for (; pof2 <= p / 2; pof2 *= 2, blocks *= 2) s.exchange((rank - pof2 + p) % p, blocks * block, (rank + pof2) % p, blocks * block);
  if (const int remainder = p - pof2; remainder > 0)
    s.exchange((rank - pof2 + p) % p, remainder * block, (rank + pof2) % p, remainder * block);
}

void allgatherv_recursive_doubling(Steps& s, int rank, int p, const double* counts) {
  const std::vector<double> held(counts, counts + p);
  if (sum(held, 0, p) > 0) recursive_doubling(s, rank, 0, p, held, [&] { return held; });
}

// allgatherv__ompi_bruck: at distance d = 2^k, the blocks of ranks rank .. rank + d - 1 (fewer at
// the last step) to rank - d, those of rank + d .. from rank + d.
void allgatherv_ompi_bruck(Steps& s, int rank, int p, const double* counts) {
  for (int distance = 1; distance < p; distance <<= 1) {
    const int from = (rank + distance) % p, blocks = distance <= p / 2 ? distance : p - distance;
    double sent = 0, got = 0;
    for (int i = 0; i < blocks; ++i) sent += counts[(rank + i) % p], got += counts[(from + i) % p];
    s.exchange((rank - distance + p) % p, sent, from, got);
  }
}

// reduce_scatter__mpich_rdb: recursive doubling; at distance 2^i a rank sends all blocks but its
// subtree's, and receives all but its partner's; without a partner (p not a power of two) the
// subtree's ranks that had one pass that on.
void reduce_scatter_recursive_doubling(Steps& s, int rank, int p, const double* counts) {
  const std::vector<double> blocks(counts, counts + p);
  const double total = sum(blocks, 0, p);
  auto all_but = [&](int tree_root, int mask) { return total - sum(blocks, std::min(tree_root, p), std::min(tree_root + mask, p)); };
  for (int mask = 1, bits = 0; mask < p; mask <<= 1, ++bits) {
    const int dst = rank ^ mask, my_root = rank >> bits << bits, dst_root = dst >> bits << bits;
    const double received = all_but(dst_root, mask);
    if (dst < p) s.exchange(dst, all_but(my_root, mask), dst, received);
    if (dst_root + mask <= p) continue;
    const int completed = p - my_root - mask;
    for (int half = mask >> 1, k = bits; half > 0; half >>= 1, --k) {
      const int peer = rank ^ half, tree_root = rank >> k << k;
      if (peer > rank && rank < tree_root + completed && peer >= tree_root + completed) s.blocking_send(peer, received);
      else if (peer < rank && peer < tree_root + completed && rank >= tree_root + completed) s.blocking_recv(peer, received);
    }
  }
}

using Call = const CollectiveCall&;

MAPSIM_REGISTER(collective_registry(),
                {"bcast=scatter_rdb_allgather",
                 "binomial scatter of p pieces, recursive-doubling allgather",
                 {},
                 [](Steps& s, Call c) { bcast_scatter_rdb_allgather(s, c.rank, c.root, c.p, c.bytes); }});
MAPSIM_REGISTER(collective_registry(),
                {"bcast=scatter_LR_allgather",
                 "binomial scatter of p pieces, ring allgather",
                 {},
                 [](Steps& s, Call c) { bcast_scatter_lr_allgather(s, c.rank, c.root, c.p, c.bytes); }});
MAPSIM_REGISTER(collective_registry(),
                {"reduce=scatter_gather",
                 "Rabenseifner's: reduce-scatter by recursive halving, binomial gather to the root",
                 {},
                 [](Steps& s, Call c) { reduce_scatter_gather(s, c.rank, c.root, c.p, c.bytes, c.element); }});
MAPSIM_REGISTER(collective_registry(),
                {"allreduce=rab_rdb",
                 "Rabenseifner's: reduce-scatter by recursive halving, allgather by recursive doubling",
                 {},
                 [](Steps& s, Call c) { allreduce_rabenseifner(s, c.rank, c.p, c.bytes, c.element); }});
MAPSIM_REGISTER(collective_registry(),
                {"alltoall=mvapich2_scatter_dest",
                 "irecvs from rank + i, isends to rank - i, 4 of each at a time",
                 {},
                 [](Steps& s, Call c) { alltoall_scatter_dest(s, c.rank, c.p, c.bytes, c.received); }});
MAPSIM_REGISTER(collective_registry(),
                {"allgather=rdb",
                 "recursive doubling, non-powers of two by recursive halving",
                 {},
                 [](Steps& s, Call c) { allgather_recursive_doubling(s, c.rank, c.p, c.received); }});
MAPSIM_REGISTER(collective_registry(), {"allgather=bruck",
                                        "Bruck: at distance 2^k all gathered so far to rank - 2^k, from rank + 2^k",
                                        {},
                                        [](Steps& s, Call c) { allgather_bruck(s, c.rank, c.p, c.received); }});
MAPSIM_REGISTER(collective_registry(),
                {"allgatherv=mpich_rdb",
                 "recursive doubling, non-powers of two by recursive halving",
                 {},
                 [](Steps& s, Call c) { allgatherv_recursive_doubling(s, c.rank, c.p, c.counts); }});
MAPSIM_REGISTER(collective_registry(), {"allgatherv=ompi_bruck",
                                        "Bruck: at distance 2^k the blocks of rank .. rank + 2^k - 1 to rank - 2^k",
                                        {},
                                        [](Steps& s, Call c) { allgatherv_ompi_bruck(s, c.rank, c.p, c.counts); }});
MAPSIM_REGISTER(collective_registry(),
                {"reduce_scatter=mpich_rdb",
                 "recursive doubling, all blocks but the subtree's at distance 2^i",
                 {},
                 [](Steps& s, Call c) { reduce_scatter_recursive_doubling(s, c.rank, c.p, c.counts); }});

// MPICH's choices by size and rank count. What an algorithm leaves over goes to the run's choice, as in SimGrid.
MAPSIM_REGISTER(collective_registry(),
                {"bcast=mpich",
                 "MPICH: binomial (short or <= 8 ranks), scatter_rdb_allgather, scatter_LR_allgather",
                 {},
                 [](Steps& s, Call c) {
                   run_collective(s, c,
                                  c.bytes < 12288 || c.p <= 8        ? "mapsim"
                                  : c.bytes < 524288 && c.p % 2 == 0 ? "scatter_rdb_allgather"
                                                                     : "scatter_LR_allgather");
                 }});
MAPSIM_REGISTER(collective_registry(),
                {"reduce=mpich", "MPICH: binomial (short), else scatter_gather", {}, [](Steps& s, Call c) {
                   const bool short_ = c.bytes / c.element < lower_power_of_two(c.p) || c.bytes < 2048;
                   run_collective(s, c, short_ ? "mapsim" : "scatter_gather");
                 }});
MAPSIM_REGISTER(collective_registry(),
                {"allreduce=mpich", "MPICH: rab_rdb above 2 KiB and p' elements, else rdb", {}, [](Steps& s, Call c) {
                   const bool long_ = c.bytes > 2048 && c.bytes / c.element >= lower_power_of_two(c.p);
                   run_collective(s, c, long_ ? "rab_rdb" : "mapsim");
                 }});
MAPSIM_REGISTER(collective_registry(),
                {"alltoall=mpich",
                 "MPICH: bruck for short blocks, mvapich2_scatter_dest for medium, pairwise for long",
                 {},
                 [](Steps& s, Call c) {
                   const char* chosen = power_of_two(c.p) ? "pair" : "ring";
                   if (c.bytes < 256 && c.p >= 8)
                     chosen = "bruck";
                   else if (c.bytes < 32768)
                     chosen = "mvapich2_scatter_dest";
                   run_collective(s, c, chosen);
                 }});
MAPSIM_REGISTER(collective_registry(),
                {"alltoallv=mpich", "MPICH: the scattered exchange (bruck)", {}, [](Steps& s, Call c) {
                   run_collective(s, c, "bruck");
                 }});
MAPSIM_REGISTER(
    collective_registry(),
    {"allgather=mpich", "MPICH: rdb (short, powers of two), bruck (short), else ring", {}, [](Steps& s, Call c) {
       const double all = c.bytes * c.p;
       run_collective(s, c, power_of_two(c.p) && all < 524288 ? "rdb" : all <= 81920 ? "bruck" : "ring");
     }});
MAPSIM_REGISTER(collective_registry(),
                {"allgatherv=mpich",
                 "MPICH by the total element count: mpich_rdb (powers of two), ompi_bruck, mpich_ring",
                 {},
                 [](Steps& s, Call c) {
                   const double total = total_bytes(c);
                   if (total <= 0) return;
                   const double elements = total / c.element;
                   run_collective(s, c,
                                  power_of_two(c.p) && elements < 524288 ? "mpich_rdb"
                                  : elements <= 81920                    ? "ompi_bruck"
                                                                         : "mpich_ring");
                 }});
MAPSIM_REGISTER(collective_registry(), {"reduce_scatter=mpich",
                                        "MPICH: mpich_rdb up to 512 Ki elements, else the pairwise exchange",
                                        {},
                                        [](Steps& s, Call c) {
                                          const double total = total_bytes(c);
                                          run_collective(s, c, total / c.element > 524288 ? "mapsim" : "mpich_rdb");
                                        }});
MAPSIM_REGISTER(collective_registry(),
                {"scatter=mpich", "SimGrid's mpich choice: ompi_binomial", {}, [](Steps& s, Call c) {
                   run_collective(s, c, "ompi_binomial");
                 }});

}  // namespace
}  // namespace mapsim::collectives
