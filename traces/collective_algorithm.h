// What a collective algorithm implements: one rank's part in one call of its collective, as steps of
// messages. Each algorithm registers itself from its own source file (one of MAPSIM_COLLECTIVE_SOURCES,
// or any file linked in):
//   MAPSIM_REGISTER(collective_registry(), {"alltoall=NAME", "what it does", {},
//                                           [](collectives::Steps& s, const CollectiveCall& c) { ... }});
// after which `--collectives alltoall=NAME` and `model.collectives: alltoall=NAME` select it and
// `mapsim components` lists it. A library's choice ("alltoall=mpich") is an algorithm that runs others.
#pragma once
#include <string>
#include <vector>

#include "traces/op.h"
#include "traces/collective_choice.h"

namespace mapsim {

// One call of a collective as rank `rank` of `p` sees it; sizes are bytes.
struct CollectiveCall {
  Collective collective;
  int rank = 0, p = 1, root = 0;
  // bcast, reduce, allreduce: the message; alltoall, allgather: the block sent to each rank; gather:
  // the block the root receives from each rank, the others' sent; scatter: the root's block sent, the
  // others' received (Open MPI decides by these)
  double bytes = 0;
  double received = 0;  // alltoall, allgather: the block received from each rank
  const double* counts =
      nullptr;      // alltoallv: to each rank, then from each; allgatherv, reduce_scatter: each rank's block
  int element = 1;  // the datatype's size (allgatherv: the received one's), for algorithms that split by element count
  const CollectiveChoice* choice = nullptr;  // the run's algorithms, for what an algorithm hands on
};

// Runs `c` with the algorithm NAME of its collective ("pair": alltoall=pair), as a library's choice
// does; or with the run's own choice for it, as an algorithm built on another collective (redbcast)
// or one leaving a remainder (NTSL) does.
void run_collective(collectives::Steps& s, const CollectiveCall& c, const std::string& name);
void run_collective(collectives::Steps& s, const CollectiveCall& c);

namespace collectives {

// Builds the op list of one action; every collective step ends with a wait on its requests.
class Steps {
 public:
  Steps(std::vector<Op>& ops, int tag, bool collective, int self)
      : ops_(ops), tag_(tag), collective_(collective), self_(self) {}
  void send(int peer, double bytes) { ops_.push_back(make(Op::Isend, peer, bytes)); }
  void recv(int peer, double bytes) { ops_.push_back(make(Op::Irecv, peer, bytes)); }
  void wait() { ops_.push_back(Op{Op::WaitGroup}); }
  void blocking_send(int peer, double bytes) { send(peer, bytes), wait(); }
  void blocking_recv(int peer, double bytes) { recv(peer, bytes), wait(); }
  // A receive waited for on its own (wait_for), while later requests stay pending.
  void recv_tracked(int peer, double bytes) {
    Op op = make(Op::Irecv, peer, bytes);
    op.user = true;
    ops_.push_back(op);
  }
  // Waits for the oldest pending recv_tracked from `peer`.
  void wait_for(int peer) {
    Op op{Op::WaitKey};
    op.peer = peer, op.dst = self_, op.tag = tag_;
    ops_.push_back(op);
  }
  void compute(double flops) {
    if (flops > 0) ops_.push_back(Op{Op::Compute, false, false, false, -1, 0, -1, flops});
  }
  // A step to oneself is a local copy: no message (SMPI's replay gives it no time either).
  void exchange(int to, double send_bytes, int from, double recv_bytes) {
    if (to == self_ && from == self_) return;
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
  int self_;  // the rank whose steps these are
};

}  // namespace collectives
}  // namespace mapsim
