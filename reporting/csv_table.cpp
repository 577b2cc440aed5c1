#include "reporting/csv_table.h"

#include <algorithm>
#include <csv.h>
#include <fstream>
#include <sstream>

#include "support/error.h"
#include "support/input_file.h"

namespace mapsim {
namespace {

struct Reader {
  CsvTable* table;
  std::vector<std::string> record;
  long line = 0;
  std::string error;
};

void on_field(void* data, size_t size, void* context) {
  static_cast<Reader*>(context)->record.emplace_back(static_cast<const char*>(data), size);
}

void on_record(int, void* context) {
  auto* r = static_cast<Reader*>(context);
  ++r->line;
  if (r->table->header.empty()) {
    r->table->header = std::move(r->record);
  } else if (r->error.empty() && r->record.size() != r->table->header.size()) {
    r->error = r->table->path + ":" + std::to_string(r->line) + ": expected " + std::to_string(r->table->header.size()) +
               " fields as in the header, got " + std::to_string(r->record.size());
  } else {
    r->table->rows.push_back(std::move(r->record));
  }
  r->record.clear();
}

}  // namespace

int CsvTable::column(const std::string& name) const {
  // Renamed result columns answer to their old names too (docs/scenario.md).
  static const std::vector<std::pair<std::string, std::string>> kOldNames = {
      {"avg_latency", "zero_load_latency"}, {"sim_avg_zero_load_latency", "sim_zero_load_latency"}};
  auto it = std::find(header.begin(), header.end(), name);
  for (const auto& [old_name, current] : kOldNames)
    if (it == header.end() && name == old_name) it = std::find(header.begin(), header.end(), current);
  return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

CsvTable read_csv(const std::string& path) {
  std::ifstream in = open_input(path, "CSV file", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string data = text.str();
  CsvTable table;
  table.path = path;
  Reader reader{&table, {}, 0, {}};
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) throw Error(path + ": cannot start the CSV parser");
  const size_t parsed = csv_parse(&parser, data.data(), data.size(), on_field, on_record, &reader);
  const bool failed = parsed != data.size() || csv_fini(&parser, on_field, on_record, &reader) != 0;
  const std::string message = failed ? csv_strerror(csv_error(&parser)) : "";
  csv_free(&parser);
  if (failed) throw Error(path + ":" + std::to_string(reader.line + 1) + ": malformed CSV: " + message);
  if (!reader.error.empty()) throw Error(reader.error);
  if (table.header.empty()) throw Error(path + ": empty file, expected a header line");
  for (size_t c = 0; c < table.header.size(); ++c)
    if (std::find(table.header.begin(), table.header.begin() + c, table.header[c]) != table.header.begin() + c)
      throw Error(path + ":1: column '" + table.header[c] + "' appears twice in the header");
  return table;
}

}  // namespace mapsim
