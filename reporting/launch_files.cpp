// Launch files: writers and readers (launch_files.h). The formats were checked against the launchers'
// documentation: Hydra merges only adjacent lines of one host, so a machinefile's runs keep rank order;
// srun --distribution=arbitrary lays ranks on SLURM_HOSTFILE's lines in order, and --cpu-bind=map_cpu
// gives a node's i-th task the list's i-th CPU, the one list applying on every node.
#include "reporting/launch_files.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "support/consumer_quoting.h"
#include "support/error.h"
#include "support/input_file.h"
#include "support/message.h"

namespace mapsim {
namespace {

constexpr size_t kMaxLine = 1 << 16;
constexpr long kMaxRanks = 1 << 24;  // a machinefile count beyond this is a typo, not a job

// Why the format's launcher would not read `host` as one host name ("" when it would).
std::string host_problem(const std::string& format, const std::string& host) {
  if (format == "rankfile") return open_mpi_rankfile_host_problem(host);
  if (format == "hostlist" || format == "machinefile") return hydra_host_problem(host);
  return slurm_host_problem(host);  // slurm-hostfile, cpu-bind
}

std::string trimmed(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

// A whole number >= 0 written in decimal digits only; -1 otherwise.
long whole_number(const std::string& text) {
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stol(text);
}

// Each node once, in the order of its first rank, with its ranks' cores in rank order.
std::vector<std::pair<std::string, std::vector<int>>> cores_by_host(const RankSites& sites) {
  std::vector<std::pair<std::string, std::vector<int>>> hosts;
  std::map<std::string, size_t> index;
  for (const RankSite& site : sites) {
    const auto [it, added] = index.emplace(site.host, hosts.size());
    if (added) hosts.push_back({site.host, {}});
    hosts[it->second].second.push_back(site.core);
  }
  return hosts;
}

std::string core_list(const std::vector<int>& cores) {
  std::string text;
  for (int core : cores) text += (text.empty() ? "" : ",") + std::to_string(core);
  return text;
}

// Reads the lines of a launch file, blank lines and '#' comments skipped; `take` gets each line's text
// and its "PATH:LINE: " prefix.
template <class Take>
void read_lines(const std::string& path, const std::string& what, const std::string& expected, Take take) {
  std::ifstream in = open_input(path, what);
  std::string line;
  for (int number = 1; read_bounded_line(in, line, kMaxLine, path, number, expected); ++number) {
    const std::string text = trimmed(line.substr(0, line.find('#')));
    if (!text.empty()) take(text, path + ":" + std::to_string(number) + ": ");
  }
}

// Hydra's HOST[:COUNT] lines (a machinefile; a host list is one with every count 1).
RankSites read_machinefile(const std::string& path, const std::string& format) {
  RankSites sites;
  read_lines(path, format + " file", "'HOST[:COUNT]'", [&](const std::string& text, const std::string& where) {
    const size_t colon = text.rfind(':');
    const std::string host = trimmed(text.substr(0, colon));
    const long count = colon == std::string::npos ? 1 : whole_number(trimmed(text.substr(colon + 1)));
    if (host.empty() || host.find_first_of(" \t") != std::string::npos || count < 1)
      throw Error(where + "expected 'HOST[:COUNT]' with a count >= 1, got " + excerpt(text));
    if (static_cast<long>(sites.size()) + count > kMaxRanks)
      throw Error(where + "more than " + std::to_string(kMaxRanks) + " ranks");
    sites.insert(sites.end(), count, RankSite{host, -1});
  });
  if (sites.empty()) throw Error(path + ": no 'HOST[:COUNT]' lines");
  return sites;
}

// SLURM_HOSTFILE: a host per rank, one per line or comma-separated.
RankSites read_slurm_hostfile(const std::string& path) {
  RankSites sites;
  read_lines(path, "slurm-hostfile", "one host per line", [&](const std::string& text, const std::string& where) {
    std::istringstream hosts(text);
    for (std::string host; std::getline(hosts, host, ',');) {
      host = trimmed(host);
      if (host.empty() || host.find_first_of(" \t") != std::string::npos)
        throw Error(where + "expected one host per line (or hosts separated by commas), got " + excerpt(text));
      if (static_cast<long>(sites.size()) >= kMaxRanks) throw Error(where + "more than " + std::to_string(kMaxRanks) + " ranks");
      sites.push_back({host, -1});
    }
  });
  if (sites.empty()) throw Error(path + ": no host lines");
  return sites;
}

// Open MPI: "rank N=HOST slot=CORE", every rank 0..R-1 once.
RankSites read_rankfile(const std::string& path) {
  std::map<long, RankSite> by_rank;
  const std::string expected = "'rank N=HOST slot=CORE'";
  read_lines(path, "rankfile", expected, [&](const std::string& text, const std::string& where) {
    std::istringstream words(text);
    std::string rank_word, assignment, slot, extra;
    words >> rank_word >> assignment >> slot;
    const size_t equal = assignment.find('=');
    const long rank = equal == std::string::npos ? -1 : whole_number(assignment.substr(0, equal));
    const std::string host = equal == std::string::npos ? "" : assignment.substr(equal + 1);
    const long core = slot.rfind("slot=", 0) == 0 ? whole_number(slot.substr(5)) : -1;
    if (rank_word != "rank" || rank < 0 || host.empty() || core < 0 || (words >> extra))
      throw Error(where + "expected " + expected + " (one core per slot), got " + excerpt(text));
    if (rank >= kMaxRanks) throw Error(where + "rank " + std::to_string(rank) + " is beyond " + std::to_string(kMaxRanks) + " ranks");
    if (!by_rank.emplace(rank, RankSite{host, static_cast<int>(core)}).second)
      throw Error(where + "rank " + std::to_string(rank) + " placed twice");
  });
  if (by_rank.empty()) throw Error(path + ": no " + expected + " lines");
  RankSites sites;
  for (const auto& [rank, site] : by_rank) {
    if (rank != static_cast<long>(sites.size()))
      throw Error(path + ": ranks must be 0.." + std::to_string(by_rank.size() - 1) + "; rank " + std::to_string(sites.size()) +
                  " is missing");
    sites.push_back(site);
  }
  return sites;
}

// "HOST map_cpu:C,C,..." per node, laid on the ranks' hosts.
RankSites read_cpu_bind(const std::string& path, const RankSites& hosts) {
  if (hosts.empty()) throw Error(path + ": a cpu-bind file holds cores only: read it with the ranks' hosts (the slurm-hostfile)");
  std::map<std::string, std::vector<int>> lists;
  const std::string expected = "'HOST map_cpu:CORE,CORE,...'";
  read_lines(path, "cpu-bind file", expected, [&](const std::string& text, const std::string& where) {
    std::istringstream words(text);
    std::string host, binding, extra;
    words >> host >> binding;
    std::vector<int> cores;
    bool valid = binding.rfind("map_cpu:", 0) == 0 && !(words >> extra);
    std::istringstream list(valid ? binding.substr(8) : "");
    for (std::string core; valid && std::getline(list, core, ',');) {
      valid = whole_number(core) >= 0;
      cores.push_back(static_cast<int>(whole_number(core)));
    }
    if (!valid || cores.empty()) throw Error(where + "expected " + expected + ", got " + excerpt(text));
    if (!lists.emplace(host, cores).second) throw Error(where + "host '" + host + "' listed twice");
  });
  RankSites sites = hosts;
  std::map<std::string, size_t> taken;
  for (size_t rank = 0; rank < sites.size(); ++rank) {
    const auto it = lists.find(sites[rank].host);
    if (it == lists.end()) throw Error(path + ": no line for host '" + sites[rank].host + "' (rank " + std::to_string(rank) + ")");
    size_t& k = taken[it->first];
    if (k >= it->second.size())
      throw Error(path + ": host '" + it->first + "' runs more ranks than its " + std::to_string(it->second.size()) + " cores");
    sites[rank].core = it->second[k++];
  }
  for (const auto& [host, cores] : lists)
    if (taken[host] != cores.size())
      throw Error(path + ": host '" + host + "' lists " + std::to_string(cores.size()) + " cores for " +
                  std::to_string(taken[host]) + " ranks");
  return sites;
}

}  // namespace

const std::vector<std::string>& launch_formats() {
  static const std::vector<std::string> formats = {"rankfile", "hostlist", "machinefile", "slurm-hostfile", "cpu-bind"};
  return formats;
}

void check_launch_format(const std::string& format) {
  const std::vector<std::string>& formats = launch_formats();
  if (std::find(formats.begin(), formats.end(), format) != formats.end()) return;
  std::string list;
  for (const std::string& f : formats) list += (list.empty() ? "" : ", ") + f;
  std::string near = nearest_word(format, formats);
  for (const std::string& f : formats)  // "slurm" for slurm-hostfile: too far by edit distance
    if (near.empty() && !format.empty() && f.rfind(format, 0) == 0) near = f;
  throw Error("unknown launch format '" + format + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
              ": expected one of " + list);
}

RankSites rank_sites(const Placement& placement, const Network& network, const std::vector<int>& cores) {
  RankSites sites;
  std::map<int, int> next_core;
  for (size_t r = 0; r < placement.size(); ++r)
    sites.push_back({network.node(placement[r]).name, cores.empty() ? next_core[placement[r]]++ : cores[r]});
  return sites;
}

void write_launch_file(const std::string& format, const RankSites& sites, std::ostream& out, const std::string& file) {
  check_launch_format(format);
  for (size_t rank = 0; rank < sites.size(); ++rank)
    if (const std::string problem = host_problem(format, sites[rank].host); !problem.empty())
      throw Error(file + ": " + format + ": node '" + sites[rank].host + "' (rank " + std::to_string(rank) + ") " + problem +
                  "; rename the node");
  if (format == "rankfile") {  // mpirun --rankfile F (Open MPI 5: --map-by rankfile:file=F)
    for (size_t rank = 0; rank < sites.size(); ++rank)
      out << "rank " << rank << "=" << sites[rank].host << " slot=" << sites[rank].core << "\n";
  } else if (format == "hostlist" || format == "slurm-hostfile") {  // mpiexec -f F; SLURM_HOSTFILE=F
    for (const RankSite& site : sites) out << site.host << "\n";
  } else if (format == "machinefile") {  // mpiexec -f F -n R: consecutive ranks as HOST:COUNT runs
    out << "# mpiexec -f THIS_FILE -n " << sites.size() << " PROGRAM: runs of consecutive ranks, in rank order\n";
    for (size_t begin = 0, end = 0; begin < sites.size(); begin = end) {
      while (end < sites.size() && sites[end].host == sites[begin].host) ++end;
      out << sites[begin].host << ":" << end - begin << "\n";
    }
  } else {  // cpu-bind: srun applies one map_cpu list on every node
    const auto hosts = cores_by_host(sites);
    const std::vector<int>* longest = nullptr;
    for (const auto& host : hosts)
      if (!longest || host.second.size() > longest->size()) longest = &host.second;
    if (!longest) return;  // no ranks
    const bool one_list = std::all_of(hosts.begin(), hosts.end(), [&](const auto& host) {
      return std::equal(host.second.begin(), host.second.end(), longest->begin());
    });
    if (one_list)
      out << "# srun --distribution=arbitrary --cpu-bind=map_cpu:" << core_list(*longest)
          << " (every node's list begins this one; SLURM_HOSTFILE = the slurm-hostfile)\n";
    else
      out << "# the nodes' lists differ, and srun applies one map_cpu list on every node: one job step per list\n";
    for (const auto& [host, cores] : hosts) out << host << " map_cpu:" << core_list(cores) << "\n";
  }
}

RankSites read_launch_file(const std::string& format, const std::string& path, const RankSites& hosts) {
  check_launch_format(format);
  if (format == "rankfile") return read_rankfile(path);
  if (format == "hostlist" || format == "machinefile") return read_machinefile(path, format);
  if (format == "slurm-hostfile") return read_slurm_hostfile(path);
  return read_cpu_bind(path, hosts);
}

}  // namespace mapsim
