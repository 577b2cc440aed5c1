#include "topologies/ibnetdiscover.h"
#include "topologies/network_factory.h"

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <spdlog/spdlog.h>

#include "support/error.h"
#include "support/input_file.h"
#include "support/message.h"

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
  std::string from_portguid, to_portguid;  // CA ports only, when printed
};

uint64_t guid_value(const std::string& hex) { return std::stoull(hex.substr(hex.find_first_of("0123456789abcdefABCDEF", hex.find('-') + 1)), nullptr, 16); }

// Lines of ibnetdiscover and dump_lfts output are well under 4096 bytes. A longer one is refused as it
// is read, before std::regex sees it: its matcher recurses per character, and 30 KB overflow the stack.
constexpr size_t kMaxLineBytes = 4096;

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

namespace {

// Where each switch port leads: (switch guid, port) -> the channel leaving it; the port each node is on.
struct PortMap {
  std::map<std::pair<uint64_t, int>, int> channel;
  std::map<int, int> node_port;
  std::map<uint64_t, int> switch_of_guid, node_of_portguid;
};

// ibroute / dump_lfts.sh output: per switch a "Unicast lids [...] of switch ... guid 0x...:" header,
// then "0xLID PORT : (Channel Adapter|Switch portguid 0xGUID: 'description')" lines.
void read_forwarding_tables(const std::string& path, Network& net, const PortMap& ports) {
  std::ifstream in = open_input(path, "file");
  static const std::regex header(R"re(^Unicast lids .* guid 0x([0-9a-fA-F]{1,16}).*:\s*$)re");
  static const std::regex entry(R"re(^0x([0-9a-fA-F]{1,16})\s+(\d{1,3})\s*:\s*\((Channel Adapter|Switch|Router) portguid 0x([0-9a-fA-F]{1,16}).*$)re");
  static const std::regex ignored(R"re(^\s*(Lid\s+Out.*|Port\s+Info.*|\d+ (valid )?lids dumped.*|#.*)?\s*$)re");
  const int S = net.num_switches();
  net.forwarding.assign(static_cast<size_t>(net.num_nodes()) * S, -1);
  int sw = -1;
  uint64_t sw_guid = 0;
  std::string text;
  for (int line = 1; read_bounded_line(in, text, kMaxLineBytes, path, line, "ibroute / dump_lfts.sh output"); ++line) {
    auto where = [&] { return path + ":" + std::to_string(line) + ": "; };
    std::smatch m;
    if (std::regex_match(text, m, header)) {
      sw_guid = std::stoull(m[1], nullptr, 16);
      auto it = ports.switch_of_guid.find(sw_guid);
      if (it == ports.switch_of_guid.end()) throw Error(where() + "switch guid 0x" + std::string(m[1]) + " is not in the topology");
      sw = it->second;
    } else if (std::regex_match(text, m, entry)) {
      if (sw < 0) throw Error(where() + "forwarding entry before any 'Unicast lids ... guid 0x...' header");
      if (m[3] != "Channel Adapter") continue;  // mapsim routes to compute nodes only
      auto node = ports.node_of_portguid.find(std::stoull(m[4], nullptr, 16));
      if (node == ports.node_of_portguid.end()) continue;  // an unused HCA port
      const int port = std::stoi(m[2]);
      if (net.node(node->second).switch_id == sw) {  // delivered here, unless the table sends it away again
        if (port != ports.node_port.at(node->second))
          throw Error(where() + "switch '" + net.switch_at(sw).name + "' forwards its own " + net.node(node->second).name +
                      " to port " + std::to_string(port) + ", not to port " + std::to_string(ports.node_port.at(node->second)) +
                      " where it is attached: a forwarding loop");
        continue;
      }
      auto channel = ports.channel.find({sw_guid, port});
      if (channel == ports.channel.end())
        throw Error(where() + "switch '" + net.switch_at(sw).name + "' forwards " + net.node(node->second).name +
                    " to port " + std::to_string(port) + ", which has no link to another switch");
      net.forwarding[static_cast<size_t>(node->second) * S + sw] = channel->second;
    } else if (!std::regex_match(text, ignored)) {
      throw Error(where() + "unrecognised line " + excerpt(text) +
                  ": expected 'Unicast lids ... guid 0x...:' or '0xLID PORT : (Channel Adapter portguid 0x...)'");
    }
  }
  if (sw < 0) throw Error(path + ": no 'Unicast lids' block found: not ibroute / dump_lfts output?");
  // Every switch with nodes must reach every node: a gap or a loop is this file's, said here (the lft
  // routing checks it again, without the file's name).
  for (int src = 0; src < S; ++src) {
    if (net.nodes_of(src).empty()) continue;
    for (int d = 0; d < net.num_nodes(); ++d) {
      int hops = 0;
      for (int at = src; at != net.node(d).switch_id; ++hops) {
        const int c = net.forwarding[static_cast<size_t>(d) * S + at];
        if (c < 0)
          throw Error(path + ": switch '" + net.switch_at(at).name + "' has no forwarding entry for " + net.node(d).name +
                      " (a gap in the tables)");
        if (hops >= S)
          throw Error(path + ": the forwarding tables loop on the way from switch '" + net.switch_at(src).name + "' to " +
                      net.node(d).name);
        at = net.channel_target(c);
      }
    }
  }
}

}  // namespace

