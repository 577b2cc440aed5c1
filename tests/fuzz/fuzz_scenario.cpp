// YAML scenario files: parsing and validation (nothing is built or run).
#include "fuzz_input.h"
#include "scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = mapsim::fuzz::input_file(data, size, ".yaml");
  mapsim::fuzz::expect_errors_only([&] { (void)mapsim::load_scenario(path); });
  return 0;
}
