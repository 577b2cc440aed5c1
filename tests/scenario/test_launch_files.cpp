// Launch files read back: every format gives the placement's rank -> node (and core) assignment, for
// several slots per node, non-contiguous nodes, ranks interleaved across nodes and a mapper's placement;
// names a format cannot carry and malformed files are one-line errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "mappers/mapper.h"
#include "reporting/launch_files.h"
#include "consumer_readers.h"
#include "test_files.h"
#include "topologies/network_factory.h"
#include "topologies/node_list.h"

using namespace mapsim;

namespace {

std::string written(const std::string& format, const RankSites& sites, const std::string& file = "F") {
  std::ostringstream out;
  write_launch_file(format, sites, out, file);
  return out.str();
}

RankSites read_back(const std::string& format, const RankSites& sites, const RankSites& hosts = {}) {
  return read_launch_file(format, temp_file("launch-" + format, written(format, sites)), hosts);
}

// The node ids the hosts name, by rank.
Placement nodes_of(const RankSites& sites, const Network& network) {
  const NodeLookup lookup(network);
  Placement placement;
  for (const RankSite& site : sites) placement.push_back(lookup.find(site.host));
  return placement;
}

// Every format read back gives `placement`'s nodes; the rankfile and the cpu-bind lists (laid on the
// slurm-hostfile) its cores too: the k-th rank of a node on core k.
void check_round_trip(const Placement& placement, const Network& network) {
  const RankSites sites = rank_sites(placement, network);
  for (size_t rank = 0; rank < placement.size(); ++rank) {
    int before = 0;
    for (size_t r = 0; r < rank; ++r) before += placement[r] == placement[rank];
    CHECK(sites[rank].core == before);
  }
  const RankSites rankfile = read_back("rankfile", sites);
  CHECK(rankfile == sites);
  CHECK(nodes_of(rankfile, network) == placement);
  for (const char* format : {"hostlist", "machinefile", "slurm-hostfile"}) {
    const RankSites hosts = read_back(format, sites);
    CHECK_MESSAGE(nodes_of(hosts, network) == placement, format);
    for (const RankSite& site : hosts) CHECK(site.core == -1);  // these formats give no core
  }
  const RankSites bound = read_back("cpu-bind", sites, read_back("slurm-hostfile", sites));
  CHECK(bound == sites);
}

// Lines that are not '#' comments.
int lines(const std::string& text) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty() && line[0] != '#';
  return n;
}

}  // namespace

TEST_CASE("launch files: each format read back gives the placement's nodes and cores") {
  const Network net = make_network("mesh:3x3");  // node-0 .. node-8
  SUBCASE("two slots per node, contiguous") { check_round_trip({0, 0, 1, 1, 2, 2}, net); }
  SUBCASE("non-contiguous nodes") { check_round_trip({7, 3, 5, 0}, net); }
  SUBCASE("ranks interleaved across nodes, three on one") { check_round_trip({0, 4, 0, 4, 8, 0}, net); }
  SUBCASE("a mapper's placement: random, 3 slots per node") {
    RoutedNetwork routed(make_network("irregular:nodes=24,switches=8,seed=4"));
    const ProcessGraph graph = make_process_graph("mesh:6x5");
    const MappingProblem problem = make_problem(routed, graph, "all", 3, 7);
    const Placement placement = make_mapper("random")->map(problem);
    int shared = 0;  // ranks on a node that holds an earlier rank: the cores above 0 are exercised
    for (size_t t = 0; t < placement.size(); ++t)
      shared += std::count(placement.begin(), placement.begin() + t, placement[t]) > 0;
    CHECK(shared > 0);
    check_round_trip(placement, routed.network());
  }
}

TEST_CASE("launch files: the exact lines of each format") {
  const Network net = make_network("mesh:3x3");
  const RankSites sites = rank_sites({0, 4, 0, 4, 8, 0}, net);
  CHECK(written("rankfile", sites) ==
        "rank 0=node-0 slot=0\nrank 1=node-4 slot=0\nrank 2=node-0 slot=1\nrank 3=node-4 slot=1\n"
        "rank 4=node-8 slot=0\nrank 5=node-0 slot=2\n");
  CHECK(written("hostlist", sites) == "node-0\nnode-4\nnode-0\nnode-4\nnode-8\nnode-0\n");
  CHECK(written("slurm-hostfile", sites) == written("hostlist", sites));
  // Hydra merges adjacent lines of one host only: interleaved ranks split into one run each.
  const std::string machinefile = written("machinefile", sites);
  CHECK(machinefile.rfind("# mpiexec -f THIS_FILE -n 6 ", 0) == 0);
  CHECK(machinefile.substr(machinefile.find('\n') + 1) == "node-0:1\nnode-4:1\nnode-0:1\nnode-4:1\nnode-8:1\nnode-0:1\n");
  CHECK(written("machinefile", rank_sites({2, 2, 2, 5, 5, 2}, net)).substr(machinefile.find('\n') + 1) ==
        "node-2:3\nnode-5:2\nnode-2:1\n");
  CHECK(lines(written("machinefile", rank_sites({1, 1, 1, 1}, net))) == 1);
  // One srun list serves every node: each node's list begins the longest.
  const std::string cpu_bind = written("cpu-bind", sites);
  CHECK(cpu_bind.rfind("# srun --distribution=arbitrary --cpu-bind=map_cpu:0,1,2 ", 0) == 0);
  CHECK(cpu_bind.substr(cpu_bind.find('\n') + 1) == "node-0 map_cpu:0,1,2\nnode-4 map_cpu:0,1\nnode-8 map_cpu:0\n");
}

