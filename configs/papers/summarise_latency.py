#!/usr/bin/env python3
"""Mean latency per case, mesh and mapper from moh-latency.sh's CSV, and the cut vs random mapping."""
import collections
import csv
import sys

MAPPERS = ["random", "switch", "binary", "adjacency"]
acc = collections.defaultdict(list)
for row in csv.DictReader(open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin):
    acc[(row["case"], row["mesh"], row["mapper"])].append(float(row["avg_latency"]))
print("case   mesh   " + "".join(f"{m:>11}" for m in MAPPERS) + "   cut vs RM: SM / BM / AM")
for case, label in [("0", "(i)"), ("0.1", "(ii)"), ("0.2", "(iii)")]:
    for mesh in ["4x4", "8x8", "12x12", "16x16"]:
        if not acc[(case, mesh, "random")]:
            continue
        mean = {m: sum(acc[(case, mesh, m)]) / len(acc[(case, mesh, m)]) for m in MAPPERS}
        cut = " / ".join(f"{100 * (1 - mean[m] / mean['random']):3.0f}%" for m in MAPPERS[1:])
        print(f"{label:6} {mesh:6} " + "".join(f"{mean[m] * 1e6:9.3f}us" for m in MAPPERS) + f"   {cut}")
