// ibnetdiscover output.
#include "fuzz_input.h"
#include "topologies/ibnetdiscover.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = mapsim::fuzz::input_file(data, size, ".ibnet");
  mapsim::fuzz::expect_errors_only([&] { (void)mapsim::load_ibnetdiscover(path, mapsim::LinkDefaults{}); });
  return 0;
}
