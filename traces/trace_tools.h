// Looking into a TI trace without running it: what it holds (trace_stats) and whether it can run
// (check_trace: unmatched sends and receives, waits without a request, ranks whose collectives
// disagree). Every problem names the file and line.
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
  long collectives = 0;                 // collective calls, summed over ranks
  double flops = 0;                     // compute actions
  double sleep_seconds = 0;
};

TraceStats trace_stats(const Trace& trace);

// At most `limit` problems, in rank order.
std::vector<std::string> check_trace(const Trace& trace, size_t limit = 20);

}  // namespace mapsim
