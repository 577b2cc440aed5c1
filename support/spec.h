// Generator specs on the command line: "name:key=value,key=value" or "name:POSITIONAL,key=value"
// (e.g. "mesh:16x16", "irregular:nodes=256,switches=75", "file:cluster.yaml").
// Readers take the keys they know; finish() rejects any key left over, naming the valid ones.
// A registered component's spec is first told its declared parameters (declare()): then the
// one-argument getters take the declared default, check the declared range and accept aliases.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/param.h"

namespace mapsim {

class Spec {
 public:
  // `path_valued` names take everything after ':' as one positional value (file paths may hold ','),
  // up to the first ",KEY=" whose KEY is one of `path_keys`: "ibnet:fabric.txt,lft=lfts.txt".
  static Spec parse(const std::string& text, const std::set<std::string>& path_valued = {},
                    const std::set<std::string>& path_keys = {});

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  const std::optional<std::string>& positional() const { return positional_; }
  const std::map<std::string, std::string>& values() const { return values_; }

  bool has(const std::string& key) const { return values_.count(key) != 0; }
  std::string get_string(const std::string& key, const std::string& fallback);
  long get_int(const std::string& key, long fallback);
  double get_double(const std::string& key, double fallback);
  double get_bandwidth(const std::string& key, double fallback);
  double get_time(const std::string& key, double fallback);
  double get_size(const std::string& key, double fallback);  // bytes: "64", "4KiB", "40MB"
  std::string require_positional(const std::string& what);

  void declare(const std::vector<Param>& params);
  // Declared parameters: the value given (or under an alias), else the declared default; numbers
  // outside the declared range are errors. A parameter without a default returns nullopt when absent.
  long get_int(const std::string& key);
  double get_double(const std::string& key);
  double get_bandwidth(const std::string& key);
  double get_time(const std::string& key);
  double get_size(const std::string& key);
  std::string get_string(const std::string& key);
  std::optional<double> find_number(const std::string& key);
  // Throws if a key was given that no get_* asked for.
  void finish() const;

 private:
  std::string context() const;
  const std::string* lookup(const std::string& key);
  const Param& declared(const std::string& key) const;
  double checked(const Param& param, double value) const;

  std::string text_;
  std::string name_;
  std::optional<std::string> positional_;
  std::map<std::string, std::string> values_;
  std::set<std::string> asked_;
  bool positional_used_ = false;
  std::vector<Param> declared_;
};

// How the specs of one kind of component are written (Registry::syntax() derives it from the entries).
struct SpecSyntax {
  std::set<std::string> path_valued;                  // names whose positional is a file path: "NAME:PATH"
  std::set<std::string> path_keys;                    // keys that may follow that path (its end is found at them)
  std::set<std::string> file_keys;                    // of those, the keys whose values are file paths too ("lft")
  std::map<std::string, std::string> positional_key;  // name -> key of its positional in the map form
  std::set<std::string> seeded;                       // names that take seed=
  Spec parse(const std::string& text) const { return Spec::parse(text, path_valued, path_keys); }
};

// The index of `value` among `words`, the values a text option takes; else an Error
// "KEY: expected a, b or c, got 'value'".
size_t one_of(const std::string& key, const std::string& value, const std::vector<std::string>& words);

// "16x16" or "8x8x8" -> {16, 16}; each extent >= 1.
std::vector<int> parse_dims(const std::string& text, const std::string& context);

}  // namespace mapsim
