#include "traces/ti_trace.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "support/atomic_file.h"
#include "support/error.h"
#include "support/interrupt.h"
#include "support/input_file.h"
#include "support/message.h"
#include "support/units.h"
#include "traces/trace_source.h"

namespace mapsim {
namespace {

struct ActionInfo {
  const char* name;
  ActionType type;
};

constexpr ActionInfo kActions[] = {
    {"init", ActionType::Init},           {"finalize", ActionType::Finalize},
    {"send", ActionType::Send},           {"isend", ActionType::Isend},
    {"recv", ActionType::Recv},           {"irecv", ActionType::Irecv},
    {"wait", ActionType::Wait},           {"waitall", ActionType::Waitall},
    {"test", ActionType::Test},           {"sendRecv", ActionType::SendRecv},
    {"barrier", ActionType::Barrier},     {"bcast", ActionType::Bcast},
    {"reduce", ActionType::Reduce},       {"allreduce", ActionType::Allreduce},
    {"alltoall", ActionType::Alltoall},   {"alltoallv", ActionType::Alltoallv},
    {"gather", ActionType::Gather},       {"gatherv", ActionType::Gatherv},
    {"allgather", ActionType::Allgather}, {"allgatherv", ActionType::Allgatherv},
    {"scatter", ActionType::Scatter},     {"scatterv", ActionType::Scatterv},
    {"reducescatter", ActionType::ReduceScatter}, {"scan", ActionType::Scan},
    {"exscan", ActionType::Exscan},       {"compute", ActionType::Compute},
    {"sleep", ActionType::Sleep},         {"comm_size", ActionType::CommSize},
    {"comm_split", ActionType::CommSplit}, {"comm_dup", ActionType::CommDup},
    {"location", ActionType::Location},
};

constexpr int kMpiDouble = 0, kMpiByte = 6;  // SimGrid's ids

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream in(line);
  for (std::string token; in >> token;) tokens.push_back(token);
  return tokens;
}

// Parses the arguments of one line; every error names file and line.
class LineParser {
 public:
  LineParser(const std::string& file, int line, std::vector<std::string> tokens, int ranks)
      : file_(file), line_(line), tokens_(std::move(tokens)), ranks_(ranks) {}
  // The size of an absent datatype argument: the rank's default (MPI_BYTE unless `init` said otherwise).
  void set_default_type(int size) { default_type_ = size; }
  const std::string& rank_field() const { return tokens_[0]; }
  const std::string& action() const { return tokens_[1]; }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(file_ + ":" + std::to_string(line_) + ": " + what);
  }
  size_t args() const { return tokens_.size() - 2; }
  const std::string& arg(size_t i) const {
    if (i >= args()) fail("'" + tokens_[1] + "' expects more arguments (see docs/traces.md)");
    used_ = std::max(used_, i + 1);
    return tokens_[i + 2];
  }
  // The remaining arguments are a known field that replay does not need (allgatherv's displacements).
  void accept_rest() const { used_ = args(); }
  // Arguments no parse read: a typo or a field of another format, never ignored silently.
  void check_all_used() const {
    if (used_ < args())
      fail("unexpected '" + tokens_[used_ + 2].substr(0, 40) + "' after the arguments of '" + tokens_[1] + "'");
  }
  double number(size_t i, const char* what) const {
    const std::string& text = arg(i);
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(value))
      fail(std::string("expected ") + what + ", got '" + text + "'");
    return value;
  }
  int integer(size_t i, const char* what) const {
    double value = number(i, what);
    if (value != std::trunc(value) || std::fabs(value) > 2e9)
      fail(std::string("expected an integer ") + what + ", got '" + arg(i) + "'");
    return static_cast<int>(value);
  }
  double count(size_t i, const char* what) const {
    double value = number(i, what);
    if (value < 0) fail(std::string("expected a non-negative ") + what + ", got '" + arg(i) + "'");
    return std::trunc(bounded(value, i, what));
  }
  // Counts and sizes above 2^53 are no longer exact in a double (1e23 + 1 == 1e23).
  double bounded(double value, size_t i, const char* what) const {
    if (value > kMaxSize) fail(std::string(what) + " " + excerpt(arg(i)) + " is above 2^53 (9007199254740992), where counts stop being exact");
    return value;
  }
  int tag(size_t i) const {
    int value = integer(i, "tag");
    if (value < -1) fail("expected a tag >= 0 (or -1, MPI_ANY_TAG), got " + arg(i));
    return value;
  }
  int rank(size_t i, const char* what) const {
    int value = integer(i, what);
    if (value < 0 || value >= ranks_)
      fail(std::string(what) + " " + std::to_string(value) + " is out of range: the trace has " + std::to_string(ranks_) +
           " ranks");
    return value;
  }
  // Datatype size at argument i, or the rank's default when absent. Each call also notes the id
  // (the default's when absent), in call order: the send type, then the receive type.
  int type(size_t i) const {
    int id = default_type_ == 8 ? kMpiDouble : kMpiByte;
    if (i < args()) {
      id = integer(i, "datatype id");
      if (!is_datatype(id)) fail("unknown datatype id " + arg(i));
      typed_ = true;
    }
    if (noted_ < 2) ids_[noted_++] = static_cast<int8_t>(id);
    return datatype_size(id);
  }
  // The datatype ids the line gave explicitly, or MPI_DOUBLE where it is the rank's default (else
  // -1): an action written back keeps them, and algorithms that split by element count use them.
  void note_types(Action& a) const {
    if (!typed_ && default_type_ == 1) return;
    a.datatype = ids_[0];
    a.datatype2 = noted_ > 1 ? ids_[1] : ids_[0];
  }
  int ranks() const { return ranks_; }

 private:
  const std::string& file_;
  int line_;
  std::vector<std::string> tokens_;
  int ranks_;
  int default_type_ = 1;
  mutable size_t used_ = 0;
  mutable bool typed_ = false;
  mutable int noted_ = 0;
  mutable int8_t ids_[2] = {-1, -1};
};

