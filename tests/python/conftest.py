"""Shared fixtures of the Python tests (tests/CMakeLists.txt runs them as
python.pytest with PYTHONPATH=build/python and STICTION_SIM set)."""
import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent
SCENES = REPO / "assets" / "scenes"
SLIDING_BOX = HERE / "sliding_box.yaml"


def _program(variable, default):
    path = os.environ.get(variable) or str(REPO / "build" / default)
    if not os.access(path, os.X_OK):
        pytest.skip(f"{variable}: {path} is not built")
    return path


@pytest.fixture(scope="session")
def stiction_sim():
    """Path of stiction-sim (env STICTION_SIM, else build/cli/stiction-sim)."""
    return _program("STICTION_SIM", "cli/stiction-sim")


@pytest.fixture(scope="session")
def stiction_sweep():
    """Path of stiction-sweep (env STICTION_SWEEP, else build/python/stiction-sweep)."""
    return _program("STICTION_SWEEP", "python/stiction-sweep")


def run_sim(stiction_sim, scene, out_dir, duration, sets=(), name="r"):
    """Runs stiction-sim quietly; returns its JSON report."""
    report = pathlib.Path(out_dir) / f"{name}.json"
    cmd = [stiction_sim, str(scene), "--duration", repr(duration), "--report", str(report), "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=False, capture_output=True, text=True)
    return json.loads(report.read_text())
