// Allocation policies: valid, seeded and reproducible on every kind of network; the topology-aware
// ones use the fewest leaf switches or dragonfly groups; busy fractions; errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "mappers/allocation.h"
#include "mappers/mapping.h"
#include "mappers/process_graph.h"
#include "support/error.h"
#include "support/random.h"
#include "test_files.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

const std::vector<std::string> kNetworks = {
    "fattree:k=4,levels=3",                 // k-ary n-tree, 64 nodes
    "fattree:nodes=48,radix=8",             // leaf-spine (folded Clos, 2 levels)
    "tree2:switches=6,nodes_per_switch=5",  // two-level tree
    "dragonfly:a=4,p=2,h=2",                // 9 groups of 8 nodes
    "irregular:nodes=60,switches=20,ports=8,seed=4",
    "torus:4x4x2",
    "mesh:4x4,nodes_per_router=2",
};
const std::vector<std::string> kPolicies = {"all", "contiguous", "random", "best-fit", "spread", "group"};

std::vector<char> random_taken(int nodes, double fraction, uint64_t seed) {
  Rng rng(seed);
  std::vector<char> taken(static_cast<size_t>(nodes), 0);
  for (auto& t : taken) t = rng.uniform() < fraction;
  return taken;
}

// The free nodes: what `all` gives.
std::vector<int> free_nodes(const RoutedNetwork& net, const std::string& busy, const std::vector<char>& taken, uint64_t seed) {
  return allocate_nodes(net, "all" + busy, 1, taken, seed);
}

std::set<int> switches_of(const Network& net, const std::vector<int>& nodes) {
  std::set<int> out;
  for (int v : nodes) out.insert(net.node(v).switch_id);
  return out;
}

// The fewest switches that hold `needed` of the free nodes: fullest first.
int fewest_switches(const Network& net, const std::vector<int>& free, int needed) {
  std::map<int, int> count;
  for (int v : free) ++count[net.node(v).switch_id];
  std::vector<int> sizes;
  for (const auto& [sw, c] : count) sizes.push_back(c);
  std::sort(sizes.rbegin(), sizes.rend());
  int used = 0;
  for (int left = needed; left > 0; left -= sizes[used++]) {}
  return used;
}

// Today's `random` allocation, as mapsim drew it before policies were registered.
std::vector<int> papers_random(int nodes, int needed, uint64_t seed) {
  std::vector<int> all(static_cast<size_t>(nodes));
  std::iota(all.begin(), all.end(), 0);
  Rng rng(seed);
  rng.shuffle(all);
  all.resize(needed);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace

TEST_CASE("every policy gives distinct free nodes, as many as needed, the same for the same seed") {
  for (const std::string& spec : kNetworks) {
    const RoutedNetwork net(make_network(spec));
    const int n = net.network().num_nodes();
    for (uint64_t seed = 1; seed <= 8; ++seed)
      for (const std::string busy : {"", ":busy=0.3", ":busy=0.6"})
        for (const double taken_fraction : {0.0, 0.2}) {
          const std::vector<char> taken = taken_fraction > 0 ? random_taken(n, taken_fraction, seed * 7) : std::vector<char>{};
          const std::vector<int> free = free_nodes(net, busy, taken, seed);
          const std::set<int> free_set(free.begin(), free.end());
          for (const int needed : {1, 2, 5, static_cast<int>(free.size()) / 2, static_cast<int>(free.size())}) {
            if (needed < 1) continue;
            for (const std::string& policy : kPolicies) {
              CAPTURE(spec);
              CAPTURE(policy + busy);
              CAPTURE(seed);
              CAPTURE(needed);
              CAPTURE(taken_fraction);
              const std::vector<int> nodes = allocate_nodes(net, policy + busy, needed, taken, seed);
              CHECK(nodes.size() == (policy == "all" ? free.size() : static_cast<size_t>(needed)));
              CHECK(std::set<int>(nodes.begin(), nodes.end()).size() == nodes.size());
              CHECK(std::all_of(nodes.begin(), nodes.end(), [&](int v) { return free_set.count(v) == 1; }));
              CHECK(std::is_sorted(nodes.begin(), nodes.end()));
              CHECK(nodes == allocate_nodes(net, policy + busy, needed, taken, seed));
            }
          }
        }
  }
}

TEST_CASE("random keeps the papers' draw; random choices and busy nodes change with the seed") {
  const RoutedNetwork net(make_network("irregular:nodes=64,switches=20,seed=2"));
  for (uint64_t seed = 0; seed < 50; ++seed)
    for (int needed : {1, 10, 40, 64}) CHECK(allocate_nodes(net, "random", needed, {}, seed) == papers_random(64, needed, seed));
  CHECK(allocate_nodes(net, "random", 5, {}, 1) == allocate_nodes(net, "random:seed=1", 5, {}, 99));
  CHECK(allocate_nodes(net, "random", 6, {}, 3) == std::vector<int>{4, 10, 30, 33, 39, 53});  // pinned: reproductions need it
  std::set<std::vector<int>> draws, busy_sets;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    draws.insert(allocate_nodes(net, "random", 8, {}, seed));
    busy_sets.insert(allocate_nodes(net, "all:busy=0.5", 1, {}, seed));
  }
  CHECK(draws.size() == 20);
  CHECK(busy_sets.size() == 20);
  // A seed in the spec overrides the run's.
  CHECK(allocate_nodes(net, "best-fit:busy=0.5,seed=4", 8, {}, 1) == allocate_nodes(net, "best-fit:busy=0.5", 8, {}, 4));
}

