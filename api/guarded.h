// Internal to api/: every public call runs inside guarded(), so that a caller sees one exception type,
// mapsim::Error, whose what() is the line the CLI prints after "mapsim: error: " (or "internal error: ...").
// Ctrl-C or SIGTERM during a call stops the run cleanly (support/interrupt.h); the signal is then raised
// again for the caller's own handler (Python's turns it into KeyboardInterrupt; without one, the
// program ends as it would have), and the call throws Error("interrupted").
#pragma once
#include <csignal>
#include <exception>
#include <filesystem>
#include <new>
#include <optional>
#include <string>

#include "support/error.h"
#include "support/interrupt.h"
#include "support/message.h"

namespace mapsim::api {

[[noreturn]] inline void rethrow_as_error(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error&) {
    throw;
  } catch (const std::filesystem::filesystem_error& e) {
    throw Error(filesystem_message(e));
  } catch (const std::bad_alloc&) {
    throw Error("out of memory");
  } catch (const std::exception& e) {
    throw Error(std::string("internal error: ") + e.what());
  }
}

template <class F>
auto guarded(F&& f) -> decltype(f()) {
  std::optional<decltype(f())> result;
  std::exception_ptr failure;
  int signal = 0;
  {
    const InterruptGuard guard;
    try {
      result.emplace(f());
    } catch (...) {
      failure = std::current_exception();
    }
    signal = InterruptGuard::signal_number();
  }
  if (signal) {
    std::raise(signal);
    throw Error(signal == SIGINT ? "interrupted" : "terminated");
  }
  if (failure) rethrow_as_error(failure);
  return std::move(*result);
}

}  // namespace mapsim::api
