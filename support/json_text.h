// JSON output text. Strings from input (names, paths, error messages) may hold bytes that are not
// UTF-8; nlohmann's strict dump throws on them, so every JSON file and stdout dump goes through
// here and gets U+FFFD in their place.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace mapsim {

// Json: nlohmann::json or nlohmann::ordered_json (a conversion between them would reorder keys).
template <typename Json>
std::string json_text(const Json& value, int indent = -1) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace mapsim
