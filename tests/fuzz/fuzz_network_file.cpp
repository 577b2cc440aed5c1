// YAML/JSON network files (docs/network-file.md).
#include "fuzz_input.h"
#include "topologies/network_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = mapsim::fuzz::input_file(data, size, ".net.yaml");
  mapsim::fuzz::expect_errors_only([&] { (void)mapsim::load_network_file(path); });
  return 0;
}
