#include "reporting/plot.h"

#include "mappers/result_columns.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "reporting/csv_table.h"
#include "support/statistics.h"
#include "support/error.h"
#include "support/units.h"
#include "support/yaml_reader.h"

namespace mapsim {
namespace {

bool parse_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(value);  // a NUL byte is no end
}

int require_column(const CsvTable& table, const std::string& name, const std::string& option) {
  const int c = table.column(name);
  if (c >= 0) return c;
  const std::string near = nearest_word(name, table.header);
  std::string all;
  for (const std::string& h : table.header) all += (all.empty() ? "" : ", ") + h;
  throw Error(table.path + ": " + option + " " + name + ": no such column" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
              "; columns: " + all);
}


// `digits` significant digits, in fixed notation when the number has that many integer digits
// (15650 rather than 1.565e+04).
std::string significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) return format_number(value, digits);
  const int exponent = static_cast<int>(std::floor(std::log10(std::abs(value))));
  if (exponent < digits - 1 || exponent > 15) return format_number(value, digits);
  const double unit = std::pow(10.0, exponent - digits + 1);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", std::round(value / unit) * unit);
  return text;
}

std::string gp(const std::string& text) { return gnuplot_quote(text); }

const std::string kStdoutOutput = "set output\n";  // the figure goes to stdout: its path is never script text

}  // namespace

std::string gnuplot_quote(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += std::string("\\") + c;
    else if (c == '`') quoted += "\\140";  // a backquote runs a shell command, even inside "..."
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) quoted += ' ';  // a newline would end the command
    else quoted += c;
  }
  return quoted + "\"";
}

PlotData collect_plot(const std::string& path, const PlotOptions& o) {
  return collect_plot(std::vector<std::string>{path}, o);
}

