"""Compare mappers on one network: the simulated makespan of a 2-D stencil placed by each, over seeds.

    python3 examples/python/compare_mappers.py [FIGURE.png]
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

import mapsim

network = "fattree:nodes=128,radix=16,levels=2,oversubscription=2"
rows = []
for mapper in ["default", "random", "greedy", "scotch", "best"]:
    for seed in (1, 2, 3):  # a different random half of the machine each time
        s = mapsim.simulate(network, process="mesh:8x8", workload="exchange:size=64KiB,iterations=2", mapper=mapper,
                            allocation="random", model="packet", seed=seed)
        rows.append({"mapper": mapper, "seed": seed, "makespan_us": s.makespan * 1e6})
df = pd.DataFrame(rows)
summary = df.groupby("mapper", sort=False)["makespan_us"].agg(["mean", "min", "max"])
print(summary.round(1).to_string())

ax = summary["mean"].plot.bar(yerr=[summary["mean"] - summary["min"], summary["max"] - summary["mean"]], capsize=4,
                              color="tab:blue", figsize=(6, 3.5), rot=0)
ax.set_ylabel("makespan (us), mean of 3 seeds")
ax.set_xlabel("")
ax.set_title("64-rank stencil on a 2:1 fat tree, packet model", fontsize=10)
ax.set_ylim(bottom=summary["min"].min() * 0.9)  # differences of a few per cent stay visible
plt.tight_layout()
plt.savefig(sys.argv[1] if len(sys.argv) > 1 else "compare_mappers.png", dpi=120)
