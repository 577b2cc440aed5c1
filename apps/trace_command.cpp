// mapsim trace: look into TI traces -- stats, check, the communication matrix -- and convert them
// between a shared file and an index of per-rank files (and from SimGrid's old tag-less format).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "apps/commands.h"
#include "apps/common_options.h"
#include "sim/workload.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/interrupt.h"
#include "support/units.h"
#include "traces/trace_tools.h"
#include "support/json_text.h"

namespace mapsim {
namespace {

struct TraceOptions {
  std::string path, output, collectives, format;
  bool json = false, legacy = false, shared = false;
};

void stats(const TraceOptions& o) {
  const TraceStats s = trace_stats(o.path, o.legacy);
  if (chosen_format(o.format, o.json) == "json") {
    // "collectives" counts rank-calls (its meaning since it was added); collective_calls the calls.
    nlohmann::ordered_json j{{"ranks", s.ranks},
                             {"messages", s.messages},
                             {"bytes", s.bytes},
                             {"collectives", s.collectives},
                             {"collective_calls", s.collective_calls},
                             {"collective_rank_calls", s.collectives},
                             {"flops", s.flops},
                             {"sleep_seconds", s.sleep_seconds},
                             {"actions", s.actions}};
    std::cout << json_text(j, 2) << "\n";
    return;
  }
  std::printf("%-22s %d\n%-22s %ld (%s bytes)\n%-22s %ld\n%-22s %ld (each rank's call counted)\n%-22s %s\n%-22s %s s\n",
              "ranks", s.ranks, "point-to-point sends", s.messages, format_number(s.bytes).c_str(), "collective calls",
              s.collective_calls, "collective rank-calls", s.collectives, "compute flops", format_number(s.flops).c_str(),
              "sleep", format_number(s.sleep_seconds).c_str());
  std::printf("actions:\n");
  for (const auto& [name, count] : s.actions) std::printf("  %-20s %ld\n", name.c_str(), count);
}

int check(const TraceOptions& o) {
  // Unknown actions and bad ranks are one-line errors of the reader; the rest is listed here.
  const std::vector<std::string> problems = check_trace(o.path, o.legacy);
  for (const std::string& p : problems) std::cerr << "mapsim: " << p << "\n";
  if (problems.empty()) std::cout << o.path << ": every message matched\n";
  return problems.empty() ? 0 : 1;
}

void matrix(const TraceOptions& o) {
  const auto cells = communication_matrix(o.path, o.legacy, parse_collectives(o.collectives));
  long messages = 0;
  write_file_atomically(o.output, [&](std::ostream& out) {
    out << "src,dst,bytes,messages,p2p_bytes,p2p_messages,collective_bytes,collective_messages\n";
    for (const auto& [pair, c] : cells) {
      out << pair.first << "," << pair.second << "," << format_exact(c.p2p_bytes + c.collective_bytes) << ","
          << c.p2p_messages + c.collective_messages << "," << format_exact(c.p2p_bytes) << "," << c.p2p_messages << ","
          << format_exact(c.collective_bytes) << "," << c.collective_messages << "\n";
      messages += c.p2p_messages + c.collective_messages;
    }
  });
  std::cout << o.output << ": " << cells.size() << " communicating rank pairs, " << messages << " messages\n";
}

// An interrupt (Ctrl-C, SIGTERM) removes the partial output, then ends the process as the signal would.
void convert(const TraceOptions& o) {
  const InterruptGuard interrupts;
  std::string written;
  try {
    written = convert_ti_trace(o.path, o.legacy, o.output, o.shared);
  } catch (const Error&) {
    if (InterruptGuard::interrupted()) end_by_interrupt();
    throw;
  }
  std::cout << written << "\n";
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto o = std::make_shared<TraceOptions>();
  CLI::App* cmd = app.add_subcommand("trace", "Inspect, check and convert SimGrid TI traces and OTF2 archives (docs/traces.md)");
  cmd->require_subcommand(1);
  auto common = [&](CLI::App* sub) {
    sub->add_option("trace", o->path, "Trace: a TI shared file, a TI index file, or an OTF2 anchor file (traces.otf2)")->required();
    sub->add_flag("--legacy", o->legacy, "SimGrid's old point-to-point format without tags (read with tag 0)");
  };
  CLI::App* s = cmd->add_subcommand("stats", "Ranks, actions by type, messages, bytes, compute");
  common(s);
  add_format_option(s, o->format, o->json, {"table", "json"}, "Same as --format json: one JSON object");
  s->callback([o] { stats(*o); });
  CLI::App* c = cmd->add_subcommand("check", "Unmatched sends/receives, waits without requests, disagreeing collectives");
  common(c);
  c->callback([o] {
    if (check(*o) != 0) throw CLI::RuntimeError(1);
  });
  CLI::App* m = cmd->add_subcommand("matrix", "Communication matrix (bytes and messages per rank pair) as CSV");
  common(m);
  m->add_option("-o,--output", o->output, "CSV file")->required();
  m->add_option("--collectives", o->collectives,
                "Expand collectives with these algorithms, as simulate --collectives (default: mapsim's)");
  m->callback([o] { matrix(*o); });
  CLI::App* v = cmd->add_subcommand("convert", "Rewrite a trace: index + rank files (default) or one shared file");
  common(v);
  v->add_option("-o,--output", o->output, "Directory (index.txt + rank-N.txt), or a file with --shared")->required();
  v->add_flag("--shared", o->shared, "Write one shared file");
  v->callback([o] { convert(*o); });
}

}  // namespace mapsim
