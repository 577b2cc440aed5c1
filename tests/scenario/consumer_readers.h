// The consumers of mapsim's generated files, re-implemented from their documentation and sources, so
// that tests read what mapsim writes as the consumer would: sbatch's #SBATCH lines (get_argument() in
// Slurm's src/sbatch/opt.c) and file name patterns (expand_stdio_fields(): %a, %%, a backslash turns
// replacement off), Open MPI's rankfile lexer (orte/mca/rmaps/rank_file/rmaps_rank_file_lex.l) and
// parser, Hydra's HOST[:COUNT] lines and the `ssh -x HOST` it starts, Slurm's hostfile reader
// (slurm_read_hostfile(): '#' comments, a letter or digit first, ',' and HOST*COUNT, [ranges]).
// Each returns what the consumer would take, or throws std::runtime_error where it would fail.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace consumer {

// sbatch: the arguments of one #SBATCH line's rest, as get_argument() splits them.
inline std::vector<std::string> sbatch_line_arguments(const std::string& rest) {
  std::vector<std::string> arguments;
  size_t at = 0;
  const auto space = [&](size_t i) { return i < rest.size() && std::isspace(static_cast<unsigned char>(rest[i])); };
  while (true) {
    while (space(at)) ++at;
    if (at >= rest.size()) return arguments;
    if (rest[at] == ':') throw std::runtime_error("sbatch: Unexpected `:`");
    std::string argument;
    bool quoted = false, escape = false, any = false;
    char quote = 0;
    while (at < rest.size() && (quoted || !space(at)) && rest[at] != '\n') {
      const char c = rest[at];
      if (escape) {
        escape = false;
      } else if (c == '\\') {
        ++at;
        if (at < rest.size() && rest[at] == ' ') {
          argument += rest[at++];
          any = true;
        } else {
          escape = true;
        }
        continue;
      } else if (quoted) {
        if (c == quote) {
          quoted = false;
          ++at;
          continue;
        }
      } else if (c == '"' || c == '\'') {
        quoted = true;
        quote = c;
        ++at;
        continue;
      } else if (c == '#') {
        at = rest.size();  // the rest of the line is a comment
        break;
      }
      argument += c;
      any = true;
      ++at;
    }
    if (quoted) throw std::runtime_error(std::string("sbatch: Unmatched `") + quote + "`");
    if (any) arguments.push_back(argument);
  }
}

// sbatch: every option of a script's #SBATCH lines, up to its first command.
inline std::vector<std::string> sbatch_arguments(const std::string& script) {
  std::vector<std::string> arguments;
  std::istringstream in(script);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#SBATCH", 0) == 0) {
      for (const std::string& a : sbatch_line_arguments(line.substr(7))) arguments.push_back(a);
      continue;
    }
    const size_t first = line.find_first_not_of(" \t\r\f\v");
    if (first != std::string::npos && line[first] != '#') break;  // a command: sbatch stops reading options
  }
  return arguments;
}

// Slurm: a file name pattern (--output) expanded for array task `task`; other fields as "<X>".
inline std::string slurm_filename(const std::string& pattern, int task) {
  std::string name;
  if (pattern.find('\\') != std::string::npos) {  // escaped: nothing is replaced, backslashes dropped
    for (const char c : pattern)
      if (c != '\\') name += c;
    return name;
  }
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      name += pattern[i];
      continue;
    }
    const char c = pattern[++i];
    if (c == '%') name += '%';
    else if (c == 'a') name += std::to_string(task);
    else if (std::string("AbjJNnstuVx").find(c) != std::string::npos) name += std::string("<") + c + ">";
    else name += std::string("%") + c;
  }
  return name;
}

