#include "traces/collective_choice.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <string_view>
#include <vector>

#include "support/error.h"

namespace mapsim {
namespace {

struct Collective {
  const char* name;
  std::vector<const char*> algorithms;  // in enum order
  const char* mapsim_alias;             // SimGrid's name of mapsim's own algorithm, or nullptr
};

const std::array<Collective, 11> kCollectives = {{
    {"bcast",
     {"mapsim", "scatter_rdb_allgather", "scatter_LR_allgather", "NTSL", "NTSB", "ompi_pipeline", "ompi_split_bintree",
      "mvapich2_knomial_intra_node", "ompi", "mpich"},
     "binomial_tree"},
    {"reduce",
     {"mapsim", "scatter_gather", "ompi_basic_linear", "ompi_chain", "ompi_pipeline", "ompi_binary", "ompi_binomial",
      "ompi_in_order_binary", "ompi", "mpich"},
     "binomial"},
    {"allreduce", {"mapsim", "rab_rdb", "redbcast", "lr", "ompi_ring_segmented", "ompi", "mpich"}, "rdb"},
    {"alltoall", {"mapsim", "ring", "pair", "basic_linear", "bruck", "mvapich2_scatter_dest", "ompi", "mpich"}, nullptr},
    {"alltoallv", {"mapsim", "ring", "pair", "bruck", "ompi_basic_linear", "ompi", "mpich"}, nullptr},
    {"allgather", {"mapsim", "ring", "rdb", "bruck", "pair", "ompi_neighborexchange", "ompi", "mpich"}, "NTSLR"},
    {"allgatherv",
     {"mapsim", "ring", "mpich_ring", "mpich_rdb", "ompi_bruck", "GB", "ompi_neighborexchange", "pair", "ompi", "mpich"},
     nullptr},
    {"reduce_scatter",
     {"mapsim", "mpich_rdb", "default", "ompi_basic_recursivehalving", "ompi_ring", "ompi_butterfly", "ompi", "mpich"},
     "mpich_pair"},
    {"scatter", {"mapsim", "ompi_binomial", "ompi_basic_linear", "ompi_linear_nb", "ompi", "mpich"}, nullptr},
    {"barrier", {"mapsim", "ompi_basic_linear", "ompi_recursivedoubling", "ompi_tree", "ompi"}, "ompi_bruck"},
    {"gather", {"mapsim", "ompi_basic_linear", "ompi_linear_sync", "ompi"}, "ompi_binomial"},
}};

std::string names(const Collective& c) {
  std::string text;
  for (const char* a : c.algorithms) {
    text += (text.empty() ? "" : ", ") + std::string(a);
    if (text == "mapsim" && c.mapsim_alias) text += std::string(" (") + c.mapsim_alias + ")";
  }
  return text;
}

void set(CollectiveChoice& choice, size_t collective, uint8_t algorithm) {
  switch (collective) {
    case 0: choice.bcast = static_cast<BcastAlgorithm>(algorithm); break;
    case 1: choice.reduce = static_cast<ReduceAlgorithm>(algorithm); break;
    case 2: choice.allreduce = static_cast<AllreduceAlgorithm>(algorithm); break;
    case 3: choice.alltoall = static_cast<AlltoallAlgorithm>(algorithm); break;
    case 4: choice.alltoallv = static_cast<AlltoallvAlgorithm>(algorithm); break;
    case 5: choice.allgather = static_cast<AllgatherAlgorithm>(algorithm); break;
    case 6: choice.allgatherv = static_cast<AllgathervAlgorithm>(algorithm); break;
    case 7: choice.reduce_scatter = static_cast<ReduceScatterAlgorithm>(algorithm); break;
    case 8: choice.scatter = static_cast<ScatterAlgorithm>(algorithm); break;
    case 9: choice.barrier = static_cast<BarrierAlgorithm>(algorithm); break;
    default: choice.gather = static_cast<GatherAlgorithm>(algorithm); break;
  }
}

}  // namespace

CollectiveChoice parse_collectives(const std::string& text) {
  CollectiveChoice choice;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    if (item == "mapsim" || item == "mpich" || item == "ompi") {  // a whole library: every collective
      choice = CollectiveChoice{};
      for (size_t c = 0; c < kCollectives.size() && item != "mapsim"; ++c) {
        const auto& algorithms = kCollectives[c].algorithms;
        // where a collective has no choice of that library's, mapsim's own is the library's
        const auto library = std::find(algorithms.begin(), algorithms.end(), std::string_view(item));
        if (library != algorithms.end()) set(choice, c, static_cast<uint8_t>(library - algorithms.begin()));
      }
      continue;
    }
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw Error("collectives: '" + item + "' in '" + text +
                  "' is no library; expected mapsim, mpich or ompi (every collective), or COLLECTIVE=ALGORITHM");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    size_t c = 0;
    while (c < kCollectives.size() && key != kCollectives[c].name) ++c;
    if (c == kCollectives.size())
      throw Error("collectives: unknown collective '" + key + "' in '" + text +
                  "'; expected bcast, reduce, allreduce, alltoall, alltoallv, allgather, allgatherv, reduce_scatter, "
                  "scatter, barrier or gather as COLLECTIVE=ALGORITHM");
    const Collective& collective = kCollectives[c];
    size_t a = 0;
    while (a < collective.algorithms.size() && value != collective.algorithms[a]) ++a;
    if (collective.mapsim_alias && value == collective.mapsim_alias) a = 0;
    if (a == collective.algorithms.size())
      throw Error("collectives: " + key + " has no algorithm '" + value + "'; expected one of " + names(collective));
    set(choice, c, static_cast<uint8_t>(a));
  }
  return choice;
}

std::string collectives_help() {
  std::string text = "every collective: mapsim, mpich, ompi";
  for (const Collective& c : kCollectives) text += "; " + std::string(c.name) + ": " + names(c);
  return text;
}

}  // namespace mapsim