ActionType lookup(const LineParser& p, const std::string& name) {
  static const std::unordered_map<std::string, ActionType> table = [] {
    std::unordered_map<std::string, ActionType> t;
    for (const auto& info : kActions) t.emplace(info.name, info.type);
    return t;
  }();
  auto it = table.find(name);
  if (it == table.end()) p.fail("unknown action " + excerpt(name));
  return it->second;
}

// Appends `n` counts starting at argument `first`, scaled to bytes; returns the pool offset.
uint32_t read_counts(const LineParser& p, size_t first, int n, int type_size, RankTrace& rank) {
  uint32_t offset = static_cast<uint32_t>(rank.counts.size());
  for (int i = 0; i < n; ++i) rank.counts.push_back(p.count(first + i, "count") * type_size);
  return offset;
}

// Requests of SimGrid's old format: an argument-less `wait` waits for the rank's last irecv.
using LegacyIrecvs = std::vector<std::array<int, 3>>;

Action parse_action(const LineParser& p, RankTrace& rank, int& default_type, bool legacy, LegacyIrecvs& irecvs) {
  const std::string& name = p.action();
  Action a{lookup(p, legacy && (name == "Isend" || name == "Irecv") ? "i" + name.substr(1) : name)};
  const int n = p.ranks();
  switch (a.type) {
    case ActionType::Init:
      default_type = p.args() > 0 ? 8 : 1;  // MPE traces (init with an argument) count doubles
      if (p.args() > 0) p.arg(0);           // its value is not used, only its presence
      break;
    case ActionType::Send: case ActionType::Isend: case ActionType::Recv: case ActionType::Irecv: {
      if (p.args() == 2 && !legacy)
        p.fail("'" + name + "' without a tag is SimGrid's old format; expected PEER TAG SIZE (mapsim trace convert --legacy reads it)");
      bool recv = a.type == ActionType::Recv || a.type == ActionType::Irecv;
      a.peer = p.rank(0, recv ? "source rank" : "destination rank");
      const size_t size_at = legacy ? 1 : 2;  // the old format has no tag: PEER SIZE [TYPE], tag 0
      a.tag = legacy ? 0 : p.tag(1);
      double size = p.bounded(p.number(size_at, "size"), size_at, "size");
      if (size < 0 && !recv) p.fail("expected a non-negative size");
      a.bytes = size < 0 ? -1 : std::trunc(size) * p.type(size_at + 1);
      if (legacy && a.type == ActionType::Irecv) irecvs.push_back({a.peer, std::atoi(p.rank_field().c_str()), a.tag});
      break;
    }
    case ActionType::Wait: case ActionType::Test:
      if (legacy && p.args() == 0) {
        if (a.type == ActionType::Test || irecvs.empty())
          p.fail("'" + name + "' without arguments (SimGrid's old format) " +
                 (a.type == ActionType::Test ? "is only known for wait" : "follows no irecv of this rank"));
        a.peer = irecvs.back()[0], a.root = irecvs.back()[1], a.tag = irecvs.back()[2];
        irecvs.pop_back();
        break;
      }
      a.peer = p.rank(0, "source rank");
      a.root = p.rank(1, "destination rank");
      a.tag = p.tag(2);
      break;
    case ActionType::SendRecv:
      a.bytes = p.count(0, "send count") * p.type(4);
      a.peer = p.rank(1, "destination rank");
      a.bytes2 = p.count(2, "receive count") * p.type(5);
      a.root = p.rank(3, "source rank");
      break;
    case ActionType::Bcast:
      a.root = p.args() > 1 ? p.rank(1, "root") : 0;
      a.bytes = p.count(0, "size") * p.type(2);
      break;
    case ActionType::Reduce:
      a.root = p.args() > 2 ? p.rank(2, "root") : 0;
      a.bytes = p.count(0, "count") * p.type(3);
      a.flops = p.count(1, "compute amount");
      break;
    case ActionType::Allreduce:
      a.bytes = p.count(0, "count") * p.type(2);
      a.flops = p.count(1, "compute amount");
      break;
    case ActionType::Alltoall: case ActionType::Allgather:
      a.bytes = p.count(0, "send count") * p.type(2);
      a.bytes2 = p.count(1, "receive count") * p.type(3);
      break;
    case ActionType::Gather: case ActionType::Scatter:
      a.root = p.args() > 2 ? p.rank(2, "root") : 0;
      a.bytes = p.count(0, "send count") * p.type(3);
      a.bytes2 = p.count(1, "receive count") * p.type(4);
      break;
    case ActionType::Gatherv: case ActionType::Allgatherv: {
      // gatherv SEND RECVCOUNTS[n] [ROOT [T1 T2]];  allgatherv SEND RECVCOUNTS[n] [T1 T2] [DISPS[n]]
      size_t rest = p.args() > static_cast<size_t>(n) + 1 ? p.args() - n - 1 : 0;
      size_t types = n + 1;
      if (a.type == ActionType::Gatherv) {
        if (rest > 0) a.root = p.rank(n + 1, "root");
        types = n + 2;
      } else if (rest == static_cast<size_t>(n)) {
        types = p.args();  // displacements only: default types
        p.accept_rest();
      } else if (rest == static_cast<size_t>(n) + 2) {
        p.accept_rest();  // types, then displacements
      }
      a.bytes = p.count(0, "send count") * p.type(types);
      p.arg(n);  // all receive counts present
      a.counts = read_counts(p, 1, n, p.type(types + 1), rank);
      break;
    }
    case ActionType::Scatterv:
      p.arg(n);
      a.counts = read_counts(p, 0, n, p.type(n + 2), rank);
      a.bytes2 = p.count(n, "receive count") * p.type(n + 3);
      a.root = p.args() > static_cast<size_t>(n) + 1 ? p.rank(n + 1, "root") : 0;
      break;
    case ActionType::ReduceScatter:
      p.arg(n);
      a.counts = read_counts(p, 0, n, p.type(n + 1), rank);
      a.flops = p.count(n, "compute amount");
      break;
    case ActionType::Scan: case ActionType::Exscan:
      a.bytes = p.count(0, "size") * p.type(2);
      a.flops = p.count(1, "compute amount");
      break;
    case ActionType::Alltoallv: {
      // alltoallv SENDBUF SENDCOUNTS[n] RECVBUF RECVCOUNTS[n] [T1 T2]
      p.arg(2 * n + 1);
      int send_type = p.type(2 * n + 2), recv_type = p.type(2 * n + 3);
      a.counts = read_counts(p, 1, n, send_type, rank);
      read_counts(p, n + 2, n, recv_type, rank);
      break;
    }
    case ActionType::Compute:
      a.flops = p.count(0, "flops");
      break;
    case ActionType::Sleep:
      a.flops = p.number(0, "seconds");
      if (a.flops < 0 || a.flops > kMaxTime) p.fail("expected a sleep time of 0 to 1e6 seconds, got " + excerpt(p.arg(0)));
      break;
    case ActionType::CommSize:
      if (p.integer(0, "communicator size") < 1) p.fail("expected a communicator size of at least 1, got " + excerpt(p.arg(0)));
      break;
    case ActionType::Location:
      p.accept_rest();  // FILE LINE, a file name may hold spaces; SMPI also writes it empty
      break;
    case ActionType::CommSplit: case ActionType::CommDup:
      p.accept_rest();  // not modelled: replay ignores them and their arguments
      break;
    default:
      break;
  }
  return a;
}

