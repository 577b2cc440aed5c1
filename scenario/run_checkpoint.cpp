#include "scenario/run_checkpoint.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/atomic_file.h"
#include "support/json_text.h"

namespace mapsim {
namespace {

using Json = nlohmann::json;

std::filesystem::path partial_dir(const std::string& dir) { return std::filesystem::path(dir) / "partial"; }

Json row_json(const RunRow& row) {
  return {{"replicate", row.replicate}, {"seed", row.seed},         {"mapper", row.mapper},
          {"values", row.values},       {"map_seconds", row.map_seconds}, {"sim_seconds", row.sim_seconds},
          {"placement", row.placement}, {"links_csv", row.links_csv}, {"network_dot", row.network_dot},
          {"timeline_csv", row.timeline_csv}};
}

RunRow json_row(const Json& j) {
  RunRow row;
  row.replicate = j.at("replicate");
  row.seed = j.at("seed");
  row.mapper = j.at("mapper");
  row.values = j.at("values").get<Values>();
  row.map_seconds = j.at("map_seconds");
  row.sim_seconds = j.at("sim_seconds");
  row.placement = j.at("placement").get<Placement>();
  row.links_csv = j.at("links_csv");
  row.network_dot = j.at("network_dot");
  row.timeline_csv = j.at("timeline_csv");
  return row;
}

}  // namespace

void save_replicate(const std::string& dir, const Scenario& scenario, int replicate, const std::vector<RunRow>& rows,
                    const std::vector<RunFailure>& failures) {
  std::filesystem::create_directories(partial_dir(dir));
  Json j{{"hash", document_hash(scenario.document)}, {"replicate", replicate}, {"rows", Json::array()}, {"failures", Json::array()}};
  for (const RunRow& row : rows) j["rows"].push_back(row_json(row));
  for (const RunFailure& f : failures) j["failures"].push_back({{"mapper", f.mapper}, {"error", f.error}});
  const std::string path = (partial_dir(dir) / ("replicate-" + std::to_string(replicate) + ".json")).string();
  write_file_atomically(path, [&](std::ostream& out) { out << json_text(j) << "\n"; });
}

RunCheckpoint load_checkpoint(const std::string& dir, const Scenario& scenario) {
  RunCheckpoint checkpoint;
  const std::string hash = document_hash(scenario.document);
  for (int r = 0; r < scenario.replicates; ++r) {
    std::ifstream in(partial_dir(dir) / ("replicate-" + std::to_string(r) + ".json"));
    if (!in) continue;
    try {
      const Json j = Json::parse(in);
      if (j.at("hash") != hash || j.at("replicate") != r) continue;  // another scenario's: run again
      std::vector<RunRow> rows;
      std::vector<RunFailure> failures;
      for (const Json& row : j.at("rows")) rows.push_back(json_row(row));
      for (const Json& f : j.at("failures")) failures.push_back({r, f.at("mapper"), f.at("error")});
      for (RunRow& row : rows) checkpoint.rows.push_back(std::move(row));
      checkpoint.failures.insert(checkpoint.failures.end(), failures.begin(), failures.end());
      checkpoint.replicates.insert(r);
    } catch (const Json::exception&) {
      continue;  // damaged: the replicate runs again
    }
  }
  return checkpoint;
}

void remove_checkpoint(const std::string& dir) { std::filesystem::remove_all(partial_dir(dir)); }

}  // namespace mapsim