TEST_CASE("busy: exactly round(fraction x nodes) busy, left as whole and partial past jobs, independent of taken nodes") {
  for (const int nodes : {1, 7, 64, 1000})
    for (const double fraction : {0.0, 0.01, 0.25, 0.5, 0.9, 1.0})
      for (uint64_t seed = 1; seed <= 10; ++seed) {
        const std::vector<char> busy = busy_nodes(nodes, fraction, seed);
        CHECK(std::count(busy.begin(), busy.end(), 1) == std::lround(fraction * nodes));
        CHECK(busy == busy_nodes(nodes, fraction, seed));
      }
  // Fragmented, not scattered: the free nodes of a half-busy machine come in runs (holes of past jobs).
  long runs = 0, free_count = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<char> busy = busy_nodes(1024, 0.5, seed);
    for (size_t v = 0; v < busy.size(); ++v) {
      free_count += !busy[v];
      runs += !busy[v] && (v == 0 || busy[v - 1]);
    }
  }
  CHECK(free_count == 20 * 512);
  CHECK(free_count > 8 * runs);  // a random half would give runs of 2 on average
  // The busy nodes are the same whatever other jobs took: one background for all jobs of a run.
  const RoutedNetwork net(make_network("fattree:nodes=64,radix=8"));
  const std::vector<char> taken = random_taken(64, 0.3, 5);
  std::vector<int> expected;
  for (int v : free_nodes(net, ":busy=0.4", {}, 9))
    if (!taken[v]) expected.push_back(v);
  CHECK(free_nodes(net, ":busy=0.4", taken, 9) == expected);
  CHECK(free_nodes(net, ":busy=0.4", {}, 9).size() == 64 - 26);
}

TEST_CASE("contiguous: the first run of free nodes that is long enough, else the lowest free nodes") {
  const RoutedNetwork net(make_network("mesh:4x4"));
  CHECK(allocate_nodes(net, "contiguous", 4, {}, 1) == std::vector<int>{0, 1, 2, 3});
  std::vector<char> taken(16, 0);
  taken[2] = taken[5] = taken[9] = 1;
  CHECK(allocate_nodes(net, "contiguous", 3, taken, 1) == std::vector<int>{6, 7, 8});
  CHECK(allocate_nodes(net, "contiguous", 2, taken, 1) == std::vector<int>{0, 1});
  for (int v = 0; v < 16; v += 2) taken[v] = 1;  // no two free nodes in a row
  CHECK(allocate_nodes(net, "contiguous", 3, taken, 1) == std::vector<int>{1, 3, 7});
}

TEST_CASE("best-fit on a two-level tree uses the fewest leaf switches, and one leaf that fits best when one does") {
  for (const std::string spec : {"tree2:switches=8,nodes_per_switch=6", "fattree:nodes=32,radix=8"}) {
    const RoutedNetwork net(make_network(spec));
    const Network& network = net.network();
    for (uint64_t seed = 1; seed <= 30; ++seed)
      for (const std::string busy : {"", ":busy=0.2", ":busy=0.5", ":busy=0.7"}) {
        const std::vector<int> free = free_nodes(net, busy, {}, seed);
        std::map<int, int> per_switch;
        for (int v : free) ++per_switch[network.node(v).switch_id];
        for (int needed = 1; needed <= static_cast<int>(free.size()); needed += 3) {
          CAPTURE(spec);
          CAPTURE(busy);
          CAPTURE(seed);
          CAPTURE(needed);
          const std::vector<int> nodes = allocate_nodes(net, "best-fit" + busy, needed, {}, seed);
          const std::set<int> used = switches_of(network, nodes);
          CHECK(static_cast<int>(used.size()) == fewest_switches(network, free, needed));
          if (used.size() == 1) {  // best fit: no leaf with fewer free nodes would have held the job
            const int chosen = per_switch[*used.begin()];
            for (const auto& [sw, count] : per_switch) CHECK((count < needed || count >= chosen));
          }
        }
      }
  }
}

