// Network generators. Each is deterministic for its parameters (and seed).
// The spec front end ("irregular:nodes=256,...") is in network_factory.h.
#pragma once
#include <cstdint>
#include <vector>

#include "topologies/network.h"

namespace mapsim {

// Random switch-based cluster (moh2001 section 5.1): `switches` switches of `ports` ports, of which
// round(connectivity * ports * switches) are used in all; nodes take one port each and the rest join
// switches, two ports a link. A random spanning tree keeps the switch graph connected; the remaining
// links join random switch pairs with free ports; nodes then take random free ports.
struct IrregularParams {
  int nodes = 256;
  int switches = 75;
  int ports = 8;
  double connectivity = 0.75;
  uint64_t seed = 1;
  bool duplicate_links = false;
  LinkDefaults defaults;
};
Network make_irregular(const IrregularParams& params);

// Direct networks: one router per coordinate, `nodes_per_router` nodes on each.
Network make_hypercube(int dimension, const LinkDefaults& defaults, int nodes_per_router = 1);
Network make_mesh(const std::vector<int>& dims, bool torus, const LinkDefaults& defaults,
                  int nodes_per_router = 1);

// k-ary n-tree: `levels` levels of k^(levels-1) switches with 2k ports, k^levels nodes.
Network make_fattree(int k, int levels, const LinkDefaults& defaults);

// XGFT(h; m_1..m_h; w_1..w_h) (Ohring et al.): h switch levels; a level-i switch has m_i children
// and w_(i+1) parents; w_1 = 1. `nodes` (0: all, the product of m) fills the leaves in order;
// `radix` > 0 sets every switch's port count, else m_i + w_(i+1). Family "xgft".
Network make_xgft(const std::vector<int>& m, const std::vector<int>& w, long nodes, int radix, const LinkDefaults& defaults);
// A folded Clos of radix-port switches for `nodes` nodes: leaves give round(radix * o / (1 + o))
// ports to nodes and the rest up; middle levels split half and half; the top level only goes down.
// `levels` 0 picks the fewest that hold the nodes (levels = 2: leaf-spine).
Network make_folded_clos(long nodes, int radix, int levels, double oversubscription, const LinkDefaults& defaults);

// Dragonfly (Kim et al. 2008): g groups of a routers, p nodes and h global links per router; family
// "dragonfly", shape.dims = {a, p, h, g}. g - 1 must divide a*h (g = a*h + 1: one link per group pair).
Network make_dragonfly(int a, int p, int h, int g, const LinkDefaults& defaults);
// HyperX: routers on a lattice `dims`, all-to-all along each dimension; family "hyperx".
Network make_hyperx(const std::vector<int>& dims, int nodes_per_router, const LinkDefaults& defaults);

// Two-level tree of takizawa2008 (Table 1): end-tier switches S1..Sm with nodes on `down_bw`
// links, each joined to the top switch S0 by an `up_bw` link.
struct Tree2Params {
  int switches = 4;
  int nodes_per_switch = 32;
  double up_bandwidth = 64e9 / 8;
  double down_bandwidth = 10e9 / 8;
  LinkDefaults defaults{10e9 / 8, 20e-9, 420e-9, 2e-6, 10e9 / 8, 20e-9};
};
Network make_tree2(const Tree2Params& params);

// SUPRENUM (Kramer & Muhlenbein section 6): c x c clusters of d processors on a cluster bus; the
// clusters of each row and of each column share a ring. Buses and rings are switches: cluster
// (r, col) is switch r*c+col, row ring r is c*c+r, column ring col is c*c+c+col.
Network make_suprenum(int c, int d, double alpha, const LinkDefaults& defaults);

}  // namespace mapsim