TEST_CASE("launch files: cores other than the slot order, read back through the rankfile") {
  // A rankfile written elsewhere binds the ranks of node h0 to cores 3 and 1: the cpu-bind lists differ
  // from node to node, which one srun list cannot express, and the file says so.
  const RankSites sites = {{"h0", 3}, {"h1", 0}, {"h0", 1}};
  const std::string rankfile = temp_file("launch-cores.rf", written("rankfile", sites));
  CHECK(read_launch_file("rankfile", rankfile) == sites);
  const std::string cpu_bind = written("cpu-bind", sites);
  CHECK(cpu_bind.find("lists differ") != std::string::npos);
  CHECK(cpu_bind.find("h0 map_cpu:3,1\nh1 map_cpu:0\n") != std::string::npos);
  CHECK(read_back("cpu-bind", sites, read_back("slurm-hostfile", sites)) == sites);
}

TEST_CASE("launch files: a host name a format reads as syntax is refused before writing") {
  std::ostringstream out;
  CHECK(error_of([&] { write_launch_file("machinefile", {{"a", 0}, {"n:1", 0}}, out, "app.hosts"); }) ==
        "app.hosts: machinefile: node 'n:1' (rank 1) holds ':', which every launch file reserves (Hydra's HOST:COUNT); rename the node");
  CHECK(error_of([&] { write_launch_file("machinefile", {{"-oProxyCommand=id", 0}}, out, "F"); }) ==
        "F: machinefile: node '-oProxyCommand=id' (rank 0) begins with '-', which ssh (started with the host as an "
        "argument) reads as an option; rename the node");
  CHECK(error_of([&] { write_launch_file("hostlist", {{"n#1", 0}}, out, "F"); }).find("holds '#'") != std::string::npos);
  CHECK(error_of([&] { write_launch_file("slurm-hostfile", {{"gpu*4", 0}}, out, "F"); }).find("holds '*', which every launch file reserves (Slurm's HOST*COUNT)") != std::string::npos);
  CHECK(error_of([&] { write_launch_file("slurm-hostfile", {{"a,b", 0}}, out, "F"); }).find("holds ','") != std::string::npos);
  CHECK(error_of([&] { write_launch_file("slurm-hostfile", {{"n[1-4]", 0}}, out, "F"); }).find("holds '['") != std::string::npos);
  CHECK(error_of([&] { write_launch_file("rankfile", {{"a=b", 0}}, out, "F"); }).find("holds '='") != std::string::npos);
  CHECK(error_of([&] { write_launch_file("rankfile", {{"+n0", 0}}, out, "F"); }).find("relative node") != std::string::npos);
  CHECK(error_of([&] { write_launch_file("rankfile", {{"n#1", 0}}, out, "F"); }).find("holds '#'") != std::string::npos);
  CHECK(error_of([&] { write_launch_file("rankfile", {{"slot", 0}}, out, "F"); }).find("keyword") != std::string::npos);
  CHECK(error_of([&] { write_launch_file("cpu-bind", {{"a b", 0}}, out, "F"); }).find("whitespace") != std::string::npos);
  CHECK(out.str().empty());
  CHECK(error_of([] { check_launch_format("machinefle"); }) ==
        "unknown launch format 'machinefle' (did you mean 'machinefile'?): expected one of rankfile, hostlist, "
        "machinefile, slurm-hostfile, cpu-bind");
}

namespace {

// The host of each rank as the format's launcher reads the written file (consumer_readers.h).
std::vector<std::string> launcher_hosts(const std::string& format, const std::string& text) {
  if (format == "slurm-hostfile") return consumer::slurm_hostfile_hosts(text);
  std::vector<std::string> hosts;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (format == "rankfile") {
      hosts.push_back(consumer::open_mpi_rankfile_host(line));
      continue;
    }
    const std::string host = consumer::hydra_host(line);
    if (host.empty()) continue;
    const size_t colon = line.find(':');
    hosts.insert(hosts.end(), colon == std::string::npos ? 1 : std::stoi(line.substr(colon + 1)), host);
  }
  return hosts;
}

}  // namespace

