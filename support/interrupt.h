// Ctrl-C and SIGTERM (Slurm's time limit) as a request to stop cleanly: while an InterruptGuard
// lives, the signals set a flag that long loops poll between units of work, so that they can keep
// what is finished. Processes forked meanwhile should call restore_default_interrupts().
// Guards nest (one thread sets them up): an inner one keeps the outer one's request.
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
  static int signal_number();  // SIGINT or SIGTERM once interrupted, else 0
  static bool active();        // whether a guard lives (someone polls interrupted())

 private:
  struct sigaction old_int_ {}, old_term_{};
};

void restore_default_interrupts();  // in a forked child: the signals end it again (no guard lives in it)

}  // namespace mapsim