// What is wrong with a line whose first field is no rank number; SimGrid's S4U replay examples
// name their actors p0, p1, ... and are not SMPI traces.
std::string not_a_rank(const std::string& field, const std::string& text) {
  if (field.size() > 1 && field[0] == 'p' && field.find_first_not_of("0123456789", 1) == std::string::npos)
    return "'" + field + "' is an actor of a SimGrid S4U replay trace (p0 recv p1 ...), not an SMPI time-independent "
           "trace (0 recv 1 TAG SIZE ...)";
  return "expected 'RANK ACTION ...', got " + excerpt(text);
}

bool looks_like_index(const std::string& path) {
  std::ifstream in = open_input(path, "trace file");
  for (std::string line; std::getline(in, line);) {
    if (line.find('\0') != std::string::npos) return false;  // binary: no file names (read as a trace, it is refused there)
    auto tokens = split(line);
    if (tokens.empty() || tokens[0][0] == '#') continue;
    return tokens.size() == 1;
  }
  return false;
}

std::ifstream open(const std::string& path, const std::string& referrer) {
  try {
    return open_input(path, "trace file");
  } catch (const Error& e) {
    throw Error(referrer + e.what());
  }
}

// Parses every line of `path` whose rank field is `only_rank` (or all when -1), handing each action
// to `sink` with its rank's trace (whose counts pool holds the action's v-collective counts).
using Sink = std::function<void(int rank, Action&& action, RankTrace& trace)>;
// A line of a file an index named (`named_by`), which may be any file (/etc/shadow): an error before the
// file has shown one trace action does not quote it.
Error unquoted_line(const std::string& path, int line, const std::string& named_by) {
  return Error(path + ":" + std::to_string(line) + ": expected 'RANK ACTION ...' (the line is not shown: " + named_by +
               " names this file, which may be no trace)");
}

// The rank of line `line` of a shared file (`tokens`: its fields, not a blank or comment line); throws
// FILE:LINE for a line without a rank and an action, or a rank above kMaxTraceRanks (the rank table is
// sized by the largest rank: refuse before allocating). `first`: no rank line came before it.
long shared_file_rank(const std::vector<std::string>& tokens, const std::string& text, const std::string& path, int line,
                      const std::string& named_by, bool first) {
  char* end = nullptr;
  const long r = std::strtol(tokens[0].c_str(), &end, 10);
  if (*end != '\0' || r < 0 || tokens.size() < 2) {
    if (!named_by.empty() && first) throw unquoted_line(path, line, named_by);
    throw Error(path + ":" + std::to_string(line) + ": " + not_a_rank(tokens[0], text));
  }
  if (r >= kMaxTraceRanks)
    throw Error(path + ":" + std::to_string(line) + ": rank " + tokens[0] + " is above the limit of " +
                std::to_string(kMaxTraceRanks) + " ranks");
  return r;
}

// The ranks a shared file's lines name. A trace has ranks 0..the largest, and a rank without a line
// would still cost its table entry, file and simulated process: a 27-byte line naming rank 4194303
// must not cost 4 million of them, so every rank needs a line (checked after the first pass, before
// anything is sized by the ranks).
class SharedFileRanks {
 public:
  void add(long rank, int line) {
    if (static_cast<size_t>(rank) >= seen_.size()) seen_.resize(rank + 1, false);  // a bit per rank, 512 KB at most
    seen_[rank] = true;
    if (rank > max_) max_ = rank, max_line_ = line;
  }
  long max() const { return max_; }
  void check(const std::string& path) const {
    for (size_t r = 0; r < seen_.size(); ++r)
      if (!seen_[r])
        throw Error(path + ":" + std::to_string(max_line_) + ": rank " + std::to_string(max_) + " makes a trace of " +
                    std::to_string(max_ + 1) + " ranks, but rank " + std::to_string(r) +
                    " has no line; expected a line for every rank up to the largest (an idle rank: 'R init')");
  }

