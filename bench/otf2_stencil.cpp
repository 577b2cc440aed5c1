// Writes an OTF2 archive of a 2-D periodic stencil as Score-P would record it, for measuring how
// mapsim reads long OTF2 traces (docs/simulation.md, streaming replay):
//   otf2_stencil DIR SIDE ITERATIONS   -> DIR/traces.otf2, SIDE x SIDE ranks
// Each iteration: 100 us of compute, an irecv and an isend of 64 KiB with each of the 4 neighbours,
// their completions, and an allreduce of 8 bytes.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../tests/sim/otf2_writer.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: otf2_stencil DIR SIDE ITERATIONS\n");
    return 2;
  }
  const int side = std::atoi(argv[2]), iterations = std::atoi(argv[3]), ranks = side * side;
  if (side < 2 || iterations < 1) {
    std::fprintf(stderr, "otf2_stencil: SIDE >= 2 and ITERATIONS >= 1\n");
    return 2;
  }
  Otf2Writer w(argv[1], ranks);
  const uint64_t bytes = 65536;
  for (int r = 0; r < ranks; ++r) {
    const int x = r % side, y = r / side;
    const uint32_t neighbours[4] = {static_cast<uint32_t>(y * side + (x + 1) % side),
                                    static_cast<uint32_t>(y * side + (x + side - 1) % side),
                                    static_cast<uint32_t>(((y + 1) % side) * side + x),
                                    static_cast<uint32_t>(((y + side - 1) % side) * side + x)};
    uint64_t t = 10;
    w.call(r, "MPI_Init", 0, t);
    for (int i = 0; i < iterations; ++i) {
      t += 100;  // compute
      for (uint32_t k = 0; k < 4; ++k) {
        w.call(r, "MPI_Irecv", t, t + 1, [&](OTF2_EvtWriter* e, uint64_t at) { OTF2_EvtWriter_MpiIrecvRequest(e, nullptr, at, k); });
        ++t;
      }
      for (uint32_t k = 0; k < 4; ++k) {
        // the message to neighbour k travels on tag k ^ 1: the direction it arrives from at the receiver
        w.call(r, "MPI_Isend", t, t + 1, [&](OTF2_EvtWriter* e, uint64_t at) {
          OTF2_EvtWriter_MpiIsend(e, nullptr, at, neighbours[k], 0, k ^ 1, bytes, 4 + k);
        });
        ++t;
      }
      w.call(r, "MPI_Waitall", t, t + 20, [&](OTF2_EvtWriter* e, uint64_t at) {
        for (uint32_t k = 0; k < 4; ++k) OTF2_EvtWriter_MpiIrecv(e, nullptr, at + 1 + k, neighbours[k], 0, k, bytes, k);
        for (uint32_t k = 0; k < 4; ++k) OTF2_EvtWriter_MpiIsendComplete(e, nullptr, at + 5 + k, 4 + k);
      });
      t += 20;
      w.collective(r, "MPI_Allreduce", t, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, OTF2_UNDEFINED_UINT32, 8ull * ranks, 8ull * ranks);
      t += 1;
    }
    w.call(r, "MPI_Finalize", t, t + 1);
  }
  std::printf("%s\n", w.close().c_str());
  return 0;
}
