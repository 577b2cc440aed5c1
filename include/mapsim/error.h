// mapsim's one exception: a bad input, an impossible parameter, a failed run. what() is the complete
// one-line diagnostic the CLI prints after "mapsim: error: " ("FILE:LINE: expected ...").
#pragma once
#include <mapsim/export.h>
#include <stdexcept>
#include <string>

namespace mapsim {

namespace detail {
// what() is a C string: a NUL byte quoted from input would end the message there. It becomes the
// text \x00, as the CLI shows the other control bytes.
inline std::string without_nul(const std::string& message) {
  if (message.find('\0') == std::string::npos) return message;
  std::string out;
  for (char c : message) out += c == '\0' ? std::string("\\x00") : std::string(1, c);
  return out;
}
}  // namespace detail

class MAPSIM_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(detail::without_nul(message)) {}
};

}  // namespace mapsim
