// One Fiduccia-Mattheyses pass, shared by the process-graph bisection (GraphPartitioner) and the
// slot bisection (SlotBisection). Side 0 must end with `first_size` items. Each step moves one item
// from the side above its size -- or, balanced, from the side whose best candidate `prefer_side0`
// ranks higher -- and locks it; the prefix of moves with the largest cumulative gain at the exact
// size is kept and the rest undone. The pass gives up `patience` moves after its best prefix.
#pragma once
#include <optional>
#include <utility>
#include <vector>

namespace mapsim {

struct FmMove {
  double gain;  // cut improvement of moving the item
  int item;
};

// best(side) -> std::optional<FmMove>; apply(item, from_side); undo(item, from_side).
// Returns whether any move was kept.
template <class Best, class Prefer, class Apply, class Undo>
bool fm_pass(int first_size, size_t patience, Best best, Prefer prefer_side0, Apply apply, Undo undo) {
  int size0 = first_size;
  double total = 0, best_total = 0;
  std::vector<std::pair<int, int>> moves;  // (item, side it left)
  size_t best_moves = 0;
  while (moves.size() - best_moves < patience) {
    int from;
    if (size0 > first_size) {
      from = 0;
    } else if (size0 < first_size) {
      from = 1;
    } else {
      const std::optional<FmMove> a = best(0), b = best(1);
      if (!a && !b) break;
      from = a && (!b || prefer_side0(*a, *b)) ? 0 : 1;
    }
    const std::optional<FmMove> move = best(from);
    if (!move) break;
    apply(move->item, from);
    size0 += from == 0 ? -1 : 1;
    total += move->gain;
    moves.push_back({move->item, from});
    if (size0 == first_size && total > best_total + 1e-9) best_total = total, best_moves = moves.size();
  }
  for (size_t m = moves.size(); m > best_moves; --m) undo(moves[m - 1].first, moves[m - 1].second);
  return best_moves > 0;
}

}  // namespace mapsim
