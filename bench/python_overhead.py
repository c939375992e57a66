#!/usr/bin/python3
"""What stepping from Python costs (docs/python.md, "Overhead").

Steps a scene from Python one step per call (sim.step() in a Python loop)
and compares the wall time of that loop with stiction-sim's stepping loop
(its report's wall_time_s) for the same steps; loading is left out of both.
Each side runs --repeats times, alternating, and the fastest run counts.
Then (unless --no-sweep) the 12-run sweep of tests/python/test_sweep.py on
a LocalCluster of 1 and of 2 worker processes.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [--build build]
        [--scene assets/scenes/clutter.yaml] [--duration S] [--repeats N]
        [--sweep-scene SCENE --sweep-material NAME] [--sweep-duration S] [--no-sweep]
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[1]


def sweep_grid(material):
    """The 12 combinations of tests/python/test_sweep.py, on `material`'s friction."""
    return {f"materials.{material}.friction": [0.2, 0.5, 1.0],
            "time_step": [0.01, 0.005],
            "integrator": ["midpoint", "implicit_euler"]}


def stiction_sim_run(sim_path, scene, duration, out_dir):
    report = pathlib.Path(out_dir) / "r.json"
    subprocess.run([sim_path, str(scene), "--duration", repr(duration), "--report", str(report), "--quiet"],
                   check=True)
    return json.loads(report.read_text())


def python_run(stiction, scene, duration):
    sim = stiction.Simulation(str(scene))
    n = sim.steps_for(duration)
    step = sim.step
    start = time.perf_counter()
    for _ in range(n):
        step()
    wall = time.perf_counter() - start
    return wall, sim


def python_batch_run(stiction, scene, duration):
    sim = stiction.Simulation(str(scene))
    n = sim.steps_for(duration)
    start = time.perf_counter()
    sim.step(n)
    return time.perf_counter() - start


def binding_cost(stiction, scene, steps=20000, repeats=3):
    """The cost of one sim.step() call beyond the step itself [s]: a light
    scene stepped one step per call and in one call, fastest of each."""
    per_call, batch = [], []
    for _ in range(repeats):
        sim = stiction.Simulation(str(scene))
        step = sim.step
        start = time.perf_counter()
        for _ in range(steps):
            step()
        per_call.append(time.perf_counter() - start)
        sim = stiction.Simulation(str(scene))
        start = time.perf_counter()
        sim.step(steps)
        batch.append(time.perf_counter() - start)
    return (min(per_call) - min(batch)) / steps, min(batch) / steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=str(REPO / "build"))
    parser.add_argument("--scene", default=str(REPO / "assets/scenes/clutter.yaml"))
    parser.add_argument("--duration", type=float, default=None, help="[s]; default: the scene's")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sweep-scene", default=str(REPO / "tests/python/sliding_box.yaml"))
    parser.add_argument("--sweep-material", default="box_surface", help="the material whose friction is swept")
    parser.add_argument("--sweep-duration", type=float, default=0.4, help="[s] per run")
    parser.add_argument("--no-sweep", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(pathlib.Path(args.build) / "python"))
    import stiction
    sim_path = str(pathlib.Path(args.build) / "cli" / "stiction-sim")
    duration = args.duration if args.duration is not None else stiction.Simulation(args.scene).duration

    cli_walls, py_walls, batch_walls = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeats):
            report = stiction_sim_run(sim_path, args.scene, duration, tmp)
            cli_walls.append(report["wall_time_s"])
            wall, sim = python_run(stiction, args.scene, duration)
            py_walls.append(wall)
            batch_walls.append(python_batch_run(stiction, args.scene, duration))
    same = [b["position"] for b in report["bodies"]] == sim.bodies()["position"].tolist()
    cli, py, batch = min(cli_walls), min(py_walls), min(batch_walls)
    steps = report["steps"]
    print(f"scene {args.scene}, {steps} steps ({duration} s), fastest of {args.repeats}:")
    print(f"  stiction-sim stepping loop:     {cli:.3f} s  ({1e6 * cli / steps:.1f} us/step)")
    print(f"  Python, one sim.step() per call: {py:.3f} s  ({1e6 * py / steps:.1f} us/step)")
    print(f"  Python, one sim.step(n) call:    {batch:.3f} s  ({1e6 * batch / steps:.1f} us/step)")
    print(f"  overhead: {100 * (py - cli) / cli:+.1f} %  ({1e6 * (py - cli) / steps:+.1f} us/step); "
          f"final body positions bit-identical: {same}")
    cost, light = binding_cost(stiction, REPO / "tests/python/sliding_box.yaml")
    print(f"  binding cost of one sim.step() call: {1e6 * cost:.2f} us (sliding_box.yaml, {1e6 * light:.1f} us/step "
          f"in one call), {100 * cost * steps / cli:.2f} % of this scene's steps")
    print(f"  load average during the run: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.no_sweep:
        return 0
    for workers in (1, 2):
        start = time.perf_counter()
        frame = stiction.sweep(args.sweep_scene, sweep_grid(args.sweep_material), duration=args.sweep_duration, n_workers=workers,
                               progress=False)
        wall = time.perf_counter() - start
        print(f"sweep of {len(frame)} runs ({args.sweep_duration} s each, {os.path.basename(args.sweep_scene)}) "
              f"on {workers} worker process{'es' if workers > 1 else ''}: {wall:.2f} s wall "
              f"(cluster start and stop included; stepping {frame['wall_time_s'].sum():.3f} s in all), "
              f"{(frame['status'] == 'ok').sum()} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
