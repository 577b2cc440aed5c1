// mapsim._core: the C++ API (include/mapsim/) for Python. mapsim/__init__.py wraps it in DataFrames;
// here only conversions: vectors of numbers become numpy arrays in one copy, records become dicts of
// columns, mapsim::Error becomes mapsim.Error. The GIL is released while mapsim works.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mapsim/mapsim.h>

namespace py = pybind11;

namespace {

template <class T>
py::array_t<T> array(const std::vector<T>& values) {
  py::array_t<T> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// A column of a table of records, as a numpy array (numbers) or a list (text).
template <class Row, class Field>
py::object column(const std::vector<Row>& rows, Field field) {
  using T = std::decay_t<decltype(rows.front().*field)>;
  if constexpr (std::is_arithmetic_v<T>) {
    std::vector<T> values;
    values.reserve(rows.size());
    for (const Row& r : rows) values.push_back(r.*field);
    return array(values);
  } else {
    py::list values;
    for (const Row& r : rows) values.append(r.*field);
    return std::move(values);
  }
}

py::dict values_dict(const mapsim::Values& values) {
  py::dict d;
  for (const auto& [name, value] : values) d[py::str(name)] = value;
  return d;
}

py::dict mapping_dict(const mapsim::Mapping& m) {
  py::dict d;
  d["mapper"] = m.mapper;
  d["placement"] = array(m.placement);
  d["metrics"] = values_dict(m.metrics);
  d["seconds"] = m.seconds;
  return d;
}

mapsim::Problem problem(const std::string& network, const std::string& routing, const std::string& process,
                        const std::string& workload, const std::string& trace, const std::string& allocation, int slots,
                        std::uint64_t seed) {
  return {network, routing, process, workload, trace, allocation, slots, seed};
}

// Runs f without the GIL; a Ctrl-C that stopped it is raised as KeyboardInterrupt.
template <class F>
auto unlocked(F&& f) -> decltype(f()) {
  try {
    py::gil_scoped_release release;
    return f();
  } catch (const mapsim::Error&) {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    throw;
  }
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "mapsim's C++ library; use the mapsim package, which returns DataFrames";
  py::register_exception<mapsim::Error>(m, "Error", PyExc_RuntimeError);
  m.def("version", &mapsim::version);

  m.def("describe_network", [](const std::string& spec, const std::string& routing) {
    const mapsim::NetworkDescription d = unlocked([&] { return mapsim::describe_network(spec, routing); });
    py::dict out, nodes, switches, links;
    nodes["name"] = column(d.nodes, &mapsim::NetworkNode::name);
    nodes["switch"] = column(d.nodes, &mapsim::NetworkNode::switch_id);
    nodes["bandwidth"] = column(d.nodes, &mapsim::NetworkNode::bandwidth);
    nodes["latency"] = column(d.nodes, &mapsim::NetworkNode::latency);
    switches["name"] = column(d.switches, &mapsim::NetworkSwitch::name);
    switches["ports"] = column(d.switches, &mapsim::NetworkSwitch::ports);
    switches["router_delay"] = column(d.switches, &mapsim::NetworkSwitch::router_delay);
    links["a"] = column(d.links, &mapsim::NetworkLink::a);
    links["b"] = column(d.links, &mapsim::NetworkLink::b);
    links["bandwidth"] = column(d.links, &mapsim::NetworkLink::bandwidth);
    links["latency"] = column(d.links, &mapsim::NetworkLink::latency);
    out["spec"] = d.spec;
    out["routing"] = d.routing;
    out["nodes"] = nodes;
    out["switches"] = switches;
    out["links"] = links;
    out["diameter"] = d.diameter;
    out["average_hops"] = d.average_hops;
    out["deadlock_free"] = d.deadlock_free;
    return out;
  });

  m.def("map", [](const std::string& network, const std::string& routing, const std::string& process,
                  const std::string& workload, const std::string& trace, const std::string& allocation, int slots,
                  std::uint64_t seed, const std::string& mapper) {
    const mapsim::Problem p = problem(network, routing, process, workload, trace, allocation, slots, seed);
    return mapping_dict(unlocked([&] { return mapsim::map(p, mapper); }));
  });

  m.def("simulate", [](const std::string& network, const std::string& routing, const std::string& process,
                       const std::string& workload, const std::string& trace, const std::string& allocation, int slots,
                       std::uint64_t seed, const std::string& mapper, const std::string& model) {
    const mapsim::Problem p = problem(network, routing, process, workload, trace, allocation, slots, seed);
    const mapsim::Simulation s = unlocked([&] { return mapsim::simulate(p, mapper, model); });
    py::dict out, links;
    out["mapping"] = mapping_dict(s.mapping);
    out["model"] = s.model;
    out["makespan"] = s.makespan;
    out["rank_finish"] = array(s.rank_finish);
    out["values"] = values_dict(s.values);
    out["events"] = s.events;
    out["seconds"] = s.seconds;
    links["kind"] = column(s.links, &mapsim::LinkLoad::kind);
    links["id"] = column(s.links, &mapsim::LinkLoad::id);
    links["from"] = column(s.links, &mapsim::LinkLoad::from);
    links["to"] = column(s.links, &mapsim::LinkLoad::to);
    links["bandwidth"] = column(s.links, &mapsim::LinkLoad::bandwidth);
    links["bytes"] = column(s.links, &mapsim::LinkLoad::bytes);
    links["messages"] = column(s.links, &mapsim::LinkLoad::messages);
    links["busy"] = column(s.links, &mapsim::LinkLoad::busy);
    out["links"] = links;
    return out;
  });

  m.def("run", [](const std::string& scenario, const std::vector<std::string>& settings) {
    const std::vector<mapsim::ResultRow> rows = unlocked([&] { return mapsim::run(scenario, settings); });
    py::list out;
    for (const mapsim::ResultRow& r : rows) {
      py::dict row;
      row["replicate"] = r.replicate;
      row["seed"] = r.seed;
      row["job"] = r.job;
      row["mapper"] = r.mapper;
      row["values"] = values_dict(r.values);
      row["placement"] = array(r.placement);
      row["map_seconds"] = r.map_seconds;
      row["sim_seconds"] = r.sim_seconds;
      out.append(row);
    }
    return out;
  });
}
