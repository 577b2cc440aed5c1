// Strict reading of YAML documents with diagnostics "FILE:LINE:COL: expected ...".
// Shared by network files and scenario files: unknown keys are rejected with the nearest valid key.
#pragma once
#include <climits>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace mapsim {

class YamlReader {
 public:
  explicit YamlReader(std::string path) : path_(std::move(path)) {}

  // Parses a whole file; malformed YAML becomes an Error with its line and column, and so do a
  // key given twice in one mapping and a document that aliases expand beyond kMaxYamlNodes.
  YAML::Node load() const;
  // The checks of load() on a document parsed elsewhere (a --set value).
  void check_document(const YAML::Node& document) const;

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

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

constexpr long kMaxYamlNodes = 5000000;

// The candidate closest to `word` by edit distance (empty if none is reasonably close).
std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace mapsim
