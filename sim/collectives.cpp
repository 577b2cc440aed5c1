#include <algorithm>

#include "sim/internal/ops.h"

namespace mapsim::sim {
namespace {

// Builds the op list of one action; every collective step ends with a wait on its requests.
class Steps {
 public:
  Steps(std::vector<Op>& ops, int tag, bool collective) : ops_(ops), tag_(tag), collective_(collective) {}
  void send(int peer, double bytes) { ops_.push_back(make(Op::Isend, peer, bytes)); }
  void recv(int peer, double bytes) { ops_.push_back(make(Op::Irecv, peer, bytes)); }
  void wait() { ops_.push_back(Op{Op::WaitGroup}); }
  void compute(double flops) {
    if (flops > 0) ops_.push_back(Op{Op::Compute, false, false, false, -1, 0, -1, flops});
  }
  void exchange(int to, double send_bytes, int from, double recv_bytes) {
    send(to, send_bytes);
    recv(from, recv_bytes);
    wait();
  }

 private:
  Op make(Op::Kind kind, int peer, double bytes) const {
    Op op{kind};
    op.peer = peer;
    op.tag = tag_;
    op.amount = bytes;
    op.collective = collective_;
    return op;
  }
  std::vector<Op>& ops_;
  int tag_;
  bool collective_;
};

int relative(int rank, int root, int size) { return (rank - root + size) % size; }
int absolute(int vrank, int root, int size) { return (vrank + root) % size; }

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
  int pof2 = 1;
  while (pof2 * 2 <= p) pof2 *= 2;
  const int rem = p - pof2;
  int newrank;
  if (rank < 2 * rem) {
    if (rank % 2 == 0) {
      s.send(rank + 1, bytes);
      s.wait();
      newrank = -1;
    } else {
      s.recv(rank - 1, bytes);
      s.wait();
      newrank = rank / 2;
    }
  } else {
    newrank = rank - rem;
  }
  if (newrank != -1)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int newdst = newrank ^ mask;
      const int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
      s.exchange(dst, bytes, dst, bytes);
    }
  if (rank < 2 * rem) {
    if (rank % 2) s.send(rank - 1, bytes);
    else s.recv(rank + 1, bytes);
    s.wait();
  }
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

}  // namespace

void expand_action(const Action& a, const RankTrace& trace, int rank, int p, std::vector<Op>& ops) {
  Steps user(ops, a.tag, false);
  Steps s(ops, collective_tag(a.type), true);
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
      Steps tag0(ops, 0, false);
      tag0.exchange(a.peer, a.bytes, a.root, a.bytes2);
      break;
    }
    case ActionType::Barrier:
      for (int mask = 1; mask < p; mask <<= 1) s.exchange((rank + mask) % p, 0, (rank - mask + p) % p, 0);
      break;
    case ActionType::Bcast: binomial_bcast(s, rank, a.root, p, a.bytes); break;
    case ActionType::Reduce: binomial_reduce(s, rank, a.root, p, a.bytes); s.compute(a.flops); break;
    case ActionType::Allreduce: recursive_doubling_allreduce(s, rank, p, a.bytes); s.compute(a.flops); break;
    case ActionType::Alltoall:
      for (int i = 1; i < p; ++i) s.exchange((rank + i) % p, a.bytes, (rank - i + p) % p, a.bytes2);
      break;
    case ActionType::Alltoallv:
      for (int i = 1; i < p; ++i) {
        const int to = (rank + i) % p, from = (rank - i + p) % p;
        s.exchange(to, counts[to], from, counts[p + from]);
      }
      break;
    case ActionType::Gather: binomial_gather(s, rank, a.root, p, a.bytes); break;
    case ActionType::Scatter: binomial_scatter(s, rank, a.root, p, a.bytes2); break;
    case ActionType::Gatherv:
      if (rank == a.root) {
        for (int i = 0; i < p; ++i)
          if (i != rank) s.recv(i, counts[i]);
      } else {
        s.send(a.root, a.bytes);
      }
      s.wait();
      break;
    case ActionType::Scatterv:
      if (rank == a.root) {
        for (int i = 0; i < p; ++i)
          if (i != rank) s.send(i, counts[i]);
      } else {
        s.recv(a.root, a.bytes2);
      }
      s.wait();
      break;
    case ActionType::Allgather:
      for (int i = 0; i + 1 < p; ++i) s.exchange((rank + 1) % p, a.bytes, (rank - 1 + p) % p, a.bytes);
      break;
    case ActionType::Allgatherv:
      for (int i = 0; i + 1 < p; ++i)
        s.exchange((rank + 1) % p, counts[(rank - i + p) % p], (rank - 1 + p) % p, counts[(rank - i - 1 + 2 * p) % p]);
      break;
    case ActionType::ReduceScatter:
      for (int i = 1; i < p; ++i) {
        const int to = (rank + i) % p, from = (rank - i + p) % p;
        s.exchange(to, counts[to], from, counts[rank]);
      }
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

}  // namespace mapsim::sim
