#include "support/param.h"

#include <cerrno>
#include <cstdlib>

#include "support/error.h"
#include "support/message.h"
#include "support/units.h"

namespace mapsim {
namespace {

Param numeric(std::string name, ParamType type, double fallback, std::string description, double min, double max) {
  Param p;
  p.name = std::move(name);
  p.type = type;
  p.description = std::move(description);
  p.number = fallback;
  p.min = min;
  p.max = max;
  return p;
}

}  // namespace

Param integer_param(std::string name, long fallback, std::string description, double min, double max) {
  return numeric(std::move(name), ParamType::Integer, static_cast<double>(fallback), std::move(description), min, max);
}
Param real_param(std::string name, double fallback, std::string description, double min, double max) {
  return numeric(std::move(name), ParamType::Real, fallback, std::move(description), min, max);
}
Param size_param(std::string name, double fallback, std::string description, double min) {
  return numeric(std::move(name), ParamType::Size, fallback, std::move(description), min, HUGE_VAL);
}
Param time_param(std::string name, double fallback, std::string description, double min) {
  return numeric(std::move(name), ParamType::Time, fallback, std::move(description), min, HUGE_VAL);
}
Param bandwidth_param(std::string name, double fallback, std::string description) {
  return above(numeric(std::move(name), ParamType::Bandwidth, fallback, std::move(description), 0, HUGE_VAL), 0);
}
Param text_param(std::string name, std::string fallback, std::string description) {
  Param p;
  p.name = std::move(name);
  p.type = ParamType::Text;
  p.description = std::move(description);
  p.text = std::move(fallback);
  return p;
}
Param derived_param(std::string name, ParamType type, std::string derived, std::string description, double min,
                    double max) {
  Param p = numeric(std::move(name), type, 0, std::move(description), min, max);
  p.number.reset();
  p.text = std::move(derived);
  return p;
}
Param with_aliases(Param param, std::vector<std::string> aliases) {
  param.aliases = std::move(aliases);
  return param;
}

Param above(Param param, double min) {
  param.min = min;
  param.above_min = true;
  return param;
}

Param with_range_words(Param param, std::string words) {
  param.range_words = std::move(words);
  return param;
}

const char* param_type_name(ParamType type) {
  switch (type) {
    case ParamType::Integer:
      return "integer";
    case ParamType::Real:
      return "real";
    case ParamType::Text:
      return "text";
    case ParamType::Size:
      return "size";
    case ParamType::Time:
      return "time";
    case ParamType::Bandwidth:
      return "bandwidth";
  }
  return "?";
}

std::string param_default_text(const Param& p) {
  if (!p.number) return p.text;
  switch (p.type) {
    case ParamType::Time:
      return format_time(*p.number);
    case ParamType::Bandwidth:
      return format_bandwidth(*p.number);
    case ParamType::Size:
      return format_number(*p.number) + "B";
    default:
      return format_number(*p.number);
  }
}

std::string param_range_text(const Param& p) {
  if (!p.range_words.empty()) return p.range_words;
  const bool low = std::isfinite(p.min), high = std::isfinite(p.max);
  if (low && high)
    return p.above_min ? "(" + format_number(p.min, 17) + ", " + format_number(p.max, 17) + "]"
                       : format_number(p.min, 17) + ".." + format_number(p.max, 17);
  if (low) return (p.above_min ? "> " : ">= ") + format_number(p.min, 17);
  if (high) return "<= " + format_number(p.max, 17);
  return "";
}

bool param_in_range(const Param& p, double value) {
  return std::isfinite(value) && value >= p.min && value <= p.max && !(p.above_min && value == p.min);
}

ParamValue read_param_text(const Param& p, const std::string& text) {
  ParamValue v;
  v.text = text;
  char* end = nullptr;
  switch (p.type) {
    case ParamType::Text:
      return v;
    case ParamType::Integer:
      errno = 0;
      v.number = static_cast<double>(std::strtol(text.c_str(), &end, 10));
      if (text.empty() || *end != '\0' || errno == ERANGE) throw Error("expected an integer, got " + excerpt(text));
      break;
    case ParamType::Real:
      v.number = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(v.number)) throw Error("expected a number, got " + excerpt(text));
      break;
    case ParamType::Size:
      v.number = parse_size(text);
      break;
    case ParamType::Time:
      v.number = parse_time(text);
      break;
    case ParamType::Bandwidth:
      v.number = parse_bandwidth(text);
      break;
  }
  if (!param_in_range(p, v.number)) throw Error("must be " + param_range_text(p));
  return v;
}

}  // namespace mapsim
