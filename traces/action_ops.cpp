#include "traces/action_ops.h"

#include "traces/internal/collective_steps.h"

namespace mapsim {
namespace collectives {

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

}  // namespace collectives

namespace {

// scan and exscan, which offer no choice: recursive doubling.
void recursive_doubling_scan(collectives::Steps& s, int rank, int p, double bytes) {
  for (int mask = 1; mask < p; mask <<= 1) {
    const int partner = rank ^ mask;
    if (partner < p) s.exchange(partner, bytes, partner, bytes);
  }
}

int element_size(int8_t datatype) { return datatype >= 0 ? datatype_size(datatype) : 1; }

}  // namespace

void expand_action(const Action& a, const RankTrace& trace, int rank, int p, std::vector<Op>& ops,
                   const CollectiveChoice& choice) {
  collectives::Steps user(ops, a.tag, false, rank);
  collectives::Steps s(ops, collective_tag(a.type), true, rank);
  const double* counts = trace.counts.empty() ? nullptr : trace.counts.data() + a.counts;
  // A collective with a choice of algorithm: the chosen one's steps.
  auto collective = [&](Collective which, double bytes, double received = 0) {
    const int element = element_size(which == Collective::Allgatherv ? a.datatype2 : a.datatype);
    CollectiveCall call{which, rank, p, a.root, bytes, received, counts, element, &choice};
    choice[which].factory(s, call);
  };
  switch (a.type) {
    case ActionType::Send:
      user.send(a.peer, a.bytes);
      user.wait();
      break;
    case ActionType::Recv:
      user.recv(a.peer, a.bytes);
      user.wait();
      break;
    case ActionType::Isend:
    case ActionType::Irecv: {
      Op op{a.type == ActionType::Isend ? Op::Isend : Op::Irecv, true, a.distant};
      op.peer = a.peer;
      op.tag = a.tag;
      op.amount = a.bytes;
      ops.push_back(op);
      break;
    }
    case ActionType::Wait:
    case ActionType::Test: {
      Op op{a.type == ActionType::Wait ? Op::WaitKey : Op::TestKey};
      op.peer = a.peer;
      op.dst = a.root;
      op.tag = a.tag;
      ops.push_back(op);
      break;
    }
    case ActionType::Waitall:
      ops.push_back(Op{Op::WaitAll});
      break;
    case ActionType::SendRecv: {
      collectives::Steps tag0(ops, 0, false, rank);
      tag0.exchange(a.peer, a.bytes, a.root, a.bytes2);
      break;
    }
    case ActionType::Barrier:
      collective(Collective::Barrier, 0);
      break;
    case ActionType::Bcast:
      collective(Collective::Bcast, a.bytes);
      break;
    case ActionType::Reduce:
      collective(Collective::Reduce, a.bytes);
      s.compute(a.flops);
      break;
    case ActionType::Allreduce:
      collective(Collective::Allreduce, a.bytes);
      s.compute(a.flops);
      break;
    case ActionType::Alltoall:
      collective(Collective::Alltoall, a.bytes, a.bytes2);
      break;
    case ActionType::Alltoallv:
      collective(Collective::Alltoallv, 0);
      break;
    // the root's receive size, the others' send size (Open MPI decides by them)
    case ActionType::Gather:
      collective(Collective::Gather, rank == a.root ? a.bytes2 : a.bytes);
      break;
    // the root's send size, the others' receive size
    case ActionType::Scatter:
      collective(Collective::Scatter, rank == a.root ? a.bytes : a.bytes2);
      break;
    case ActionType::Gatherv:
      collectives::linear_gatherv(s, rank, a.root, p, counts, a.bytes);
      break;
    case ActionType::Scatterv:
      collectives::linear_scatterv(s, rank, a.root, p, counts, a.bytes2);
      break;
    case ActionType::Allgather:
      collective(Collective::Allgather, a.bytes, a.bytes2);
      break;
    case ActionType::Allgatherv:
      collective(Collective::Allgatherv, 0);
      break;
    case ActionType::ReduceScatter:
      collective(Collective::ReduceScatter, 0);
      s.compute(a.flops);
      break;
    case ActionType::Scan:
    case ActionType::Exscan:
      recursive_doubling_scan(s, rank, p, a.bytes);
      s.compute(a.flops);
      break;
    case ActionType::Compute:
      s.compute(a.flops);
      break;
    case ActionType::Sleep:
      if (a.flops > 0) ops.push_back(Op{Op::Sleep, false, false, false, -1, 0, -1, a.flops});
      break;
    default:
      break;  // init, finalize, comm_size, comm_split, comm_dup, location
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
      wait.peer = op.kind == Op::Isend ? self : a.peer, wait.root = op.kind == Op::Isend ? a.peer : self,
      wait.tag = tag;
      step.push_back(wait);
    } else if (op.kind == Op::WaitGroup) {
      actions.insert(actions.end(), step.begin(), step.end());
      step.clear();
    }
  }
  return actions;
}

}  // namespace mapsim
