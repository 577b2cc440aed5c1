// Validators for CLI11 options with one-line messages in the user's terms ("--point: expected a
// whole number >= 0, got '-1'"), instead of CLI11's ranges printed to 300 digits; and the check
// that an output file's folder exists, made before any work.
#pragma once
#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <string>

#include "support/error.h"

namespace mapsim {

// A whole number >= `least`.
inline CLI::Validator whole_number_at_least(long least) {
  return CLI::Validator(
      [least](std::string& text) {
        size_t used = 0;
        long value = 0;
        try {
          value = std::stol(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != text.size() || text.empty() || value < least)
          return "expected a whole number >= " + std::to_string(least) + ", got '" + text + "'";
        return std::string();
      },
      "INT>=" + std::to_string(least));
}

// A finite number that `accept` takes ("expected a number WHAT, got 'x'").
inline CLI::Validator finite_number(bool (*accept)(double), const std::string& what, const std::string& name) {
  return CLI::Validator(
      [accept, what](std::string& text) {
        size_t used = 0;
        double value = 0;
        try {
          value = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != text.size() || text.empty() || !std::isfinite(value) || !accept(value))
          return "expected a finite number " + what + ", got '" + text + "'";
        return std::string();
      },
      name);
}

inline CLI::Validator positive_number() {
  return finite_number([](double v) { return v > 0; }, "> 0", "NUMBER>0");
}
inline CLI::Validator finite_nonzero() {
  return finite_number([](double v) { return v != 0; }, "other than 0", "NUMBER!=0");
}

// Throws "OPTION PATH: the folder F does not exist" when PATH's folder is missing.
inline void require_output_folder(const std::string& option, const std::string& path) {
  const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
  if (!std::filesystem::is_directory(folder))
    throw Error(option + " " + path + ": the folder " + folder.string() + " does not exist");
}

}  // namespace mapsim
