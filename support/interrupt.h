// Ctrl-C and SIGTERM (Slurm's time limit) as a request to stop cleanly: while an InterruptGuard
// lives, the signals set a flag that long loops poll between units of work, so that they can keep
// what is finished. Processes forked meanwhile should call restore_default_interrupts().
#pragma once
#include <csignal>

namespace mapsim {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static bool interrupted();

 private:
  struct sigaction old_int_ {}, old_term_{};
};

void restore_default_interrupts();  // in a forked child: the signals end it again

}  // namespace mapsim
