// A trace read rank by rank through a bounded window, so that replaying it holds O(ranks) actions
// whatever its length (issue 34). A TraceSource describes the trace and can be read several times
// (simulate() replays it twice with optical circuits, the circuit planner and the mappers' inputs
// take a pass of their own); each reading is an ActionStream with a cursor per rank.
//   TraceView                   an in-memory Trace (held whole)
//   open_ti_trace               a TI trace: each rank's lines (its own file, or its runs of lines in
//                               the shared file) read in chunks from saved offsets, no file kept open;
//                               OTF2 each rank's location in windows after a first pass
//                               (traces/ti_trace.cpp, traces/otf2_trace.cpp)
//   make_workload_source        a synthetic workload generated one action at a time (sim/workload.h)
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "traces/ti_trace.h"

namespace mapsim {

class ActionStream {
 public:
  virtual ~ActionStream() = default;
  // The next action of `rank`, or nullptr after its last. The action, and context(rank) (the rank's
  // file name and the counts pool of its v-collectives), stay valid until the next call for `rank`.
  // A reader that parses lazily throws mapsim::Error "FILE:LINE: ..." for a malformed line here.
  virtual const Action* next(int rank) = 0;
  virtual const RankTrace& context(int rank) const = 0;
};

class TraceSource {
 public:
  virtual ~TraceSource() = default;
  virtual int num_ranks() const = 0;
  // A new reading, every rank at its first action.
  virtual std::unique_ptr<ActionStream> open() const = 0;
  // Every rank's actions together (progress bars); a reader that does not know may count them in a pass.
  virtual long total_actions() const = 0;
  // The Trace when the source holds one whole in memory (what needs a Trace may use it), else nullptr.
  virtual const Trace* whole() const { return nullptr; }
};

// A Trace held in memory, not owned (`trace` must outlive the view and its streams), or owned.
class TraceView final : public TraceSource {
 public:
  explicit TraceView(const Trace& trace) : trace_(&trace) {}
  explicit TraceView(Trace&& trace) : owned_(std::make_shared<Trace>(std::move(trace))), trace_(owned_.get()) {}
  int num_ranks() const override { return trace_->num_ranks(); }
  std::unique_ptr<ActionStream> open() const override;
  long total_actions() const override;
  const Trace* whole() const override { return trace_; }

 private:
  std::shared_ptr<Trace> owned_;
  const Trace* trace_;
};

// Several sources one after another (not owned: each must outlive the view and its streams): rank r of
// the k-th is rank (the ranks of those before it) + r here, with its own context, so that several
// jobs replay together each from its own stream, none held whole.
class JoinedSources final : public TraceSource {
 public:
  explicit JoinedSources(std::vector<const TraceSource*> parts);
  int num_ranks() const override { return static_cast<int>(first_rank_.back()); }
  std::unique_ptr<ActionStream> open() const override;
  long total_actions() const override;

 private:
  std::vector<const TraceSource*> parts_;
  std::vector<int> first_rank_;  // of each part, and the total last
};

// The actions a stream parses per rank at a time: `requested` if positive, else 8 to 256, about 2^19
// in all (29 MB of actions), whatever the number of ranks.
size_t stream_window(int requested, int ranks);

// Every action of every rank, rank after rank, each rank's in order: one streaming pass.
void for_each_action(const TraceSource& source,
                     const std::function<void(int rank, const Action& action, const RankTrace& context)>& visit);
// The source read whole into memory.
Trace materialize(const TraceSource& source);

// The trace at `path` as a source. A TI trace streams: an index of per-rank files, each read in chunks
// from a saved offset and line number, or the shared single file, whose first pass records where each
// rank's runs of lines start; parse errors are found as the ranks reach them ("FILE:LINE: ..."). Other
// formats stream through their TraceFormat::open (OTF2: open_otf2_trace, every error up front).
// `window`: actions parsed per rank at a time (0: 8 to 256, about 2^19 in all).
std::shared_ptr<const TraceSource> open_ti_trace(const std::string& path, bool legacy = false, int window = 0);

}  // namespace mapsim
