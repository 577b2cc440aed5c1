// The primitive operation a rank executes when a trace is replayed: every TI action expands into a few
// of them (traces/action_ops.h), a collective algorithm's steps are made of them (collective_algorithm.h).
#pragma once

namespace mapsim {

struct Op {
  enum Kind : unsigned char { Isend, Irecv, WaitGroup, WaitKey, TestKey, WaitAll, Compute, Sleep } kind;
  bool user = false;     // a trace isend/irecv: kept for wait/test/waitall by (src, dst, tag)
  bool distant = false;
  bool collective = false;
  int peer = -1;         // WaitKey/TestKey: src
  int tag = 0;           // WaitKey/TestKey: tag
  int dst = -1;          // WaitKey/TestKey: dst
  double amount = 0;     // bytes, flops or seconds
};

}  // namespace mapsim
