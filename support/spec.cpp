#include "support/spec.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "support/error.h"
#include "support/units.h"
#include "support/yaml_reader.h"

namespace mapsim {

Spec Spec::parse(const std::string& text, const std::set<std::string>& path_valued, const std::set<std::string>& path_keys) {
  Spec spec;
  spec.text_ = text;
  auto colon = text.find(':');
  spec.name_ = text.substr(0, colon);
  if (spec.name_.empty()) throw Error("bad spec '" + text + "': expected NAME[:key=value,...]");
  if (colon == std::string::npos) return spec;
  std::string rest = text.substr(colon + 1);
  size_t start = 0;
  if (path_valued.count(spec.name_)) {
    size_t end = std::string::npos;
    for (const std::string& key : path_keys) end = std::min(end, rest.find("," + key + "="));
    spec.positional_ = rest.substr(0, end);
    if (spec.positional_->empty()) throw Error("bad spec '" + text + "': expected " + spec.name_ + ":PATH");
    if (end == std::string::npos) return spec;
    start = end + 1;
  }
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
  if (value->empty() || *end != '\0')
    throw Error("bad " + context() + ": " + key + "=" + *value + " is not an integer");
  if (errno == ERANGE) throw Error("bad " + context() + ": " + key + "=" + *value + " is out of range");
  // A seed becomes a uint64_t: -1 would wrap to a huge one (readers that declare it check this too).
  if (key == "seed" && result < 0) throw Error("bad " + context() + ": seed must be >= 0, got " + *value);
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

void Spec::declare(const std::vector<Param>& params) {
  declared_ = params;
  for (const Param& p : declared_)
    for (const std::string& alias : p.aliases) {
      auto it = values_.find(alias);
      if (it == values_.end()) continue;
      if (values_.count(p.name)) throw Error("bad " + context() + ": '" + alias + "' is another name for '" + p.name + "'; give one");
      values_.emplace(p.name, it->second);
      values_.erase(it);
    }
}

const Param& Spec::declared(const std::string& key) const {
  for (const Param& p : declared_)
    if (p.name == key) return p;
  throw InternalError("spec '" + text_ + "': parameter '" + key + "' is read but not declared");
}

double Spec::checked(const Param& p, double value) const {
  if (value < p.min || value > p.max || (p.above_min && value == p.min))
    throw Error("bad " + context() + ": " + p.name + " must be " +
                (p.range_words.empty() && std::isfinite(p.min) && std::isfinite(p.max) ? "in " : "") +
                param_range_text(p) + ", got " +
                (values_.count(p.name) ? values_.at(p.name) : format_number(value, 17)));
  return value;
}

namespace {
double default_of(const Param& p) {
  if (!p.number) throw InternalError("parameter '" + p.name + "' has no default: read it with find_number");
  return *p.number;
}
}  // namespace

long Spec::get_int(const std::string& key) {
  const Param& p = declared(key);
  const long value = get_int(key, static_cast<long>(default_of(p)));
  checked(p, static_cast<double>(value));
  return value;  // not the double back: 2^63 - 1 rounds up to 2^63, which no long holds
}
double Spec::get_double(const std::string& key) {
  const Param& p = declared(key);
  return checked(p, get_double(key, default_of(p)));
}
double Spec::get_bandwidth(const std::string& key) {
  const Param& p = declared(key);
  return checked(p, get_bandwidth(key, default_of(p)));
}
double Spec::get_time(const std::string& key) {
  const Param& p = declared(key);
  return checked(p, get_time(key, default_of(p)));
}
double Spec::get_size(const std::string& key) {
  const Param& p = declared(key);
  return checked(p, get_size(key, default_of(p)));
}
std::string Spec::get_string(const std::string& key) { return get_string(key, declared(key).text); }

std::optional<double> Spec::find_number(const std::string& key) {
  const Param& p = declared(key);
  if (!has(key)) {
    asked_.insert(key);
    return p.number;
  }
  switch (p.type) {
    case ParamType::Integer: return checked(p, static_cast<double>(get_int(key, 0)));
    case ParamType::Size: return checked(p, get_size(key, 0));
    case ParamType::Time: return checked(p, get_time(key, 0));
    case ParamType::Bandwidth: return checked(p, get_bandwidth(key, 0));
    default: return checked(p, get_double(key, 0));
  }
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
    std::vector<std::string> known(asked_.begin(), asked_.end());
    if (!declared_.empty()) {
      known.clear();
      for (const Param& p : declared_) known.push_back(p.name);
    }
    std::string valid;
    for (const std::string& k : known) valid += (valid.empty() ? "" : ", ") + k;
    const std::string near = nearest_word(key, known);
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
    if (part.empty() || *end != '\0')
      throw Error("bad " + context + ": dimensions '" + text + "' must look like 16x16 or 8x8x8");
    if (value < 1 || value > 1000000)
      throw Error("bad " + context + ": dimension " + part + " of '" + text + "' must be in 1..1000000");
    dims.push_back(static_cast<int>(value));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  return dims;
}

size_t one_of(const std::string& key, const std::string& value, const std::vector<std::string>& words) {
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] == value) return i;
  std::string expected;
  for (size_t i = 0; i < words.size(); ++i) expected += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  throw Error(key + ": expected " + expected + ", got '" + value + "'");
}

}  // namespace mapsim
