#include "support/units.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "support/error.h"

namespace mapsim {
namespace {

// value * mul / div: dividing by 1e9 instead of multiplying by 1e-9 keeps "20ns" == 20 / 1e9
// exactly (correctly rounded), which the exact-latency tests rely on.
struct Unit {
  const char* suffix;
  double mul;
  double div = 1;
};

// Splits "12.5Gbps" into 12.5 and "Gbps"; the number must be finite and non-negative.
std::pair<double, std::string> split_number(const std::string& text, const char* what,
                                            const char* expected) {
  const char* begin = text.c_str();
  char* end = nullptr;
  double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value) || value < 0)
    throw Error("bad " + std::string(what) + " '" + text + "': expected " + expected);
  std::string suffix = text.substr(static_cast<size_t>(end - begin));  // all of it: a NUL byte is no end
  while (!suffix.empty() && suffix.front() == ' ') suffix.erase(suffix.begin());
  return {value, suffix};
}

double parse_with(const std::string& text, const std::vector<Unit>& units, const char* what,
                  const char* expected) {
  auto [value, suffix] = split_number(text, what, expected);
  for (const Unit& unit : units)
    if (suffix == unit.suffix) {
      const double result = value * unit.mul / unit.div;
      if (!std::isfinite(result)) throw Error("bad " + std::string(what) + " '" + text + "': too large");
      return result;
    }
  throw Error("bad " + std::string(what) + " '" + text + "': expected " + expected);
}

}  // namespace

double parse_bandwidth(const std::string& text) {
  static const std::vector<Unit> units = {
      {"", 1},         {"B/s", 1},        {"Bps", 1},        {"bps", 1, 8},
      {"kbps", 1e3, 8}, {"Kbps", 1e3, 8},  {"Mbps", 1e6, 8},  {"Gbps", 1e9, 8},
      {"Tbps", 1e12, 8}, {"kB/s", 1e3},    {"KB/s", 1e3},     {"MB/s", 1e6},
      {"GB/s", 1e9},   {"TB/s", 1e12},    {"KiB/s", 1024.0}, {"MiB/s", 1048576.0},
      {"GiB/s", 1073741824.0}};
  const double value = parse_with(text, units, "bandwidth",
                                  "a number with bps, kbps, Mbps, Gbps, Tbps, B/s, kB/s, MB/s, GB/s, TB/s, "
                                  "KiB/s, MiB/s or GiB/s (e.g. 10Gbps)");
  if (!(value > 0)) throw Error("bad bandwidth '" + text + "': must be above 0 (a link that carries nothing)");
  // Bounded, like times and sizes below, so that no product or quotient of them leaves the doubles
  // (1e-311 B/s would make every message take forever, and the run look deadlocked).
  if (value < kMinBandwidth || value > kMaxBandwidth)
    throw Error("bad bandwidth '" + text + "': expected 1 B/s (8bps) to 1e18 B/s");
  return value;
}

double parse_time(const std::string& text) {
  static const std::vector<Unit> units = {{"", 1},        {"s", 1},        {"ms", 1, 1e3},
                                          {"us", 1, 1e6}, {"ns", 1, 1e9}, {"ps", 1, 1e12}};
  const double value = parse_with(text, units, "time", "a number with s, ms, us, ns or ps (e.g. 20ns)");
  if (value > kMaxTime) throw Error("bad time '" + text + "': above 1e6 s (11.6 days), the longest mapsim simulates");
  return value;
}

double parse_size(const std::string& text) {
  static const std::vector<Unit> units = {
      {"", 1},           {"B", 1},           {"kB", 1e3},          {"KB", 1e3},
      {"MB", 1e6},       {"GB", 1e9},        {"KiB", 1024.0},      {"MiB", 1048576.0},
      {"GiB", 1073741824.0}};
  const double value = parse_with(text, units, "size", "a number with B, kB, MB, GB, KiB, MiB or GiB (e.g. 4KiB)");
  if (value > kMaxSize) throw Error("bad size '" + text + "': above 2^53 bytes (9 PB), where byte counts stop being exact");
  return value;
}

namespace {
std::string format_scaled(double value, const std::vector<Unit>& units) {
  // units sorted from largest to smallest; pick the first that gives a value >= 1.
  for (const Unit& unit : units) {
    double scaled = value * unit.div / unit.mul;
    if (scaled >= 1 || &unit == &units.back()) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%g%s", scaled, unit.suffix);
      return buffer;
    }
  }
  return {};
}
}  // namespace

std::string format_number(double value, int significant_digits) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant_digits, value);
  return buffer;
}

std::string format_exact(double value) {
  char buffer[40];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc() ? std::string(buffer, end) : format_number(value, 17);
}

std::string csv_number(double value) { return std::isnan(value) ? std::string() : format_exact(value); }

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string format_bandwidth(double bytes_per_second) {
  static const std::vector<Unit> units = {
      {"Tbps", 1e12, 8}, {"Gbps", 1e9, 8}, {"Mbps", 1e6, 8}, {"kbps", 1e3, 8}, {"bps", 1, 8}};
  return format_scaled(bytes_per_second, units);
}

std::string format_size(double bytes) {
  static const std::pair<const char*, double> units[] = {{"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0}};
  for (const auto& [suffix, factor] : units)
    if (bytes >= factor && std::fmod(bytes, factor) == 0) return format_number(bytes / factor, 17) + suffix;
  return format_number(bytes, 17) + "B";
}

std::string format_byte_rate(double bytes_per_second) {
  static const std::vector<Unit> units = {{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"kB/s", 1e3}, {"B/s", 1}};
  return format_scaled(bytes_per_second, units);
}

std::string format_time(double seconds) {
  if (seconds == 0) return "0s";
  static const std::vector<Unit> units = {
      {"s", 1}, {"ms", 1, 1e3}, {"us", 1, 1e6}, {"ns", 1, 1e9}, {"ps", 1, 1e12}};
  return format_scaled(seconds, units);
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;" : std::string(1, c);
  return out;
}

bool parse_quantity(const std::string& text, double& value, std::string& kind) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size()) {
    kind = "number";
    return std::isfinite(value);
  }
  const std::pair<const char*, double (*)(const std::string&)> kinds[] = {
      {"bandwidth", parse_bandwidth}, {"time", parse_time}, {"size", parse_size}};
  for (const auto& [name, parse] : kinds) {
    try {
      value = parse(text);
    } catch (const Error&) {
      continue;
    }
    kind = name;
    return true;
  }
  return false;
}

std::pair<const char*, double> time_unit(double largest) {
  static const std::pair<const char*, double> units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};
  for (const auto& unit : units)
    if (largest * unit.second >= 1) return unit;
  return units[3];
}

}  // namespace mapsim
