"""mapsim.simulate in one Python process against `mapsim simulate` as a process, in turn, on the 256-rank stencil
(irregular:nodes=256,switches=75, mesh:16x16, 100,000-byte exchanges x 20, packet model); prints the medians and
the median of the pair-by-pair ratios (docs/library.md).
    PYTHONPATH=build/python python3 bench/python_vs_cli.py [MAPSIM_BINARY] [PAIRS]"""
import statistics
import subprocess
import sys
import time

import mapsim

binary = sys.argv[1] if len(sys.argv) > 1 else "build/mapsim"
pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
args = dict(process="mesh:16x16", workload="exchange:size=100000,iterations=20", mapper="default", model="packet")
network = "irregular:nodes=256,switches=75"
cmd = [binary, "--no-progress", "simulate", "--topology", network, "--process", args["process"], "--workload",
       args["workload"], "--mapper", args["mapper"], "--model", args["model"], "--json"]
mapsim.simulate(network, **args)  # warm-up
py, cli, ratios = [], [], []
for _ in range(pairs):
    t = time.perf_counter()
    mapsim.simulate(network, **args)
    a = time.perf_counter() - t
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True)
    b = time.perf_counter() - t
    py.append(a), cli.append(b), ratios.append(a / b)
print("mapsim.simulate median %.3f s, CLI median %.3f s, paired ratio median %.3f (min %.3f, max %.3f), %d pairs" % (
    statistics.median(py), statistics.median(cli), statistics.median(ratios), min(ratios), max(ratios), pairs))
