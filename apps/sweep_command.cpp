// mapsim sweep: expand a sweep file into points and run them in parallel processes (resumable),
// or run one point (--point, for cluster job arrays), gather point files (--merge), or write a
// Slurm / GNU Parallel job list (--emit).
#include <filesystem>
#include <iostream>
#include <thread>

#include "apps/cli_checks.h"
#include "apps/commands.h"
#include "apps/progress.h"
#include "scenario/sweep_runner.h"
#include "scenario/run_checkpoint.h"
#include "support/error.h"
#include "support/yaml_reader.h"

namespace mapsim {
namespace {

struct SweepCommandOptions {
  std::string sweep, output, emit;
  std::vector<std::string> sets;
  int jobs = 0, point = -1;
  bool resume = false, merge = false, output_given = false;
};

// Exit status: 0 all points done, 2 some points or mappers failed or are missing (listed in failed.csv),
// 130 interrupted.
int report(const Sweep& sweep, const SweepStatus& status) {
  std::cout << sweep.name << ": " << status.done << " of " << status.total << " points done";
  if (status.skipped) std::cout << " (" << status.skipped << " from before)";
  if (status.failed) std::cout << ", " << status.failed << " failed (see failed.csv)";
  if (status.mapper_failures) std::cout << ", " << status.mapper_failures << " mapper run(s) failed (see failed.csv)";
  const int missing = status.total - status.done - status.failed;
  if (missing) std::cout << ", " << missing << " not run";
  std::cout << "\nresults: " << (std::filesystem::path(sweep.output) / "results.csv").string() << ", aggregate.csv\n";
  if (status.interrupted) {  // one line: what is kept, and how to go on
    if (status.done == 0)
      std::cerr << "mapsim: interrupted before any point was done: rerun the same command to start again\n";
    else
      std::cerr << "mapsim: interrupted; " << status.done << " of " << status.total << " points are kept in "
                << (std::filesystem::path(sweep.output) / "points").string()
                << ": rerun with --resume to run the other " << status.total - status.done << "\n";
    return 130;
  }
  return status.failed || status.mapper_failures || missing ? 2 : 0;
}

int sweep_main(const SweepCommandOptions& o) {
  Sweep sweep = load_sweep(o.sweep, o.sets);
  if (o.output_given && o.output.empty()) throw Error("-o: expected a folder for the sweep's results, got an empty name");
  if (o.output_given) sweep.output = o.output;
  if (!o.emit.empty()) {
    const std::string mapsim = std::filesystem::read_symlink("/proc/self/exe").string();
    std::cout << emit_sweep_jobs(sweep, o.emit, mapsim, o.sets, o.resume) << "\n";
    return 0;
  }
  if (o.merge) return report(sweep, merge_sweep(sweep));
  if (o.point >= 0) {
    if (o.point >= static_cast<int>(sweep.size))
      throw Error("--point " + std::to_string(o.point) + ": the sweep has points 0.." + std::to_string(sweep.size - 1));
    const SweepPoint point = sweep.point(o.point);  // this point alone: a task costs what its point costs
    sweep.checked_scenario(point);
    const bool ok = run_point(sweep, point);
    std::cout << "point " << o.point << " (" << point.hash << "): " << (ok ? "done" : "failed") << "\n";
    return ok ? 0 : 2;
  }
  if (!o.output_given && sweep.document["output"]) try {  // the sweep file's output: key is at fault
      check_output_folder(sweep.output, "the sweep's results");
    } catch (const Error& e) {
      throw Error(YamlReader(sweep.source).where(sweep.document["output"]) + ": output: " + e.what());
    }
  SweepOptions options;
  options.jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.resume = o.resume;
  Progress bar("sweep " + sweep.name, "points");
  // Points kept from before (--resume) took no time now: the ETA counts only this run's points.
  options.progress = [&](const SweepStatus& s) {
    bar.update(s.done + s.failed - s.skipped, s.total - s.skipped,
               s.skipped ? std::to_string(s.skipped) + " more from before" : std::string());
  };
  const SweepStatus status = run_sweep(sweep, options);
  bar.finish();
  return report(sweep, status);
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepCommandOptions>();
  CLI::App* cmd = app.add_subcommand("sweep", "Run a parameter sweep over a scenario (docs/scenario.md)");
  cmd->footer("Exit status: 0 all points done, 2 some points or mappers failed (failed.csv), 130 interrupted.\n"
              "Example:\n  mapsim sweep configs/papers/moh2001-fig6.yaml -j 2\n"
              "  mapsim sweep S.yaml --emit slurm; sbatch results/S/sweep.slurm; mapsim sweep S.yaml --merge");
  cmd->add_option("sweep", o->sweep, "Sweep file (YAML)")->required();
  auto* output = cmd->add_option("-o,--output", o->output, "Directory for points/, results.csv, aggregate.csv, failed.csv");
  cmd->add_option("-j,--jobs", o->jobs, "Points run at once (default: the cores)")->check(whole_number_at_least(1));
  cmd->add_flag("--resume", o->resume, "Skip points whose result file is already there");
  cmd->add_option("--set", o->sets, "Override a value of the base scenario: KEY.PATH=VALUE (repeatable)");
  auto* point = cmd->add_option("--point", o->point, "Run only point I (cluster array tasks)")->check(whole_number_at_least(0));
  auto* merge = cmd->add_flag("--merge", o->merge, "Gather the point files into results.csv and aggregate.csv");
  auto* emit = cmd->add_option("--emit", o->emit, "Write a job list instead of running: slurm or parallel");
  point->excludes(merge)->excludes(emit);
  merge->excludes(emit);
  cmd->callback([o, output] {
    o->output_given = output->count() > 0;  // -o "" is an error, not the default
    const int code = sweep_main(*o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace mapsim
