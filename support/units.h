// Physical quantities with units, as users write them in specs and YAML:
// bandwidth "10Gbps", "1.25GB/s"; time "20ns", "2us"; size "4KiB".
// Results are SI base units: bytes/s, seconds, bytes. A bare number is taken as the base unit.
#pragma once
#include <string>
#include <utility>

namespace mapsim {

// Each refuses values outside the range it can simulate: bandwidths kMinBandwidth..kMaxBandwidth,
// times 0..kMaxTime, sizes 0..kMaxSize (their products and quotients stay finite and exact enough).
double parse_bandwidth(const std::string& text);  // -> bytes per second
double parse_time(const std::string& text);       // -> seconds
double parse_size(const std::string& text);       // -> bytes
constexpr double kMinBandwidth = 1, kMaxBandwidth = 1e18;  // bytes/s
constexpr double kMaxTime = 1e6;                          // seconds (11.6 days)
constexpr double kMaxSize = 9007199254740992.0;           // bytes, 2^53
// A plain number ("number") or a quantity of one of the kinds above ("bandwidth", "time", "size"),
// in SI base units; false when `text` is neither.
bool parse_quantity(const std::string& text, double& value, std::string& kind);

// Short human-readable forms used in reports ("10Gbps", "300ns", "4KiB").
std::string format_bandwidth(double bytes_per_second);
std::string format_time(double seconds);
// Sizes and bandwidths as the docs write defaults: "64KiB", "4KiB", "1MiB" (a whole number of the
// largest binary unit that divides it), else "1000B"; "10GB/s", "1.25GB/s" (decimal bytes per second).
std::string format_size(double bytes);
std::string format_byte_rate(double bytes_per_second);
// The unit for a column of times: the largest of s, ms, us, ns in which `largest` is at least 1,
// and its factor from seconds ({"us", 1e6} for 4.9e-6).
std::pair<const char*, double> time_unit(double largest);
// printf("%.*g"): 17 significant digits round-trip a double exactly.
std::string format_number(double value, int significant_digits = 6);
// The shortest text that reads back as exactly `value` (std::to_chars).
std::string format_exact(double value);
// A result's CSV cell: format_exact, or empty for NaN (a value that does not apply; never written as 0).
std::string csv_number(double value);
// A CSV field (RFC 4180): quoted, with doubled quotes, when it holds a comma, quote or newline.
std::string csv_field(const std::string& text);
// `text` in HTML (and Graphviz HTML labels): & < > " as entities.
std::string html_escape(const std::string& text);

}  // namespace mapsim
