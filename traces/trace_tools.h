// Looking into a TI trace without running it or loading it whole (streamed, rank file by rank file):
// what it holds (trace_stats) and whether it can run (check_trace: unmatched sends and receives,
// waits without a request, ranks whose collectives disagree). Every problem names the file and line.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "traces/ti_trace.h"

namespace mapsim {

struct TraceStats {
  int ranks = 0;
  std::map<std::string, long> actions;  // count per action name
  long messages = 0;                    // point-to-point sends (send, isend, sendRecv)
  double bytes = 0;                     // their bytes
  long collectives = 0;                 // collective rank-calls: each rank's call counted (JSON "collectives")
  long collective_calls = 0;            // collective calls: the most any rank makes (every rank joins each call)
  double flops = 0;                     // compute actions
  double sleep_seconds = 0;
};

TraceStats trace_stats(const std::string& path, bool legacy = false);

// At most `limit` problems. Memory: counters per (source, destination, tag) and one entry per
// collective call; a second pass finds the lines of unmatched messages.
std::vector<std::string> check_trace(const std::string& path, bool legacy = false, size_t limit = 20);

}  // namespace mapsim
