"""The Python module against the CLI: the same inputs give the same values, to the last bit."""
import json
import os
import signal
import subprocess
import threading

import numpy as np
import pandas as pd
import pytest

import mapsim

MAPSIM = os.environ.get("MAPSIM_BINARY", "build/mapsim")
NET = "fattree:nodes=32,radix=8,levels=2,oversubscription=2"


def cli(*args):
    out = subprocess.run([MAPSIM, "--no-progress", *args], capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


def cli_json(*args):
    code, stdout, stderr = cli(*args, "--json")
    assert code == 0, stderr
    return json.loads(stdout)


def test_network_matches_topo():
    net = mapsim.network(NET)
    topo = cli_json("topo", NET)
    assert net.num_nodes == 32
    assert len(net.nodes) == topo["nodes"] and len(net.switches) == topo["switches"] and len(net.links) == topo["links"]
    assert net.routing == topo["routing"]
    assert net.diameter == topo["diameter"]
    assert net.average_hops == topo["avg_route_hops"]
    assert net.deadlock_free is True
    assert set(net.links.columns) == {"a", "b", "bandwidth", "latency"}
    assert net.links["a"].dtype.kind == "i" and net.links["bandwidth"].dtype.kind == "f"


def test_map_matches_cli_exactly():
    m = mapsim.map(NET, process="mesh:4x4", mapper="scotch", allocation="random", seed=3)
    expected = cli_json("map", "--topology", NET, "--process", "mesh:4x4", "--mapper", "scotch", "--allocation", "random",
                        "--seed", "3")
    assert isinstance(m.placement, np.ndarray) and m.placement.dtype.kind == "i"
    assert len(m.placement) == 16 and len(set(m.placement.tolist())) == 16
    assert all(0 <= n < 32 for n in m.placement)
    for key, value in m.metrics.items():
        assert expected[key] == value, key
    assert {"hop_bytes", "dilation", "max_link_load", "congestion"} <= set(m.metrics)


def test_simulate_matches_cli_exactly_and_repeats():
    args = dict(process="mesh:4x4", workload="exchange:size=64KiB", mapper="random", model="packet", seed=5)
    first = mapsim.simulate(NET, **args)
    expected = cli_json("simulate", "--topology", NET, "--process", "mesh:4x4", "--workload", "exchange:size=64KiB",
                        "--mapper", "random", "--model", "packet", "--seed", "5")
    assert first.makespan == expected["makespan"]
    assert first.values["sim_messages"] == expected["messages"]
    assert first.events == expected["events"]
    assert len(first.rank_times) == 16 and first.rank_times["finish"].max() == first.makespan
    links = first.links
    assert set(links["kind"]) == {"link", "nic-out", "nic-in"}
    assert links["bytes"].sum() > 0 and (links["utilisation"] <= 1).all()
    # Many simulations in one process: each runs in a child, the same every time.
    for _ in range(3):
        again = mapsim.simulate(NET, **args)
        assert again.makespan == first.makespan
        assert again.links["bytes"].tolist() == links["bytes"].tolist()


def test_run_matches_cli_results_csv(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"network: {NET}\nworkload: {{process: 'mesh:4x4', pattern: 'exchange:size=4KiB'}}\n"
                        "mapping: [default, random, scotch]\nmodel: packet\nreplicates: 2\n")
    df = mapsim.run(scenario)
    code, _, stderr = cli("run", str(scenario), "-o", str(tmp_path / "out"))
    assert code == 0, stderr
    expected = mapsim.read_results(tmp_path / "out")
    assert len(df) == 6 and list(df["mapper"]) == list(expected["mapper"])
    assert all(isinstance(p, np.ndarray) and len(p) == 16 for p in df.pop("placement"))
    for column in df.columns:
        if column in ("replicate", "seed", "mapper"):
            assert list(df[column]) == list(expected[column])
        else:
            # exact, NaN (empty in results.csv: the column does not apply) in the same places
            np.testing.assert_array_equal(df[column].to_numpy(dtype=float), expected[column].to_numpy(dtype=float), err_msg=column)
    assert expected.attrs["units"]["sim_makespan"] == "s"
    # The same scenario as a dict.
    as_dict = mapsim.run({"network": NET, "workload": {"process": "mesh:4x4", "pattern": "exchange:size=4KiB"},
                          "mapping": ["default", "random", "scotch"], "model": "packet", "replicates": 2})
    assert as_dict["sim_makespan"].tolist() == df["sim_makespan"].tolist()


def test_bad_spec_raises_the_cli_message():
    code, _, stderr = cli("map", "--topology", "fattree:nodes=32,radix=banana", "--process", "mesh:4x4")
    assert code == 1
    message = stderr.strip().removeprefix("mapsim: error: ")
    with pytest.raises(mapsim.Error) as raised:
        mapsim.map("fattree:nodes=32,radix=banana", process="mesh:4x4")
    assert str(raised.value) == message
    with pytest.raises(mapsim.Error, match="expected a results folder"):
        mapsim.read_results("/nonexistent")


def test_ctrl_c_raises_keyboard_interrupt():
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        mapsim.simulate("fattree:nodes=512,radix=32,levels=2", process="mesh:16x32",
                        workload="exchange:size=1MiB,iterations=200", model="packet")
    timer.cancel()
    # And the module still works afterwards.
    assert mapsim.map(NET, process="mesh:2x2").placement.size == 4


def test_help_shows_parameters():
    doc = mapsim.map.__doc__
    for word in ("network", "process", "mapper", "allocation", "seed"):
        assert word in doc


def test_read_results_nan_where_not_applicable_and_units(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"network: {NET}\nworkload: {{process: 'mesh:4x4', pattern: 'exchange:size=4KiB'}}\n"
                        "mapping: [random, scotch]\nmodel: packet\n")
    code, _, stderr = cli("run", str(scenario), "-o", str(tmp_path / "run"))
    assert code == 0, stderr
    df = mapsim.read_results(tmp_path / "run")
    # No optical circuits and no distant partners: those columns do not apply, NaN (empty in the CSV), never 0.
    for column in ("sim_circuits", "sim_relative_makespan", "sim_distant_latency_mean"):
        assert df[column].isna().all(), column
    assert (df["sim_makespan"] > 0).all() and df["sim_makespan"].dtype.kind == "f"
    assert df.attrs["units"]["sim_makespan"] == "s" and df.attrs["units"]["hop_bytes"]
    # A sweep folder: one row per point x replicate x mapper, its units recorded too.
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text("scenario: s.yaml\nvary:\n  model.link_bandwidth: [10Gbps, 40Gbps]\n")
    code, _, stderr = cli("sweep", str(sweep), "-o", str(tmp_path / "sweep"))
    assert code == 0, stderr
    swept = mapsim.read_results(tmp_path / "sweep")
    assert len(swept) == 4 and set(swept["mapper"]) == {"random", "scotch"}
    assert swept.attrs["units"]["model.link_bandwidth_si"] == "B/s"
    assert swept.attrs["units"]["sim_makespan"] == "s"
    fast = swept[swept["model.link_bandwidth_si"] == 5e9]["sim_makespan"].to_numpy()
    slow = swept[swept["model.link_bandwidth_si"] == 1.25e9]["sim_makespan"].to_numpy()
    assert (fast <= slow).all()
