#include "topologies/spec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "topologies/error.h"
#include "topologies/units.h"
#include "topologies/yaml_reader.h"

namespace mapsim {

Spec Spec::parse(const std::string& text, const std::set<std::string>& path_valued) {
  Spec spec;
  spec.text_ = text;
  auto colon = text.find(':');
  spec.name_ = text.substr(0, colon);
  if (spec.name_.empty()) throw Error("bad spec '" + text + "': expected NAME[:key=value,...]");
  if (colon == std::string::npos) return spec;
  std::string rest = text.substr(colon + 1);
  if (path_valued.count(spec.name_)) {
    if (rest.empty()) throw Error("bad spec '" + text + "': expected " + spec.name_ + ":PATH");
    spec.positional_ = rest;
    return spec;
  }
  size_t start = 0;
  while (start <= rest.size()) {
    size_t comma = rest.find(',', start);
    std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw Error("bad spec '" + text + "': empty item between commas");
    auto eq = item.find('=');
    if (eq == std::string::npos) {
      if (spec.positional_ || start != 0)
        throw Error("bad spec '" + text + "': expected key=value, got '" + item + "'");
      spec.positional_ = item;
    } else {
      std::string key = item.substr(0, eq);
      if (key.empty()) throw Error("bad spec '" + text + "': missing key before '='");
      if (!spec.values_.emplace(key, item.substr(eq + 1)).second)
        throw Error("bad spec '" + text + "': key '" + key + "' given twice");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return spec;
}

std::string Spec::context() const { return "spec '" + text_ + "'"; }

const std::string* Spec::lookup(const std::string& key) {
  asked_.insert(key);
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

std::string Spec::get_string(const std::string& key, const std::string& fallback) {
  const std::string* value = lookup(key);
  return value ? *value : fallback;
}

long Spec::get_int(const std::string& key, long fallback) {
  const std::string* value = lookup(key);
  if (!value) return fallback;
  char* end = nullptr;
  errno = 0;
  long result = std::strtol(value->c_str(), &end, 10);
  if (value->empty() || *end != '\0' || errno == ERANGE)
    throw Error("bad " + context() + ": " + key + "=" + *value + " is not an integer");
  return result;
}

double Spec::get_double(const std::string& key, double fallback) {
  const std::string* value = lookup(key);
  if (!value) return fallback;
  char* end = nullptr;
  double result = std::strtod(value->c_str(), &end);
  if (value->empty() || *end != '\0' || !std::isfinite(result))
    throw Error("bad " + context() + ": " + key + "=" + *value + " is not a number");
  return result;
}

namespace {
template <typename Parse>
double get_unit(const std::string* value, double fallback, const std::string& context,
                const std::string& key, Parse parse) {
  if (!value) return fallback;
  try {
    return parse(*value);
  } catch (const Error& error) {
    throw Error("bad " + context + ": " + key + ": " + error.what());
  }
}
}  // namespace

double Spec::get_bandwidth(const std::string& key, double fallback) {
  return get_unit(lookup(key), fallback, context(), key, parse_bandwidth);
}

double Spec::get_time(const std::string& key, double fallback) {
  return get_unit(lookup(key), fallback, context(), key, parse_time);
}

double Spec::get_size(const std::string& key, double fallback) {
  return get_unit(lookup(key), fallback, context(), key, parse_size);
}

std::string Spec::require_positional(const std::string& what) {
  if (!positional_) throw Error("bad " + context() + ": expected " + name_ + ":" + what);
  positional_used_ = true;
  return *positional_;
}

void Spec::finish() const {
  if (positional_ && !positional_used_)
    throw Error("bad " + context() + ": " + name_ + " takes key=value items only, got '" + *positional_ + "'");
  for (const auto& [key, value] : values_) {
    if (asked_.count(key)) continue;
    std::string valid;
    for (const std::string& known : asked_) valid += (valid.empty() ? "" : ", ") + known;
    const std::string near = nearest_word(key, {asked_.begin(), asked_.end()});
    throw Error("bad " + context() + ": unknown key '" + key + "' for " + name_ +
                (near.empty() ? "" : " (did you mean '" + near + "'?)") + " (valid keys: " +
                (valid.empty() ? "none" : valid) + ")");
  }
}

std::vector<int> parse_dims(const std::string& text, const std::string& context) {
  std::vector<int> dims;
  size_t start = 0;
  while (true) {
    size_t x = text.find('x', start);
    std::string part = text.substr(start, x == std::string::npos ? std::string::npos : x - start);
    char* end = nullptr;
    long value = std::strtol(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || value < 1 || value > 1000000)
      throw Error("bad " + context + ": dimensions '" + text + "' must look like 16x16 or 8x8x8");
    dims.push_back(static_cast<int>(value));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  return dims;
}

}  // namespace mapsim
