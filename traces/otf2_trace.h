// OTF2 traces (Score-P's format) read as mapsim replay actions: MPI point-to-point events become
// send/isend/recv/irecv and their waits, MPI collectives on MPI_COMM_WORLD become the TI collective
// of the same name (byte counts decoded with Score-P's per-rank conventions), and the time a rank
// spends outside MPI regions becomes compute (seconds x flops_per_second). What the TI format cannot
// express is counted in Otf2Import::skipped (docs/traces.md lists both). Registered as a trace format:
// every trace reader takes an anchor file (*.otf2).
#pragma once
#include <map>
#include <string>

#include "traces/ti_trace.h"

namespace mapsim {

struct Otf2Import {
  Trace trace;
  std::map<std::string, long> skipped;  // what was not converted as recorded, by kind ("alltoallw calls, not converted")
};

// Reads the archive whose anchor file is `path` (traces.otf2). Throws mapsim::Error naming the
// file on an unreadable archive or inconsistent events (a collective whose ranks disagree).
Otf2Import read_otf2_trace(const std::string& path, double flops_per_second = 1e9);

}  // namespace mapsim
