// Emitted job lists run by their consumers: sweep.slurm by bash (its `exec` reaching a stub mapsim that
// records its arguments) and read by sbatch's #SBATCH rules (consumer_readers.h); jobs.txt by bash line
// by line and by GNU Parallel when it is installed. A name, a folder and --set values full of shell and
// sbatch syntax arrive as one argument each and run nothing; control characters are refused.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "consumer_readers.h"
#include "scenario/sweep_runner.h"
#include "test_files.h"

namespace fs = std::filesystem;
using namespace mapsim;

namespace {

std::string text_of(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh folder holding a two-point sweep file (name: and output: as given, YAML-quoted by the caller)
// and a stub mapsim that appends its arguments, one "[ARG]" a line, to argv.txt.
struct EmitCase {
  fs::path dir, sweep_file, stub, argv, marker;
  explicit EmitCase(const std::string& tag, const std::string& keys = "") {
    dir = temp_path("emit-" + tag);
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "base.yaml") << "network: mesh:2x2\nworkload: {process: mesh:2x2}\nmapping: [default]\nmodel: none\n";
    sweep_file = dir / "sweep.yaml";
    std::ofstream(sweep_file) << keys << "scenario: base.yaml\nvary: {seed: [1, 2]}\n";
    stub = dir / "mapsim-stub";
    argv = dir / "argv.txt";
    marker = dir / "INJECTED";
    std::ofstream(stub) << "#!/bin/bash\nprintf '[%s]\\n' \"$@\" >> '" << argv.string() << "'\n";
    fs::permissions(stub, fs::perms::owner_all);
  }
  // Runs `command` in the case's folder with bash; its exit status.
  int run(const std::string& command) const {
    return std::system(("cd '" + dir.string() + "' && " + command + " >/dev/null 2>&1").c_str());
  }
};

// The payload of a hostile text: each piece would run, add an option or redirect a log if unquoted.
// (A folder may not end in a backslash for Slurm: see the last test case.)
std::string hostile(const fs::path& marker, const std::string& end = " \\") {
  return "x --error=/tmp/pwn --export=ALL,LD_PRELOAD=/tmp/e.so 'q' \"d\" #c %u %j $(touch " + marker.string() + ") `touch " +
         marker.string() + "`; touch " + marker.string() + end;
}

// The arguments the stub records for point `point`.
std::string stub_arguments(const EmitCase& c, const fs::path& output, const std::vector<std::string>& sets, int point) {
  std::string text = "[sweep]\n[" + fs::absolute(c.sweep_file).string() + "]\n[-o]\n[" + fs::absolute(output).string() + "]\n";
  for (const std::string& s : sets) text += "[--set]\n[" + s + "]\n";
  return text + "[--point]\n[" + std::to_string(point) + "]\n";
}

}  // namespace

TEST_CASE("sweep --emit slurm: a name and a folder full of shell and sbatch syntax reach sbatch and mapsim whole") {
  const EmitCase c("slurm", "");
  const std::string payload = hostile(c.marker);
  Sweep sweep = load_sweep(c.sweep_file.string());
  sweep.name = "n " + payload;
  sweep.output = (c.dir / ("out " + hostile(c.marker, ""))).string();  // as -o gives it
  const std::vector<std::string> sets = {"seed=3 " + payload};
  const std::string emitted = emit_sweep_jobs(sweep, "slurm", c.stub.string(), sets, false);
  CHECK(emitted == fs::absolute(sweep.output).string() + "/sweep.slurm");
  const std::string text = text_of(emitted);
  const std::string script = (c.dir / "sweep.slurm").string();  // a plain path for the commands below
  fs::copy_file(emitted, script);

  // sbatch: exactly these options, the log pattern naming the folder as it is, %a each task's index.
  const std::vector<std::string> options = consumer::sbatch_arguments(text);
  REQUIRE(options.size() == 5);
  CHECK(options[0] == "--job-name=mapsim-" + sweep.name);
  CHECK(options[1] == "--array=0-1");
  CHECK(options[2] == "--ntasks=1");
  CHECK(options[3] == "--cpus-per-task=1");
  REQUIRE(options[4].rfind("--output=", 0) == 0);
  CHECK(consumer::slurm_filename(options[4].substr(9), 1) == fs::absolute(sweep.output).string() + "/logs/point-1.log");

  // bash: the script parses, and a task runs mapsim with the arguments as given, nothing else.
  CHECK(c.run("bash -n '" + script + "'") == 0);
  CHECK(c.run("SLURM_ARRAY_TASK_ID=1 bash '" + script + "'") == 0);
  CHECK(text_of(c.argv) == stub_arguments(c, sweep.output, sets, 1));
  CHECK_FALSE(fs::exists(c.marker));
  CHECK_FALSE(fs::exists("/tmp/pwn"));
  // The comment lines name the sweep and the commands as bash words too: sourcing them alone runs nothing.
  CHECK(c.run("grep '^#' '" + script + "' | bash") == 0);
  CHECK_FALSE(fs::exists(c.marker));
}

