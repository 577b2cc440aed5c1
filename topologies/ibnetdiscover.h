// Reads the text topology that InfiniBand's `ibnetdiscover` prints: switches (and routers) become
// switches with their port counts, channel adapters (HCAs) become compute nodes, port-to-port
// links become links with the bandwidth of their active width and speed (e.g. 4xQDR = 32 Gbps).
#pragma once
#include <string>

#include "topologies/network.h"

namespace mapsim {

// With `lft_path`, also reads the fabric's linear forwarding tables (ibroute / dump_lfts.sh output)
// into Network::forwarding, which the `lft` routing follows.
Network load_ibnetdiscover(const std::string& path, const LinkDefaults& defaults, const std::string& lft_path = "");

// Data rate of a link such as "4xQDR" in bytes/s; 0 if the text is not a width x speed.
double infiniband_rate(const std::string& width_speed);

}  // namespace mapsim