 private:
  std::vector<bool> seen_;
  long max_ = -1;
  int max_line_ = 0;
};

// What parsing a rank's lines carries from one line to the next.
struct RankState {
  int default_type = 1;  // bytes per count of a size without a datatype (init decides)
  LegacyIrecvs irecvs;
};

// Parses line `line` (`text`) of `path` into `a`; false for a blank or comment line. `only_rank` >= 0:
// the file of that rank. `state(r)` gives rank r's RankTrace (its counts pool) and RankState. `quoted`:
// the file has shown a trace action (before that, an error does not quote a file `named_by` named).
template <class State>
bool parse_line(const std::string& path, int line, const std::string& text, int only_rank, int n,
                const std::string& named_by, bool& quoted, bool legacy, const State& state, Action& a, int& rank) {
  auto tokens = split(text);
  if (tokens.empty() || tokens[0][0] == '#') return false;
  char* end = nullptr;
  const long r = std::strtol(tokens[0].c_str(), &end, 10);
  const bool rank_ok = *end == '\0' && r >= 0;
  const size_t size = tokens.size();
  a = Action{};
  try {
    LineParser p(path, line, std::move(tokens), n);
    if (size < 2) p.fail("expected 'RANK ACTION ...', got " + excerpt(text));
    if (!rank_ok) p.fail(not_a_rank(p.rank_field(), text));
    if (only_rank >= 0 && r != only_rank)
      p.fail("line of rank " + std::to_string(r) + " in the file of rank " + std::to_string(only_rank));
    if (r >= n) p.fail("rank " + std::to_string(r) + " is out of range: the trace has " + std::to_string(n) + " ranks");
    auto [trace, rs] = state(static_cast<int>(r));
    p.set_default_type(rs->default_type);
    a = parse_action(p, *trace, rs->default_type, legacy, rs->irecvs);
    p.check_all_used();
    p.note_types(a);
  } catch (const Error&) {
    if (quoted || named_by.empty()) throw;
    throw unquoted_line(path, line, named_by);
  }
  quoted = true;
  a.line = static_cast<uint32_t>(line);
  rank = static_cast<int>(r);
  return true;
}

void parse_file(const std::string& path, int only_rank, std::vector<RankTrace>& ranks, const std::string& referrer,
                const std::string& named_by, bool legacy, const Sink& sink) {
  std::ifstream in = open(path, referrer);
  std::vector<RankState> states(ranks.size());
  std::string text;
  bool quoted = false;
  const int n = static_cast<int>(ranks.size());
  auto state = [&](int r) { return std::make_pair(&ranks[r], &states[r]); };
  for (int line = 1; std::getline(in, text); ++line) {
    if (line % 4096 == 0) stop_if_interrupted();
    Action a;
    int r = -1;
    if (parse_line(path, line, text, only_rank, n, named_by, quoted, legacy, state, a, r)) sink(r, std::move(a), ranks[r]);
  }
}

}  // namespace

const char* action_name(ActionType type) {
  for (const auto& info : kActions)
    if (info.type == type) return info.name;
  return "?";
}

namespace {

// One-line indexes may name another index (SMPI's names a shared trace); a chain that returns to one
// of its files would recurse until the stack ends, and a long one is no trace anyone wrote.
constexpr size_t kMaxIndexNesting = 8;

// Follows the one-line indexes from `path` (`outer` gets each): the per-rank files of an index, with
// the index's line naming each (`path` is then the index), or none when `path` ends as a shared file.
std::vector<std::pair<std::string, int>> follow_indexes(std::string& path, std::vector<std::string>& outer) {
  while (looks_like_index(path)) {
    std::ifstream in = open(path, "");
    std::vector<std::pair<std::string, int>> files;
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
      auto tokens = split(text);
      if (tokens.empty() || tokens[0][0] == '#') continue;
      if (tokens.size() != 1) throw Error(path + ":" + std::to_string(line) + ": expected one trace file name per line");
      std::filesystem::path file = tokens[0];
      std::error_code ec;  // a name too long to look up is a file that is not there
      if (file.is_relative() && std::filesystem::exists(std::filesystem::path(path).parent_path() / file, ec))
        file = std::filesystem::path(path).parent_path() / file;
      // An index that an index named may be any file whose lines are one word (/etc/shadow): not quoted.
      if (!outer.empty() && !std::filesystem::is_regular_file(file, ec))
        throw Error(path + ":" + std::to_string(line) + ": names no trace file (the name is not shown: " + outer.back() +
                    " names this file, which may be no index)");
      files.emplace_back(file.string(), line);
    }
    if (files.size() != 1) return files;
    // SMPI: a one-line index names a shared trace
    const auto& [next, line] = files[0];
    const std::string where = path + ":" + std::to_string(line) + ": ";
    outer.push_back(path);
    std::error_code ec;  // a file that is not there is no cycle; opening it says what is wrong
    for (const std::string& earlier : outer)
      if (std::filesystem::equivalent(next, earlier, ec))
        throw Error(where + (earlier == path ? "the trace index names itself"
                                             : "trace indexes form a cycle through " + earlier));
    if (outer.size() > kMaxIndexNesting)
      throw Error(where + "more than " + std::to_string(kMaxIndexNesting) + " trace indexes nested");
    if (!std::filesystem::exists(next, ec))  // said here: the index is the file at fault
      throw Error(where + "names the trace file " + excerpt(next) + ", which does not exist (a file of one word per line is read as a trace index)");
    path = next;
  }
  return {};
}

