#include "apps/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace mapsim {

ProgressSettings& progress_settings() {
  static ProgressSettings settings;
  return settings;
}

std::string format_duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  if (s >= 3600) std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else if (s >= 60) std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%lds", s);
  return text;
}

Progress::Progress(std::string label, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      enabled_(progress_settings().enabled),
      terminal_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::update(double done, double total, const std::string& detail) {
 if (!enabled_ || !(total > 0)) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since_last = std::chrono::duration<double>(now - last_).count();
  if (terminal_ ? elapsed < 1.0 || (shown_ && since_last < 0.2) : since_last < progress_settings().interval) return;
  last_ = now;
  const double fraction = std::clamp(done / total, 0.0, 1.0);
  const std::string eta = done > 0 ? "ETA " + format_duration(elapsed * (total - done) / done) : "ETA unknown";
  const std::string counts = std::to_string(std::lround(done)) + "/" + std::to_string(std::lround(total)) + " " + unit_;
  const std::string tail = detail.empty() ? "" : ", " + detail;
  if (terminal_) {
    const int width = 24;
    const std::string bar(static_cast<size_t>(width * fraction), '#');
    std::fprintf(stderr, "\r\033[K%s [%-*s] %s%s, %s elapsed, %s", label_.c_str(), width, bar.c_str(), counts.c_str(),
                 tail.c_str(), format_duration(elapsed).c_str(), eta.c_str());
  } else {
    std::fprintf(stderr, "mapsim: progress: %s: %s (%.0f%%)%s, %s elapsed, %s\n", label_.c_str(), counts.c_str(),
                 100 * fraction, tail.c_str(), format_duration(elapsed).c_str(), eta.c_str());
  }
  std::fflush(stderr);
  shown_ = true;
}

// A forked simulation may have drawn the bar from its copy of this object: clear the line whenever
// a bar could be there.
void Progress::finish() {
  const bool maybe_shown =
      shown_ || (enabled_ && std::chrono::steady_clock::now() - start_ > std::chrono::seconds(1));
  if (!terminal_ || !maybe_shown) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace mapsim
