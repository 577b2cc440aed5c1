#include "topologies/ibnetdiscover.h"
#include "topologies/network_factory.h"

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <spdlog/spdlog.h>

#include "support/error.h"

namespace mapsim {
namespace {

struct Device {
  enum Kind { kSwitch, kHost } kind;
  int ports;
  std::string description;
  int line;
  int id = -1;  // switch or node id once built
};

struct PortLink {
  std::string from, to;  // device ids as "S-<guid>" / "H-<guid>"
  int from_port, to_port;
  double rate;
  int line;
};

}  // namespace

double infiniband_rate(const std::string& text) {
  static const std::regex pattern(R"re((\d{1,3})x([A-Z]+[0-9]*))re");
  std::smatch m;
  if (!std::regex_match(text, m, pattern)) return 0;
  static const std::map<std::string, double> lane_gbps = {
      {"SDR", 2},  {"DDR", 4},  {"QDR", 8},  {"FDR10", 10}, {"FDR", 13.64},
      {"EDR", 25}, {"HDR", 50}, {"NDR", 100}, {"XDR", 200}};
  auto it = lane_gbps.find(m[2]);
  if (it == lane_gbps.end()) return 0;
  return std::stod(m[1]) * it->second * 1e9 / 8;
}

Network load_ibnetdiscover(const std::string& path, const LinkDefaults& defaults) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open file");
  static const std::regex header(R"re(^(Switch|Ca|Rt)\s+(\d{1,6})\s+"([SHR]-[0-9a-fA-F]+)"(?:\s*#\s*"([^"]*)".*)?\s*$)re");
  static const std::regex port(
      R"re(^\[(\d{1,6})\](?:\([0-9a-fA-F]+\))?\s+"([SHR]-[0-9a-fA-F]+)"\[(\d{1,6})\](?:\([0-9a-fA-F]+\))?\s*(#.*)?$)re");
  static const std::regex rate(R"re((\d+x[A-Z]+[0-9]*)\s*$)re");
  static const std::regex ignored(R"re(^\s*(#.*)?$|^[a-z_]+=.*$|^(Non-)?Chassis.*$)re");

  std::map<std::string, Device> devices;
  std::vector<PortLink> links;
  std::string current, text;
  int line_number = 0;
  auto where = [&](int line) { return path + ":" + std::to_string(line) + ": "; };
  while (std::getline(in, text)) {
    ++line_number;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    std::smatch m;
    if (std::regex_match(text, m, header)) {
      current = m[3];
      Device device{m[1] == "Ca" ? Device::kHost : Device::kSwitch, std::stoi(m[2]), m[4], line_number};
      if (!devices.emplace(current, device).second)
        throw Error(where(line_number) + "device " + current + " described twice");
    } else if (std::regex_match(text, m, port)) {
      if (current.empty())
        throw Error(where(line_number) + "port line before any Switch/Ca header: expected 'Switch N \"S-...\"'");
      std::smatch r;
      std::string comment = m[4];
      double link_rate = std::regex_search(comment, r, rate) ? infiniband_rate(r[1]) : 0;
      links.push_back({current, m[2], std::stoi(m[1]), std::stoi(m[3]), link_rate, line_number});
    } else if (!std::regex_match(text, ignored)) {
      throw Error(where(line_number) + "unrecognised line '" + text.substr(0, 60) +
                  "': expected a Switch/Ca header, a [port] \"peer\"[port] line, key=value or a comment");
    }
  }
  if (devices.empty()) throw Error(path + ": no Switch or Ca found: not ibnetdiscover output?");

  Network net;
  net.shape.family = "ibnet";
  net.startup = defaults.startup;
  std::set<std::string> used_names;
  auto unique_name = [&](const std::string& preferred, const std::string& guid) {
    std::string name = preferred.empty() || used_names.count(preferred) ? guid : preferred;
    used_names.insert(name);
    return name;
  };
  for (auto& [guid, device] : devices)
    if (device.kind == Device::kSwitch)
      device.id = net.add_switch(unique_name(device.description, guid), device.ports, defaults.router_delay);

  std::set<std::pair<std::pair<std::string, int>, std::pair<std::string, int>>> seen;
  int extra_host_ports = 0;
  for (const PortLink& link : links) {
    auto peer = devices.find(link.to);
    if (peer == devices.end())
      throw Error(where(link.line) + "peer " + link.to + " is never described (truncated file?)");
    auto a = std::make_pair(link.from, link.from_port), b = std::make_pair(link.to, link.to_port);
    if (!seen.insert({std::min(a, b), std::max(a, b)}).second) continue;  // each link is listed at both ends
    Device& from = devices.at(link.from);
    Device& to = peer->second;
    if (from.kind == Device::kHost && to.kind == Device::kHost)
      throw Error(where(link.line) + "host-to-host link " + link.from + " - " + link.to + " is not supported");
    if (from.kind == Device::kSwitch && to.kind == Device::kSwitch) {
      net.add_link(from.id, to.id, link.rate > 0 ? link.rate : defaults.link_bandwidth, defaults.link_latency);
      continue;
    }
    Device& host = from.kind == Device::kHost ? from : to;
    Device& sw = from.kind == Device::kHost ? to : from;
    if (host.id >= 0) {
      ++extra_host_ports;  // a second HCA port: a node attaches to one switch
      continue;
    }
    const std::string& host_guid = from.kind == Device::kHost ? link.from : link.to;
    std::string word = host.description.substr(0, host.description.find(' '));
    host.id = net.add_node(unique_name(word, host_guid), sw.id,
                           link.rate > 0 ? link.rate : defaults.node_bandwidth, defaults.node_latency);
  }
  if (extra_host_ports) spdlog::warn("{}: ignored {} extra HCA port link(s): a node uses its first port", path, extra_host_ports);
  for (const auto& [guid, device] : devices)
    if (device.kind == Device::kHost && device.id < 0)
      spdlog::warn("{}:{}: host {} has no link and is left out", path, device.line, guid);
  try {
    net.validate();
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  return net;
}

MAPSIM_REGISTER(network_registry(), {"ibnet", "an InfiniBand fabric from ibnetdiscover output", {},
                                     [](Spec& spec) { return load_ibnetdiscover(spec.require_positional("PATH"), LinkDefaults{}); },
                                     "PATH"});

}  // namespace mapsim
