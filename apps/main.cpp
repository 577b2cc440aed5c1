// mapsim: process mapping and interconnect simulation on switch-based networks.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <new>
#include <unistd.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "apps/commands.h"
#include "apps/cli_checks.h"
#include "apps/progress.h"
#include "support/error.h"
#include "support/message.h"

namespace {

// %* in the log pattern: the message made printable (warnings quote input too).
class PrintableMessage : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    const std::string text = mapsim::printable(std::string_view(msg.payload.data(), msg.payload.size()));
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<PrintableMessage>(); }
};

// A closed descriptor 0-2 (mapsim >&-) would be handed to the first file opened, and results printed
// into it: hold each with /dev/null, stdout read-only so that every write to it fails and is reported.
void hold_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    const int held = open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
    if (held >= 0 && held != fd) {
      dup2(held, fd);
      close(held);
    }
  }
}

// Results go to standard output: when it fails (a full disk, a closed descriptor) so does the command,
// after the command's own error if it had one.
int finish_output(int status) {
  errno = 0;
  std::cout.flush();  // the same FILE as printf's (synced with stdio): errno tells why it failed
  if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good()) return status;
  int error = errno;
  if (!error && write(STDOUT_FILENO, nullptr, 0) < 0) error = errno;  // an earlier failure: a closed descriptor?
  if (status == 0)
    std::fprintf(stderr, "mapsim: error: standard output: %s\n", error ? std::strerror(error) : "write error");
  return status == 0 ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) {
  hold_standard_descriptors();
  // Logs go to stderr; results go to stdout or files.
  spdlog::set_default_logger(spdlog::stderr_color_mt("mapsim"));
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<PrintableMessage>('*').set_pattern("mapsim: %l: %*");
  spdlog::set_formatter(std::move(formatter));
  spdlog::set_level(spdlog::level::info);

  CLI::App app{"mapsim: process mapping and interconnect simulation for switch-based networks"};
  app.set_version_flag("--version", std::string("mapsim ") + MAPSIM_VERSION);
  app.require_subcommand(1);
  // One line, like every other error (CLI11 adds "Run with --help ..." by default).
  app.failure_message([](const CLI::App*, const CLI::Error& e) { return "mapsim: error: " + mapsim::printable(e.what()) + "\n"; });
  app.fallthrough();  // -v / --quiet also after the subcommand ("mapsim topo SPEC -v")
  // Applied as each flag is parsed, before the subcommand runs (CLI11's parse-complete callback of
  // the app would come after it).
  auto& progress = mapsim::progress_settings();
  app.add_flag("-v,--verbose", "Debug logging on stderr")->each([](const std::string&) { spdlog::set_level(spdlog::level::debug); });
  app.add_flag("--quiet", "Only errors on stderr (no progress either)")->each([&](const std::string&) {
    spdlog::set_level(spdlog::level::err);
    progress.enabled = false;
  });
  app.add_flag("--progress{30}", "Progress on stderr: a bar on a terminal, elsewhere a line every SECONDS (default 30)")
      ->check(mapsim::positive_number())
      ->option_text("[=SECONDS]")
      ->each([&](const std::string& seconds) { progress.interval = std::stod(seconds); });
  app.add_flag("--no-progress", "No progress on stderr")->each([&](const std::string&) { progress.enabled = false; });
  mapsim::add_topo_command(app);
  mapsim::add_map_command(app);
  mapsim::add_compare_command(app);
  mapsim::add_simulate_command(app);
  mapsim::add_traffic_command(app);
  mapsim::add_run_command(app);
  mapsim::add_sweep_command(app);
  mapsim::add_plot_command(app);
  mapsim::add_report_command(app);
  mapsim::add_trace_command(app);
  mapsim::add_components_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a command's own exit status (2: some runs failed, 130: interrupted)
    return finish_output(app.exit(e));
  } catch (const CLI::ParseError& e) {  // --help and --version end here too, with 0; a usage error with 1
    return finish_output(app.exit(e) == 0 ? 0 : 1);
  } catch (const mapsim::Error& e) {
    std::fprintf(stderr, "mapsim: error: %s\n", mapsim::printable(e.what()).c_str());
    return finish_output(1);
  } catch (const std::filesystem::filesystem_error& e) {  // the file system's answer, not a bug of mapsim
    std::fprintf(stderr, "mapsim: error: %s\n", mapsim::printable(mapsim::filesystem_message(e)).c_str());
    return finish_output(1);
  } catch (const std::bad_alloc&) {  // a network or trace larger than this machine's memory: the input's size
    std::fprintf(stderr, "mapsim: error: out of memory\n");
    return finish_output(1);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mapsim: internal error: %s\n", mapsim::printable(e.what()).c_str());
    return finish_output(3);
  }
  return finish_output(0);
}
