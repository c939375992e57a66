"""stiction.sweep on Dask and the stiction-sweep wrapper (docs/python.md,
"Sweeps"): the same figures as stiction-sim runs of the same combinations,
and a failing run kept in its row."""
import csv
import subprocess

import pytest

import stiction
from conftest import SLIDING_BOX, run_sim
from stiction._sweep import value_text

GRID = {"materials.box_surface.friction": [0.2, 0.5, 1.0],
        "time_step": [0.01, 0.005],
        "integrator": ["midpoint", "implicit_euler"]}
DURATION = 0.4


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of 2 worker processes, 1 thread each, for the module."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_sweep_of_12_runs_matches_12_stiction_sim_runs(client, stiction_sim, tmp_path):
    frame = stiction.sweep(SLIDING_BOX, GRID, duration=DURATION, client=client, csv=tmp_path / "sweep.csv",
                           metrics=["max_ncp_residual"], progress=False)
    assert len(frame) == 12 and list(frame["run"]) == list(range(12))
    assert list(frame.columns[:6]) == ["run", *GRID, "status", "error"]
    assert (frame["status"] == "ok").all(), frame["error"].tolist()
    assert frame["box.x"].nunique() == 12  # Every combination differs.
    for _, row in frame.iterrows():
        sets = [f"{k}={value_text(row[k])}" for k in GRID]
        report = run_sim(stiction_sim, SLIDING_BOX, tmp_path, DURATION, sets, name=f"run{row['run']}")
        assert report["steps"] == row["steps"]
        assert report["sim_time_s"] == row["sim_time_s"]
        assert report["stats"]["mean_iterations"] == row["mean_iterations"]
        assert report["stats"]["max_ncp_residual"] == row["max_ncp_residual"]
        for body in report["bodies"]:
            name = body["name"]
            assert body["position"] == [row[f"{name}.x"], row[f"{name}.y"], row[f"{name}.z"]], (sets, name)
    with open(tmp_path / "sweep.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12 and float(rows[5]["box.x"]) == frame["box.x"][5]


def test_a_failing_run_keeps_its_error_and_the_others_finish(client):
    frame = stiction.sweep(SLIDING_BOX, {"materials.box_surface.friction": [0.5, -1, 1.0]}, duration=0.1,
                           client=client, progress=False)
    assert list(frame["status"]) == ["ok", "input_error", "ok"]
    assert frame["error"][0] == "" and frame["error"][2] == ""
    assert frame["error"][1] == ("--set materials.box_surface.friction=-1: materials[0].friction: "
                                 "must be >= 0, got -1")
    assert frame["steps"][0] == frame["steps"][2] == 10


def test_run_reports_a_failed_step_and_a_bad_metric_in_its_row():
    row = stiction.run(SLIDING_BOX, ["solver.max_iterations=1", "solver.max_step_halvings=0",
                                     "solver.relative_tolerance=1e-14", "solver.absolute_tolerance=1e-300"],
                       duration=0.1)
    assert row["status"] == "solver_failed" and row["steps"] == 0
    assert row["error"].startswith("step 1 at t=0: SAP did not converge in 1 iterations")
    row = stiction.run(SLIDING_BOX, ["time_step=0.02"], duration=0.1, metrics=["no_such_figure"])
    assert row["status"] == "error" and "no_such_figure" in row["error"]
    row = stiction.run(SLIDING_BOX, [], duration=0.1, metrics=[lambda sim: {"top": sim.body("cube")["position"][2]}])
    assert row["status"] == "ok" and row["steps"] == 10 and row["top"] < 0.2


def test_stiction_sweep_command_line(stiction_sweep, tmp_path):
    out = tmp_path / "s.csv"
    done = subprocess.run([stiction_sweep, str(SLIDING_BOX), "--grid", "materials.box_surface.friction=0.3,-1",
                           "--grid", "time_step=0.01", "--duration", "0.1", "--workers", "2",
                           "--csv", str(out), "--quiet"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stderr
    assert "stiction-sweep: run 1: input_error: " in done.stderr
    with open(out) as f:
        rows = list(csv.DictReader(f))
    assert [r["status"] for r in rows] == ["ok", "input_error"]
    assert rows[0]["steps"] == "10"
    bad = subprocess.run([stiction_sweep, str(SLIDING_BOX), "--grid", "time_step"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("stiction-sweep: --grid 'time_step': expected KEY=V1,V2")
