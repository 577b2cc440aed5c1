// Test helper: a result row's value by its column name (the test fails when the row has none).
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "scenario/run.h"

inline double row_value(const mapsim::RunRow& row, const std::string& key) {
  for (const auto& [name, value] : row.values)
    if (name == key) return value;
  FAIL("no column " << key);
  return 0;
}

// Whether two rows hold the same columns with the same values, bit for bit; NaN (a column that does not
// apply) equals NaN.
inline bool same_values(const mapsim::RunRow& a, const mapsim::RunRow& b) {
  if (a.values.size() != b.values.size()) return false;
  for (size_t k = 0; k < a.values.size(); ++k) {
    const auto& [name, value] = a.values[k];
    if (name != b.values[k].first) return false;
    if (!(value == b.values[k].second || (std::isnan(value) && std::isnan(b.values[k].second)))) return false;
  }
  return true;
}
