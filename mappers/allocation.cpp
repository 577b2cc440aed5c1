#include "mappers/allocation.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "support/error.h"
#include "support/random.h"
#include "support/units.h"

namespace mapsim {

AllocationRegistry& allocation_registry() {
  static AllocationRegistry registry("allocation");
  return registry;
}

std::vector<Param> with_busy_params(std::vector<Param> params) {
  params.push_back(real_param("busy", 0,
                              "fraction of the nodes already busy with other jobs, fragmented as a queue leaves them", 0, 1));
  params.push_back(derived_param("seed", ParamType::Integer, "the run's seed",
                                 "seed of the busy nodes and of random choices", 0));
  return params;
}

namespace {

// One spec read against its policy's declaration.
struct ReadSpec {
  std::string name;
  double busy = 0;
  std::optional<uint64_t> seed;  // seed= of the spec
  std::unique_ptr<AllocationPolicy> policy;
};

ReadSpec read_spec(const std::string& text) {
  Spec spec = parse_spec(allocation_registry(), text);
  const auto& entry = lookup(allocation_registry(), spec);
  ReadSpec out;
  out.name = entry.name;
  const auto declares = [&](const std::string& key) {
    return std::any_of(entry.params.begin(), entry.params.end(), [&](const Param& p) { return p.name == key; });
  };
  if (declares("busy")) out.busy = spec.get_double("busy");
  // Read as an integer, not through a double: seeds beyond 2^53 stay exact.
  if (declares("seed") && spec.has("seed")) out.seed = static_cast<uint64_t>(spec.get_int("seed", 0));
  out.policy = entry.factory(spec);
  spec.finish();
  return out;
}

// The busy nodes' own stream, so that they do not shift a random policy's draws.
uint64_t busy_stream(uint64_t seed) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ULL;  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<char> busy_nodes(int num_nodes, double fraction, uint64_t seed) {
  std::vector<char> busy(static_cast<size_t>(num_nodes), 0);
  const long target = std::lround(fraction * num_nodes);
  if (target <= 0) return busy;
  // The machine full of past jobs, placed in node order (nodes are numbered switch by switch, so a
  // job is a run of neighbours); their sizes are powers of two up to an eighth of the machine, each
  // size as likely. Then jobs end in random order until the busy fraction is left.
  Rng rng(seed);
  const int largest = std::max(1, num_nodes / 8);
  int sizes = 0;
  while ((2L << sizes) <= largest) ++sizes;  // sizes 1, 2, ..., 2^sizes
  struct Job {
    int start, size;
  };
  std::vector<Job> jobs;
  for (int start = 0; start < num_nodes;) {
    const int size = std::min(1 << rng.below(static_cast<uint64_t>(sizes) + 1), num_nodes - start);
    jobs.push_back({start, size});
    start += size;
  }
  std::fill(busy.begin(), busy.end(), 1);
  rng.shuffle(jobs);
  long count = num_nodes;
  for (const Job& job : jobs) {
    if (count == target) break;
    const long ended = std::min<long>(job.size, count - target);  // the last one ends in part
    for (long i = 0; i < ended; ++i) busy[static_cast<size_t>(job.start + job.size - 1 - i)] = 0;
    count -= ended;
  }
  return busy;
}

std::vector<int> allocate_nodes(const RoutedNetwork& network, const std::string& policy_spec, int nodes_needed,
                                const std::vector<char>& taken, uint64_t seed) {
  const ReadSpec read = read_spec(policy_spec);
  const std::string what = "allocation '" + read.name + "': ";
  if (nodes_needed < 1) throw Error(what + "a job needs at least 1 node, got " + std::to_string(nodes_needed));
  const Network& net = network.network();
  const int n = net.num_nodes();
  if (!taken.empty() && static_cast<int>(taken.size()) != n)
    throw InternalError(what + "taken has " + std::to_string(taken.size()) + " entries for " + std::to_string(n) + " nodes");
  const uint64_t policy_seed = read.seed.value_or(seed);
  std::vector<char> free(static_cast<size_t>(n), 1);
  int taken_count = 0, busy_count = 0;
  if (!taken.empty())
    for (int v = 0; v < n; ++v)
      if (taken[v]) free[v] = 0, ++taken_count;
  if (read.busy > 0) {
    const std::vector<char> busy = busy_nodes(n, read.busy, busy_stream(policy_seed));
    for (int v = 0; v < n; ++v)
      if (busy[v] && free[v]) free[v] = 0, ++busy_count;
  }
  const int free_count = n - taken_count - busy_count;
  if (free_count < nodes_needed) {
    std::string why;
    if (taken_count) why = std::to_string(taken_count) + " taken";
    if (read.busy > 0)
      why += (why.empty() ? "" : ", ") + std::to_string(busy_count) + (taken_count ? " more" : "") + " busy at busy=" +
             format_number(read.busy, 6);
    throw Error(what + std::to_string(nodes_needed) + " nodes needed, only " + std::to_string(free_count) + " free of " +
                std::to_string(n) + (why.empty() ? "" : " (" + why + ")"));
  }
  std::vector<int> nodes = read.policy->choose(net, free, nodes_needed, policy_seed);
  // A policy's answer is checked here once: distinct free nodes, enough of them.
  if (static_cast<int>(nodes.size()) < nodes_needed)
    throw InternalError(what + "chose " + std::to_string(nodes.size()) + " of " + std::to_string(nodes_needed) + " nodes");
  for (const int v : nodes) {
    if (v < 0 || v >= n || !free[v]) throw InternalError(what + "chose node " + std::to_string(v) + ", which is not free");
    free[v] = 0;
  }
  return nodes;
}

bool allocation_uses_seed(const std::string& policy_spec) {
  const ReadSpec read = read_spec(policy_spec);
  return !read.seed && (read.policy->uses_seed() || read.busy > 0);
}

void check_allocation_spec(const std::string& policy_spec) { read_spec(policy_spec); }

}  // namespace mapsim
