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

// For long loops (reading, generating, writing): throws mapsim::Error once a signal came while a guard
// lives, so that the stack unwinds -- partial outputs are removed on the way -- within a second. Does
// nothing without a guard (the signals then end the process themselves) and in a forked child.
void stop_if_interrupted();

// For a command that keeps nothing of an interrupted run: the signal that came takes its default
// effect now (the process ends as if killed by it, exit status 128 + N), after the unwinding.
[[noreturn]] void end_by_interrupt();

}  // namespace mapsim
