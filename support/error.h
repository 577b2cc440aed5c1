// The three kinds of failure, kept apart so that callers can tell them apart:
//   Error          bad input; its message is a complete one-line diagnostic ("FILE:LINE: expected ...")
//                  that the CLI prints as is (exit 1)
//   NotApplicable  valid input that a component cannot handle (a mapper that needs a hypercube on a
//                  fat tree); a kind of Error, so a user sees the same one line, but `best` may skip it
//   InternalError  a library or invariant failure (Scotch, METIS): a bug or a limit, never skipped
#pragma once
#include <stdexcept>
#include <string>

namespace mapsim {

namespace detail {
// what() is a C string: a NUL byte quoted from input would end the message there. It becomes the
// text \x00, as printable() shows the other control bytes.
inline std::string without_nul(const std::string& message) {
  if (message.find('\0') == std::string::npos) return message;
  std::string out;
  for (char c : message) out += c == '\0' ? std::string("\\x00") : std::string(1, c);
  return out;
}
}  // namespace detail

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(detail::without_nul(message)) {}
};

class NotApplicable : public Error {
 public:
  explicit NotApplicable(const std::string& message) : Error(message) {}
};

class InternalError : public std::runtime_error {
 public:
  explicit InternalError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace mapsim
