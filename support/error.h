// The three kinds of failure, kept apart so that callers can tell them apart:
//   Error          bad input; its message is a complete one-line diagnostic ("FILE:LINE: expected ...")
//                  that the CLI prints as is (exit 1)
//   NotApplicable  valid input that a component cannot handle (a mapper that needs a hypercube on a
//                  fat tree); a kind of Error, so a user sees the same one line, but `best` may skip it
//   InternalError  a library or invariant failure (Scotch, METIS): a bug or a limit, never skipped
#pragma once
#include <mapsim/error.h>  // Error, the public exception
#include <stdexcept>
#include <string>

namespace mapsim {

class NotApplicable : public Error {
 public:
  explicit NotApplicable(const std::string& message) : Error(message) {}
};

class InternalError : public std::runtime_error {
 public:
  explicit InternalError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace mapsim