TEST_CASE("best-fit stays under the lowest common switch: a pod of a 3-level fat tree") {
  const RoutedNetwork net(make_network("fattree:k=4,levels=3"));  // 16 leaves of 4 nodes, pods of 4 leaves
  CHECK(allocate_nodes(net, "best-fit", 10, {}, 1) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  // Pod 0 half taken: a job of 10 goes to the next pod; one of 8 fills pod 0's free half exactly.
  std::vector<char> taken(64, 0);
  for (int v = 0; v < 8; ++v) taken[v] = 1;
  const std::vector<int> ten = allocate_nodes(net, "best-fit", 10, taken, 1);
  CHECK(*std::min_element(ten.begin(), ten.end()) >= 16);
  CHECK(*std::max_element(ten.begin(), ten.end()) < 32);
  CHECK(allocate_nodes(net, "best-fit", 8, taken, 1) == std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15});
  // Whatever the busy nodes, a job that fits in a pod gets one.
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const std::vector<int> free = free_nodes(net, ":busy=0.4", {}, seed);
    std::map<int, int> per_pod;
    for (int v : free) ++per_pod[v / 16];
    int largest = 0;
    for (const auto& [pod, count] : per_pod) largest = std::max(largest, count);
    const std::vector<int> nodes = allocate_nodes(net, "best-fit:busy=0.4", largest, {}, seed);
    CHECK(nodes.front() / 16 == nodes.back() / 16);
  }
}

TEST_CASE("group on a dragonfly fills ceil(n / nodes per group) groups when they are free") {
  const RoutedNetwork net(make_network("dragonfly:a=4,p=2,h=2"));  // 9 groups of 4 routers x 2 nodes
  const Network& network = net.network();
  const auto groups_of = [&](const std::vector<int>& nodes) {
    std::set<int> groups;
    for (int v : nodes) groups.insert(network.node(v).switch_id / 4);
    return groups;
  };
  for (int needed = 1; needed <= 72; ++needed) {
    CAPTURE(needed);
    const std::vector<int> nodes = allocate_nodes(net, "group", needed, {}, 1);
    CHECK(static_cast<int>(groups_of(nodes).size()) == (needed + 7) / 8);
    CHECK(static_cast<int>(switches_of(network, nodes).size()) == (needed + 1) / 2);  // and the fewest routers
  }
  // Groups 0-2 partly taken: a job of 16 takes two of the six free groups, not three part-groups.
  std::vector<char> taken(72, 0);
  for (int g = 0; g < 3; ++g) taken[g * 8] = 1;
  const std::vector<int> sixteen = allocate_nodes(net, "group", 16, taken, 1);
  CHECK(groups_of(sixteen) == std::set<int>{3, 4});
  // The last, partial group is the one that fits best: 7 free nodes hold a job of 7.
  CHECK(groups_of(allocate_nodes(net, "group", 7, taken, 1)) == std::set<int>{0});
  // spread does the opposite: one node per group first.
  for (int needed = 1; needed <= 9; ++needed) CHECK(static_cast<int>(groups_of(allocate_nodes(net, "spread", needed, {}, 1)).size()) == needed);
  CHECK(switches_of(network, allocate_nodes(net, "spread", 36, {}, 1)).size() == 36);
}

TEST_CASE("group elsewhere and spread: the fewest leaf switches anywhere; one node per leaf first, evenly spaced") {
  for (const std::string spec : {"fattree:k=4,levels=3", "irregular:nodes=60,switches=20,ports=8,seed=4", "tree2:switches=6,nodes_per_switch=5"}) {
    const RoutedNetwork net(make_network(spec));
    const Network& network = net.network();
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      const std::vector<int> free = free_nodes(net, ":busy=0.3", {}, seed);
      const int leaves = static_cast<int>(switches_of(network, free).size());
      for (int needed = 1; needed <= static_cast<int>(free.size()); needed += 2) {
        CAPTURE(spec);
        CAPTURE(seed);
        CAPTURE(needed);
        CHECK(static_cast<int>(switches_of(network, allocate_nodes(net, "group:busy=0.3", needed, {}, seed)).size()) ==
              fewest_switches(network, free, needed));
        CHECK(static_cast<int>(switches_of(network, allocate_nodes(net, "spread:busy=0.3", needed, {}, seed)).size()) ==
              std::min(needed, leaves));
      }
    }
  }
  // Four nodes on 16 leaves: leaves 0, 4, 8 and 12, one per pod.
  const RoutedNetwork tree(make_network("fattree:k=4,levels=3"));
  CHECK(allocate_nodes(tree, "spread", 4, {}, 1) == std::vector<int>{0, 16, 32, 48});
}

