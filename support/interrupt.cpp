#include "support/interrupt.h"

#include <unistd.h>

#include "support/error.h"

namespace mapsim {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;  // the signal that came, 0 before
int g_guards = 0;                                // guards alive
extern "C" void on_interrupt(int signal) { g_interrupted = signal; }

}  // namespace

InterruptGuard::InterruptGuard() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;  // no SA_RESTART: a blocking waitpid or read returns EINTR
  sigemptyset(&action.sa_mask);
  if (g_guards++ == 0) g_interrupted = 0;
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
  --g_guards;
}

bool InterruptGuard::interrupted() { return g_interrupted != 0; }

int InterruptGuard::signal_number() { return g_interrupted; }

bool InterruptGuard::active() { return g_guards > 0; }

void restore_default_interrupts() {
  g_guards = 0;  // the parent's guards are not this process's
  g_interrupted = 0;
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

void stop_if_interrupted() {
  if (g_guards > 0 && g_interrupted != 0) throw Error("interrupted");
}

void end_by_interrupt() {
  const int signal = g_interrupted != 0 ? static_cast<int>(g_interrupted) : SIGTERM;
  std::signal(signal, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, signal);
  sigprocmask(SIG_UNBLOCK, &one, nullptr);
  raise(signal);
  _exit(128 + signal);
}

}  // namespace mapsim
