#include "mappers/internal/slot_bisection.h"

#include <algorithm>
#include <numeric>

#include "mappers/internal/fm_pass.h"

namespace mapsim {

SlotBisection::SlotBisection(const RoutedNetwork& routed, const std::vector<SwitchSlots>& groups)
    : groups_(groups.size()), hops_(groups_ * groups_) {
  for (size_t i = 0; i < groups_; ++i)
    for (size_t j = 0; j < groups_; ++j) hops_[i * groups_ + j] = static_cast<uint16_t>(group_hops(routed, groups[i], groups[j]));
}

std::pair<std::vector<SlotShare>, std::vector<SlotShare>> SlotBisection::split(const std::vector<SlotShare>& set,
                                                                           int first_size) const {
  const size_t k = set.size();
  std::vector<int> a(k, 0), b(k, 0);
  std::vector<size_t> by_size(k);
  std::iota(by_size.begin(), by_size.end(), 0);
  std::stable_sort(by_size.begin(), by_size.end(), [&](size_t x, size_t y) { return set[x].count > set[y].count; });
  int need = first_size;
  for (size_t i : by_size) {
    a[i] = std::min(need, set[i].count);
    b[i] = set[i].count - a[i];
    need -= a[i];
  }
  auto hops = [&](size_t i, size_t j) { return static_cast<int>(hops_[set[i].group * groups_ + set[j].group]); };
  for (int pass = 0; pass < 8 && k > 1; ++pass) {
    // s[side][i]: routed hops from a slot of entry i to all slots on that side.
    std::vector<long> s[2] = {std::vector<long>(k, 0), std::vector<long>(k, 0)};
    for (size_t i = 0; i < k; ++i)
      for (size_t j = 0; j < k; ++j) {
        const int d = hops(i, j);
        s[0][i] += static_cast<long>(a[j]) * d;
        s[1][i] += static_cast<long>(b[j]) * d;
      }
    std::vector<int> movable[2] = {a, b};
    const size_t patience = std::max<size_t>(32, static_cast<size_t>(first_size) / 4);
    auto best = [&](int side) -> std::optional<FmMove> {
      std::optional<FmMove> chosen;
      for (size_t i = 0; i < k; ++i) {
        if (movable[side][i] == 0) continue;
        const long g = s[side][i] - s[1 - side][i];  // cut increase when one slot of i changes side
        if (!chosen || g > chosen->gain) chosen = FmMove{static_cast<double>(g), static_cast<int>(i)};
      }
      return chosen;
    };
    auto prefer_side0 = [](const FmMove& x, const FmMove& y) { return x.gain >= y.gain; };
    auto apply = [&](int i, int from) {
      --movable[from][i];
      (from == 0 ? a : b)[i]--;
      (from == 0 ? b : a)[i]++;
      for (size_t j = 0; j < k; ++j) {
        const int d = hops(i, j);
        s[from][j] -= d;
        s[1 - from][j] += d;
      }
    };
    auto undo = [&](int i, int from) {
      (from == 0 ? a : b)[i]++;
      (from == 0 ? b : a)[i]--;
    };
    if (!fm_pass(first_size, patience, best, prefer_side0, apply, undo)) break;
  }
  std::vector<SlotShare> first, second;
  for (size_t i = 0; i < k; ++i) {
    if (a[i] > 0) first.push_back({set[i].group, a[i]});
    if (b[i] > 0) second.push_back({set[i].group, b[i]});
  }
  return {first, second};
}

}  // namespace mapsim
