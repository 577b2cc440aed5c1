// A CSV file read whole (RFC 4180, through libcsv): the header and the rows as text.
#pragma once
#include <string>
#include <vector>

namespace mapsim {

struct CsvTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as long as the header

  // Index of a column, or -1.
  int column(const std::string& name) const;
};

// Throws "FILE:LINE: ..." on a malformed file or a row whose length differs from the header's.
CsvTable read_csv(const std::string& path);

}  // namespace mapsim
