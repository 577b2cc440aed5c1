"""Sweep the link bandwidth and plot the makespan with 95 % confidence intervals over replicates.

    python3 examples/python/sweep_bandwidth.py [FIGURE.png]
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

import mapsim

frames = []
for gbps in (25, 50, 100, 200):  # switch-to-switch links; the nodes' own links stay at 100 Gbit/s
    df = mapsim.run({"network": f"fattree:nodes=64,radix=16,levels=2,oversubscription=2,node_bandwidth=100Gbps,link_bandwidth={gbps}Gbps",
                     "workload": {"process": "random:tasks=32,edges=96", "pattern": "exchange:size=256KiB"},
                     "mapping": ["random", "scotch"], "allocation": "random", "model": "flow", "replicates": 5})
    df["link_gbps"] = gbps
    frames.append(df)
df = pd.concat(frames)
g = df.groupby(["mapper", "link_gbps"])["sim_makespan"]
table = pd.DataFrame({"mean": g.mean(), "sd": g.std(), "n": g.count()})
table["ci95"] = 2.776 * table["sd"] / table["n"] ** 0.5  # t(0.975, 4 degrees of freedom)
print((table[["mean", "ci95"]] * 1e3).round(4).to_string())

fig, ax = plt.subplots(figsize=(6, 3.5))
for mapper, t in table.groupby(level=0):
    t = t.droplevel(0)
    ax.errorbar(t.index, t["mean"] * 1e3, yerr=t["ci95"] * 1e3, marker="o", capsize=4, label=mapper)
ax.set_xscale("log")
ax.minorticks_off()
ax.set_xticks([25, 50, 100, 200], labels=["25", "50", "100", "200"])
ax.set_xlabel("switch-to-switch link bandwidth (Gbit/s); nodes at 100")
ax.set_ylabel("makespan (ms), mean +- 95 % CI")
ax.set_title("32 ranks on a random half of a 2:1 leaf-spine, flow model", fontsize=10)
ax.legend()
plt.tight_layout()
plt.savefig(sys.argv[1] if len(sys.argv) > 1 else "sweep_bandwidth.png", dpi=120)
