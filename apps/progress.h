// A progress bar with ETA on stderr, shown only on a terminal and only once the work has taken
// more than a second; silent otherwise (batch jobs, pipes, CI logs).
#pragma once
#include <chrono>
#include <string>

namespace mapsim {

class ProgressBar {
 public:
  explicit ProgressBar(std::string label);
  ~ProgressBar();
  void update(long done, long total);
  void finish();  // clears the line

 private:
  std::string label_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace mapsim