TEST_CASE("make_problem takes its nodes from the allocation policy") {
  const RoutedNetwork net(make_network("dragonfly:a=4,p=2,h=2"));
  const ProcessGraph graph = make_process_graph("mesh:4x5");
  for (uint64_t seed = 1; seed <= 5; ++seed)
    for (const std::string policy : {"random", "group:busy=0.3", "best-fit:busy=0.5", "spread"}) {
      const MappingProblem problem = make_problem(net, graph, policy, 2, seed);
      CHECK(problem.nodes == allocate_nodes(net, policy, 10, {}, seed));
      CHECK(problem.slots == std::vector<int>(10, 2));
    }
  CHECK(make_problem(net, graph, "all:busy=0.5", 1, 3).nodes.size() == 36);
  CHECK(error_of([&] { make_problem(net, make_process_graph("ring:80"), "random", 1, 1); }) ==
        "80 tasks do not fit in 72 slots (the network's 72 nodes x 1); give more slots per node or a larger allocation");
}

TEST_CASE("allocation errors: too few free nodes, unknown policies and keys, bad busy values, taken list nodes") {
  const RoutedNetwork net(make_network("tree2:switches=4,nodes_per_switch=8"));  // 32 nodes
  std::vector<char> taken(32, 0);
  for (int v = 0; v < 10; ++v) taken[v] = 1;
  CHECK(error_of([&] { allocate_nodes(net, "best-fit", 23, taken, 1); }) ==
        "allocation 'best-fit': 23 nodes needed, only 22 free of 32 (10 taken)");
  CHECK(error_of([&] { allocate_nodes(net, "random:busy=0.5", 20, taken, 1); }).rfind(
            "allocation 'random': 20 nodes needed, only ", 0) == 0);
  CHECK(error_of([&] { allocate_nodes(net, "contiguous:busy=0.5", 17, {}, 1); }) ==
        "allocation 'contiguous': 17 nodes needed, only 16 free of 32 (16 busy at busy=0.5)");
  CHECK(error_of([&] { allocate_nodes(net, "bset-fit", 2, {}, 1); }) ==
        "unknown allocation 'bset-fit' (did you mean 'best-fit'?): expected one of all, best-fit, contiguous, group, list, "
        "random, spread");
  CHECK(error_of([&] { allocate_nodes(net, "group:bussy=0.2", 2, {}, 1); })
            .find("unknown key 'bussy' for group (did you mean 'busy'?)") != std::string::npos);
  CHECK(error_of([&] { allocate_nodes(net, "spread:busy=1.5", 2, {}, 1); }) ==
        "bad spec 'spread:busy=1.5': busy must be in 0..1, got 1.5");
  CHECK(error_of([&] { allocate_nodes(net, "spread:busy=-0.1", 2, {}, 1); }) ==
        "bad spec 'spread:busy=-0.1': busy must be in 0..1, got -0.1");
  CHECK(error_of([&] { allocate_nodes(net, "spread:busy=lots", 2, {}, 1); }) ==
        "bad spec 'spread:busy=lots': busy=lots is not a number");
  CHECK(error_of([&] { allocate_nodes(net, "random:seed=-1", 2, {}, 1); }) == "bad spec 'random:seed=-1': seed must be >= 0, got -1");
  CHECK(error_of([&] { allocate_nodes(net, "contiguous", 0, {}, 1); }) == "allocation 'contiguous': a job needs at least 1 node, got 0");
  const std::string list = temp_file("alloc-list.txt", "node-3\nnode-12\n");
  CHECK(allocate_nodes(net, "list:" + list, 2, {}, 1).size() == 2);
  CHECK(error_of([&] { allocate_nodes(net, "list:" + list, 2, taken, 1); }) ==
        "allocation 'list': node node-3 in " + list + " is already taken by another job");
  CHECK(error_of([&] { allocate_nodes(net, "list:" + list, 3, {}, 1); }) == "allocation 'list': 3 nodes needed, " + list + " lists only 2");
  CHECK_NOTHROW(check_allocation_spec("best-fit:busy=0.25,seed=3"));
  CHECK_THROWS_AS(check_allocation_spec("best-fit:busy=2"), Error);
}

TEST_CASE("which allocations depend on the run's seed") {
  CHECK(allocation_uses_seed("random"));
  CHECK_FALSE(allocation_uses_seed("random:seed=3"));
  CHECK_FALSE(allocation_uses_seed("best-fit"));
  CHECK(allocation_uses_seed("best-fit:busy=0.1"));
  CHECK_FALSE(allocation_uses_seed("group:busy=0.1,seed=2"));
  CHECK_FALSE(allocation_uses_seed("all"));
  CHECK_FALSE(allocation_uses_seed("list:nodes.txt"));
}