Network load_ibnetdiscover(const std::string& path, const LinkDefaults& defaults, const std::string& lft_path) {
  std::ifstream in = open_input(path, "file");
  static const std::regex header(R"re(^(Switch|Ca|Rt)\s+(\d{1,6})\s+"([SHR]-[0-9a-fA-F]{1,16})"(?:\s*#\s*"([^"]*)".*)?\s*$)re");
  static const std::regex port(
      R"re(^\[(\d{1,6})\](?:\(([0-9a-fA-F]{1,16})\))?\s+"([SHR]-[0-9a-fA-F]{1,16})"\[(\d{1,6})\](?:\(([0-9a-fA-F]{1,16})\))?\s*(#.*)?$)re");
  static const std::regex rate(R"re((\d+x[A-Z]+[0-9]*)\s*$)re");
  static const std::regex ignored(R"re(^\s*(#.*)?$|^[a-z_]+=.*$|^(Non-)?Chassis.*$)re");

  std::map<std::string, Device> devices;
  std::vector<PortLink> links;
  std::string current, text;
  int line_number = 0;
  auto where = [&](int line) { return path + ":" + std::to_string(line) + ": "; };
  while (read_bounded_line(in, text, kMaxLineBytes, path, line_number + 1, "ibnetdiscover output")) {
    ++line_number;
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
      std::string comment = m[6];
      double link_rate = 0;
      if (std::regex_search(comment, r, rate) && !(link_rate = infiniband_rate(r[1])))
        throw Error(where(line_number) + "unknown link rate '" + std::string(r[1]) +
                    "': expected WIDTHxSPEED with SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR (e.g. 4xEDR)");
      const int local_port = std::stoi(m[1]);
      const Device& device = devices.at(current);
      if (local_port < 1 || local_port > device.ports)
        throw Error(where(line_number) + "port " + std::to_string(local_port) + " of " + current + ", which has ports 1.." +
                    std::to_string(device.ports));
      links.push_back({current, m[3], local_port, std::stoi(m[4]), link_rate, line_number, m[2], m[5]});
    } else if (!std::regex_match(text, ignored)) {
      throw Error(where(line_number) + "unrecognised line " + excerpt(text) +
                  ": expected a Switch/Ca header, a [port] \"peer\"[port] line, key=value or a comment");
    }
  }
  if (devices.empty()) throw Error(path + ": no Switch or Ca found: not ibnetdiscover output?");

  Network net;
  net.shape.family = Family::IbNet;
  net.startup = defaults.startup;
  std::set<std::string> used_names;
  // Names end up in rankfiles and hostlists: a description that is not one plain word (spaces, control
  // bytes) or that is taken already gives way to the GUID.
  auto unique_name = [&](const std::string& preferred, const std::string& guid) {
    std::string name = !plain_name(preferred) || used_names.count(preferred) ? guid : preferred;
    used_names.insert(name);
    return name;
  };
  // The network's own errors (a self-loop, a size limit) name the line of the device or link.
  auto on_line = [&](int line, auto add) {
    try {
      return add();
    } catch (const Error& e) {
      throw Error(where(line) + e.what());
    }
  };
  PortMap ports;
  for (auto& entry : devices) {  // not a structured binding: lambdas cannot capture those in C++17
    const std::string& guid = entry.first;
    Device& device = entry.second;
    if (device.kind != Device::kSwitch) continue;
    device.id = on_line(device.line, [&] { return net.add_switch(unique_name(device.description, guid), device.ports, defaults.router_delay); });
    ports.switch_of_guid[guid_value(guid)] = device.id;
  }

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
      const int l = on_line(link.line, [&] {
        return net.add_link(from.id, to.id, link.rate > 0 ? link.rate : defaults.link_bandwidth, defaults.link_latency);
      });
      ports.channel[{guid_value(link.from), link.from_port}] = net.channel(l, from.id);
      ports.channel[{guid_value(link.to), link.to_port}] = net.channel(l, to.id);
      continue;
    }
    Device& host = from.kind == Device::kHost ? from : to;
    Device& sw = from.kind == Device::kHost ? to : from;
    if (host.id >= 0) {
      ++extra_host_ports;  // a second HCA port: a node attaches to one switch
      continue;
    }
    const std::string& host_guid = from.kind == Device::kHost ? link.from : link.to;
    std::string word = host.description.substr(0, host.description.find_first_of(" \t"));
    host.id = on_line(link.line, [&] {
      return net.add_node(unique_name(word, host_guid), sw.id, link.rate > 0 ? link.rate : defaults.node_bandwidth,
                          defaults.node_latency);
    });
    ports.node_port[host.id] = from.kind == Device::kHost ? link.to_port : link.from_port;
    const std::string& portguid = from.kind == Device::kHost ? link.from_portguid : link.to_portguid;
    ports.node_of_portguid[portguid.empty() ? guid_value(host_guid) : std::stoull(portguid, nullptr, 16)] = host.id;
  }
  // ibnetdiscover lists each link at both of its ends: one listed at one end only, or whose ends
  // disagree on the ports, is an inconsistent file (edited, or of two discoveries), never a link.
  std::map<std::pair<std::string, int>, const PortLink*> listed;
  for (const PortLink& link : links)
    if (auto [at, added] = listed.emplace(std::make_pair(link.from, link.from_port), &link); !added)
      throw Error(where(link.line) + "port " + std::to_string(link.from_port) + " of " + link.from +
                  " is listed twice (first on line " + std::to_string(at->second->line) + ")");
  for (const PortLink& link : links) {
    const auto other = listed.find({link.to, link.to_port});
    const std::string ends = link.from + "[" + std::to_string(link.from_port) + "] - " + link.to + "[" + std::to_string(link.to_port) + "]";
    if (other == listed.end())
      throw Error(where(link.line) + "link " + ends + " is listed at this end only: " + link.to + " lists no link on port " +
                  std::to_string(link.to_port));
    if (other->second->to != link.from || other->second->to_port != link.from_port)
      throw Error(where(link.line) + "link " + ends + " disagrees with line " + std::to_string(other->second->line) + ", where port " +
                  std::to_string(link.to_port) + " of " + link.to + " leads to " + other->second->to + "[" +
                  std::to_string(other->second->to_port) + "]");
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
  if (!lft_path.empty()) read_forwarding_tables(lft_path, net, ports);
  return net;
}

MAPSIM_REGISTER(network_registry(),
                {"ibnet", "an InfiniBand fabric from ibnetdiscover output, optionally with its forwarding tables",
                 {text_param("lft", "", "ibroute / dump_lfts.sh output: route by the fabric's own tables (routing lft)")},
                 [](Spec& spec, const LinkOverrides&) {  // make_network refuses overrides
                   return load_ibnetdiscover(spec.require_positional("PATH"), LinkDefaults{}, spec.get_string("lft"));
                 },
                 "PATH", "path"});

}  // namespace mapsim