// Open MPI's rankfile lexer: the tokens of one line (flex: the longest match wins, then the first rule).
struct Token {
  std::string kind, text;
};
inline std::vector<Token> open_mpi_rankfile_tokens(const std::string& line) {
  static const std::vector<std::pair<std::string, std::regex>> rules = {
      {"COMMENT", std::regex("#.*")},
      {"COMMENT", std::regex("//.*")},
      {"COMMENT", std::regex("/\\*")},
      {"QUOTED", std::regex("\"[^\"]*\"")},
      {"WHITE", std::regex("[\\f\\t\\v ]+")},
      {"EQUAL", std::regex("=")},
      {"RANK", std::regex("rank")},
      {"SLOT", std::regex("slots?")},
      {"USERNAME", std::regex("username|user-name|user_name")},
      {"INT", std::regex("[0-9]+")},
      {"STRING", std::regex("[A-za-z0-9_\\-,:*@]+")},
      {"IPV4", std::regex("([A-Za-z0-9][A-Za-z0-9_\\-]*@)?([0-9]{1,3}\\.){3}[0-9]{1,3}")},
      {"HOSTNAME", std::regex("([A-Za-z0-9][A-Za-z0-9_\\-]*@)?[A-Za-z][A-Za-z0-9_\\-.]*")},
      {"RELATIVE", std::regex("\\+n[0-9]+")},
      {"ERROR", std::regex(".")},
  };
  std::vector<Token> tokens;
  for (size_t at = 0; at < line.size();) {
    Token best;
    for (const auto& [kind, rule] : rules) {
      std::smatch m;
      const std::string rest = line.substr(at);
      if (std::regex_search(rest, m, rule, std::regex_constants::match_continuous) && m.length(0) > static_cast<long>(best.text.size()))
        best = {kind, m.str(0)};
    }
    at += best.text.size();
    if (best.kind == "COMMENT") break;
    if (best.kind != "WHITE") tokens.push_back(best);
  }
  return tokens;
}

// Open MPI: the host of a line "rank N=HOST slot=C" as its parser takes it (a USER@ prefix is a user).
inline std::string open_mpi_rankfile_host(const std::string& line) {
  const std::vector<Token> t = open_mpi_rankfile_tokens(line);
  const auto is = [&](size_t i, const std::string& kind) { return i < t.size() && t[i].kind == kind; };
  if (!(t.size() == 7 && is(0, "RANK") && is(1, "INT") && is(2, "EQUAL") && is(4, "SLOT") && is(5, "EQUAL") && is(6, "INT")))
    throw std::runtime_error("Open MPI: rankfile syntax error in '" + line + "'");
  const std::string& kind = t[3].kind;
  if (kind == "RELATIVE") throw std::runtime_error("Open MPI: '" + t[3].text + "' is a relative node");
  if (kind != "HOSTNAME" && kind != "IPV4" && kind != "STRING" && kind != "INT")
    throw std::runtime_error("Open MPI: no host in '" + line + "'");
  const std::string host = kind == "INT" ? std::to_string(std::stol(t[3].text)) : t[3].text;
  if (host.find('@') != std::string::npos) throw std::runtime_error("Open MPI: '" + host + "' names a user");
  return host;
}

// Hydra: the host of a machinefile line, as `ssh -x HOST` then gets it; "" for a comment or blank line.
inline std::string hydra_host(const std::string& line) {
  std::istringstream words(line.substr(0, line.find('#')));
  std::string first;
  if (!(words >> first)) return "";
  const std::string host = first.substr(0, first.find(':'));
  if (host.empty() || host[0] == '-') throw std::runtime_error("Hydra: ssh reads '" + host + "' as an option");
  if (host.find('@') != std::string::npos) throw std::runtime_error("Hydra: ssh reads '" + host + "' as USER@HOST");
  return host;
}

// Slurm: the hosts of a SLURM_HOSTFILE, one per task.
inline std::vector<std::string> slurm_hostfile_hosts(const std::string& text) {
  std::vector<std::string> hosts;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    for (size_t i = 0; i < line.size(); ++i)
      if (line[i] == '#') {
        if (i > 0 && line[i - 1] == '\\') {
          line.erase(i - 1, 1);
          --i;
          continue;
        }
        line.resize(i);
        break;
      }
    if (line.empty()) continue;
    if (!std::isalnum(static_cast<unsigned char>(line[0]))) throw std::runtime_error("Slurm: Invalid hostfile contents");
    std::istringstream names(line);
    for (std::string name; std::getline(names, name, ',');) {
      if (name.find_first_of("[]") != std::string::npos) throw std::runtime_error("Slurm: '" + name + "' is a host range");
      const size_t star = name.find('*');
      const int count = star == std::string::npos ? 1 : std::atoi(name.c_str() + star + 1);
      if (star != std::string::npos && count) name.resize(star);
      for (int k = 0; k < std::max(count, 1); ++k) hosts.push_back(name);
    }
  }
  return hosts;
}

}  // namespace consumer
