#include "traces/collective_choice.h"

#include <algorithm>
#include <sstream>

#include "support/error.h"

namespace mapsim {
namespace {

using Entry = CollectiveRegistry::Entry;

const std::array<const char*, kCollectiveCount> kNames = {"bcast",     "reduce",    "allreduce",  "alltoall",
                                                          "alltoallv", "allgather", "allgatherv", "reduce_scatter",
                                                          "scatter",   "barrier",   "gather"};

// mapsim's own algorithm of each collective. On first use (after every registration has run), checks
// that each registered name is COLLECTIVE=NAME of a known collective: a typo would never be selectable.
const std::array<const Entry*, kCollectiveCount>& mapsim_algorithms() {
  static const auto own = [] {
    for (const Entry* e : collective_registry().entries()) {
      const std::string collective = e->name.substr(0, e->name.find('='));
      if (e->name.find('=') == std::string::npos || std::find(kNames.begin(), kNames.end(), collective) == kNames.end())
        throw InternalError("collective algorithm '" + e->name +
                            "' is not named COLLECTIVE=NAME of a known collective");
    }
    std::array<const Entry*, kCollectiveCount> own{};
    for (size_t c = 0; c < kCollectiveCount; ++c)
      if (!(own[c] = collective_registry().find(std::string(kNames[c]) + "=mapsim")))
        throw InternalError(std::string("no algorithm ") + kNames[c] + "=mapsim registered");
    return own;
  }();
  return own;
}

// "mapsim (binomial_tree), NTSB, ..." -- mapsim's own first, with SimGrid's name of it.
std::string names(size_t c) {
  const std::string prefix = std::string(kNames[c]) + "=";
  const Entry* own = mapsim_algorithms()[c];
  std::string text = "mapsim";
  for (const std::string& alias : own->aliases) text += " (" + alias.substr(prefix.size()) + ")";
  for (const Entry* e : collective_registry().entries())
    if (e != own && e->name.compare(0, prefix.size(), prefix) == 0) text += ", " + e->name.substr(prefix.size());
  return text;
}

}  // namespace

const char* collective_name(Collective collective) { return kNames[static_cast<size_t>(collective)]; }

CollectiveRegistry& collective_registry() {
  static CollectiveRegistry registry("collective algorithm");
  return registry;
}

const CollectiveRegistry::Entry& CollectiveChoice::operator[](Collective collective) const {
  const size_t c = static_cast<size_t>(collective);
  return chosen_[c] ? *chosen_[c] : *mapsim_algorithms()[c];
}

CollectiveChoice parse_collectives(const std::string& text) {
  CollectiveChoice choice;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    if (item == "mapsim" || item == "mpich" || item == "ompi") {  // a whole library: every collective
      // where a collective has no choice of that library's, mapsim's own is the library's
      for (size_t c = 0; c < kCollectiveCount; ++c)
        choice.choose(Collective(c), collective_registry().find(std::string(kNames[c]) + "=" + item));
      continue;
    }
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw Error("collectives: '" + item + "' in '" + text +
                  "' is no library; expected mapsim, mpich or ompi (every collective), or COLLECTIVE=ALGORITHM");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    const size_t c = std::find(kNames.begin(), kNames.end(), key) - kNames.begin();
    if (c == kCollectiveCount)
      throw Error("collectives: unknown collective '" + key + "' in '" + text +
                  "'; expected bcast, reduce, allreduce, alltoall, alltoallv, allgather, allgatherv, reduce_scatter, "
                  "scatter, barrier or gather as COLLECTIVE=ALGORITHM");
    const Entry* algorithm = collective_registry().find(item);
    if (!algorithm)
      throw Error("collectives: " + key + " has no algorithm '" + value + "'; expected one of " + names(c));
    choice.choose(Collective(c), algorithm);
  }
  return choice;
}

std::string collectives_help() {
  std::string text = "every collective: mapsim, mpich, ompi";
  for (size_t c = 0; c < kCollectiveCount; ++c) text += "; " + std::string(kNames[c]) + ": " + names(c);
  return text;
}

}  // namespace mapsim
