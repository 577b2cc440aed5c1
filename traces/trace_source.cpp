#include "traces/trace_source.h"

#include <algorithm>
#include <vector>

namespace mapsim {
namespace {

class JoinedStream final : public ActionStream {
 public:
  JoinedStream(const std::vector<const TraceSource*>& parts, const std::vector<int>& first_rank) : first_rank_(first_rank) {
    for (const TraceSource* part : parts) streams_.push_back(part->open());
    for (size_t k = 0; k < parts.size(); ++k) part_of_.insert(part_of_.end(), parts[k]->num_ranks(), static_cast<int>(k));
  }
  const Action* next(int rank) override {
    const int k = part_of_[rank];
    return streams_[k]->next(rank - first_rank_[k]);
  }
  const RankTrace& context(int rank) const override {
    const int k = part_of_[rank];
    return streams_[k]->context(rank - first_rank_[k]);
  }

 private:
  std::vector<std::unique_ptr<ActionStream>> streams_;
  std::vector<int> part_of_;  // rank -> part
  const std::vector<int>& first_rank_;
};

class TraceViewStream final : public ActionStream {
 public:
  explicit TraceViewStream(const Trace& trace) : trace_(trace), next_(trace.ranks.size(), 0) {}
  const Action* next(int rank) override {
    const auto& actions = trace_.ranks[rank].actions;
    return next_[rank] < actions.size() ? &actions[next_[rank]++] : nullptr;
  }
  const RankTrace& context(int rank) const override { return trace_.ranks[rank]; }

 private:
  const Trace& trace_;
  std::vector<size_t> next_;
};

}  // namespace

std::unique_ptr<ActionStream> TraceView::open() const { return std::make_unique<TraceViewStream>(*trace_); }

long TraceView::total_actions() const {
  long total = 0;
  for (const RankTrace& rank : trace_->ranks) total += static_cast<long>(rank.actions.size());
  return total;
}

JoinedSources::JoinedSources(std::vector<const TraceSource*> parts) : parts_(std::move(parts)), first_rank_{0} {
  for (const TraceSource* part : parts_) first_rank_.push_back(first_rank_.back() + part->num_ranks());
}

std::unique_ptr<ActionStream> JoinedSources::open() const { return std::make_unique<JoinedStream>(parts_, first_rank_); }

long JoinedSources::total_actions() const {
  long total = 0;
  for (const TraceSource* part : parts_) total += part->total_actions();
  return total;
}

size_t stream_window(int requested, int ranks) {
  return static_cast<size_t>(requested > 0 ? requested : std::clamp((1 << 19) / std::max(ranks, 1), 8, 256));
}

void for_each_action(const TraceSource& source,
                     const std::function<void(int rank, const Action& action, const RankTrace& context)>& visit) {
  if (const Trace* trace = source.whole()) {  // no stream needed
    for (int r = 0; r < trace->num_ranks(); ++r)
      for (const Action& a : trace->ranks[r].actions) visit(r, a, trace->ranks[r]);
    return;
  }
  const std::unique_ptr<ActionStream> stream = source.open();
  for (int r = 0; r < source.num_ranks(); ++r)
    while (const Action* a = stream->next(r)) visit(r, *a, stream->context(r));
}

Trace materialize(const TraceSource& source) {
  if (const Trace* trace = source.whole()) return *trace;
  Trace trace;
  trace.ranks.resize(source.num_ranks());
  const std::unique_ptr<ActionStream> stream = source.open();
  for (int r = 0; r < source.num_ranks(); ++r) {
    RankTrace& rank = trace.ranks[r];
    while (const Action* a = stream->next(r)) {
      const RankTrace& context = stream->context(r);
      Action copy = *a;
      if (const size_t n = counts_used(*a, source.num_ranks())) {  // v-collective counts: re-based into the rank's own pool
        copy.counts = static_cast<uint32_t>(rank.counts.size());
        rank.counts.insert(rank.counts.end(), context.counts.begin() + a->counts, context.counts.begin() + a->counts + n);
      }
      rank.actions.push_back(copy);
    }
    rank.file = stream->context(r).file;
  }
  return trace;
}

}  // namespace mapsim
