#include "support/yaml_reader.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "support/error.h"
#include "support/input_file.h"
#include "support/message.h"
#include "support/units.h"

namespace mapsim {

namespace {

// The line of a second document in `text` (1-based), else 0: a "---" after content or after a first
// "---", or content after a "..." end marker. YAML::Load reads the first document and drops the rest.
int second_document_line(const std::string& text) {
  bool started = false, content = false, ended = false;
  std::istringstream in(text);
  int line = 0;
  for (std::string l; std::getline(in, l);) {
    ++line;
    const auto marker = [&](const char* m) { return l.compare(0, 3, m) == 0 && (l.size() == 3 || std::isspace(static_cast<unsigned char>(l[3]))); };
    const size_t first = l.find_first_not_of(" \t\r", marker("---") || marker("...") ? 3 : 0);
    const bool blank = first == std::string::npos || l[first] == '#';
    if (marker("---")) {
      if (started || content || ended) return line;
      started = true;
      content = !blank;
    } else if (marker("...")) {
      ended = true;
    } else if (!blank && !(l[0] == '%' && !started && !content)) {  // %YAML directives come before "---"
      if (ended) return line;
      content = true;
    }
  }
  return 0;
}

}  // namespace

YAML::Node YamlReader::load() const {
  std::ifstream in = open_input(path_, "YAML file");
  std::stringstream text;
  text << in.rdbuf();
  YAML::Node document;
  try {
    document = YAML::Load(text.str());
  } catch (const YAML::ParserException& e) {
    throw Error(path_ + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                ": malformed YAML: " + e.msg);
  }
  if (const int line = second_document_line(text.str()))
    throw Error(path_ + ":" + std::to_string(line) + ": a second YAML document; expected one");
  check_document(document);
  return document;
}

void YamlReader::check_document(const YAML::Node& document) const {
  long visited = 0;
  std::vector<YAML::Node> pending{document};  // aliases share nodes: a bomb is a small file that walks forever
  while (!pending.empty()) {
    const YAML::Node node = pending.back();
    pending.pop_back();
    if (++visited > kMaxYamlNodes)
      fail(document, "the document expands to more than " + std::to_string(kMaxYamlNodes) + " values (YAML aliases?)");
    if (node.IsScalar() && !clean_text(node.Scalar()))
      fail(node, "expected text (UTF-8 without control characters), got " + excerpt(node.Scalar()));
    if (node.IsSequence())
      for (const auto& item : node) pending.push_back(item);
    if (!node.IsMap()) continue;
    std::map<std::string, YAML::Mark> keys;
    for (const auto& entry : node) {
      if (entry.first.IsScalar()) {
        if (!clean_text(entry.first.Scalar()))
          fail(entry.first, "expected a key in text (UTF-8 without control characters), got " + excerpt(entry.first.Scalar()));
        const auto [first, added] = keys.emplace(entry.first.Scalar(), entry.first.Mark());
        if (!added)
          fail(entry.first, "key '" + first->first + "' is given twice in this mapping (first on line " +
                                std::to_string(first->second.line + 1) + ")");
      }
      pending.push_back(entry.second);
    }
  }
}

namespace {

// Whether `inner` is `outer` or a value inside it.
bool holds(const YAML::Node& outer, const YAML::Node& inner) {
  std::vector<YAML::Node> pending{outer};
  while (!pending.empty()) {
    const YAML::Node node = pending.back();
    pending.pop_back();
    if (!node.IsDefined()) continue;
    if (node.is(inner)) return true;
    if (node.IsSequence())
      for (const auto& item : node) pending.push_back(item);
    if (node.IsMap())
      for (const auto& entry : node) pending.push_back(entry.second);
  }
  return false;
}

}  // namespace

std::string YamlReader::where(const YAML::Node& at) const {
  std::string inside;  // the overrides within `at`
  if (overrides_ && at.IsDefined())
    for (const YamlOverride& o : *overrides_) {
      if (holds(o.node, at)) return o.origin;
      if (holds(at, o.node)) inside += (inside.empty() ? "" : ", ") + o.origin;
    }
  const YAML::Mark mark = at.Mark();
  const std::string position =
      mark.is_null() ? path_ : path_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
  return inside.empty() ? position : inside + ": " + position;
}

void YamlReader::fail(const YAML::Node& at, const std::string& message) const { throw Error(where(at) + ": " + message); }

void YamlReader::expect_map(const YAML::Node& node, const std::string& what) const {
  if (!node.IsMap()) fail(node, "expected " + what + " to be a mapping (key: value)");
}

void YamlReader::expect_sequence(const YAML::Node& node, const std::string& what) const {
  if (!node.IsSequence()) fail(node, "expected " + what + " to be a list");
}

void YamlReader::check_keys(const YAML::Node& map, const std::vector<std::string>& allowed) const {
  for (const auto& entry : map) {
    std::string key = entry.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string near = nearest_word(key, allowed);
    std::string valid;
    for (const std::string& a : allowed) valid += (valid.empty() ? "" : ", ") + a;
    const std::string hint = key.find('=') != std::string::npos ? " (a spec with commas inside {...} must be quoted)" : "";
    // A key --set made has no place in the file: its value says where it came from.
    fail(entry.first.Mark().is_null() ? entry.second : entry.first, "unknown key '" + key + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") + hint +
                          "; valid keys: " + valid);
  }
}

std::string YamlReader::scalar(const YAML::Node& node, const std::string& what) const {
  if (!node.IsScalar()) fail(node, "expected " + what + " to be a single value");
  return node.Scalar();
}

long YamlReader::integer(const YAML::Node& node, const std::string& what, long min, long max) const {
  std::string text = scalar(node, what);
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max)
    fail(node, "expected " + what + " to be an integer" +
                   (min > LONG_MIN || max < LONG_MAX ? " in " + std::to_string(min) + ".." + std::to_string(max) : "") +
                   ", got " + excerpt(text));
  return value;
}

double YamlReader::number(const YAML::Node& node, const std::string& what) const {
  std::string text = scalar(node, what);
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    fail(node, "expected " + what + " to be a number, got " + excerpt(text));
  return value;
}

namespace {
template <typename Parse>
double with_unit(const YamlReader& reader, const YAML::Node& node, Parse parse) {
  std::string text = reader.scalar(node, "a quantity");
  try {
    return parse(text);
  } catch (const Error& e) {
    reader.fail(node, e.what());
  }
}
}  // namespace

double YamlReader::bandwidth(const YAML::Node& node) const { return with_unit(*this, node, parse_bandwidth); }
double YamlReader::time(const YAML::Node& node) const { return with_unit(*this, node, parse_time); }
double YamlReader::size(const YAML::Node& node) const { return with_unit(*this, node, parse_size); }

ParamValue YamlReader::param(const YAML::Node& node, const Param& p, const std::string& what) const {
  ParamValue v;
  switch (p.type) {
    case ParamType::Text:
      v.text = scalar(node, what);
      return v;
    case ParamType::Integer:
      v.number = static_cast<double>(integer(node, what));
      break;
    case ParamType::Real:
      v.number = number(node, what);
      break;
    case ParamType::Size:
      v.number = size(node);
      break;
    case ParamType::Time:
      v.number = time(node);
      break;
    case ParamType::Bandwidth:
      v.number = bandwidth(node);
      break;
  }
  v.text = node.Scalar();
  if (!param_in_range(p, v.number)) fail(node, what + " must be " + param_range_text(p));
  return v;
}

}  // namespace mapsim
