"""mapsim from Python: networks, placements and simulated runs as pandas DataFrames.

    import mapsim
    net = mapsim.network("fattree:nodes=128,radix=16,levels=2")
    m = mapsim.map(net.spec, process="mesh:8x8", mapper="scotch")
    s = mapsim.simulate(net.spec, process="mesh:8x8", mapper="scotch", model="packet")
    df = mapsim.run("configs/example.yaml")
    df = mapsim.read_results("results/example")

Every function raises mapsim.Error with the message the CLI prints for the same input; Ctrl-C raises
KeyboardInterrupt. Values are in SI base units (bytes, seconds, bytes/s); df.attrs["units"] names them.
"""
import csv
import json
import math
import os
import tempfile
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._core import Error  # noqa: F401  (mapsim.Error)
from . import _core

__all__ = ["Error", "network", "map", "simulate", "run", "read_results", "version", "Network", "Mapping", "Simulation"]


def version():
    """mapsim's version, as `mapsim --version` prints it."""
    return _core.version()


@dataclass
class Network:
    """A built and routed network: `nodes`, `switches` and `links` DataFrames (bandwidths in bytes/s,
    latencies in seconds; a link joins switches `a` and `b`), and the routing's `diameter` (switch hops),
    `average_hops` (over ordered pairs of distinct nodes) and `deadlock_free`."""
    spec: str
    routing: str
    nodes: pd.DataFrame
    switches: pd.DataFrame
    links: pd.DataFrame
    diameter: int
    average_hops: float
    deadlock_free: bool

    @property
    def num_nodes(self):
        return len(self.nodes)

    @property
    def num_switches(self):
        return len(self.switches)


@dataclass
class Mapping:
    """A placement: `placement[rank]` is the node index of each rank (numpy array), `metrics` the mapping
    metrics of results.csv by column name, `seconds` the mapper's wall time."""
    mapper: str
    placement: np.ndarray
    metrics: dict
    seconds: float


@dataclass
class Simulation:
    """A simulated run of one placement: `makespan` (s), `rank_times` (DataFrame: rank, finish in s),
    `links` (DataFrame: kind, id, from, to, bandwidth, bytes, messages, busy, utilisation), `values` (the
    sim_ columns of results.csv) and the `mapping` it ran."""
    mapping: Mapping
    model: str
    makespan: float
    rank_times: pd.DataFrame
    links: pd.DataFrame
    values: dict
    events: int
    seconds: float = field(default=0.0)


def network(spec, routing=""):
    """Builds and routes the network `spec` ("fattree:nodes=64,radix=8", "file:net.json",
    "slurm:topology.conf"; docs/topologies.md) with `routing` (empty: the network's own)."""
    d = _core.describe_network(spec, routing)
    return Network(d["spec"], d["routing"], pd.DataFrame(d["nodes"]), pd.DataFrame(d["switches"]),
                   pd.DataFrame(d["links"]), d["diameter"], d["average_hops"], d["deadlock_free"])


def _problem(network, routing, process, workload, trace, allocation, slots, seed):
    return [network, routing or "", process or "", workload or "", trace or "", allocation or "", int(slots or 0), int(seed)]


def _mapping(d):
    return Mapping(d["mapper"], d["placement"], dict(d["metrics"]), d["seconds"])


def map(network, process="", workload="", trace="", mapper="default", routing="", allocation="", slots=0, seed=1):
    """Places a program's ranks on `network` with `mapper`, as `mapsim map` does.

    network     a network spec (see network())
    process     a process graph ("mesh:8x8", "random:tasks=64,edges=200") ...
    workload    ... and the synthetic program on it ("exchange:size=64KiB"; empty: exchange)
    trace       or a recorded trace (TI index or file) instead of process and workload
    mapper      any registered mapper spec ("scotch", "annealing:moves=500", "placement:FILE")
    routing     empty: the network's own
    allocation  the nodes the job gets ("random", "contiguous", {"name": ..} as text); empty: all
    slots       ranks per node (0: 1)
    seed        seed of the run
    Returns a Mapping (placement as a numpy array, metrics as a dict)."""
    return _mapping(_core.map(*_problem(network, routing, process, workload, trace, allocation, slots, seed), mapper))


def simulate(network, process="", workload="", trace="", mapper="default", model="flow", routing="", allocation="",
             slots=0, seed=1):
    """Places the ranks with `mapper` and simulates the run with `model` ("flow", "packet:mtu=2KiB",
    "flit:vcs=4"), as `mapsim simulate` does; other parameters as map(). May be called any number of
    times in one process (each simulation runs in a child process). Returns a Simulation."""
    d = _core.simulate(*_problem(network, routing, process, workload, trace, allocation, slots, seed), mapper, model)
    links = pd.DataFrame(d["links"])
    makespan = d["makespan"]
    links["utilisation"] = links["busy"] / makespan if makespan > 0 else 0.0
    rank_times = pd.DataFrame({"rank": np.arange(len(d["rank_finish"])), "finish": d["rank_finish"]})
    return Simulation(_mapping(d["mapping"]), d["model"], makespan, rank_times, links, dict(d["values"]), d["events"],
                      d["seconds"])


def _rows_frame(rows):
    records = []
    for r in rows:
        record = {"replicate": r["replicate"], "seed": r["seed"]}
        if r["job"]:
            record["job"] = r["job"]
        record["mapper"] = r["mapper"]
        record.update(r["values"])
        record["placement"] = r["placement"]
        records.append(record)
    return pd.DataFrame.from_records(records)


def run(scenario, settings=()):
    """Runs a scenario as `mapsim run` does and returns its results.csv as a DataFrame (one row per
    replicate x mapper, or job), without writing a results folder.

    scenario  a path to a YAML scenario (docs/scenario.md), or the same as a dict (paths in it are
              relative to the working directory)
    settings  "KEY=VALUE" overrides, as --set takes them
    The last column, `placement`, holds each row's placement (a numpy array: rank -> node)."""
    if isinstance(scenario, dict):
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", prefix=".mapsim-", dir=".", delete=False) as f:
            json.dump(scenario, f)  # JSON is YAML
            path = f.name
        try:
            return _rows_frame(_core.run(path, list(settings)))
        finally:
            os.unlink(path)
    return _rows_frame(_core.run(os.fspath(scenario), list(settings)))


def read_results(folder):
    """Reads the results.csv of a `mapsim run` or `mapsim sweep` folder into a DataFrame: one row per
    point x replicate x mapper (x job), numeric columns as numbers, the units of its columns (from
    summary.json) in df.attrs["units"]."""
    folder = os.fspath(folder)
    path = os.path.join(folder, "results.csv")
    if not os.path.isfile(path):
        raise Error(f"{folder}: expected a results folder with results.csv (mapsim run or mapsim sweep)")
    df = pd.read_csv(path, float_precision="round_trip")  # exact: results.csv holds 17 digits
    units = {}
    summary = os.path.join(folder, "summary.json")
    if os.path.isfile(summary):
        with open(summary) as f:
            units = json.load(f).get("units", {}) or {}
    df.attrs["units"] = units
    return df
