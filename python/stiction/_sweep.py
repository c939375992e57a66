"""Parameter sweeps on Dask distributed (docs/python.md, "Sweeps").

``sweep`` runs every combination of a grid of scene keys, each run in a
fresh process-local ``Simulation`` loaded with the combination as ``--set``
overrides, so that ``stiction-sim SCENE --set KEY=VALUE ... --duration D``
gives the same figures bit for bit. A run that fails (a value the loader
refuses, a failed step) keeps its error in its row; the sweep goes on.
"""
import itertools
import os
import sys
import time

_FIGURES = ("steps", "sim_time_s", "wall_time_s", "mean_iterations", "max_iterations", "mean_contacts",
            "max_penetration_m", "kinetic_energy_J", "potential_energy_J")


def value_text(value):
    """A Python value as the text of a --set assignment (shortest repr for floats)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _is_scene_path(scene):
    text = os.fspath(scene)
    return "\n" not in text and (os.path.isfile(text) or (": " not in text and "{" not in text))


def _metric_columns(sim, metrics):
    row = {}
    stats = None
    for metric in metrics:
        if callable(metric):
            name = getattr(metric, "__name__", "metric")
            value = metric(sim)
            if isinstance(value, dict):
                row.update({f"{name}.{k}" if name != "<lambda>" else str(k): v for k, v in value.items()})
            else:
                row[name] = value
        else:
            if stats is None:
                stats = sim.run_statistics()
            if metric in stats:
                row[metric] = stats[metric]
            elif metric in sim.parameters():
                row[metric] = sim.get(metric)
            else:
                raise ValueError(f"metric '{metric}': not a run statistic ({', '.join(stats)}) nor a live parameter")
    return row


def run(scene, overrides=(), duration=None, metrics=(), base_dir=None, bodies=True):
    """One run: loads `scene` (a path or YAML text) with `overrides` ("KEY=VALUE",
    as --set), steps it for `duration` [s] (default: the scene's) as
    stiction-sim does, and returns its row as a dict: status ("ok",
    "solver_failed", "non_finite", "input_error" or "error"), error ("" when
    ok), steps, sim_time_s, wall_time_s (stepping), mean/max_iterations,
    mean_contacts, max_penetration_m, kinetic/potential_energy_J, every
    body's final position BODY.x, BODY.y, BODY.z [m] (unless bodies=False)
    and the `metrics` (names from Simulation.run_statistics() or live
    parameter keys, or callables f(sim) -> number or dict, evaluated at the
    end). Never raises for a bad run: its error is in the row."""
    from ._stiction import InputError, Simulation, StepError
    row = {"status": "ok", "error": ""}
    sim = None
    try:
        sim = Simulation(os.fspath(scene), list(overrides), base_dir=base_dir)
        n = sim.steps_for(sim.duration if duration is None else float(duration))
        try:
            sim.step(n)
        except StepError as e:
            row["status"], row["error"] = e.status, str(e)
        stats = sim.run_statistics()
        row.update(steps=stats["steps"], sim_time_s=sim.time, wall_time_s=sim.wall_time,
                   mean_iterations=stats["mean_iterations"], max_iterations=stats["max_iterations"],
                   mean_contacts=stats["mean_contacts"], max_penetration_m=stats["max_penetration_m"],
                   kinetic_energy_J=sim.kinetic_energy, potential_energy_J=sim.potential_energy)
        if bodies:
            b = sim.bodies()
            for name, p in zip(b["name"], b["position"]):
                row[f"{name}.x"], row[f"{name}.y"], row[f"{name}.z"] = (float(x) for x in p)
        row.update(_metric_columns(sim, metrics))
    except InputError as e:
        row["status"], row["error"] = "input_error", str(e)
    except Exception as e:  # A user metric's bug, say: the row says so, the sweep goes on.
        row["status"], row["error"] = "error", f"{type(e).__name__}: {e}"
    return row


def combinations(grid):
    """Every combination of `grid` ({key: [values]}), the last key varying fastest."""
    keys = list(grid)
    for key in keys:
        if isinstance(grid[key], (str, bytes)) or not hasattr(grid[key], "__iter__"):
            raise ValueError(f"grid['{key}']: expected a list of values, got {grid[key]!r}")
    return [dict(zip(keys, values)) for values in itertools.product(*(list(grid[k]) for k in keys))]


class _ProgressBar:
    """One line on stderr: redrawn in place on a terminal, else printed at each tenth."""

    def __init__(self, total, enabled, stream=None):
        self.total, self.enabled = total, enabled
        self.stream = stream or sys.stderr
        self.tty = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.monotonic()
        self.done = self.failed = 0
        self.last_tenth = -1

    def update(self, ok):
        self.done += 1
        self.failed += 0 if ok else 1
        if not self.enabled:
            return
        tenth = (10 * self.done) // max(self.total, 1)
        if not self.tty and tenth == self.last_tenth and self.done != self.total:
            return
        self.last_tenth = tenth
        width = 24
        filled = (width * self.done) // max(self.total, 1)
        elapsed = time.monotonic() - self.start
        eta = elapsed / self.done * (self.total - self.done)
        line = (f"[{'#' * filled}{'-' * (width - filled)}] {self.done}/{self.total} runs"
                f"{f'  {self.failed} failed' if self.failed else ''}  {elapsed:.1f} s  ETA {eta:.1f} s")
        self.stream.write(("\r" + line) if self.tty else (line + "\n"))
        if self.tty and self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def _local_client(n_workers, threads_per_worker):
    # The workers are new processes: they import stiction from where this one did.
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.environ.get("PYTHONPATH", "")
    if package_parent not in path.split(os.pathsep):
        os.environ["PYTHONPATH"] = package_parent + (os.pathsep + path if path else "")
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker, processes=True,
                           dashboard_address=None, silence_logs=40)
    return Client(cluster), cluster


def sweep(scene, grid, duration=None, metrics=(), client=None, n_workers=2, threads_per_worker=1,
          csv=None, progress=True, overrides=(), base_dir=None, bodies=True):
    """Runs every combination of `grid` on Dask distributed and returns a
    pandas DataFrame, one row per run in grid order.

    scene: a scene path (.yaml, .urdf, .xml) or YAML text (then `base_dir`,
      default the current directory, resolves its includes and meshes).
    grid: {KEY: [values]}; KEY is any `--set` key (`materials.NAME.friction`,
      `time_step`, `solver.type`, `bodies.box.mass`, ...). Floats are passed
      in their shortest repr, bools as true/false.
    duration: simulated time per run [s] (default: the scene's `duration`).
    metrics: extra columns (see `run`).
    client: None (a LocalCluster of `n_workers` processes with
      `threads_per_worker` threads, closed at the end), a scheduler address
      ("tcp://host:8786") or a distributed.Client. Its workers must import
      stiction (PYTHONPATH).
    csv: a path to write the DataFrame to (no index column).
    progress: a progress bar on stderr.
    overrides: "KEY=VALUE" assignments applied to every run before the grid's.

    Columns: `run` (0-based), the grid keys, `status` ("ok", "solver_failed",
    "non_finite", "input_error", "error"), `error`, then the figures of `run`.
    A failed run keeps its error in its row and never stops the sweep.
    """
    import pandas as pd
    from distributed import as_completed
    combos = combinations(grid)
    scene_arg = os.fspath(scene)
    if _is_scene_path(scene_arg):
        scene_arg = os.path.abspath(scene_arg)
    base = os.path.abspath(base_dir if base_dir is not None else os.getcwd())
    own_cluster = None
    if client is None:
        client, own_cluster = _local_client(n_workers, threads_per_worker)
        owned_client = client
    elif isinstance(client, str):
        from distributed import Client
        client = owned_client = Client(client)
    else:
        owned_client = None
    try:
        futures = []
        for combo in combos:
            assignments = list(overrides) + [f"{k}={value_text(v)}" for k, v in combo.items()]
            futures.append(client.submit(run, scene_arg, assignments, duration, list(metrics), base, bodies,
                                         pure=False))
        index = {f.key: i for i, f in enumerate(futures)}
        rows = [None] * len(futures)
        bar = _ProgressBar(len(futures), progress)
        for future in as_completed(futures):
            i = index[future.key]
            try:
                rows[i] = future.result()
            except Exception as e:  # A worker lost, say: the row says so.
                rows[i] = {"status": "error", "error": f"{type(e).__name__}: {e}"}
            bar.update(rows[i]["status"] == "ok")
    finally:
        if owned_client is not None:
            owned_client.close()
        if own_cluster is not None:
            own_cluster.close()
    table = [{"run": i, **combo, **row} for i, (combo, row) in enumerate(zip(combos, rows))]
    frame = pd.DataFrame(table)
    first = ["run", *grid.keys(), "status", "error", *[f for f in _FIGURES if f in frame.columns]]
    frame = frame[first + [c for c in frame.columns if c not in first]]
    for column in ("steps", "max_iterations"):  # Counts stay integers next to a failed run's NA.
        if column in frame.columns:
            frame[column] = frame[column].astype("Int64")
    if csv is not None:
        frame.to_csv(csv, index=False)
    return frame


__all__ = ["sweep", "run", "combinations", "value_text"]
