#include "sim/internal/replay.h"

#include <algorithm>
#include <cmath>

#include "sim/internal/free_list.h"
#include "support/error.h"
#include "support/units.h"

namespace mapsim::sim {

namespace {

void add_load(PortLoad& load, double bytes, double bandwidth) {
  load.bytes += bytes;
  load.messages += 1;
  load.busy += bytes / bandwidth;
}

// MPI matching: a receive's tag (-1: MPI_ANY_TAG, never a collective's negative tag) against a send's.
bool tags_match(int recv_tag, int send_tag) { return recv_tag == send_tag || (recv_tag == kAnyTag && send_tag >= 0); }

// Removes and returns the first id queued under `key` that `matches`, or -1.
template <class Matches>
int take_first(std::unordered_map<uint64_t, std::deque<int>>& queues, uint64_t key, Matches matches) {
  auto it = queues.find(key);
  if (it == queues.end()) return -1;
  for (auto q = it->second.begin(); q != it->second.end(); ++q)
    if (matches(*q)) {
      const int id = *q;
      it->second.erase(q);
      if (it->second.empty()) queues.erase(it);
      return id;
    }
  return -1;
}

// Each rank's slot on its node: the options' choice or rank order, checked against the node's slots.
std::vector<int> node_slots(const Network& net, const Placement& placement, const SimOptions& options) {
  std::vector<int> cores;
  if (options.rank_cores) {
    cores = options.rank_cores(placement);
  } else {
    std::map<int, int> next;
    for (int node : placement) cores.push_back(next[node]++);
  }
  if (cores.size() != placement.size()) throw InternalError("rank_cores gave " + std::to_string(cores.size()) + " slots for " + std::to_string(placement.size()) + " ranks");
  for (size_t r = 0; r < cores.size(); ++r)
    if (cores[r] < 0 || cores[r] >= net.node_insides.slots())
      throw Error("rank " + std::to_string(r) + " is on slot " + std::to_string(cores[r]) + " of node " + net.node(placement[r]).name +
                  ", which has " + std::to_string(net.node_insides.slots()) + " (" + net.node_insides.describe() + ")");
  return cores;
}

}  // namespace

Replay::Replay(const RoutedNetwork& routed, const Placement& placement, const TraceSource& source, const SimOptions& options,
               const std::vector<JobSpan>& jobs)
    : routed_(routed),
      placement_(placement),
      source_(source),
      options_(options),
      ranks_(source.num_ranks()),
      paths_(routed, options.path_selection, options.seed) {
  const Network& net = routed.network();
  if (!net.node_insides.empty()) cores_ = node_slots(net, placement, options);
  const auto& model = model_registry().at(options.model);
  paths_.check_model(model.name, model.factory.walks_packets, options.ocs.has_value());
  if (options.link_failure) {
    failed_paths_ = std::make_unique<PathChooser>(*options.link_failure->routed, options.path_selection, options.seed);
    failed_paths_->check_model(model.name, model.factory.walks_packets, options.ocs.has_value());
  }
  auto on_delivered = [this](int id) { delivered(id); };
  static const std::vector<Circuit> kNoCircuits;
  if (options.ocs) {
    circuits_ = make_circuit_planner(routed, placement, source, *options.ocs);
    stats_.circuit_bandwidth = options.ocs->bandwidth;
  }
  transport_ = model.factory.make(routed, options, circuits_ ? circuits_->circuits() : kNoCircuits, messages_, on_delivered);
  if (circuits_) circuits_->attach(transport_->circuit_ports());
  stats_.model = model.name;
  stats_.rank_finish.assign(ranks_.size(), 0);
  set_fifo_ties(options.fifo_ties);
  jobs_ = jobs.empty() ? std::vector<JobSpan>{{0, static_cast<int>(ranks_.size()), 0, -1}} : jobs;
  for (size_t j = 0; j < jobs_.size(); ++j) {
    job_of_.insert(job_of_.end(), jobs_[j].ranks, static_cast<int>(j));
    job_left_.push_back(jobs_[j].ranks);
  }
  job_started_.assign(jobs_.size(), 0);
  stats_.job_start.assign(jobs_.size(), 0);
  stats_.channels.assign(net.num_channels(), {});
  stats_.node_out.assign(net.num_nodes(), {});
  stats_.node_in.assign(net.num_nodes(), {});
  stats_.switch_bytes.assign(net.num_switches(), 0);
}

void Replay::run() {
  if (options_.progress) actions_total_ = source_.total_actions();
  stream_ = source_.open();
  progress_last_ = std::chrono::steady_clock::now();
  for (size_t j = 0; j < jobs_.size(); ++j)
    if (jobs_[j].after < 0) start_job(static_cast<int>(j), jobs_[j].start);
  run_events();

  std::vector<std::string> problems;
  std::string file;  // the trace file of the first problem's rank, when the trace came from one
  int blocked = 0;
  for (size_t j = 0; j < jobs_.size(); ++j)
    if (!job_started_[j] && problems.size() < 4)
      problems.push_back("job " + std::to_string(j) + " never started (job " + std::to_string(jobs_[j].after) +
                         ", which it runs after, did not finish)");
  for (int r = 0; r < static_cast<int>(ranks_.size()); ++r) {
    if (!job_started_[job_of_[r]]) continue;
    if (!ranks_[r].finished) {
      if (++blocked <= 4) problems.push_back(describe_blocked(r));
      continue;
    }
    for (const auto& [key, ids] : ranks_[r].stored)
      for (int id : ids)
        if (id >= 0 && !requests_[id].done && problems.size() < 4) {
          if (problems.empty()) file = stream_->context(r).file;
          problems.push_back("rank " + std::to_string(r) + " ended with a pending " + describe_request(id));
        }
  }
  if (blocked > 4) problems.push_back("and " + std::to_string(blocked - 4) + " more blocked ranks");
  if (problems.empty())
    for (const auto& [key, ids] : unexpected_)
      for (int id : ids)
        if (problems.empty()) {
          file = stream_->context(messages_[id].src_rank).file;
          problems.push_back("a send from rank " + std::to_string(messages_[id].src_rank) + " to rank " +
                             std::to_string(messages_[id].dst_rank) + " tag " + std::to_string(messages_[id].tag) +
                             " was never received");
        }
  if (!problems.empty()) {  // (a deadlock names the file and line of each blocked action)
    std::string text = blocked ? "deadlock at t=" + format_time(now()) + ": " : (file.empty() ? "" : file + ": ") + "inconsistent trace: ";
    for (size_t i = 0; i < problems.size(); ++i) text += (i ? "; " : "") + problems[i];
    throw Error(text);
  }
}

void Replay::advance(int r) {
  Rank& s = ranks_[r];
  while (true) {
    if (s.op == s.ops.size()) {
      const Action* action = stream_->next(r);
      if (!action) {
        rank_finished(r);
        return;
      }
      s.current = action;
      ++s.pc;
      s.ops.clear();
      s.op = 0;
      const JobSpan& job = jobs_[job_of_[r]];
      expand_action(*action, stream_->context(r), r - job.first_rank, job.ranks, s.ops, options_.collectives);
      if (job.first_rank > 0)  // the job's own rank numbers -> the simulation's
        for (Op& op : s.ops) {
          if (op.peer >= 0) op.peer += job.first_rank;
          if (op.dst >= 0) op.dst += job.first_rank;
        }
      continue;
    }
    const Op op = s.ops[s.op++];
    switch (op.kind) {
      case Op::Isend: post_send(r, op); break;
      case Op::Irecv: post_recv(r, op); break;
      case Op::WaitGroup: {
        std::vector<int> group;
        group.swap(s.group);
        if (block_on(r, std::move(group))) return;
        break;
      }
      case Op::WaitKey: case Op::TestKey: {
        auto it = s.stored.find({op.peer, op.dst, op.tag});
        if (it == s.stored.end()) break;  // as SMPI: already completed by an earlier test
        const int id = it->second.front();
        if (op.kind == Op::TestKey && id >= 0 && options_.test_time > 0 && !s.test_slept) {
          // SMPI's MPI_Test sleeps test_sleeps_ x smpi/test, then tests.
          s.test_slept = true;
          --s.op;
          sleep_for(r, test_sleeps_ * options_.test_time, "test");
          return;
        }
        s.test_slept = false;
        it->second.pop_front();
        if (it->second.empty()) s.stored.erase(it);
        if (id < 0) break;
        if (op.kind == Op::WaitKey) {
          if (block_on(r, {id})) return;
        } else if (requests_[id].done) {
          free_request(id);
          s.stored[{op.peer, op.dst, op.tag}].push_back(-1);  // a later wait returns at once
          test_sleeps_ = 1;
        } else {
          s.stored[{op.peer, op.dst, op.tag}].push_back(id);
          ++test_sleeps_;
        }
        break;
      }
      case Op::WaitAll: {
        std::vector<int> all;
        for (const auto& [key, ids] : s.stored)
          for (int id : ids)
            if (id >= 0) all.push_back(id);
        s.stored.clear();
        if (block_on(r, std::move(all))) return;
        break;
      }
      case Op::Compute: case Op::Sleep:
        sleep_for(r, op.kind == Op::Compute ? op.amount / options_.flops : op.amount, "compute");
        return;
    }
  }
}

void Replay::start_job(int j, double time) {
  job_started_[j] = 1;
  stats_.job_start[j] = time;
  for (int r = jobs_[j].first_rank; r < jobs_[j].first_rank + jobs_[j].ranks; ++r)
    at(time, [this, r] { ++local_events_; advance(r); });
}

void Replay::rank_finished(int r) {
  ranks_[r].finished = true;
  stats_.rank_finish[r] = now();
  const int j = job_of_[r];
  if (--job_left_[j] > 0) return;
  for (size_t k = 0; k < jobs_.size(); ++k)
    if (jobs_[k].after == j) start_job(static_cast<int>(k), now() + jobs_[k].start);
}

void Replay::sleep_for(int r, double seconds, const char* state) {
  ranks_[r].computing = true;
  if (options_.record_timeline && seconds > 0) stats_.timeline.push_back({r, state, now(), now() + seconds});
  at(now() + seconds, [this, r] {
    ++local_events_;
    ranks_[r].computing = false;
    advance(r);
  });
}

bool Replay::block_on(int r, std::vector<int> ids) {
  int pending = 0;
  for (int id : ids)
    if (!requests_[id].done) {
      requests_[id].awaited = true;
      ++pending;
    }
  if (pending == 0) {
    for (int id : ids) free_request(id);
    return false;
  }
  ranks_[r].blocked_on = std::move(ids);
  ranks_[r].waiting = pending;
  ranks_[r].blocked_since = now();
  return true;
}

void Replay::complete(int id) {
  Request& req = requests_[id];
  req.done = true;
  if (!req.awaited) return;
  Rank& s = ranks_[req.rank];
  if (--s.waiting > 0) return;
  for (int waited : s.blocked_on) free_request(waited);
  const int rank = req.rank;
  if (options_.record_timeline && now() > s.blocked_since)
    stats_.timeline.push_back({rank, action_name(s.current->type), s.blocked_since, now()});
  s.blocked_on.clear();
  advance(rank);
}

int Replay::new_request(const Request& r) {
  const int id = acquire(requests_, free_requests_);
  requests_[id] = r;
  return id;
}

void Replay::free_request(int id) { free_requests_.push_back(id); }

void Replay::post_send(int r, const Op& op) {
  const int dst = op.peer;
  Request req;
  req.send = true;
  req.rank = r;
  req.peer = dst;
  req.tag = op.tag;
  req.bytes = op.amount;
  const bool rendezvous = op.amount >= options_.eager_threshold;
  req.done = !rendezvous;
  const int rid = new_request(req);
  if (op.user) ranks_[r].stored[{r, dst, op.tag}].push_back(rid);
  else ranks_[r].group.push_back(rid);

  const int id = acquire(messages_, free_messages_);
  Message& m = messages_[id];
  m = Message{};
  m.src_rank = r;
  m.dst_rank = dst;
  m.src_node = placement_[r];
  m.dst_node = placement_[dst];
  m.tag = op.tag;
  m.bytes = op.amount;
  m.wire = op.amount + options_.envelope;
  m.posted = now();
  m.rendezvous = rendezvous;
  m.send_request = rendezvous ? rid : -1;  // an eager send's request may be freed before delivery
  m.distant = op.distant;
  m.collective = op.collective;

  const int recv = take_first(posted_, pair_key(dst, r), [&](int q) { return tags_match(requests_[q].tag, op.tag); });
  if (recv >= 0) match(id, recv);
  else unexpected_[pair_key(dst, r)].push_back(id);
}

void Replay::post_recv(int r, const Op& op) {
  Request req;
  req.rank = r;
  req.peer = op.peer;
  req.tag = op.tag;
  req.bytes = op.amount;
  const int rid = new_request(req);
  if (op.user) ranks_[r].stored[{op.peer, r, op.tag}].push_back(rid);
  else ranks_[r].group.push_back(rid);

  const int id = take_first(unexpected_, pair_key(r, op.peer), [&](int q) { return tags_match(op.tag, messages_[q].tag); });
  if (id >= 0) match(id, rid);
  else posted_[pair_key(r, op.peer)].push_back(rid);
}

void Replay::match(int id, int recv) {
  Message& m = messages_[id];
  m.recv_request = recv;
  m.started = now();
  requests_[recv].message = id;
  ++stats_.messages;
  stats_.bytes += m.bytes;

  const Network& net = routed_.network();
  if (m.src_node == m.dst_node) {
    double local = net.startup + m.wire / options_.intra_node_bandwidth;
    if (!cores_.empty()) {  // the level the two ranks' cores share sets bandwidth and latency
      const NodeLevel& level = net.node_insides.between(cores_[m.src_rank], cores_[m.dst_rank]);
      local = net.startup + level.latency + m.wire / level.bandwidth;
    }
    at(now() + local, [this, id] {
      ++local_events_;
      delivered(id);
    });
    return;
  }
  const double latency = plan_path(m);
  zero_load_sum_ += latency;
  transport_->start(id, m, path_, latency);
}

void Replay::add_eps_leg(const Message& m, int from, int to) {
  const double wire = m.wire;
  const Network& net = routed_.network();
  if (failed_paths_ && now() >= options_.link_failure->at) {  // the fabric manager's routes without the failed links
    path_.push_back(failed_paths_->leg(from, to, m.tag));
    for (int& c : path_.back().channels) c = 2 * options_.link_failure->original_link[c / 2] + c % 2;
  } else {
    path_.push_back(paths_.leg(from, to, m.tag));
  }
  const bool walked = path_.back().walked;  // then the transport reports the channel loads
  add_load(stats_.node_out[from], wire, net.node(from).bandwidth);
  add_load(stats_.node_in[to], wire, net.node(to).bandwidth);
  stats_.switch_bytes[net.node(from).switch_id] += wire;
  if (walked) return;
  for (int c : path_.back().channels) {
    add_load(stats_.channels[c], wire, net.link(c / 2).bandwidth);
    stats_.switch_bytes[net.channel_target(c)] += wire;
  }
}

double Replay::plan_path(Message& m) {
  const Network& net = routed_.network();
  path_.clear();
  const int from = net.node(m.src_node).switch_id, to = net.node(m.dst_node).switch_id;
  std::vector<int> hops;
  double ready = 0;  // when the circuits of `hops` are all set up
  if (circuits_ && from != to && m.wire > options_.ocs->threshold) {
    hops = circuits_->plan(m.src_node, m.dst_node, now(), ready);
    if (!options_.ocs->wait_for_setup && ready > now()) hops.clear();  // not set up yet: EPS
  }
  if (hops.empty()) {
    add_eps_leg(m, m.src_node, m.dst_node);
  } else {
    // EPS to the relay node of each circuit, the circuit, and on from its far end (EO-OE forwarding).
    ++stats_.optical_messages;
    stats_.setup_wait += std::max(0.0, ready - now());
    int at = m.src_node;
    stats_.circuit_loads.resize(circuits_->circuits().size());
    for (int k : hops) {
      const Circuit& c = circuits_->circuits()[k];
      const int near = net.node(c.a).switch_id == net.node(at).switch_id ? c.a : c.b, far = near == c.a ? c.b : c.a;
      if (at != near) add_eps_leg(m, at, near);
      path_.push_back(Leg{near, far, {}, k});
      add_load(stats_.circuit_loads[k], m.wire, options_.ocs->bandwidth);
      at = far;
    }
    if (at != m.dst_node) add_eps_leg(m, at, m.dst_node);
  }
  // Zero-load latency: t_s once, then every leg's links and switches.
  double latency = net.startup;
  m.hops = 0;
  for (const Leg& leg : path_) {
    if (leg.circuit >= 0) {
      latency += options_.ocs->latency;
      continue;
    }
    latency += routed_.route_latency(leg.from, leg.to, leg.channels) - net.startup;
    m.hops += static_cast<int>(leg.channels.size());
  }
  return latency;
}

void Replay::delivered(int id) {
  Message& m = messages_[id];
  const double latency = now() - m.posted;
  (m.collective ? collective_latencies_ : m.distant ? distant_latencies_ : neighbour_latencies_).add(latency);
  if (options_.record_messages)
    stats_.message_log.push_back(
        {m.src_rank, m.dst_rank, m.tag, m.bytes, m.posted, m.started, now(), m.hops, m.distant, m.collective});
  const int recv = m.recv_request, send = m.send_request;
  free_messages_.push_back(id);
  complete(recv);
  if (send >= 0) complete(send);
  if (options_.progress && ++delivered_ % 256 == 0) report_progress();
}

void Replay::report_progress() {
  const auto wall = std::chrono::steady_clock::now();
  if (wall - progress_last_ < std::chrono::milliseconds(100)) return;
  progress_last_ = wall;
  SimProgress p;
  p.simulated = now();
  p.events = local_events_ + transport_->events();
  p.messages = delivered_;
  p.actions_total = actions_total_;
  for (const Rank& rank : ranks_) p.actions_done += static_cast<long>(rank.pc);
  options_.progress(p);
}

std::string Replay::describe_request(int id) const {
  const Request& r = requests_[id];
  std::string text = r.send ? "send to rank " + std::to_string(r.peer) : "recv from rank " + std::to_string(r.peer);
  text += is_collective_tag(r.tag) ? " (collective)" : " tag " + std::to_string(r.tag);
  if (r.send) text += " (" + format_number(r.bytes) + " B, rendezvous)";
  return text;
}

std::string Replay::describe_blocked(int r) const {
  const Rank& s = ranks_[r];
  std::string where = "rank " + std::to_string(r);
  if (s.current) {
    const Action& a = *s.current;
    where += a.line ? " at " + stream_->context(r).file + ":" + std::to_string(a.line) : std::string();
    where += std::string(" (") + action_name(a.type) + ")";
  }
  for (int id : s.blocked_on)
    if (!requests_[id].done) return where + " waits for " + describe_request(id);
  return where + " is blocked";
}

SimResult Replay::result(double wall_seconds) const {
  SimResult out = stats_;
  if (const std::vector<PortLoad>* walked = transport_->walked_channel_loads()) {
    const Network& net = routed_.network();
    for (size_t c = 0; c < walked->size(); ++c) {
      PortLoad& load = out.channels[c];
      load.bytes += (*walked)[c].bytes;
      load.messages += (*walked)[c].messages;
      load.busy += (*walked)[c].busy;
      out.switch_bytes[net.channel_target(static_cast<int>(c))] += (*walked)[c].bytes;
    }
  }
  out.latency = summarise({&neighbour_latencies_, &distant_latencies_, &collective_latencies_});
  out.neighbour_latency = summarise({&neighbour_latencies_});
  out.distant_latency = summarise({&distant_latencies_});
  out.makespan = out.rank_finish.empty() ? 0 : *std::max_element(out.rank_finish.begin(), out.rank_finish.end());
  long network_messages = 0;
  for (const auto& load : out.node_out) network_messages += static_cast<long>(load.messages);
  out.zero_load_latency = network_messages ? zero_load_sum_ / network_messages : 0;
  for (const PortLoad& load : out.channels) {
    out.max_link_load = std::max(out.max_link_load, load.bytes);
    if (out.makespan > 0) out.max_link_utilisation = std::max(out.max_link_utilisation, load.busy / out.makespan);
  }
  if (circuits_) {
    for (const Circuit& c : circuits_->circuits()) out.circuits.emplace_back(c.a, c.b);
    out.circuit_loads.resize(out.circuits.size());
  }
  out.events = local_events_ + transport_->events();
  out.wall_seconds = wall_seconds;
  out.solver_seconds = transport_->solver_seconds();
  out.congestion = transport_->congestion();
  return out;
}

}  // namespace mapsim::sim
