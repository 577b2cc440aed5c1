// OTF2 traces (Score-P's format) read as mapsim replay actions: MPI point-to-point events become
// send/isend/recv/irecv and their waits, MPI collectives on MPI_COMM_WORLD become the TI collective
// of the same name (byte counts decoded with Score-P's per-rank conventions), and the time a rank
// spends outside MPI regions becomes compute (seconds x flops_per_second). What the TI format cannot
// express is counted in Otf2Import::skipped (docs/traces.md lists both). Registered as a trace format:
// every trace reader takes an anchor file (*.otf2).
#pragma once
#include <map>
#include <memory>
#include <string>

#include "traces/ti_trace.h"
#include "traces/trace_source.h"

namespace mapsim {

struct Otf2Import {
  Trace trace;
  std::map<std::string, long> skipped;  // what was not converted as recorded, by kind ("alltoallw calls, not converted")
};

// The archive whose anchor file is `path` (traces.otf2) as a source whose streams read each rank's
// events from its own location, a window of `window` actions at a time (0: 8 to 256, about 2^19 in
// all). A first pass over each rank's events in turn (one location at a time) keeps only a summary of each
// collective (its ranks' byte counts reduced to what each rank's action needs) and finds every error
// and skipped count up front: mapsim::Error naming the file on an unreadable archive or inconsistent
// events (a collective whose ranks disagree). `skipped`, if given, receives the counts.
// `open_locations`: how many locations' readers a stream keeps open at once (0: 64), each with
// libotf2's buffer of one event chunk; the others are opened again where they stopped.
std::shared_ptr<const TraceSource> open_otf2_trace(const std::string& path, int window = 0,
                                                   std::map<std::string, long>* skipped = nullptr,
                                                   double flops_per_second = 1e9, int open_locations = 0);

// The archive read whole: its source materialized.
Otf2Import read_otf2_trace(const std::string& path, double flops_per_second = 1e9);

}  // namespace mapsim
