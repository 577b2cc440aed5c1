"""Load a traced run (a TI trace index) and find the links that carry the most bytes under a placement.

    python3 examples/python/busiest_links.py TRACE_INDEX [FIGURE.png]
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

import mapsim

trace = sys.argv[1]
network = "torus:4x4x4"
s = mapsim.simulate(network, trace=trace, mapper="scotch", model="packet")
links = s.links[s.links["kind"] == "link"].copy()
links["link"] = links["from"] + " -> " + links["to"]
top = links.nlargest(10, "bytes")
print(f"makespan {s.makespan * 1e6:.1f} us on {network}; the ten busiest links:")
print(top[["link", "bytes", "utilisation"]].to_string(index=False))

fig, ax = plt.subplots(figsize=(6, 3.5))
ax.barh(top["link"][::-1], top["bytes"][::-1] / 2**20, color="tab:red")
ax.set_xlabel("MiB carried")
ax.set_title(f"busiest links, {network}, scotch placement", fontsize=10)
plt.tight_layout()
plt.savefig(sys.argv[2] if len(sys.argv) > 2 else "busiest_links.png", dpi=120)
