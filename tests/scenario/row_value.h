// Test helper: a result row's value by its column name (the test fails when the row has none).
#pragma once
#include <doctest/doctest.h>

#include <string>

#include "scenario/run.h"

inline double row_value(const mapsim::RunRow& row, const std::string& key) {
  for (const auto& [name, value] : row.values)
    if (name == key) return value;
  FAIL("no column " << key);
  return 0;
}
