#include "topologies/network_factory.h"

#include "topologies/error.h"
#include "topologies/generators.h"
#include "topologies/ibnetdiscover.h"
#include "topologies/network_file.h"
#include "topologies/spec.h"

namespace mapsim {
namespace {

LinkDefaults read_link_keys(Spec& spec, LinkDefaults d) {
  d.link_bandwidth = spec.get_bandwidth("link_bw", d.link_bandwidth);
  d.link_latency = spec.get_time("t_p", d.link_latency);
  d.router_delay = spec.get_time("t_r", d.router_delay);
  d.startup = spec.get_time("t_s", d.startup);
  d.node_bandwidth = spec.get_bandwidth("node_bw", d.node_bandwidth);
  d.node_latency = spec.get_time("node_latency", d.node_latency);
  return d;
}

int get_positive(Spec& spec, const std::string& key, long fallback, long limit = 1L << 24) {
  long value = spec.get_int(key, fallback);
  if (value < 1 || value > limit)
    throw Error("bad spec '" + spec.text() + "': " + key + " must be in 1.." + std::to_string(limit) +
                ", got " + std::to_string(value));
  return static_cast<int>(value);
}

Network build(Spec& spec) {
  const std::string& name = spec.name();
  if (name == "irregular") {
    IrregularParams p;
    p.nodes = get_positive(spec, "nodes", p.nodes);
    p.switches = get_positive(spec, "switches", p.switches);
    p.ports = get_positive(spec, "ports", p.ports, 4096);
    p.connectivity = spec.get_double("connectivity", p.connectivity);
    p.seed = static_cast<uint64_t>(spec.get_int("seed", static_cast<long>(p.seed)));
    p.duplicate_links = spec.get_int("duplicates", 0) != 0;
    p.defaults = read_link_keys(spec, p.defaults);
    return make_irregular(p);
  }
  if (name == "hypercube") {
    if (!spec.has("dim")) throw Error("bad spec '" + spec.text() + "': expected hypercube:dim=N");
    int dim = get_positive(spec, "dim", 1, 20);
    int per = get_positive(spec, "nodes_per_router", 1, 64);
    return make_hypercube(dim, read_link_keys(spec, {}), per);
  }
  if (name == "mesh" || name == "torus") {
    std::vector<int> dims = parse_dims(spec.require_positional("16x16 or 8x8x8"), "spec '" + spec.text() + "'");
    int per = get_positive(spec, "nodes_per_router", 1, 64);
    return make_mesh(dims, name == "torus", read_link_keys(spec, {}), per);
  }
  if (name == "fattree") {
    int k = get_positive(spec, "k", 4, 1024);
    int levels = get_positive(spec, "levels", 3, 16);
    return make_fattree(k, levels, read_link_keys(spec, {}));
  }
  if (name == "tree2") {
    Tree2Params p;
    p.switches = get_positive(spec, "switches", p.switches);
    p.nodes_per_switch = get_positive(spec, "nodes_per_switch", p.nodes_per_switch);
    p.up_bandwidth = spec.get_bandwidth("up_bw", p.up_bandwidth);
    p.down_bandwidth = spec.get_bandwidth("down_bw", p.down_bandwidth);
    p.defaults = read_link_keys(spec, p.defaults);
    return make_tree2(p);
  }
  if (name == "suprenum") {
    int c = get_positive(spec, "c", 4, 4096);
    int d = get_positive(spec, "d", 16, 1 << 20);
    double alpha = spec.get_double("alpha", 5);
    return make_suprenum(c, d, alpha, read_link_keys(spec, {}));
  }
  if (name == "file") return load_network_file(spec.require_positional("PATH"));
  if (name == "ibnet") return load_ibnetdiscover(spec.require_positional("PATH"), LinkDefaults{});
  throw Error("unknown network '" + name + "' in spec '" + spec.text() +
              "': expected irregular, hypercube, mesh, torus, fattree, tree2, suprenum, file:PATH or ibnet:PATH");
}

}  // namespace

Network make_network(const std::string& text) {
  Spec spec = Spec::parse(text, {"file", "ibnet"});
  Network network = build(spec);
  spec.finish();
  return network;
}

std::string network_spec_help() {
  return "  irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=1[,duplicates=1]\n"
         "  hypercube:dim=7          mesh:16x16          torus:8x8x8   [nodes_per_router=1]\n"
         "  fattree:k=4,levels=3     tree2:switches=4,nodes_per_switch=32,up_bw=64Gbps,down_bw=10Gbps\n"
         "  suprenum:c=4,d=16,alpha=5\n"
         "  file:PATH (YAML/JSON network)   ibnet:PATH (ibnetdiscover output)\n"
         "  link keys for all generators: link_bw=10Gbps,t_p=20ns,t_r=300ns,t_s=2us,node_bw=10Gbps,node_latency=0ns\n";
}

}  // namespace mapsim
