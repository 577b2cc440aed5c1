// Internal to sim/: slots reused through a free list (messages, requests, flows).
#pragma once
#include <vector>

namespace mapsim::sim {

// An id from the free list, else a new default element at the end.
template <class T>
int acquire(std::vector<T>& items, std::vector<int>& free) {
  if (free.empty()) {
    items.emplace_back();
    return static_cast<int>(items.size()) - 1;
  }
  const int id = free.back();
  free.pop_back();
  return id;
}

}  // namespace mapsim::sim
