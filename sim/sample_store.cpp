#include "sim/internal/sample_store.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <queue>
#include <unistd.h>

#include "support/error.h"

namespace mapsim::sim {

SampleStore::SampleStore() { buffer_.reserve(kRun); }

SampleStore::~SampleStore() {
  if (file_) std::fclose(file_);
}

void SampleStore::flush() {
  std::sort(buffer_.begin(), buffer_.end());
  const long offset = static_cast<long>(stored_);
  if (!file_ && memory_.empty()) file_ = std::tmpfile();  // unlinked: gone with the process
  bool written = false;
  if (file_) {
    written = std::fwrite(buffer_.data(), sizeof(double), buffer_.size(), file_) == buffer_.size() && std::fflush(file_) == 0;
    if (!written) {  // the disk is full: the runs written so far come back into memory, and stay there
      memory_.resize(stored_);
      if (stored_ > 0 && pread(fileno(file_), memory_.data(), stored_ * sizeof(double), 0) !=
                             static_cast<ssize_t>(stored_ * sizeof(double)))
        throw Error("cannot read back the message latencies from a temporary file");
      std::fclose(file_);
      file_ = nullptr;
    }
  }
  if (!written) memory_.insert(memory_.end(), buffer_.begin(), buffer_.end());
  runs_.push_back({offset, static_cast<long>(buffer_.size())});
  stored_ += buffer_.size();
  buffer_.clear();
}

namespace {

// One sorted run, from memory or read from the file through a small buffer.
class RunReader {
 public:
  RunReader(std::FILE* file, const double* memory, long offset, long count)
      : file_(file), memory_(memory ? memory + offset : nullptr), next_(offset), unread_(count), left_(count) {}
  bool done() const { return left_ == 0; }
  double front() {
    if (memory_) return *memory_;
    if (at_ == chunk_.size()) fill();
    return chunk_[at_];
  }
  void pop() {
    --left_;
    if (memory_) ++memory_;
    else ++at_;
  }

 private:
  void fill() {
    const long n = std::min<long>(4096, unread_);
    chunk_.resize(static_cast<size_t>(n));
    if (pread(fileno(file_), chunk_.data(), n * sizeof(double), next_ * static_cast<long>(sizeof(double))) !=
        static_cast<ssize_t>(n * sizeof(double)))
      throw Error("cannot read back the message latencies from a temporary file");
    next_ += n;
    unread_ -= n;
    at_ = 0;
  }
  std::FILE* file_;
  const double* memory_;
  long next_, unread_, left_;
  std::vector<double> chunk_;
  size_t at_ = 0;
};

// The index of the nearest-rank percentile q of n sorted values.
size_t nearest_rank(double q, size_t n) { return std::clamp<size_t>(static_cast<size_t>(std::ceil(q * n)), 1, n) - 1; }

}  // namespace

LatencyStats summarise(std::vector<double>& values) {
  LatencyStats s;
  s.count = static_cast<long>(values.size());
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / values.size();
  s.p50 = values[nearest_rank(0.50, values.size())];
  s.p99 = values[nearest_rank(0.99, values.size())];
  s.max = values.back();
  return s;
}

LatencyStats summarise(const std::vector<const SampleStore*>& stores) {
  LatencyStats s;
  std::vector<std::vector<double>> buffers;
  std::vector<RunReader> readers;
  for (const SampleStore* store : stores) {
    s.count += store->size();
    for (const SampleStore::Run& run : store->runs_)
      readers.emplace_back(store->file_, store->file_ ? nullptr : store->memory_.data(), run.offset, run.count);
    buffers.push_back(store->buffer_);
    std::sort(buffers.back().begin(), buffers.back().end());
  }
  for (const std::vector<double>& b : buffers)
    if (!b.empty()) readers.emplace_back(nullptr, b.data(), 0, static_cast<long>(b.size()));
  if (s.count == 0) return s;
  // As summarise(values): the sum in sorted order, nearest-rank percentiles.
  const size_t n = static_cast<size_t>(s.count);
  const size_t k50 = nearest_rank(0.50, n), k99 = nearest_rank(0.99, n);
  using Item = std::pair<double, size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  for (size_t r = 0; r < readers.size(); ++r)
    if (!readers[r].done()) heap.push({readers[r].front(), r});
  double sum = 0, value = 0;
  for (size_t i = 0; !heap.empty(); ++i) {
    const size_t r = heap.top().second;
    value = heap.top().first;
    heap.pop();
    sum += value;
    if (i == k50) s.p50 = value;
    if (i == k99) s.p99 = value;
    readers[r].pop();
    if (!readers[r].done()) heap.push({readers[r].front(), r});
  }
  s.mean = sum / n;
  s.max = value;
  return s;
}

}  // namespace mapsim::sim
