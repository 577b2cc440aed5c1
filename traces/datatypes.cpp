#include <iterator>
#include <string>

#include "support/error.h"
#include "traces/ti_trace.h"

namespace mapsim {
namespace {

// sizeof of each predefined type of SimGrid 3.32 (x86_64), indexed by its id; 0 for UB/LB.
constexpr int kDatatypeSizes[] = {8, 4, 1, 2, 8, 4, 1, 8, 1, 1, 2, 4, 8, 8, 16, 4, 1, 1, 2, 4,
                                  8, 1, 2, 4, 8, 8, 16, 32, 8, 8, 8, 16, 16, 8, 8, 8, 16, 16, 4, 4,
                                  8, 16, 8, 16, 16, 4, 2, 4, 8, 16, 32, 1, 8, 16, 32, 0, 0, 1, 8, 8};

}  // namespace

bool is_datatype(int id) { return id >= 0 && id < static_cast<int>(std::size(kDatatypeSizes)) && kDatatypeSizes[id] > 0; }

int datatype_size(int id) {
  if (!is_datatype(id)) throw Error("unknown SimGrid datatype id " + std::to_string(id));
  return kDatatypeSizes[id];
}

}  // namespace mapsim
