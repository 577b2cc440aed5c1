// Internal to sim/: a message in flight and the transports that move it. The MPI replay decides
// when a message starts (at the match of send and receive); a transport moves its bytes from the
// source node to the destination node and reports delivery.
//   PortTransport  store-and-forward and packet models: per-port FIFO queues on SimGrid timers
//   FlowTransport  one SimGrid flow per message over its explicit route (exact fluid sharing)
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "sim/simulate.h"
#include "topologies/routed_network.h"

namespace mapsim::sim {

struct Message {
  int src_rank = 0, dst_rank = 0, src_node = 0, dst_node = 0;
  int tag = 0;
  double bytes = 0;     // payload
  double wire = 0;      // payload plus envelope: what crosses the links
  double posted = 0;   // send invoked
  double started = 0;  // matched: enters the network
  int send_request = -1, recv_request = -1;
  bool rendezvous = false;
  bool distant = false;
  bool collective = false;
  int hops = 0;             // switch-to-switch links on the route
  int pending_packets = 0;  // packet model
  std::vector<int> route;   // PortTransport: the ports to cross
};

class Transport {
 public:
  using Delivered = std::function<void(int message)>;
  virtual ~Transport() = default;
  // Starts message `id` now over `channels` (its route), whose zero-load latency is `latency`
  // (t_s is paid here, before the first byte leaves the node).
  virtual void start(int id, Message& message, const std::vector<int>& channels, double latency) = 0;
  // Events the transport processed (timer and activity callbacks).
  virtual long events() const = 0;
};

// Runs `callback` at simulated time `date` on SimGrid's event queue.
void at(double date, std::function<void()> callback);
double now();

std::unique_ptr<Transport> make_port_transport(const RoutedNetwork& routed, const SimOptions& options,
                                               std::vector<Message>& messages, Transport::Delivered delivered);
std::unique_ptr<Transport> make_flow_transport(const RoutedNetwork& routed, const SimOptions& options,
                                               Transport::Delivered delivered);

}  // namespace mapsim::sim
