// JSON output text. Strings from input (names, paths, error messages) may hold bytes that are not
// UTF-8; nlohmann's strict dump throws on them, so every JSON file and stdout dump goes through
// here and gets U+FFFD in their place.
#pragma once
#include <cmath>
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace mapsim {

// Json: nlohmann::json or nlohmann::ordered_json (a conversion between them would reorder keys).
template <typename Json>
std::string json_text(const Json& value, int indent = -1) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// A number, or null for NaN (a value that does not apply): JSON has no NaN.
inline nlohmann::ordered_json json_number(double value) {
  return std::isnan(value) ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
}

// The number back: null is NaN.
template <typename Json>
double number_or_nan(const Json& value) {
  return value.is_null() ? std::nan("") : value.template get<double>();
}

// What a JSON parse error says, in plain words: nlohmann's "[json.exception.parse_error.101] parse
// error at line 3, column 5: syntax error while parsing value - unexpected end of input; expected '[',
// '{', or a literal" becomes " (line 3, column 5): unexpected end of input; expected '[', '{', or a
// literal", to follow "FILE: not JSON". Bounded: the token nlohmann quotes may be long.
inline std::string json_parse_problem(const std::string& what) {
  std::string text = what, where;
  if (text.rfind("[json.exception.", 0) == 0)
    if (const size_t close = text.find("] "); close != std::string::npos) text.erase(0, close + 2);
  const std::string at = "parse error at ";
  if (text.rfind(at, 0) == 0) {
    if (const size_t colon = text.find(": ", at.size()); colon != std::string::npos) {
      where = text.substr(at.size(), colon - at.size());
      text.erase(0, colon + 2);
    }
  } else if (text.rfind("parse error: ", 0) == 0) {
    text.erase(0, 13);
  }
  if (text.rfind("syntax error while parsing ", 0) == 0)
    if (const size_t dash = text.find(" - "); dash != std::string::npos) text.erase(0, dash + 3);
  constexpr size_t kMax = 160;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return (where.empty() ? std::string() : " (" + where + ")") + ": " + text;
}

}  // namespace mapsim
