#include "traces/otf2_trace.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdarg>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "support/error.h"
#include "traces/internal/otf2_convert.h"

namespace mapsim {
namespace {

using otf2::Collectives;
using otf2::Converter;
using otf2::Definitions;

Definitions& defs(void* data) { return *static_cast<Definitions*>(data); }

// -- global definitions --
OTF2_CallbackCode on_clock(void* data, uint64_t resolution, uint64_t, uint64_t, uint64_t) {
  defs(data).ticks_per_second = static_cast<double>(resolution);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text) {
  defs(data).strings[self] = text;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType type, uint64_t,
                              OTF2_LocationGroupRef group) {
  if (type == OTF2_LOCATION_TYPE_CPU_THREAD) defs(data).locations.emplace_back(self, group);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t) {
  Definitions& d = defs(data);
  const std::string& text = d.strings[name];
  d.mpi_region[self] = paradigm == OTF2_PARADIGM_MPI || text.rfind("MPI_", 0) == 0;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm,
                           OTF2_GroupFlag flags, uint32_t count, const uint64_t* members) {
  Definitions& d = defs(data);
  d.groups[self] = otf2::Group{type, flags, std::vector<uint64_t>(members, members + count)};
  if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS) d.world.assign(members, members + count);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag) {
  defs(data).comm_group[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

template <typename F>
void check(const Definitions& d, OTF2_ErrorCode code, F what) {
  if (code != OTF2_SUCCESS) d.fail(std::string(what) + ": " + OTF2_Error_GetDescription(code));
}

// OTF2 prints its errors to stderr by default; the codes are reported in the one error line instead.
OTF2_ErrorCode quiet(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char*, va_list) { return code; }

bool is_otf2_path(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".otf2") == 0; }

// An archive opened for its events: definitions read, ranks assigned, and every rank's location
// selected with its local definitions (the id mappings of its events) read. Each location's event
// reader is made where it is read: libotf2 gives it a buffer of one event chunk (1 MiB as Score-P
// and the tests write them), which a global reader would hold for every location at once.
struct Archive {
  struct Close {
    void operator()(OTF2_Reader* reader) const { OTF2_Reader_Close(reader); }
  };
  std::unique_ptr<OTF2_Reader, Close> owner;  // closed on every path, a failing constructor's too
  OTF2_Reader* reader = nullptr;
  Definitions defs;
  Archive(const std::string& path, double flops_per_second);
};

Archive::Archive(const std::string& path, double flops_per_second) {
  defs.path = path;
  defs.flops_per_second = flops_per_second;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) defs.fail("cannot open OTF2 archive (expected the anchor file traces.otf2)");
  OTF2_Error_RegisterCallback(quiet, nullptr);
  owner.reset(OTF2_Reader_Open(path.c_str()));
  reader = owner.get();
  if (!reader) defs.fail("not an OTF2 archive");
  check(defs, OTF2_Reader_SetSerialCollectiveCallbacks(reader), "OTF2 set-up");
  OTF2_GlobalDefReader* global = OTF2_Reader_GetGlobalDefReader(reader);
  if (!global) defs.fail("not an OTF2 archive (no global definitions)");
  OTF2_GlobalDefReaderCallbacks* def_callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(def_callbacks, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(def_callbacks, on_string);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(def_callbacks, on_location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(def_callbacks, on_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(def_callbacks, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(def_callbacks, on_comm);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, global, def_callbacks, &defs);
  OTF2_GlobalDefReaderCallbacks_Delete(def_callbacks);
  uint64_t count = 0;
  check(defs, OTF2_Reader_ReadAllGlobalDefinitions(reader, global, &count), "reading the definitions");
  if (defs.ticks_per_second <= 0) defs.fail("the clock resolution is 0");

  // Ranks: the COMM_LOCATIONS group where there is one, else the first thread of each process.
  if (!defs.world.empty()) {
    defs.location_of = defs.world;
  } else {
    std::map<OTF2_LocationGroupRef, OTF2_LocationRef> first;
    for (auto [location, group] : defs.locations) first.emplace(group, location);
    for (auto [group, location] : first) defs.location_of.push_back(location);
  }
  for (size_t i = 0; i < defs.location_of.size(); ++i) defs.rank_of[defs.location_of[i]] = static_cast<int>(i);
  if (defs.rank_of.size() != defs.location_of.size()) defs.fail("a location is more than one rank in the COMM_LOCATIONS group");
  if (defs.rank_of.empty()) defs.fail("no MPI ranks (no locations of type CPU thread)");

  for (auto [location, rank] : defs.rank_of) check(defs, OTF2_Reader_SelectLocation(reader, location), "selecting a location");
  const bool def_files = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  check(defs, OTF2_Reader_OpenEvtFiles(reader), "opening the event files");
  for (auto [location, rank] : defs.rank_of) {
    if (def_files) {  // local definitions hold the id mappings of the events
      if (OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, location)) {
        uint64_t read = 0;
        check(defs, OTF2_Reader_ReadAllLocalDefinitions(reader, local, &read), "reading local definitions");
        OTF2_Reader_CloseDefReader(reader, local);
      }
    }
  }
  if (def_files) OTF2_Reader_CloseDefFiles(reader);
}

// What the first pass learns of an archive.
struct Summary {
  int ranks = 0;
  std::vector<uint64_t> events;  // per rank: a stream ends there without seeking past the last event
  Collectives collectives;
  std::map<std::string, long> skipped;
};

// The first pass: every rank's events in turn through the converter, which keeps no actions, only
// each collective's tally (what it records does not depend on the order of the ranks); then the
// collectives resolved with their errors.
Summary first_pass(const std::string& path, double flops_per_second) {
  Archive archive(path, flops_per_second);
  Converter converter(archive.defs, nullptr);
  Summary summary;
  for (int r = 0; r < archive.defs.num_ranks(); ++r) {
    OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(archive.reader, archive.defs.location_of[r]);
    if (!events) archive.defs.fail("cannot read the events");
    otf2::register_local(archive.reader, events, converter);
    uint64_t count = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalEvents(archive.reader, events, &count);
    converter.rethrow_failure();
    check(archive.defs, code, "reading the events");
    check(archive.defs, OTF2_Reader_CloseEvtReader(archive.reader, events), "closing an event reader");
    converter.finish(r);
    summary.events.push_back(count);
  }
  summary.ranks = archive.defs.num_ranks();
  summary.collectives = converter.resolve();
  summary.skipped = converter.skipped();
  return summary;
}

class Otf2Source final : public TraceSource {
 public:
  Otf2Source(std::string path, double flops_per_second, int window, int open_locations)
      : path_(std::move(path)), flops_(flops_per_second), window_(window), open_locations_(open_locations),
        summary_(first_pass(path_, flops_)) {}
  int num_ranks() const override { return summary_.ranks; }
  std::unique_ptr<ActionStream> open() const override;
  long total_actions() const override {  // counted: a pass over the events, nothing kept
    long total = 0;
    const std::unique_ptr<ActionStream> stream = open();
    for (int r = 0; r < num_ranks(); ++r)
      while (stream->next(r)) ++total;
    return total;
  }
  const std::string& path() const { return path_; }
  double flops_per_second() const { return flops_; }
  int window() const { return window_; }
  int open_locations() const { return open_locations_; }
  const Collectives& collectives() const { return summary_.collectives; }
  uint64_t events(int rank) const { return summary_.events[rank]; }
  const std::map<std::string, long>& skipped() const { return summary_.skipped; }

 private:
  std::string path_;
  double flops_;
  int window_;
  int open_locations_;
  Summary summary_;
};

// Each rank's events read from its own location's reader, a window of converted actions at a time.
// Only `open_locations` readers stay open (a chunk's buffer each); another rank's reader is made
// again where its last window ended (OTF2_EvtReader_Seek to its next event).
class Otf2Stream final : public ActionStream {
 public:
  explicit Otf2Stream(const Otf2Source& source)
      : archive_(source.path(), source.flops_per_second()), converter_(archive_.defs, &source.collectives()) {
    const int n = archive_.defs.num_ranks();
    if (n != source.num_ranks()) archive_.defs.fail("changed while it was read (another number of ranks)");
    ranks_.resize(n);
    for (int r = 0; r < n; ++r) {
      ranks_[r].context.file = source.path();
      ranks_[r].total = source.events(r);
    }
    window_ = stream_window(source.window(), n);
    max_open_ = source.open_locations() > 0 ? source.open_locations() : kOpenLocations;
  }
  const Action* next(int r) override {
    Rank& rank = ranks_[r];
    if (rank.at == rank.window.size()) {
      refill(r);
      if (rank.window.empty()) return nullptr;
    }
    return &rank.window[rank.at++];
  }
  const RankTrace& context(int r) const override { return ranks_[r].context; }

 private:
  static constexpr int kOpenLocations = 64;  // 64 MiB of libotf2 buffers with 1 MiB chunks

  struct Rank {
    std::vector<Action> window;
    size_t at = 0;
    RankTrace context;  // the file, and the window's counts pool
    bool ended = false;
    OTF2_EvtReader* events = nullptr;  // open, or null
    uint64_t read = 0;                 // events read so far
    uint64_t total = 0;                // of its location (first pass)
    long used = 0;                     // when its reader last read (the least recent is closed first)
  };

  // Rank r's location reader, made (and positioned after the events already read) if it is closed.
  OTF2_EvtReader* events(int r) {
    Rank& rank = ranks_[r];
    rank.used = ++clock_;
    if (rank.events) return rank.events;
    if (open_ == max_open_) {
      int oldest = -1;
      for (int k : opened_)
        if (oldest < 0 || ranks_[k].used < ranks_[oldest].used) oldest = k;
      check(archive_.defs, OTF2_Reader_CloseEvtReader(archive_.reader, ranks_[oldest].events), "closing an event reader");
      ranks_[oldest].events = nullptr;
      opened_.erase(std::find(opened_.begin(), opened_.end(), oldest));
      --open_;
    }
    rank.events = OTF2_Reader_GetEvtReader(archive_.reader, archive_.defs.location_of[r]);
    if (!rank.events) archive_.defs.fail("cannot read the events");
    otf2::register_local(archive_.reader, rank.events, converter_);
    if (rank.read > 0) check(archive_.defs, OTF2_EvtReader_Seek(rank.events, rank.read + 1), "seeking in the events");
    opened_.push_back(r);
    ++open_;
    return rank.events;
  }

  // The rank's next window: its converted actions handed out up to an irecv not yet completed,
  // reading its events one at a time until there are enough or they end.
  void refill(int r) {
    Rank& rank = ranks_[r];
    rank.window.clear();
    rank.at = 0;
    rank.context.counts.clear();  // the previous window's actions are consumed
    while (rank.window.size() < window_) {
      const std::deque<otf2::Pending>& output = converter_.output(r);
      if (!output.empty() && output.front().state != otf2::Pending::OpenIrecv) {
        const otf2::Pending& p = output.front();
        if (p.state == otf2::Pending::Ready) {
          rank.window.push_back(p.action);
          if (p.collective) otf2::pool_counts(*p.collective, p.member, rank.window.back(), rank.context);
        }
        converter_.pop(r);
        continue;
      }
      if (rank.ended) break;
      uint64_t read = 0;
      if (rank.read < rank.total) {  // a closed reader cannot seek past the last event
        const OTF2_ErrorCode code = OTF2_EvtReader_ReadEvents(events(r), 1, &read);
        converter_.rethrow_failure();
        check(archive_.defs, code, "reading the events");
      }
      rank.read += read;
      if (read == 0) converter_.finish(r), rank.ended = true;
    }
  }

  Archive archive_;
  Converter converter_;
  std::vector<Rank> ranks_;
  size_t window_ = 8;
  int max_open_ = kOpenLocations, open_ = 0;
  std::vector<int> opened_;  // ranks whose reader is open
  long clock_ = 0;
};

std::unique_ptr<ActionStream> Otf2Source::open() const { return std::make_unique<Otf2Stream>(*this); }

}  // namespace

std::shared_ptr<const TraceSource> open_otf2_trace(const std::string& path, int window, std::map<std::string, long>* skipped,
                                                   double flops_per_second, int open_locations) {
  auto source = std::make_shared<const Otf2Source>(path, flops_per_second, window, open_locations);
  if (skipped) *skipped = source->skipped();
  return source;
}

Otf2Import read_otf2_trace(const std::string& path, double flops_per_second) {
  Otf2Import result;
  const auto source = open_otf2_trace(path, 0, &result.skipped, flops_per_second);
  result.trace = materialize(*source);
  return result;
}

namespace {

// What was not converted is a warning where a trace is opened for a run.
std::shared_ptr<const TraceSource> open_and_warn(const std::string& path, int window) {
  std::map<std::string, long> skipped;
  auto source = open_otf2_trace(path, window, &skipped);
  for (const auto& [what, count] : skipped) spdlog::warn("{}: OTF2: {} {} (docs/traces.md)", path, count, what);
  return source;
}

const bool kRegistered = register_trace_format({is_otf2_path, [](const std::string& path) { return materialize(*open_and_warn(path, 0)); },
                                                open_and_warn});

}  // namespace
}  // namespace mapsim
