// Progress of long work on stderr. On a terminal: a bar with an ETA, redrawn in place once the
// work has taken a second. Elsewhere (batch jobs, Slurm logs, pipes): one plain line every
// `interval` seconds. `--progress[=SECONDS]` sets that interval, `--no-progress` silences both.
#pragma once
#include <chrono>
#include <string>

namespace mapsim {

struct ProgressSettings {
  bool enabled = true;
  double interval = 30;  // seconds between lines when stderr is not a terminal
};
ProgressSettings& progress_settings();

class Progress {
 public:
  // `unit` names what is counted: "runs", "points", "actions".
  Progress(std::string label, std::string unit);
  ~Progress();
  // `done` of `total` units (the ETA extrapolates their rate); `detail` follows the counts.
  void update(double done, double total, const std::string& detail = "");
  void finish();  // clears the bar

 private:
  std::string label_, unit_;
  bool enabled_, terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// "1h02m", "3m05s", "12s": wall-clock durations in progress lines.
std::string format_duration(double seconds);

}  // namespace mapsim
