// Splits a set of slots (seen at switch level) into two halves of given sizes so that the routed
// hops across the cut are as large as possible (moh2001's processor-side cut of BM): the initial
// first half merges the largest switches, then Fiduccia-Mattheyses passes move single slots.
// The hops between the S switches are looked up once, at construction: 2 S^2 bytes (46 MB for the
// 4,800 switches of a 16384-node network).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "mappers/internal/switch_slots.h"

namespace mapsim {

class SlotBisection {
 public:
  SlotBisection(const RoutedNetwork& routed, const std::vector<SwitchSlots>& groups);

  // The first half has `first_size` slots.
  std::pair<std::vector<SlotShare>, std::vector<SlotShare>> split(const std::vector<SlotShare>& set, int first_size) const;

 private:
  size_t groups_;
  std::vector<uint16_t> hops_;  // group x group
};

}  // namespace mapsim