// Reads the trace at `path` rank file by rank file (an index) or in one pass (a shared file, after a
// first pass that counts the ranks); `trace` gets one RankTrace per rank, without actions.
void read_into(std::string path, bool legacy, Trace& trace, const Sink& sink) {
  std::vector<std::string> outer;  // the one-line indexes that led to the trace
  const std::vector<std::pair<std::string, int>> files = follow_indexes(path, outer);
  if (!files.empty()) {
    trace.ranks.resize(files.size());
    for (size_t r = 0; r < files.size(); ++r) {
      trace.ranks[r].file = files[r].first;
      const std::string named_by = path + ":" + std::to_string(files[r].second);
      parse_file(files[r].first, static_cast<int>(r), trace.ranks, named_by + ": ", named_by, legacy, sink);
    }
    return;
  }
  // One shared file: the ranks are 0..max rank seen.
  std::ifstream in = open(path, "");
  const std::string named_by = outer.empty() ? "" : outer.back();  // a one-line index named it
  SharedFileRanks ranks;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (line % 4096 == 0) stop_if_interrupted();
    auto tokens = split(text);
    if (tokens.empty() || tokens[0][0] == '#') continue;
    ranks.add(shared_file_rank(tokens, text, path, line, named_by, ranks.max() < 0), line);
  }
  if (ranks.max() < 0) throw Error(path + ": empty trace: expected 'RANK ACTION ...' lines");
  ranks.check(path);
  trace.ranks.resize(ranks.max() + 1);
  for (auto& rank : trace.ranks) rank.file = path;
  parse_file(path, -1, trace.ranks, "", named_by, legacy, sink);
}

std::vector<TraceFormat>& trace_formats() {
  static std::vector<TraceFormat> formats;
  return formats;
}

const TraceFormat* format_of(const std::string& path) {
  for (const TraceFormat& format : trace_formats())
    if (format.recognises(path)) return &format;
  return nullptr;
}

}  // namespace

bool register_trace_format(TraceFormat format) {
  trace_formats().push_back(std::move(format));
  return true;
}

size_t counts_used(const Action& a, int ranks) {
  switch (a.type) {
    case ActionType::Alltoallv: return 2 * static_cast<size_t>(ranks);
    case ActionType::Gatherv: case ActionType::Allgatherv: case ActionType::Scatterv: case ActionType::ReduceScatter:
      return static_cast<size_t>(ranks);
    default: return 0;
  }
}

Trace read_ti_trace(const std::string& path, bool legacy) {
  if (const TraceFormat* format = format_of(path)) return format->read(path);
  Trace trace;
  read_into(path, legacy, trace, [](int, Action&& a, RankTrace& rank) { rank.actions.push_back(a); });
  return trace;
}

int visit_ti_trace(const std::string& path, bool legacy, const ActionVisitor& visit) {
  if (const TraceFormat* format = format_of(path)) {  // streamed rank after rank (OTF2)
    const std::shared_ptr<const TraceSource> source = format->open(path, 0);
    const int n = source->num_ranks();
    for_each_action(*source, [&](int r, const Action& a, const RankTrace& context) { visit(r, a, context, n); });
    return n;
  }
  Trace trace;
  read_into(path, legacy, trace, [&](int r, Action&& a, RankTrace& rank) {
    visit(r, a, rank, trace.num_ranks());
    rank.counts.clear();  // consumed: memory stays bounded by one action
  });
  return trace.num_ranks();
}

namespace {

// Sizes are written in the action's datatypes where the trace gave them (counts of that type, the ids
// after the arguments, as SMPI writes them), else in bytes.
void write_counts(std::ostream& out, const RankTrace& rank, uint32_t offset, int n, int type) {
  const double size = type >= 0 ? datatype_size(type) : 1;
  for (int i = 0; i < n; ++i) out << " " << format_number(rank.counts[offset + i] / size, 17);
}

void write_action(std::ostream& out, int r, const Action& a, const RankTrace& rank, int n) {
  const int t1 = a.datatype, t2 = a.datatype2;
  auto num = [](double v) { return format_number(v, 17); };
  auto in = [&](double bytes, int type) { return num(type >= 0 ? bytes / datatype_size(type) : bytes); };
  auto types = [&](int count) {  // the trailing datatype ids, when the trace gave them
    if (t1 < 0) return std::string();
    return " " + std::to_string(t1) + (count > 1 ? " " + std::to_string(t2) : "");
  };
  out << r << " " << action_name(a.type);
  switch (a.type) {
    case ActionType::Send: case ActionType::Isend: case ActionType::Recv: case ActionType::Irecv:
      out << " " << a.peer << " " << a.tag << " " << (a.bytes < 0 ? std::string("-1") : in(a.bytes, t1)) << types(1);
      break;
    case ActionType::Wait: case ActionType::Test: out << " " << a.peer << " " << a.root << " " << a.tag; break;
    case ActionType::SendRecv:
      out << " " << in(a.bytes, t1) << " " << a.peer << " " << in(a.bytes2, t2) << " " << a.root << types(2);
      break;
    case ActionType::Bcast: out << " " << in(a.bytes, t1) << " " << a.root << types(1); break;
    case ActionType::Reduce: out << " " << in(a.bytes, t1) << " " << num(a.flops) << " " << a.root << types(1); break;
    case ActionType::Allreduce: case ActionType::Scan: case ActionType::Exscan:
      out << " " << in(a.bytes, t1) << " " << num(a.flops) << types(1);
      break;
    case ActionType::Alltoall: case ActionType::Allgather:
      out << " " << in(a.bytes, t1) << " " << in(a.bytes2, t2) << types(2);
      break;
    case ActionType::Gather: case ActionType::Scatter:
      out << " " << in(a.bytes, t1) << " " << in(a.bytes2, t2) << " " << a.root << types(2);
      break;
    case ActionType::Gatherv:
      out << " " << in(a.bytes, t1);
      write_counts(out, rank, a.counts, n, t2);
      out << " " << a.root << types(2);
      break;
    case ActionType::Allgatherv: out << " " << in(a.bytes, t1); write_counts(out, rank, a.counts, n, t2); out << types(2); break;
    case ActionType::Scatterv:
      write_counts(out, rank, a.counts, n, t1);
      out << " " << in(a.bytes2, t2) << " " << a.root << types(2);
      break;
    case ActionType::ReduceScatter: write_counts(out, rank, a.counts, n, t1); out << " " << num(a.flops) << types(1); break;
    case ActionType::Alltoallv: {
      double sent = 0, received = 0;
      for (int i = 0; i < n; ++i) sent += rank.counts[a.counts + i], received += rank.counts[a.counts + n + i];
      out << " " << in(sent, t1);
      write_counts(out, rank, a.counts, n, t1);
      out << " " << in(received, t2);
      write_counts(out, rank, a.counts + n, n, t2);
      out << types(2);
      break;
    }
    case ActionType::Compute: case ActionType::Sleep: out << " " << num(a.flops); break;
    case ActionType::CommSize: out << " " << n; break;
    case ActionType::Location: out << " unknown 0"; break;
    default: break;
  }
  out << "\n";
}

}  // namespace

