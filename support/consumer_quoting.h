// Quoting for consumers: text from input (a sweep's name, a folder, a --set value, a node's name) that
// mapsim writes into a file another program parses -- a shell script, sbatch's #SBATCH lines, a GNU
// Parallel job list, an MPI launcher's host file -- passes through the one function here for that
// consumer, which quotes it by the consumer's own rules or refuses it (Error, one line), so that a name
// can never add a command, an option or a host. docs/architecture.md#quoting-for-consumers
#pragma once
#include <string>
#include <string_view>

namespace mapsim {

// "" when `text` holds no control character (below 0x20, or DEL), else the first one named ("a newline").
std::string control_character(std::string_view text);

// bash (any POSIX shell): one word, single-quoted ('it'\''s'). `what` names the text in the error that
// refuses a control character: a newline would end a comment line or a GNU Parallel job.
std::string bash_word(std::string_view text, std::string_view what);

// GNU Parallel's job list: `command` (made of bash_word()s) as one line, which Parallel hands to the
// shell as one job; refuses a line that would split.
std::string parallel_job(std::string_view command);

// sbatch's #SBATCH parser (arguments split on whitespace; quotes group; a backslash escapes the next
// character; an unquoted '#' starts a comment): the line "#SBATCH --NAME=VALUE", VALUE double-quoted
// when it holds anything but [A-Za-z0-9._/%+,=@:-].
std::string sbatch_directive(std::string_view name, std::string_view value, std::string_view what);

// sbatch's file name patterns (--output): `path` literally, each '%' doubled. A backslash is refused:
// in a pattern it turns off every replacement, %a included, so all tasks would share one log.
std::string sbatch_filename(std::string_view path, std::string_view what);

// Host names in launch files: "" when the consumer reads `host` as one host name, else why not
// ("holds ':', which Hydra reads as HOST:COUNT"). Every launcher refuses what any reads as syntax:
// empty, whitespace or control characters, a leading '-' (an option of ssh, which Hydra and Open MPI
// start with the host as an argument) or '+' (Open MPI's relative +nN), '#', '*', ':', '=', ',', '@', and
// anything else but letters, digits, '.', '_' and '-'; then each its own rules (a rankfile's keywords).
std::string open_mpi_rankfile_host_problem(std::string_view host);  // `rank N=HOST slot=C`
std::string hydra_host_problem(std::string_view host);              // machinefile, hostlist: HOST[:COUNT]
std::string slurm_host_problem(std::string_view host);              // SLURM_HOSTFILE, srun -w / cpu-bind lists

}  // namespace mapsim