TEST_CASE("sweep --emit parallel: each line is one job that runs mapsim with the arguments as given") {
  const EmitCase c("parallel", "");
  const std::string payload = hostile(c.marker);
  Sweep sweep = load_sweep(c.sweep_file.string());
  sweep.output = (c.dir / ("out " + payload)).string();
  const std::vector<std::string> sets = {"seed=3 " + payload};
  const std::string jobs = (c.dir / "jobs.txt").string();  // a plain path for the commands below
  fs::copy_file(emit_sweep_jobs(sweep, "parallel", c.stub.string(), sets, false), jobs);
  const std::string expected = stub_arguments(c, sweep.output, sets, 0) + stub_arguments(c, sweep.output, sets, 1);
  std::istringstream lines(text_of(jobs));
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    std::ofstream(c.dir / "job.sh") << line << "\n";
    CHECK(c.run("bash -n job.sh && bash job.sh") == 0);
  }
  CHECK(count == 2);
  CHECK(text_of(c.argv) == expected);
  CHECK_FALSE(fs::exists(c.marker));
  if (std::system("command -v parallel >/dev/null 2>&1") == 0) {  // GNU Parallel itself, if installed
    fs::remove(c.argv);
    CHECK(c.run("SHELL=/bin/bash parallel --will-cite -j1 < '" + jobs + "'") == 0);
    CHECK(text_of(c.argv) == expected);
    CHECK_FALSE(fs::exists(c.marker));
  } else {
    MESSAGE("GNU Parallel is not installed: jobs.txt was run by bash line by line only");
  }
}

TEST_CASE("sweep: control characters in a name or folder are refused with the file and line, or by --emit naming the text") {
  const EmitCase named("ctl-name", "name: \"a\\ntouch x\"\n");
  const std::string e = error_of([&] { load_sweep(named.sweep_file.string()); });
  CHECK(e.rfind(named.sweep_file.string() + ":1:7: name: expected text without control characters", 0) == 0);
  CHECK(e.find("(it holds a newline)") != std::string::npos);
  const EmitCase output("ctl-output", "output: \"o\\tx\"\n");
  CHECK(error_of([&] { load_sweep(output.sweep_file.string()); }).rfind(output.sweep_file.string() + ":1:9: output: expected text without control characters", 0) == 0);

  const EmitCase c("ctl-emit");
  Sweep sweep = load_sweep(c.sweep_file.string());
  sweep.output = (c.dir / "o\ntouch x").string();  // -o
  for (const char* format : {"slurm", "parallel"})
    CHECK(error_of([&] { emit_sweep_jobs(sweep, format, c.stub.string(), {}, false); }) ==
          "the sweep's output folder '" + sweep.output + "' holds a newline, which a generated script cannot carry; rename it");
  CHECK_FALSE(fs::exists(sweep.output));  // nothing made before the refusal
  sweep.output = (c.dir / "out").string();
  CHECK(error_of([&] { emit_sweep_jobs(sweep, "parallel", c.stub.string(), {"seed=1\ttouch x"}, false); }) ==
        "--set 'seed=1\ttouch x' holds a tab, which a generated script cannot carry; rename it");
  // A backslash turns off sbatch's %a, so every task would write one log: refused for Slurm only.
  sweep.output = (c.dir / "a\\b").string();
  CHECK(error_of([&] { emit_sweep_jobs(sweep, "slurm", c.stub.string(), {}, false); }).find("turns off sbatch's %a") != std::string::npos);
  CHECK(error_of([&] { emit_sweep_jobs(sweep, "parallel", c.stub.string(), {}, false); }).empty());
}