namespace {

std::filesystem::path rank_file(const std::string& directory, int rank) {
  return std::filesystem::path(directory) / ("rank-" + std::to_string(rank) + ".txt");
}

// index.txt naming rank-0.txt .. rank-(N-1).txt by absolute path, as SMPI opens them.
std::string write_index(const std::string& directory, int ranks) {
  const std::filesystem::path index = std::filesystem::path(directory) / "index.txt";
  write_file_atomically(index.string(), [&](std::ostream& out) {
    for (int r = 0; r < ranks; ++r) out << std::filesystem::absolute(rank_file(directory, r)).string() << "\n";
  });
  return index.string();
}

void check_written(const std::ofstream& out, const std::string& path) {
  if (!out) throw Error(path + ": cannot write trace file (" + (errno ? std::strerror(errno) : "write error") + ")");
}

// The rank of a rank-N.txt file name, else -1.
long rank_of_file(const std::string& name) {
  if (name.size() < 10 || name.rfind("rank-", 0) != 0 || name.compare(name.size() - 4, 4, ".txt") != 0) return -1;
  const std::string digits = name.substr(5, name.size() - 9);
  if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stol(digits);
}

// Rank files are written under DIR/.mapsim-partial/ and moved into DIR once all are complete,
// index.txt last: a failed or interrupted write leaves no trace that looks complete. DIR is new,
// empty or a previous trace, whose rank files beyond the new count go: files of two traces never mix.
class StagedTrace {
 public:
  explicit StagedTrace(const std::string& directory) : dir_(directory), stage_(std::filesystem::path(directory) / ".mapsim-partial") {
    namespace fs = std::filesystem;
    if (dir_.empty()) throw Error("expected a folder for the trace's index.txt and rank files, got an empty name");
    if (fs::exists(dir_) && !fs::is_directory(dir_))
      throw Error(dir_ + (fs::is_regular_file(dir_) ? ": is a file" : ": is a device or pipe") +
                  ", not a folder; expected a folder for the trace's index.txt and rank files");
    if (fs::is_directory(dir_))
      for (const fs::directory_entry& entry : fs::directory_iterator(dir_)) {
        const std::string name = entry.path().filename().string();
        if (name != "index.txt" && name != ".mapsim-partial" && rank_of_file(name) < 0)
          throw Error(dir_ + ": holds " + excerpt(name) + ", which is no part of a trace; write the trace to a new or "
                      "empty folder, or to one of a previous trace (index.txt, rank-N.txt)");
        refuse_input_as_output(entry.path().string());  // the trace this command reads
      }
    fs::remove_all(stage_);
    fs::create_directories(stage_);
  }
  ~StagedTrace() {
    std::error_code ignored;
    std::filesystem::remove_all(stage_, ignored);
  }
  std::filesystem::path file(int rank) const { return rank_file(stage_.string(), rank); }
  std::string commit(int ranks) {
    namespace fs = std::filesystem;
    fs::remove(fs::path(dir_) / "index.txt");  // the previous trace is incomplete from here on
    for (int r = 0; r < ranks; ++r) fs::rename(file(r), rank_file(dir_, r));
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_))
      if (rank_of_file(entry.path().filename().string()) >= ranks) fs::remove(entry.path());
    return write_index(dir_, ranks);
  }

 private:
  std::string dir_;
  std::filesystem::path stage_;
};

// The input's own files: the trace file, and for an index the files it lists.
std::vector<std::filesystem::path> input_files(const std::string& path) {
  std::vector<std::filesystem::path> files{path};
  if (!looks_like_index(path)) return files;
  std::ifstream in = open_input(path, "trace file");
  for (std::string text; std::getline(in, text);) {
    auto tokens = split(text);
    if (tokens.size() != 1 || tokens[0][0] == '#') continue;
    std::filesystem::path file = tokens[0];
    files.push_back(file.is_relative() ? std::filesystem::path(path).parent_path() / file : file);
  }
  return files;
}

// Converting a trace onto itself would empty it while it is read: refuse the input's files and
// their directories as outputs.
void refuse_in_place(const std::string& input, const std::string& output, bool shared) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const fs::path& file : input_files(input)) {
    const fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
    if (fs::equivalent(file, output, ec) || (!shared && fs::equivalent(dir, output, ec)))
      throw Error("trace convert: the output " + output + " is " + (shared ? "the input trace file " : "the directory of the input file ") +
                  file.string() + "; write to another " + (shared ? "file" : "directory"));
  }
}

}  // namespace

