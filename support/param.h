// A component's parameter as a registry declares it: name, type, unit (by type), default and a
// one-line description. Spec::declare() takes a list of them, so that a component reads its keys
// with the declared defaults and ranges, and --help and docs/components.md print the same table.
#pragma once
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace mapsim {

enum class ParamType { Integer, Real, Text, Size, Time, Bandwidth };

struct Param {
  std::string name;
  ParamType type = ParamType::Integer;
  std::string description;
  std::optional<double> number;            // numeric default in SI base units (none: derived, see `text`)
  std::string text;                        // Text default, or what a missing numeric value means
  double min = -HUGE_VAL, max = HUGE_VAL;  // accepted range (numeric types)
  bool above_min = false;                  // the value must exceed min (a bandwidth > 0)
  std::vector<std::string> aliases;        // older names still accepted
  std::string range_words;                 // the range as docs and messages say it, when the numbers say it
                                           // badly ("1 to 1e18 flop/s", "at least 1 byte"); empty: from min, max
};

// A value read by its declaration: a number in SI base units (bytes, seconds, bytes/s), or the text of a
// Text parameter.
struct ParamValue {
  double number = 0;
  std::string text;
};

// Builders, so that declarations read as one line each.
Param integer_param(std::string name, long fallback, std::string description, double min = -HUGE_VAL,
                    double max = HUGE_VAL);
Param real_param(std::string name, double fallback, std::string description, double min = -HUGE_VAL,
                 double max = HUGE_VAL);
Param text_param(std::string name, std::string fallback, std::string description);
Param size_param(std::string name, double fallback, std::string description, double min = 0);
Param time_param(std::string name, double fallback, std::string description, double min = 0);
Param bandwidth_param(std::string name, double fallback, std::string description);
// A numeric parameter without a fixed default: `derived` says what an absent value means.
Param derived_param(std::string name, ParamType type, std::string derived, std::string description,
                    double min = -HUGE_VAL, double max = HUGE_VAL);
Param with_aliases(Param param, std::vector<std::string> aliases);
Param above(Param param, double min);  // the value must be > min
Param with_range_words(Param param, std::string words);

const char* param_type_name(ParamType type);     // integer, real, text, size, time, bandwidth
std::string param_default_text(const Param& p);  // "300ns", "10Gbps", "200", "distance"
std::string param_range_text(const Param& p);    // "1..1000000", ">= 0", "" (none), or its range_words
// Whether a number is finite and inside the declared range.
bool param_in_range(const Param& p, double value);
// `text` read as a value of `p` -- units by its type ("4KiB", "20ns", "10Gbps") -- and checked against the
// declared range. Throws Error: the unit parser's message ("bad size 'x': ..."), "expected an integer, got
// 'x'", or "must be RANGE"; the caller names the key or flag.
ParamValue read_param_text(const Param& p, const std::string& text);

}  // namespace mapsim
