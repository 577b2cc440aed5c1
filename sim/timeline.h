// The simulated run as a Paje trace (SimGrid's visualisation format; ViTE and pajeng read it): one
// container per rank, its compute and wait intervals as states, and each message as a link from
// the sending rank (when the send was posted) to the receiving one (when it was delivered).
// Needs a SimResult simulated with record_timeline and record_messages.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/simulation.h"

namespace mapsim {

// The three kinds of a rank's state, as the pictures colour them.
enum class StateKind { Compute, PointToPointWait, CollectiveWait, Other };
StateKind state_kind(const std::string& state);

// `rank_labels`: a name per rank ("rank 3 on node-17").
void write_paje(const SimResult& result, const std::vector<std::string>& rank_labels, std::ostream& out);
// The same intervals as CSV rows "rank,state,start,end" (seconds), each led by `prefix`; the
// header's columns are kTimelineCsvColumns.
extern const char* const kTimelineCsvColumns;
void write_timeline_rows(const SimResult& result, const std::string& prefix, std::ostream& out);

}  // namespace mapsim
