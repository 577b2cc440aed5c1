// Strict reading of YAML documents with diagnostics "FILE:LINE:COL: expected ...".
// Shared by network files and scenario files: unknown keys are rejected with the nearest valid key.
#pragma once
#include <climits>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "support/message.h"
#include "support/param.h"

namespace mapsim {

// A value put into a document from outside its file (--set, a command-line flag, a sweep's set:):
// errors at it or inside it name `origin` ("--set seed=-1", "--mapper") instead of a file position.
struct YamlOverride {
  YAML::Node node;
  std::string origin;
};
using YamlOverrides = std::vector<YamlOverride>;

class YamlReader {
 public:
  explicit YamlReader(std::string path, const YamlOverrides* overrides = nullptr)
      : path_(std::move(path)), overrides_(overrides) {}

  // Parses a whole file; malformed YAML becomes an Error with its line and column, and so do a
  // key given twice in one mapping, text that is not UTF-8 or holds control characters, and a
  // document that aliases expand beyond kMaxYamlNodes.
  YAML::Node load() const;
  // The checks of load() on a document parsed elsewhere (a --set value).
  void check_document(const YAML::Node& document) const;

  // Where `at` comes from: "FILE:LINE:COL", FILE for a node without a mark, the override's origin
  // for a node set from outside, or "ORIGIN: FILE:LINE:COL" for a mapping that holds one.
  std::string where(const YAML::Node& at) const;
  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const;
  void expect_map(const YAML::Node& node, const std::string& what) const;
  void expect_sequence(const YAML::Node& node, const std::string& what) const;
  // Every key of `map` must be in `allowed`; otherwise "unknown key 'x' (did you mean 'y'?)".
  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed) const;

  std::string scalar(const YAML::Node& node, const std::string& what) const;
  long integer(const YAML::Node& node, const std::string& what, long min = LONG_MIN, long max = LONG_MAX) const;
  double number(const YAML::Node& node, const std::string& what) const;
  double bandwidth(const YAML::Node& node) const;
  double time(const YAML::Node& node) const;
  double size(const YAML::Node& node) const;
  // A value of a declared parameter (support/param.h) read by its type -- as size(), time(),
  // bandwidth(), number() or integer() would, or as text -- and checked against the declared range:
  // "WHAT must be RANGE" (param_range_text). `what` is the key path, "model.mtu".
  ParamValue param(const YAML::Node& node, const Param& p, const std::string& what) const;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const YamlOverrides* overrides_;
};

constexpr long kMaxYamlNodes = 5000000;


}  // namespace mapsim
