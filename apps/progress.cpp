#include "apps/progress.h"

#include <cstdio>
#include <unistd.h>

namespace mapsim {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)), enabled_(isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(long done, long total) {
  if (!enabled_ || total <= 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed < 1.0) return;
  const int width = 30;
  const int filled = static_cast<int>(width * done / total);
  const double eta = done > 0 ? elapsed * static_cast<double>(total - done) / static_cast<double>(done) : 0;
  std::fprintf(stderr, "\r%s [%-*s] %ld/%ld  %.0fs elapsed, ETA %.0fs ", label_.c_str(), width,
               std::string(static_cast<size_t>(filled), '#').c_str(), done, total, elapsed, eta);
  std::fflush(stderr);
  shown_ = true;
}

void ProgressBar::finish() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace mapsim