std::string write_ti_trace(const Trace& trace, const std::string& directory) {
  StagedTrace staged(directory);
  const int n = trace.num_ranks();
  for (int r = 0; r < n; ++r) {
    stop_if_interrupted();
    std::ofstream out(staged.file(r));
    for (const Action& a : trace.ranks[r].actions) write_action(out, r, a, trace.ranks[r], n);
    check_written(out, staged.file(r).string());
  }
  return staged.commit(n);
}

std::string convert_ti_trace(const std::string& input, bool legacy, const std::string& output, bool shared) {
  if (output.empty())
    throw Error(std::string("trace convert -o: expected ") + (shared ? "a file name" : "a folder") + " for the converted trace, got an empty name");
  refuse_in_place(input, output, shared);
  // Every action polls the interrupt: the unwinding removes the partial output.
  if (shared) {  // one file, written atomically
    write_file_atomically(output, [&](std::ostream& out) {
      visit_ti_trace(input, legacy, [&](int r, const Action& a, const RankTrace& context, int n) {
        stop_if_interrupted();
        write_action(out, r, a, context, n);
      });
    });
    return output;
  }
  std::optional<StagedTrace> staged;
  std::map<int, std::ofstream> open_files;  // per-rank outputs; reopened in append mode when too many
  auto close_all = [&] {
    for (const auto& [r, out] : open_files) check_written(out, staged->file(r).string());
    open_files.clear();
  };
  int ranks = 0;
  visit_ti_trace(input, legacy, [&](int r, const Action& a, const RankTrace& context, int n) {
    stop_if_interrupted();
    if (ranks == 0) {  // first action: create the outputs
      ranks = n;
      staged.emplace(output);
      for (int k = 0; k < n; ++k) {
        if (k % 1024 == 0) stop_if_interrupted();
        std::ofstream(staged->file(k), std::ios::trunc);
      }
    }
    auto it = open_files.find(r);
    if (it == open_files.end()) {
      if (open_files.size() >= 256) close_all();
      it = open_files.emplace(r, std::ofstream(staged->file(r), std::ios::app)).first;
      check_written(it->second, staged->file(r).string());
    }
    write_action(it->second, r, a, context, n);
  });
  if (!staged) throw Error(input + ": the trace has no actions to convert");
  close_all();
  return staged->commit(ranks);
}

namespace {

// A stretch of one rank's consecutive action lines in a shared file (comment lines may lie between).
struct LineRun {
  std::streamoff offset;  // of its first line
  int line;               // that line's number
  int count;              // action lines
};

bool is_action_line(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\v\f");
  return first != std::string::npos && text[first] != '#';
}

// A TI trace streamed: each rank's reader parses a window of its lines at a time, from the offset and
// line number where the last window ended, and closes the file again (a trace of 65536 ranks never has
// more than one file open). An index of per-rank files reads each rank's file to its end; a shared file
// is indexed first (where each rank's runs of consecutive lines start: one run per rank when the file
// holds the ranks one after another, one per line when they alternate).
class TiFileSource final : public TraceSource {
 public:
  TiFileSource(std::string index, std::vector<std::pair<std::string, int>> files, bool legacy, int window)
      : index_(std::move(index)), files_(std::move(files)), legacy_(legacy), window_(window) {}
  // A shared file, indexed: `runs` per rank.
  TiFileSource(std::string path, std::vector<std::vector<LineRun>> runs, bool legacy, int window)
      : index_(std::move(path)), runs_(std::move(runs)), legacy_(legacy), window_(window) {}
  int num_ranks() const override { return static_cast<int>(shared() ? runs_.size() : files_.size()); }
  std::unique_ptr<ActionStream> open() const override;
  long total_actions() const override {  // counted: a pass over the files, nothing kept
    long total = 0;
    for (const std::vector<LineRun>& runs : runs_)
      for (const LineRun& run : runs) total += run.count;
    for (size_t r = 0; r < files_.size(); ++r) {
      std::ifstream in = mapsim::open(files_[r].first, named_by(r) + ": ");
      for (std::string text; std::getline(in, text);) total += is_action_line(text);
    }
    return total;
  }
  bool shared() const { return files_.empty(); }
  // The index line naming rank r's file (its errors before a first action do not quote it).
  std::string named_by(size_t r) const { return shared() ? std::string() : index_ + ":" + std::to_string(files_[r].second); }
  const std::string& file(size_t r) const { return shared() ? index_ : files_[r].first; }
  const std::vector<LineRun>* runs(size_t r) const { return shared() ? &runs_[r] : nullptr; }
  bool legacy() const { return legacy_; }
  int window() const { return window_; }

 private:
  std::string index_;  // the index, or the shared file
  std::vector<std::pair<std::string, int>> files_;
  std::vector<std::vector<LineRun>> runs_;
  bool legacy_;
  int window_;
};

class TiFileStream final : public ActionStream {
 public:
  explicit TiFileStream(const TiFileSource& source) : source_(source), readers_(source.num_ranks()), contexts_(source.num_ranks()) {
    const int n = source.num_ranks();
    for (int r = 0; r < n; ++r) {
      contexts_[r].file = source.file(r);
      if (const std::vector<LineRun>* runs = source.runs(r)) {
        Reader& reader = readers_[r];
        reader.quoted = true;  // the index pass parsed the file's first action
        reader.left = 0;       // the first run starts at the first refill
        reader.ended = runs->empty();
      }
    }
    window_ = stream_window(source.window(), n);
  }
  const Action* next(int r) override {
    Reader& reader = readers_[r];
    if (reader.at == reader.window.size()) {
      if (reader.ended) return nullptr;
      refill(r);
      if (reader.window.empty()) return nullptr;
    }
    return &reader.window[reader.at++];
  }
  const RankTrace& context(int r) const override { return contexts_[r]; }

