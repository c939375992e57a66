"""bench/task_figures.py on the real stiction-sim (ctest bench.task_figures):
two_arm_stack's first 7 s with SAP and PGS. Checks what the figures are made
of: a constraint count per step that matches the solver's own report, the
script's events in the report, the per-solver statistics against the traces
and the e_m check line. Usage: check_task_figures.py STICTION_SIM REPO OUT_DIR"""
import csv
import json
import pathlib
import subprocess
import sys

sim, repo, out = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
scene = repo / "assets/scenes/two_arm_stack.yaml"
done = subprocess.run([sys.executable, str(repo / "bench/task_figures.py"), str(scene), "--solvers", "sap,pgs",
                       "--duration", "7", "--out", str(out), "--name", "t", "--stiction-sim", sim],
                      capture_output=True, text=True, check=True)
print(done.stdout)
for f in ("t_constraints.csv", "t_constraints.png", "t_solvers.csv", "t_solvers.png"):
    assert (out / f).stat().st_size > 0, f

rows = list(csv.DictReader(open(out / "t_constraints.csv")))
assert len(rows) == 700, len(rows)  # 7 s at 10 ms, one row per step.
# The same run again, its report's mean contacts against the table's column.
report = out / "sap.json"
subprocess.run([sim, str(scene), "--solver", "sap", "--duration", "7", "--quiet", "--report", str(report)], check=True)
r = json.loads(report.read_text())
mean = sum(int(x["contacts_sap"]) for x in rows) / len(rows)
assert abs(mean - r["stats"]["mean_contacts"]) < 1e-9, (mean, r["stats"]["mean_contacts"])
# Within 7 s the script passes its first three waits (the left arm's grasp,
# the red cube on the pedestal, the release).
assert [w["entry"] for w in r["script"]["waits_passed"]] == [5, 9, 11], r["script"]["waits_passed"]

solvers = {x["solver"]: x for x in csv.DictReader(open(out / "t_solvers.csv"))}
assert set(solvers) == {"sap", "pgs"}
sap = solvers["sap"]
assert float(sap["e_m_max"]) <= 1e-6 * (1 + 1e-9), sap  # SAP stops at its tolerance, [SAP] Eq. 32.
assert float(sap["e_m_min"]) <= float(sap["e_m_median"]) <= float(sap["e_m_max"])
assert abs(float(sap["mean_iterations"]) - r["stats"]["mean_iterations"]) < 1e-9
assert sap["task_finished"] == "False"  # 7 s: the script has more to do.
assert "runs with max e_m > 10%: 0" in done.stdout, done.stdout
print("check_task_figures: ok")
