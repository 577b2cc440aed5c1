// mapsim run: one scenario file -> results.csv, links.csv, timings.csv, summary.json and a table;
// --draw adds a Graphviz picture of the link loads per mapper, --launch the launch files of its placements.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <spdlog/spdlog.h>
#include <utility>

#include "apps/cli_checks.h"
#include "apps/commands.h"
#include "apps/external_tool.h"
#include "apps/progress.h"
#include "reporting/launch_files.h"
#include "reporting/run_report.h"
#include "scenario/run.h"
#include "scenario/run_checkpoint.h"
#include "sim/report.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/folder_lock.h"
#include "support/input_file.h"
#include "support/interrupt.h"
#include "support/message.h"
#include "support/yaml_reader.h"
#include "topologies/network_factory.h"

namespace mapsim {
namespace {

struct RunCommandOptions {
  std::string scenario, output, draw, draw_scale = "shared", draw_view = "auto";
  std::vector<std::string> sets, launch, launch_mappers;
  bool resume = false, timeline = false, output_given = false;
};

// net.svg for one mapper; net-switch.svg, net-binary.svg, ... for several. Mappers whose names differ
// only in characters a file name does not keep (annealing:moves=10, annealing:moves_10) get -2, -3, ...
// after the first: one picture each ('-' is never kept, so no suffixed name is another mapper's).
std::vector<std::string> draw_paths(const std::string& path, const std::vector<std::string>& mappers) {
  if (mappers.size() < 2) return std::vector<std::string>(mappers.size(), path);
  const std::filesystem::path p(path);
  std::vector<std::string> paths;
  std::set<std::string> tags;
  for (const std::string& mapper : mappers) {
    std::string tag;
    for (char c : mapper) tag += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    std::string unique = tag;
    for (int n = 2; !tags.insert(unique).second; ++n) unique = tag + "-" + std::to_string(n);
    paths.push_back((p.parent_path() / (p.stem().string() + "-" + unique + p.extension().string())).string());
  }
  return paths;
}

void draw(const std::string& path, const std::vector<RunRow>& rows) {
  std::vector<const RunRow*> drawn;
  std::vector<std::string> mappers;
  for (const RunRow& row : rows)
    if (row.replicate == 0) drawn.push_back(&row), mappers.push_back(row.mapper);
  const std::vector<std::string> paths = draw_paths(path, mappers);
  for (size_t i = 0; i < drawn.size(); ++i) {
    write_picture(paths[i], drawn[i]->network_dot);
    std::cerr << "picture: " << paths[i] << "\n";
  }
}

// Whether `path`'s folder is `folder` or lies inside it (the folders need not exist yet).
bool within_folder(const std::string& folder, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec, ec2;
  const fs::path base = fs::weakly_canonical(fs::absolute(folder), ec) / "";
  const fs::path parent = fs::weakly_canonical(fs::absolute(path).parent_path(), ec2) / "";
  if (ec || ec2) return false;
  const fs::path relative = parent.lexically_relative(base);
  return !relative.empty() && *relative.begin() != "..";
}

// --launch and --launch-mapper checked against the scenario: the launch files' paths (empty without --launch).
std::vector<std::string> launch_paths(const Scenario& scenario, const RunCommandOptions& o) {
  if (o.launch.empty() && !o.launch_mappers.empty()) throw Error("--launch-mapper: give the formats with --launch FORMAT");
  if (o.launch.empty()) return {};
  if (!scenario.traffic.empty()) throw Error("--launch: a traffic scenario places no ranks");
  if (!scenario.jobs.empty() && !o.launch_mappers.empty())
    throw Error("--launch-mapper: a multi-job scenario has one mapper per job, and --launch writes each job's files");
  for (const std::string& format : o.launch) try {
      check_launch_format(format);
    } catch (const Error& e) {
      throw Error(std::string("--launch: ") + e.what());
    }
  for (const std::string& mapper : o.launch_mappers)
    if (std::find(scenario.mappers.begin(), scenario.mappers.end(), mapper) == scenario.mappers.end()) {
      const std::string near = nearest_word(mapper, scenario.mappers);
      throw Error("--launch-mapper: '" + mapper + "' is not a mapper of the scenario" +
                  (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
  std::vector<std::string> paths;
  for (const std::string& label : o.launch_mappers.empty() ? row_labels(scenario) : o.launch_mappers)
    for (const std::string& format : o.launch) {
      const std::string path = launch_file_path(scenario.output, label, format);
      if (std::find(paths.begin(), paths.end(), path) != paths.end())
        throw Error("--launch: two " + std::string(scenario.jobs.empty() ? "mappers" : "jobs") + " would write " + path);
      paths.push_back(path);
    }
  return paths;
}

// No file this run writes or removes may be one it reads (the scenario, through a link or a hard
// link): refused before anything runs, not when the results are written.
void refuse_inputs_as_outputs(const Scenario& scenario, const std::string& draw, const std::vector<std::string>& launch) {
  namespace fs = std::filesystem;
  for (const std::string& path : launch) refuse_input_as_output(path);
  const fs::path dir = scenario.output;
  for (const char* name : {"results.csv", "links.csv", "timings.csv", "summary.json", "failed.csv", "portfolio.csv", "timeline.csv"})
    refuse_input_as_output((dir / name).string());
  std::error_code ec;
  if (fs::is_directory(dir / "partial", ec))  // the checkpoints, removed or replaced
    for (const fs::directory_entry& entry : fs::directory_iterator(dir / "partial", ec)) refuse_input_as_output(entry.path().string());
  if (draw.empty()) return;
  refuse_input_as_output(draw);
  for (const std::string& path : draw_paths(draw, scenario.mappers)) refuse_input_as_output(path);
}

// Exit status: 0 every mapper ran, 2 some failed (failed.csv), 130 interrupted (finished
// replicates kept in OUTPUT/partial/ for --resume).
int run(const RunCommandOptions& o) {
  Scenario scenario = load_scenario(o.scenario, o.sets);
  if (o.output_given && o.output.empty()) throw Error("-o: expected a folder for the run's results, got an empty name");
  if (o.output_given) scenario.output = o.output;
  try {
    check_output_folder(scenario.output, "the run's results");  // before the first file operation in it
  } catch (const Error& e) {  // the scenario's output: key (or its --set) is at fault
    if (o.output_given || !scenario.document["output"]) throw;
    throw Error(YamlReader(scenario.source, &scenario.overrides).where(scenario.document["output"]) + ": output: " + e.what());
  }
  // --draw is checked before the run, not after it. Its folder may be the output folder or one inside
  // it: made when the run starts, as -o makes the output folder (`-o out/ --draw out/net.svg`).
  const bool draw_in_output = !o.draw.empty() && within_folder(scenario.output, o.draw);
  if (!o.draw.empty()) {
    picture_format("--draw", o.draw);
    if (draw_in_output) try {
        check_output_folder(std::filesystem::absolute(o.draw).parent_path().string(), "the --draw pictures");
      } catch (const Error& e) {
        throw Error("--draw " + o.draw + ": " + e.what());
      }
    else require_output_folder("--draw", o.draw);
  }
  const std::vector<std::string> launch = launch_paths(scenario, o);
  refuse_inputs_as_outputs(scenario, o.draw, launch);
  const FolderLock lock(scenario.output, "the run's results");  // a second run into it is refused, not mixed in
  if (draw_in_output) make_output_folder(std::filesystem::absolute(o.draw).parent_path().string(), "the --draw pictures");
  const std::filesystem::path dir = scenario.output;
  std::filesystem::remove(dir / "summary.json");  // the completeness marker goes until this run is complete
  RunOptions options;
  options.draw = !o.draw.empty();
  options.draw_shared_scale = o.draw_scale == "shared";
  options.draw_view = o.draw_view;
  options.timeline = o.timeline;
  RunCheckpoint kept;
  if (o.resume) kept = load_checkpoint(scenario.output, scenario, options);
  else remove_checkpoint(scenario.output);
  if (!kept.replicates.empty())
    spdlog::info("resuming: {} of {} replicates done before", kept.replicates.size(), scenario.replicates);

  Progress bar("run " + scenario.name, "runs");
  const InterruptGuard interrupts;
  std::vector<RunFailure> failures = kept.failures;
  size_t saved = kept.replicates.size();
  options.failures = &failures;
  options.skip_replicates = kept.replicates;
  options.stop = InterruptGuard::interrupted;
  // Each error once: a model or routing error fails every replicate alike (failed.csv lists them all).
  std::map<std::string, int> repeated;  // error -> failures after its first warning
  const auto warn = [&](const RunFailure& f) {
    if (!repeated.emplace(f.error, 0).second) ++repeated[f.error];
    else spdlog::warn("{} failed on replicate {}: {}", f.mapper, f.replicate, f.error);
  };
  // Until some mapper has run, failures are held: when none runs, the one error says it.
  bool any_ran = !kept.rows.empty();
  std::vector<RunFailure> held;
  options.replicate_done = [&](int r, const std::vector<RunRow>& rows, const std::vector<RunFailure>& failed) {
    save_replicate(scenario.output, scenario, r, rows, failed);
    ++saved;
    if (!rows.empty() && !any_ran) {
      any_ran = true;
      for (const RunFailure& f : std::exchange(held, {})) warn(f);
    }
    for (const RunFailure& f : failed)
      if (any_ran) warn(f);
      else held.push_back(f);
  };
  int runs_done = 0, runs = 0;
  options.progress = [&](int done, int total) {
    runs_done = done;
    runs = total;
    bar.update(done, total);
  };
  if (progress_settings().enabled)
    scenario.sim.progress = [&](const SimProgress& p) {  // within one simulation (a forked copy of runs_done)
      bar.update(runs_done + static_cast<double>(p.actions_done) / std::max(1L, p.actions_total), runs,
                 "simulating: " + progress_detail(p));
    };
  std::vector<RunRow> rows;
  try {
    rows = run_scenario(scenario, options);
  } catch (const Error&) {  // a long reading or drawing stopped by the interrupt: said below
    if (!InterruptGuard::interrupted()) throw;
  }
  bar.finish();
  std::stable_sort(failures.begin(), failures.end(), [](const RunFailure& a, const RunFailure& b) { return a.replicate < b.replicate; });
  // When no mapper ran, the first failure is the error, said once with a count of those alike.
  const bool none_ran = !any_ran && !failures.empty() && !InterruptGuard::interrupted();
  const std::string first = none_ran ? failures.front().error : std::string();
  for (const RunFailure& f : held)
    if (!none_ran || f.error != first) warn(f);
  int repeats = 0;
  for (const auto& entry : repeated) repeats += entry.second;
  if (repeats > 0) spdlog::warn("{} more mapper run(s) failed with an error shown above", repeats);
  if (InterruptGuard::interrupted()) {  // one line: what is kept, and how to go on
    if (saved == 0)
      std::cerr << "mapsim: interrupted before any replicate finished; nothing is kept: rerun the same command to start again\n";
    else {
      const int left = scenario.replicates - static_cast<int>(saved);
      std::cerr << "mapsim: interrupted; " << saved << " of " << scenario.replicates << " replicates are kept in "
                << (dir / "partial").string() << ": rerun with --resume to "
                << (left > 0 ? "run the other " + std::to_string(left) : std::string("write the tables")) << "\n";
    }
    return 130;
  }
  if (none_ran) {
    const long alike = std::count_if(failures.begin() + 1, failures.end(), [&](const RunFailure& f) { return f.error == first; });
    // (named by the scenario when the error names no file of it: a model or workload limit)
    throw Error((first.find(scenario.source) == std::string::npos ? scenario.source + ": " : std::string()) + "no mapper ran: " +
                first + (alike ? " (" + std::to_string(alike) + " more mapper run(s) failed alike)" : ""));
  }
  rows.insert(rows.end(), std::make_move_iterator(kept.rows.begin()), std::make_move_iterator(kept.rows.end()));
  std::stable_sort(rows.begin(), rows.end(), [](const RunRow& a, const RunRow& b) { return a.replicate < b.replicate; });
  if (!launch.empty()) {  // before summary.json, which marks a complete folder
    for (const std::string& label : o.launch_mappers.empty() ? row_labels(scenario) : o.launch_mappers)
      if (std::none_of(rows.begin(), rows.end(), [&](const RunRow& r) { return r.replicate == 0 && row_label(r) == label; }))
        spdlog::warn("--launch: {} has no placement on replicate 0 (failed.csv): no launch files for it", label);
    for (const std::string& path : write_run_launch_files(scenario.output, rows, make_network(scenario.network_spec(0), scenario.links),
                                                          o.launch, o.launch_mappers))
      std::cerr << "launch file: " << path << "\n";
  }
  write_run(scenario.output, scenario, rows, failures);
  remove_checkpoint(scenario.output);
  if (!o.draw.empty()) draw(o.draw, rows);
  std::cout << scenario.name << ": " << scenario.replicates << " replicate(s); mean (stddev)\n"
            << run_table(rows) << "results: " << (dir / "results.csv").string() << "\n";
  if (failures.empty()) return 0;
  std::cout << failures.size() << " mapper run(s) failed: " << (dir / "failed.csv").string() << "\n";
  return 2;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunCommandOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Run a YAML scenario: every mapper and replicate (docs/scenario.md)");
  cmd->footer("Example:\n  mapsim run configs/default.yaml -o out/ --set replicates=5 --set model.t_s=1us --draw out/net.svg");
  cmd->add_option("scenario", o->scenario, "Scenario file (YAML)")->required();
  auto* output = cmd->add_option("-o,--output", o->output, "Directory for results.csv, links.csv, timings.csv, summary.json (default: the scenario's output)");
  cmd->add_option("--set", o->sets, "Override a value: KEY.PATH=VALUE (repeatable), e.g. network.switches=64");
  cmd->add_option("--draw", o->draw, "Picture of the link loads (replicate 0; one file per mapper): .svg, .png, .pdf or .dot");
  cmd->add_option("--draw-scale", o->draw_scale,
                  "Load colour scale of the --draw pictures: shared (default: one scale for every mapper, to compare) or own")
      ->check(CLI::IsMember({"shared", "own"}));
  cmd->add_option("--draw-view", o->draw_view,
                  "What --draw shows: nodes (every compute node), switches (one vertex per switch with its ranks) or "
                  "auto (default: switches above 128 nodes)")
      ->check(CLI::IsMember({"auto", "nodes", "switches"}));
  std::string formats;
  for (const std::string& format : launch_formats()) formats += (formats.empty() ? "" : ", ") + format;
  cmd->add_option("--launch", o->launch,
                  "Also write launch files of replicate 0's placements, OUTPUT/MAPPER.FORMAT: FORMAT[,FORMAT...] of " + formats +
                      " (docs/mappers.md#launch-files)")
      ->delimiter(',');
  cmd->add_option("--launch-mapper", o->launch_mappers,
                  "A mapper of the scenario, as written there, whose files --launch writes (repeatable; default: every mapper)");
  cmd->add_flag("--timeline", o->timeline,
                "Also write timeline.csv: replicate 0's compute and wait intervals per rank and mapper (for mapsim report)");
  cmd->add_flag("--resume", o->resume, "Keep the replicates an interrupted run finished (OUTPUT/partial/) and run the rest");
  cmd->footer(cmd->get_footer() + "\nExit status: 0 done, 2 some mapper failed (failed.csv), 130 interrupted (rerun with --resume).");
  cmd->callback([o, output] {
    o->output_given = output->count() > 0;  // -o "" is an error, not the default
    if (const int code = run(*o); code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace mapsim
