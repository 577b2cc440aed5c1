"""examples/python/: each script runs and draws its figure (a PNG that matplotlib wrote)."""
import os
import subprocess
import sys

import pytest

import mapsim

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "python")
MAPSIM = os.path.abspath(os.environ.get("MAPSIM_BINARY", "build/mapsim"))
pytest.importorskip("matplotlib")


def run_example(name, *args, cwd):
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *args], capture_output=True, text=True, cwd=cwd,
                         env=dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(mapsim.__file__))))
    assert out.returncode == 0, out.stderr
    return out.stdout


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_compare_mappers(tmp_path):
    out = run_example("compare_mappers.py", str(tmp_path / "m.png"), cwd=tmp_path)
    assert is_png(tmp_path / "m.png")
    assert "scotch" in out and "best" in out


def test_sweep_bandwidth(tmp_path):
    out = run_example("sweep_bandwidth.py", str(tmp_path / "s.png"), cwd=tmp_path)
    assert is_png(tmp_path / "s.png")
    assert "ci95" in out


def test_busiest_links(tmp_path):
    trace = tmp_path / "trace"
    made = subprocess.run([MAPSIM, "--no-progress", "simulate", "--topology", "torus:4x4x4", "--process", "mesh:8x8",
                           "--workload", "exchange:size=64KiB", "--write-trace", str(trace)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    out = run_example("busiest_links.py", str(trace / "index.txt"), str(tmp_path / "b.png"), cwd=tmp_path)
    assert is_png(tmp_path / "b.png")
    assert "ten busiest links" in out and " -> " in out
