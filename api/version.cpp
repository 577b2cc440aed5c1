#include <mapsim/mapsim.h>

namespace mapsim {

const char* version() { return MAPSIM_VERSION; }

}  // namespace mapsim
