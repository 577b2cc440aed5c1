// Internal to sim/: the message latencies of a run, kept exactly for their statistics (mean over the
// sorted values, nearest-rank percentiles) without holding them in memory: values are gathered in a
// buffer of kRun, which is sorted and written as a run to an unlinked temporary file when full (an
// external sort); summarise() merges the runs. Memory stays O(kRun) whatever the run's length
// (issue 34); the disk holds 8 bytes per message. Where no temporary file can be made, runs stay in memory.
#pragma once
#include <cstdio>
#include <memory>
#include <vector>

#include "sim/simulation.h"

namespace mapsim::sim {

class SampleStore {
 public:
  static constexpr size_t kRun = size_t{1} << 16;
  SampleStore();
  ~SampleStore();
  SampleStore(const SampleStore&) = delete;
  SampleStore& operator=(const SampleStore&) = delete;
  void add(double value) {
    buffer_.push_back(value);
    if (buffer_.size() == kRun) flush();
  }
  long size() const { return static_cast<long>(stored_ + buffer_.size()); }

 private:
  friend LatencyStats summarise(const std::vector<const SampleStore*>& stores);
  void flush();
  struct Run {
    long offset = 0;  // in values, in the file or in `memory_`
    long count = 0;
  };
  std::vector<double> buffer_;
  std::vector<Run> runs_;
  size_t stored_ = 0;
  std::FILE* file_ = nullptr;
  std::vector<double> memory_;  // the runs, when no temporary file could be made
};

// The statistics of every value of `stores` together: what summarise(std::vector<double>&) gives for them.
LatencyStats summarise(const std::vector<const SampleStore*>& stores);

}  // namespace mapsim::sim