namespace {

// collect_plot with y multiplied by `scale` as each value is read.
PlotData collect(const std::vector<std::string>& paths, const PlotOptions& o, double scale) {
  if (paths.empty()) throw Error("plot: no CSV file given");
  struct Group {
    std::vector<double> values;
    double ci95 = 0;
    long n = 0;
    std::string point;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  PlotData data;
  std::vector<std::string> labels;
  bool aggregated = false;
  std::string files;  // for messages about them all
  for (const std::string& file : paths) files += (files.empty() ? "" : ", ") + file;
  // Each file's columns are found by name: files of one kind (traffic CSVs of two routings, results.csv of
  // two runs) are read as one table. Rows repeating the header (files concatenated by hand) are skipped.
  for (size_t f = 0; f < paths.size(); ++f) {
    const CsvTable table = read_csv(paths[f]);
    const std::string& path = paths[f];
    const int x = require_column(table, o.x, "--x");
    const int by = o.by.empty() ? -1 : require_column(table, o.by, "--by");
    // results.csv holds y itself; aggregate.csv holds y_mean, y_ci95 and n.
    const bool file_aggregated = table.column(o.y) < 0 && table.column(o.y + "_mean") >= 0;
    if (f > 0 && file_aggregated != aggregated)
      throw Error(path + ": --y " + o.y + ": holds " +
                  (file_aggregated ? "aggregates (" + o.y + "_mean)" : "plain values") + ", " + paths.front() + " " +
                  (aggregated ? "aggregates" : "plain values") + ": plot files of one kind together");
    aggregated = file_aggregated;
    const int y = require_column(table, aggregated ? o.y + "_mean" : o.y, "--y");
    const int ci = aggregated ? require_column(table, o.y + "_ci95", "--y") : -1;
    const int n = aggregated ? require_column(table, "n", "--y") : -1;
    const int point = table.column("point");
    std::vector<std::pair<int, std::string>> filters;
    for (const std::string& w : o.where) {
      const size_t eq = w.find('=');
      if (eq == std::string::npos) throw Error("--where " + w + ": expected KEY=VALUE");
      filters.emplace_back(require_column(table, w.substr(0, eq), "--where"), w.substr(eq + 1));
    }

    for (size_t r = 0; r < table.rows.size(); ++r) {
      const auto& row = table.rows[r];
      if (row == table.header) continue;  // a header again: CSV files concatenated by hand
      if (std::any_of(filters.begin(), filters.end(), [&](const auto& filter) { return row[filter.first] != filter.second; }))
        continue;
      double value = 0;
      if (row[y].empty()) continue;      // this row has no such result
      if (!parse_number(row[y], value))  // nan, inf or text: never dropped silently
        throw Error(path + ": row " + std::to_string(r + 1) + ": " + table.header[y] + " is '" + row[y] +
                    "', not a finite number");
      const std::string label = by < 0 ? o.y : row[by];
      if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
      if (std::find(data.x_values.begin(), data.x_values.end(), row[x]) == data.x_values.end())
        data.x_values.push_back(row[x]);
      Group& g = groups[{label, row[x]}];
      // A sweep point of one file is not the point of the same number in another.
      const std::string row_point = point >= 0 ? std::to_string(f) + ":" + row[point] : std::string();
      if (point >= 0 && !g.values.empty() && g.point != row_point) {
        std::string varied;
        for (size_t c = 1; c < table.header.size() && table.header[c] != "replicate" && table.header[c] != "mapper" && table.header[c] != "job";
             ++c)
          if (static_cast<int>(c) != x) varied += (varied.empty() ? "" : ", ") + table.header[c];
        throw Error(path + ": rows with " + o.x + "=" + row[x] + " and " + (by < 0 ? "" : o.by + "=" + label) +
                    " come from several sweep points" + (paths.size() > 1 ? " or files" : "") +
                    "; pick one with --where KEY=VALUE (other varied keys: " + varied + ")");
      }
      if (point >= 0) g.point = row_point;
      if (aggregated && !g.values.empty())
        throw Error(path + ": several aggregate rows share " + o.x + "=" + row[x] + "; filter with --where");
      g.values.push_back(value * scale);
      if (aggregated) {
        double c = 0, count = 0;
        parse_number(row[ci], c);
        parse_number(row[n], count);
        g.ci95 = c * std::abs(scale);
        g.n = static_cast<long>(count);
      }
    }
  }
  if (groups.empty()) throw Error(files + ": no rows with a value of " + o.y + " match");
  // Numeric x: plain numbers, or quantities of one kind (with bare numbers as base units).
  std::map<std::string, double> number_of;
  std::set<std::string> kinds;
  for (const std::string& v : data.x_values) {
    double value = 0;
    std::string kind;
    if (!parse_quantity(v, value, kind)) break;
    number_of[v] = value;
    if (kind != "number") kinds.insert(kind);
  }
  data.numeric_x = number_of.size() == data.x_values.size() && kinds.size() <= 1;
  data.labelled_x = data.numeric_x && !kinds.empty();
  if (o.logx && !data.numeric_x)
    throw Error(files + ": --logx needs a numeric " + o.x + "; its values are categories ('" + data.x_values.front() + "', ...)");
  if (data.numeric_x) {
    std::stable_sort(data.x_values.begin(), data.x_values.end(),
                     [&](const std::string& a, const std::string& b) { return number_of[a] < number_of[b]; });
    for (const std::string& v : data.x_values) data.x_numbers.push_back(number_of[v]);
    if (o.logx && data.x_numbers.front() <= 0)
      throw Error(files + ": --logx: " + o.x + " has the value " + data.x_values.front() + ", which a log scale cannot show");
  }
  for (const std::string& label : labels) {
    std::vector<PlotPoint> points;
    for (const std::string& xv : data.x_values) {
      auto it = groups.find({label, xv});
      if (it == groups.end()) continue;
      PlotPoint p{xv, 0, it->second.ci95, it->second.n};
      if (!aggregated) {
        const Statistics st = summarise(it->second.values);
        p.mean = st.mean;
        p.ci95 = st.ci95;
        p.n = st.n;
      } else {
        p.mean = it->second.values.front();
      }
      points.push_back(p);
    }
    data.series.emplace_back(label, std::move(points));
  }
  data.y_scale = scale;
  return data;
}

}  // namespace

std::string column_unit(const std::string& name, bool workload_bytes) {
  std::string c = name;
  for (const char* suffix : {"_mean", "_sd", "_ci95"}) {
    const std::string s = suffix;
    if (c.size() > s.size() && c.compare(c.size() - s.size(), s.size(), s) == 0 && !find_result_column(name)) {
      c.resize(c.size() - s.size());
      break;
    }
  }
  if (const ResultColumn* declared = find_result_column(c)) return result_unit(*declared, workload_bytes);
  // Columns of the other tables: mapsim traffic's CSV, timings.csv, aggregate.csv's n, and the old names
  // (avg_latency, sim_avg_zero_load_latency).
  const auto ends = [&](const std::string& end) { return c.size() >= end.size() && c.compare(c.size() - end.size(), end.size(), end) == 0; };
  if (c == "offered" || c == "accepted") return "fraction";
  if (c.find("latency") != std::string::npos || ends("makespan") || c == "map_seconds" || c == "sim_seconds") return "s";
  if (c == "avg_hops") return "hops";
  if (c == "messages" || c == "events" || c == "n") return "count";
  return "";
}

std::string column_label(const std::string& name) {
  std::string c = name;
  std::string label;
  if (c.rfind("sim_", 0) == 0) {
    label = "sim. ";
    c = c.substr(4);
  }
  for (size_t at; (at = c.find("zero_load")) != std::string::npos;) c.replace(at, 9, "zero-load");
  for (char& ch : c)
    if (ch == '_') ch = ' ';
  return label + c;
}

PlotData collect_plot(const std::vector<std::string>& paths, const PlotOptions& o) {
  if (o.scale != 0 || column_unit(o.y) != "s") return collect(paths, o, o.scale != 0 ? o.scale : 1);
  // A time without --scale: one unit from the largest mean shown, applied as --scale would apply it.
  PlotData data = collect(paths, o, 1);
  double largest = 0;
  for (const auto& series : data.series)
    for (const PlotPoint& p : series.second) largest = std::max(largest, std::abs(p.mean));
  const auto [unit, factor] = time_unit(largest);
  if (factor != 1) data = collect(paths, o, factor);
  data.y_unit = unit;
  return data;
}

std::string gnuplot_script(const PlotData& data, const PlotOptions& o, const std::string& output) {
  const std::string format = std::filesystem::path(output).extension().string();
  std::ostringstream s;
  if (format == ".svg") s << "set terminal svg size 800,500 dynamic noenhanced font 'Helvetica,12' background '#ffffff'\n";
  else if (format == ".png") s << "set terminal pngcairo size 1000,625 noenhanced font 'Sans,11'\n";
  else if (format == ".pdf") s << "set terminal pdfcairo size 6in,3.75in noenhanced font 'Sans,10'\n";
  else throw Error(output + ": expected a .svg, .png or .pdf file name");
  s << kStdoutOutput;
  s << "set title " << gp(o.title.empty() ? o.y + " vs " + o.x : o.title) << "\n";
  s << "set xlabel " << gp(o.xlabel.empty() ? o.x : o.xlabel) << "\nset ylabel "
    << gp(!o.ylabel.empty() ? o.ylabel : data.y_unit.empty() ? o.y : column_label(o.y) + " (" + data.y_unit + ")") << "\n";
  s << "set grid\nset key top left\nset pointsize 1\nset bars small\n";
  if (o.logx) s << "set logscale x\n";
  if (o.logy) s << "set logscale y\n";
  if (!data.numeric_x) {
    s << "set xtics (";
    for (size_t i = 0; i < data.x_values.size(); ++i) s << (i ? ", " : "") << gp(data.x_values[i]) << " " << i;
    s << ")\nset xrange [-0.5:" << data.x_values.size() - 0.5 << "]\n";
  } else if (data.labelled_x) {  // placed by value, labelled as written
    s << "set xtics (";
    for (size_t i = 0; i < data.x_values.size(); ++i)
      s << (i ? ", " : "") << gp(data.x_values[i]) << " " << format_exact(data.x_numbers[i]);
    s << ")\n";
  }
  for (size_t k = 0; k < data.series.size(); ++k) {
    s << "$S" << k << " << EOD\n";
    for (const PlotPoint& p : data.series[k].second) {
      const size_t position = std::find(data.x_values.begin(), data.x_values.end(), p.x) - data.x_values.begin();
      s << (data.numeric_x ? format_exact(data.x_numbers[position]) : std::to_string(position)) << " " << format_exact(p.mean)
        << " " << format_exact(p.ci95) << "\n";
    }
    s << "EOD\n";
  }
  s << "plot ";
  for (size_t k = 0; k < data.series.size(); ++k)
    s << (k ? ", \\\n     " : "") << "$S" << k << " using 1:2:3 with yerrorlines linewidth 2 title " << gp(data.series[k].first);
  s << "\n";
  return s.str();
}

std::string saved_script(std::string script, const std::string& output) {
  const size_t at = script.find(kStdoutOutput);
  if (at != std::string::npos) script.replace(at, kStdoutOutput.size(), "set output " + gp(output) + "\n");
  return script;
}

std::string markdown_table(const PlotData& data, const PlotOptions& o) {
  std::ostringstream s;
  s << "| " << o.x << (data.y_unit.empty() ? "" : " \\ " + column_label(o.y) + " (" + data.y_unit + ")") << " |";
  for (const auto& [label, points] : data.series) s << " " << label << " |";
  s << "\n|---|";
  for (size_t k = 0; k < data.series.size(); ++k) s << "---|";
  s << "\n";
  for (const std::string& xv : data.x_values) {
    s << "| " << xv << " |";
    for (const auto& [label, points] : data.series) {
      auto it = std::find_if(points.begin(), points.end(), [&](const PlotPoint& p) { return p.x == xv; });
      if (it == points.end()) {
        s << " |";
        continue;
      }
      s << " " << significant(it->mean, 4);
      if (it->n > 1) s << " ± " << significant(it->ci95, 2);
      s << " |";
    }
    s << "\n";
  }
  return s.str();
}

}  // namespace mapsim
