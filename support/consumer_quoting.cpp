// Quoting for consumers (consumer_quoting.h). Each consumer's rules as its documentation and parser give
// them: bash's single quotes; GNU Parallel runs each input line as one shell command; sbatch's
// get_argument() (src/sbatch/opt.c) and its file name patterns (%a, %%; a backslash turns replacement
// off); Open MPI's rankfile lexer (host tokens [A-Za-z0-9_.-], '#' '//' '/*' comments, +nN relative
// nodes, keywords rank/slot/slots/username); Hydra's HOST[:COUNT] lines started as `ssh -x HOST`;
// Slurm's hostfile reader (a line begins with a letter or digit; ',' '*' '#' and [ranges] are syntax).
// Host names are held to the characters of host names (letters, digits, '.', '_', '-') besides.
#include "support/consumer_quoting.h"

#include <cstdio>

#include "support/error.h"

namespace mapsim {
namespace {

bool ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool ascii_digit(char c) { return c >= '0' && c <= '9'; }

void refuse_control(std::string_view text, std::string_view what, std::string_view consumer) {
  const std::string control = control_character(text);
  if (!control.empty())
    throw Error(std::string(what) + " '" + std::string(text) + "' holds " + control + ", which " + std::string(consumer) +
                " cannot carry; rename it");
}

// What every launcher refuses: the union of their syntax, so that one network's names suit every format.
std::string common_host_problem(std::string_view host) {
  if (host.empty()) return "is empty";
  for (const char c : host) {
    if (c == ' ' || c == '\t') return "holds whitespace, which ends a host name";
    if (c < 0x20 || c >= 0x7F) return "holds a byte that is not printable ASCII";
  }
  if (host[0] == '-') return "begins with '-', which ssh (started with the host as an argument) reads as an option";
  if (host[0] == '+') return "begins with '+', which Open MPI reads as a relative node (+nN)";
  static const struct { char c; const char* syntax; } kReserved[] = {
      {'#', "a comment"}, {'*', "Slurm's HOST*COUNT"}, {':', "Hydra's HOST:COUNT"}, {'=', "a rankfile's rank N=HOST"},
      {',', "a list of hosts for Slurm and Open MPI"}, {'@', "USER@HOST for ssh and Open MPI"},
  };
  for (const auto& r : kReserved)
    if (host.find(r.c) != std::string_view::npos)
      return std::string("holds '") + r.c + "', which every launch file reserves (" + r.syntax + ")";
  for (const char c : host)  // what else a host name holds: quotes, $, [ranges], / ... are syntax somewhere
    if (!ascii_letter(c) && !ascii_digit(c) && c != '.' && c != '_' && c != '-')
      return std::string("holds '") + c + "', which is not a host name character (a letter, digit, '.', '_' or '-')";
  return "";
}

}  // namespace

std::string control_character(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\n') return "a newline";
    if (byte == '\r') return "a carriage return";
    if (byte == '\t') return "a tab";
    if (byte < 0x20 || byte == 0x7F) {
      char code[8];
      std::snprintf(code, sizeof code, "\\x%02X", byte);
      return std::string("the control byte ") + code;
    }
  }
  return "";
}

std::string bash_word(std::string_view text, std::string_view what) {
  refuse_control(text, what, "a generated script");
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string parallel_job(std::string_view command) {
  refuse_control(command, "the job", "a GNU Parallel job list (one job a line)");
  return std::string(command) + "\n";
}

std::string sbatch_directive(std::string_view name, std::string_view value, std::string_view what) {
  refuse_control(value, what, "an #SBATCH line");
  bool plain = !value.empty();
  for (const char c : value)
    if (!ascii_letter(c) && !ascii_digit(c) && std::string_view("._/%+,=@:-").find(c) == std::string_view::npos) plain = false;
  std::string line = "#SBATCH --" + std::string(name) + "=";
  if (plain) return line + std::string(value);
  line += '"';
  for (const char c : value) {
    if (c == '"' || c == '\\') line += '\\';  // inside quotes sbatch still takes a backslash as an escape
    line += c;
  }
  return line + '"';
}

std::string sbatch_filename(std::string_view path, std::string_view what) {
  if (path.find('\\') != std::string_view::npos)
    throw Error(std::string(what) + " '" + std::string(path) +
                "' holds '\\', which turns off sbatch's %a in the log files' names (every task would write one "
                "log); choose another folder");
  std::string pattern;
  for (const char c : path) pattern += c == '%' ? std::string("%%") : std::string(1, c);
  return pattern;
}

std::string open_mpi_rankfile_host_problem(std::string_view host) {
  if (std::string problem = common_host_problem(host); !problem.empty()) return problem;
  for (const char* keyword : {"rank", "slot", "slots", "username", "user-name", "user_name"})
    if (host == keyword) return "is a keyword of Open MPI's rankfile";
  // A host token holds '.' only when it begins with a letter or is an IPv4 address (a token beginning
  // otherwise stops there); digits alone are read as a number, so 007 would become 7.
  int dots = 0, digits = 0, group = 0;
  bool ipv4 = true;
  for (const char c : host) {
    if (c == '.') {
      ipv4 = ipv4 && group > 0;
      ++dots;
      group = 0;
    } else {
      ipv4 = ipv4 && ascii_digit(c) && ++group <= 3;
      digits += ascii_digit(c);
    }
  }
  ipv4 = ipv4 && dots == 3 && group > 0;
  if (dots > 0 && !ascii_letter(host[0]) && !ipv4)
    return "holds '.' but does not begin with a letter, which Open MPI's rankfile reader splits there";
  if (digits == static_cast<int>(host.size()) && host.size() > 1 && host[0] == '0')
    return "is a number with a leading zero, which Open MPI's rankfile reader rewrites";
  return "";
}

std::string hydra_host_problem(std::string_view host) { return common_host_problem(host); }

std::string slurm_host_problem(std::string_view host) {
  if (std::string problem = common_host_problem(host); !problem.empty()) return problem;
  if (!ascii_letter(host[0]) && !ascii_digit(host[0])) return "does not begin with a letter or digit, which Slurm's hostfile reader requires";
  return "";
}

}  // namespace mapsim
