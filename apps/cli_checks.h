// Validators for CLI11 options with one-line messages in the user's terms ("--point: expected a
// whole number >= 0, got '-1'"), instead of CLI11's ranges printed to 300 digits; and the check
// that an output file's folder exists, made before any work.
#pragma once
#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <string>
#include <system_error>

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

// Throws "OPTION_A and OPTION_B name the same file PATH" when two outputs of one command are one file
// (written as two paths: `f` and `./f`, a link, a hard link): the second would overwrite the first.
inline void refuse_same_output(const std::string& option_a, const std::string& a, const std::string& option_b,
                               const std::string& b) {
  namespace fs = std::filesystem;
  if (a.empty() || b.empty()) return;
  // Where writing `path` lands: through links, also one to a file not there yet (written through).
  const auto target = [](fs::path path, std::error_code& ec) {
    path = fs::absolute(path);
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(path, ec)); ++hops)
      path = (path.parent_path() / fs::read_symlink(path, ec)).lexically_normal();
    return fs::weakly_canonical(path, ec);
  };
  std::error_code ec, ec2, ec3;
  const fs::path target_a = target(a, ec), target_b = target(b, ec2);
  const bool same = (!ec && !ec2 && target_a == target_b) || fs::equivalent(a, b, ec3);
  if (same) throw Error(option_a + " and " + option_b + " name the same file " + b);
}

}  // namespace mapsim
