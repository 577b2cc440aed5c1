// The interface a simulation model implements, and its registration: a message in flight and the
// transports that move it. The MPI replay decides when a message starts (at the match of send and
// receive); a transport moves its bytes from the source node to the destination node and reports
// delivery.
//   PortTransport  store-and-forward and packet models: per-port FIFO queues on mapsim's event queue
//   FlowTransport  one fluid flow per message over its route, max-min sharing solved by MaxMinSharing
//   SimGridFlowTransport  the same model as one SimGrid comm per message (SimGrid's CM02 solver)
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/internal/event_queue.h"
#include "sim/simulation.h"
#include "topologies/port_layout.h"
#include "routing/routed_network.h"

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
  bool walked = false;      // PortTransport: packets choose their ports as they go (one walked leg)
  std::vector<int> route;   // PortTransport: the ports to cross (walked: the first only)
};

// One leg of a message's path: an electrical route between two nodes, or an optical circuit between
// two relay nodes. A message without circuits has one leg; with them, EPS legs to and from relay nodes
// alternate with circuits (EO-OE forwarding, store-and-forward at the relays).
struct Leg {
  int from = 0, to = 0;        // nodes
  std::vector<int> channels;   // EPS switch channels (empty: both nodes on one switch)
  int circuit = -1;            // >= 0: the optical circuit from `from` to `to` instead
  bool walked = false;         // the transport chooses each packet's path (channels: the routing's representative)
};

// Optical circuits as a transport carries them: circuit k's two ports, usable from `ready`; whether
// both are idle (nothing in flight or queued), so that the circuit can be released.
class CircuitPorts {
 public:
  virtual ~CircuitPorts() = default;
  virtual void add_circuit(int k, double ready) = 0;
  virtual bool circuit_idle(int k) const = 0;
};

class Transport {
 public:
  using Delivered = std::function<void(int message)>;
  virtual ~Transport() = default;
  // Starts message `id` now over `path`, whose zero-load latency is `latency` (t_s is paid here,
  // before the first byte leaves the node).
  virtual void start(int id, Message& message, const std::vector<Leg>& path, double latency) = 0;
  // Events the transport processed (timer and activity callbacks).
  virtual long events() const = 0;
  // The optical ports of a model that carries circuits (ModelComponent::carries_circuits), else null.
  virtual CircuitPorts* circuit_ports() { return nullptr; }
  // Loads of the switch channels that walked legs' packets crossed (ModelComponent::walks_packets).
  virtual const std::vector<PortLoad>* walked_channel_loads() const { return nullptr; }
  // Wall-clock seconds spent sharing bandwidth (a fluid model's max-min solver; simulate --profile).
  virtual double solver_seconds() const { return 0; }
  // Where the network congested, for a model with finite buffers (flit), up to now; else empty.
  virtual Congestion congestion() const { return {}; }
};

// A simulation model: the transport it builds, registered in model_registry() from its own file.
struct ModelComponent {
  bool carries_circuits = false;  // can forward over optical circuits (relay nodes store and forward)
  std::function<std::unique_ptr<Transport>(const RoutedNetwork&, const SimOptions&, const std::vector<Circuit>& circuits,
                                           std::vector<Message>& messages, Transport::Delivered)>
      make;
  bool walks_packets = false;  // chooses paths per packet from its queues (spray, adaptive, UGAL)
};
using ModelRegistry = Registry<ModelComponent>;
ModelRegistry& model_registry();

// Runs `work` in a child process with a fresh SimGrid engine (SimGrid allows one per process) and
// returns its bytes; an exception in the child is thrown again here as mapsim::Error.
std::vector<uint8_t> run_isolated(const std::function<std::vector<uint8_t>()>& work);
long peak_memory_kb();  // of this process
// Count, mean, nearest-rank p50/p99 and max (sorts `values`).
LatencyStats summarise(std::vector<double>& values);

// The event loop. A transport that models its resources itself (no SimGrid hosts or links) calls
// use_event_queue_only() once, in its constructor: its events then run on mapsim's own queue
// (sim/internal/event_queue.h: pooled inline callables, no allocation per event, SimGrid's heap and tie
// order), else on SimGrid's timers beside SimGrid's comms. Models schedule with at() and read now()
// either way; run_events() runs the simulation to its end.
void use_event_queue_only();
namespace detail {
inline EventQueue* event_queue = nullptr;  // mapsim's queue when it runs the events
void simgrid_at(double date, std::function<void()> callback);
double simgrid_now();
}  // namespace detail
// Runs `callback` at simulated time `date`.
template <class F>
void at(double date, F&& callback) {
  if (detail::event_queue) detail::event_queue->at(date, std::forward<F>(callback));
  else detail::simgrid_at(date, std::function<void()>(std::forward<F>(callback)));
}
// With `fifo`, callbacks due at one instant run in the order they were scheduled (SimGrid's timer heap
// orders them by its own structure, which every other pending event shifts): what several jobs
// sharing no resource need to run exactly as each alone. For this process's engine, before it runs.
void set_fifo_ties(bool fifo);
inline double now() { return detail::event_queue ? detail::event_queue->now() : detail::simgrid_now(); }
// Runs the scheduled events, and those they schedule, to the end (mapsim's queue or SimGrid's engine).
void run_events();

// Electrical paths only (one leg): SimGrid's CM02 model, one comm per message (the flow model's
// reference solver, --flow-solver simgrid).
std::unique_ptr<Transport> make_simgrid_flow_transport(const RoutedNetwork& routed, const SimOptions& options,
                                               Transport::Delivered delivered);

}  // namespace mapsim::sim