TEST_CASE("launch files: each launcher reads every written host as that host, or the writer refuses it, naming node and file") {
  // The probes (an ssh option through Hydra, a Slurm repeat, an Open MPI comment and relative
  // node), every reserved character, and names that are fine.
  const std::vector<std::string> refused_everywhere = {"-oProxyCommand=touch /tmp/x", "+n0", "n#1", "gpu*4", "a:2", "a=b", "a,b",
                                                       "root@h", "a b", "a\tb", "", "caf\xc3\xa9"};
  const std::vector<std::string> others = {"node-0", "n.1", "gpu_2", "10.0.0.1", "Node7", "x-1.y", "007", "1.x", "slots",
                                           "a/b", "a//b", "n[1-2]", "_n", "q\"", "a\\b", "$(id)", "a%b", "-", "."};
  for (const char* format : {"rankfile", "hostlist", "machinefile", "slurm-hostfile"}) {
    for (const std::string& name : refused_everywhere) {
      CAPTURE(format);
      CAPTURE(name);
      const std::string e = error_of([&] { written(format, {{"node-0", 0}, {name, 0}}, "out/app.hosts"); });
      CHECK(e.rfind("out/app.hosts: " + std::string(format) + ": node '" + name + "' (rank 1) ", 0) == 0);
    }
    for (const std::string& name : others) {
      CAPTURE(format);
      CAPTURE(name);
      const RankSites sites = {{"node-0", 0}, {name, 0}, {"node-0", 1}};
      std::string text;
      const std::string e = error_of([&] { text = written(format, sites); });
      if (!e.empty()) {
        CHECK(e.find("node '" + name + "' (rank 1) ") != std::string::npos);
        CHECK(e.find('\n') == std::string::npos);
        continue;
      }
      std::vector<std::string> hosts;
      try {
        hosts = launcher_hosts(format, text);
      } catch (const std::exception& read) {
        FAIL_CHECK("written, but the launcher reads: " << read.what());
      }
      CHECK(hosts == std::vector<std::string>{"node-0", name, "node-0"});
    }
  }
}

TEST_CASE("launch files: malformed files are one-line errors naming file and line") {
  const auto error = [](const std::string& format, const std::string& text, const RankSites& hosts = {}) {
    const std::string path = temp_file("launch-bad", text);
    const std::string e = error_of([&] { read_launch_file(format, path, hosts); });
    CHECK(e.find('\n') == std::string::npos);
    return e.substr(e.find("launch-bad") + 10);
  };
  CHECK(error("rankfile", "rank 0=a slot=0\nrank 1=b\n") == ":2: expected 'rank N=HOST slot=CORE' (one core per slot), got 'rank 1=b'");
  CHECK(error("rankfile", "rank 0=a slot=1:0\n") == ":1: expected 'rank N=HOST slot=CORE' (one core per slot), got 'rank 0=a slot=1:0'");
  CHECK(error("rankfile", "rank 0=a slot=0\nrank 0=b slot=0\n") == ":2: rank 0 placed twice");
  CHECK(error("rankfile", "rank 0=a slot=0\nrank 2=b slot=0\n") == ": ranks must be 0..1; rank 1 is missing");
  CHECK(error("rankfile", "# nothing\n") == ": no 'rank N=HOST slot=CORE' lines");
  CHECK(error("machinefile", "a:2\nb:0\n") == ":2: expected 'HOST[:COUNT]' with a count >= 1, got 'b:0'");
  CHECK(error("machinefile", "a:9999999\nb:9999999\n") == ":2: more than 16777216 ranks");
  CHECK(error("hostlist", "a b\n") == ":1: expected 'HOST[:COUNT]' with a count >= 1, got 'a b'");
  CHECK(error("slurm-hostfile", "a,,b\n") == ":1: expected one host per line (or hosts separated by commas), got 'a,,b'");
  const RankSites hosts = {{"a", -1}, {"a", -1}, {"b", -1}};
  CHECK(error("cpu-bind", "a map_cpu:0,x\n", hosts) == ":1: expected 'HOST map_cpu:CORE,CORE,...', got 'a map_cpu:0,x'");
  CHECK(error("cpu-bind", "a map_cpu:0,1\n", hosts) == ": no line for host 'b' (rank 2)");
  CHECK(error("cpu-bind", "a map_cpu:0\nb map_cpu:0\n", hosts) == ": host 'a' runs more ranks than its 1 cores");
  CHECK(error("cpu-bind", "a map_cpu:0,1\nb map_cpu:0,1\n", hosts) == ": host 'b' lists 2 cores for 1 ranks");
  CHECK(error("cpu-bind", "a map_cpu:0\n") == ": a cpu-bind file holds cores only: read it with the ranks' hosts (the slurm-hostfile)");
  // What the launchers accept besides what mapsim writes: comments, blank lines, comma-separated hosts.
  CHECK(read_launch_file("machinefile", temp_file("launch-ok", "# c\n\na:2  # two\nb\n")) ==
        RankSites{{"a", -1}, {"a", -1}, {"b", -1}});
  CHECK(read_launch_file("slurm-hostfile", temp_file("launch-ok", "a,b\nc\n")) == RankSites{{"a", -1}, {"b", -1}, {"c", -1}});
}
