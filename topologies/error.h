// mapsim::Error: the one exception type for bad input. Its message is a complete
// one-line diagnostic ("FILE:LINE: expected ...") that the CLI prints as is.
#pragma once
#include <stdexcept>
#include <string>

namespace mapsim {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace mapsim
