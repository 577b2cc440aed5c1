// Background traffic beside the jobs of a scenario: open-loop messages between the nodes no job
// holds, injected at Poisson times at an offered load (of each node's bandwidth) to destinations of a
// traffic pattern (sim/traffic.h), for a duration -- a busy machine without modelling each neighbour.
// A message whose destination is a job's node or its own sender is not sent. It is a trace with one
// rank per free node (in node order), every receive posted first, replayed as one more job.
#pragma once
#include <vector>

#include "sim/traffic.h"

namespace mapsim {

// Messages the background of one simulation may hold (each is three trace actions, 168 bytes: 700 MB
// at the bound), and destinations it may draw (those to the sender itself or a job's node are drawn,
// then not sent).
constexpr long kMaxBackgroundMessages = 1L << 22;
constexpr long kMaxBackgroundDraws = 1L << 26;

struct BackgroundTraffic {
  Trace trace;
  Placement placement;  // rank -> node
  long messages = 0;
};

// `taken[n] != 0`: node n belongs to a job. The message size is traffic.message, else `mtu`. Throws
// mapsim::Error for an unknown pattern or a load outside (0, 1], for more than kMaxBackgroundMessages
// messages or kMaxBackgroundDraws draws (naming the duration to shorten; an expected count above it
// before drawing, the others after a counting pass, before the actions are built), and for a pattern
// that sent nothing although it drew (every destination the sender itself or a job's node).
BackgroundTraffic background_traffic(const Network& network, const std::vector<char>& taken, const TrafficOptions& traffic,
                                     double duration, double mtu, uint64_t seed);

}  // namespace mapsim