 private:
  struct Reader {
    std::streamoff offset = 0;  // where the next window starts
    int line = 0;               // lines before it
    bool quoted = false, ended = false;
    size_t run = 0;             // shared file: the run being read (`left` action lines left in it)
    int left = -1;              // -1: to the end of the file
    RankState state;
    std::vector<Action> window;
    size_t at = 0;
  };

  void refill(int r) {
    stop_if_interrupted();  // a reading in a guarded process (the mappers' pass over a long trace)
    Reader& reader = readers_[r];
    RankTrace& context = contexts_[r];
    const std::vector<LineRun>* runs = source_.runs(r);
    reader.window.clear();
    reader.at = 0;
    context.counts.clear();  // the previous window's actions are consumed
    const std::string named_by = source_.named_by(r);
    std::ifstream in = mapsim::open(context.file, named_by.empty() ? std::string() : named_by + ": ");
    bool seek = true;
    const int n = source_.num_ranks();
    auto state = [&](int) { return std::make_pair(&context, &reader.state); };
    std::string text;
    while (reader.window.size() < window_) {
      if (runs && reader.left == 0) {  // the next run of a shared file's rank
        if (reader.run == runs->size()) {
          reader.ended = true;
          return;
        }
        const LineRun& run = (*runs)[reader.run++];
        reader.offset = run.offset;
        reader.line = run.line - 1;
        reader.left = run.count;
        seek = true;
      }
      if (seek && reader.offset > 0) {
        in.clear();
        in.seekg(reader.offset);
      }
      seek = false;
      if (!std::getline(in, text)) {
        if (runs) throw Error(context.file + ": ends before line " + std::to_string(reader.line + 1) + " (it changed while it was read?)");
        reader.ended = true;
        return;
      }
      Action a;
      int rank = -1;
      if (parse_line(context.file, ++reader.line, text, runs ? -1 : r, n, named_by, reader.quoted, source_.legacy(), state, a, rank)) {
        if (rank != r) throw Error(context.file + ":" + std::to_string(reader.line) + ": changed while it was read (a line of rank " +
                                   std::to_string(rank) + " where rank " + std::to_string(r) + "'s was)");
        reader.window.push_back(a);
        if (runs) --reader.left;
      }
    }
    reader.offset = in.tellg();
    if (reader.offset < 0) throw Error(context.file + ": cannot read the trace file further (it changed while it was read?)");
  }

  const TiFileSource& source_;
  std::vector<Reader> readers_;
  std::vector<RankTrace> contexts_;  // file name and the window's counts pool
  size_t window_ = 8;
};

std::unique_ptr<ActionStream> TiFileSource::open() const { return std::make_unique<TiFileStream>(*this); }

// Indexes the shared file `path` (`named_by`: the one-line index naming it, or empty): the runs of each
// rank's lines, with the checks and errors of reading it whole's first pass; then parses its first
// action, as reading it whole would first (an error there does not quote a file an index named).
std::vector<std::vector<LineRun>> index_shared_file(const std::string& path, const std::string& named_by, bool legacy) {
  std::ifstream in = open(path, "");
  std::vector<std::pair<long, LineRun>> in_order;  // each run with its rank, as they come
  SharedFileRanks ranks;
  std::streamoff first_offset = -1;
  int first_line = 0;
  std::string text;
  std::streamoff offset = in.tellg();  // past a byte-order mark
  for (int line = 1; std::getline(in, text); ++line) {
    if (line % 4096 == 0) stop_if_interrupted();
    const std::streamoff at = offset;
    offset = in.tellg();
    auto tokens = split(text);
    if (tokens.empty() || tokens[0][0] == '#') continue;
    const long r = shared_file_rank(tokens, text, path, line, named_by, ranks.max() < 0);
    if (first_offset < 0) first_offset = at, first_line = line;
    if (!in_order.empty() && in_order.back().first == r) ++in_order.back().second.count;
    else in_order.push_back({r, {at, line, 1}});
    ranks.add(r, line);
  }
  if (ranks.max() < 0) throw Error(path + ": empty trace: expected 'RANK ACTION ...' lines");
  ranks.check(path);
  std::vector<std::vector<LineRun>> runs(ranks.max() + 1);
  for (const auto& [r, run] : in_order) runs[r].push_back(run);
  std::vector<std::pair<long, LineRun>>().swap(in_order);
  std::ifstream again = open(path, "");
  again.seekg(first_offset);
  std::getline(again, text);
  RankTrace scratch;
  RankState state;
  bool quoted = false;
  Action a;
  int rank = -1;
  parse_line(path, first_line, text, -1, static_cast<int>(runs.size()), named_by, quoted, legacy,
             [&](int) { return std::make_pair(&scratch, &state); }, a, rank);
  return runs;
}

}  // namespace

std::shared_ptr<const TraceSource> open_ti_trace(const std::string& path, bool legacy, int window) {
  if (const TraceFormat* format = format_of(path)) return format->open(path, window);  // OTF2: streamed too
  std::string target = path;
  std::vector<std::string> outer;
  std::vector<std::pair<std::string, int>> files = follow_indexes(target, outer);
  if (!files.empty()) return std::make_shared<TiFileSource>(target, std::move(files), legacy, window);
  auto runs = index_shared_file(target, outer.empty() ? "" : outer.back(), legacy);
  return std::make_shared<TiFileSource>(target, std::move(runs), legacy, window);
}

}  // namespace mapsim
