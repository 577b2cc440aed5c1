#include "traces/collective_choice.h"

#include <array>
#include <sstream>
#include <vector>

#include "support/error.h"

namespace mapsim {
namespace {

struct Collective {
  const char* name;
  std::vector<const char*> algorithms;  // in enum order
};

const std::array<Collective, 3> kCollectives = {{
    {"alltoall", {"mapsim", "ring", "pair", "basic_linear", "bruck", "ompi"}},
    {"alltoallv", {"mapsim", "ring", "pair", "bruck", "ompi_basic_linear", "ompi", "mpich"}},
    {"allgatherv", {"mapsim", "ring", "mpich_ring"}},
}};

std::string names(const Collective& c) {
  std::string text;
  for (const char* a : c.algorithms) text += (text.empty() ? "" : ", ") + std::string(a);
  return text;
}

}  // namespace

CollectiveChoice parse_collectives(const std::string& text) {
  CollectiveChoice choice;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    size_t c = 0;
    while (c < kCollectives.size() && key != kCollectives[c].name) ++c;
    if (c == kCollectives.size())
      throw Error("collectives: unknown collective '" + key + "' in '" + text +
                  "'; expected alltoall, alltoallv or allgatherv as COLLECTIVE=ALGORITHM");
    size_t a = 0;
    const auto& algorithms = kCollectives[c].algorithms;
    while (a < algorithms.size() && value != algorithms[a]) ++a;
    if (a == algorithms.size())
      throw Error("collectives: " + key + " has no algorithm '" + value + "'; expected one of " + names(kCollectives[c]));
    const auto index = static_cast<uint8_t>(a);
    if (c == 0) choice.alltoall = static_cast<AlltoallAlgorithm>(index);
    if (c == 1) choice.alltoallv = static_cast<AlltoallvAlgorithm>(index);
    if (c == 2) choice.allgatherv = static_cast<AllgathervAlgorithm>(index);
  }
  return choice;
}

std::string collectives_help() {
  std::string text;
  for (const Collective& c : kCollectives) text += (text.empty() ? "" : "; ") + std::string(c.name) + ": " + names(c);
  return text;
}

}  // namespace mapsim
