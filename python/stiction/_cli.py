"""stiction-sweep: a parameter sweep from the shell (docs/python.md, "Sweeps").

    stiction-sweep SCENE --grid KEY=V1,V2,... [--grid ...] [--set KEY=VALUE ...]
                   [--duration S] [--workers N] [--scheduler ADDRESS]
                   [--metric NAME ...] [--csv out.csv] [--quiet]

Exit codes: 0 every run ok; 2 a bad command line; 3 some run failed (its row
says why: `status`, `error`).
"""
import argparse
import sys


def _typed(text):
    """'0.5' -> 0.5, '3' -> 3, 'true' -> True, anything else stays text."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_grid(items):
    """["KEY=V1,V2", ...] -> {KEY: [V1, V2]}; values split on ';' when one is given
    (for YAML lists: --grid 'gravity=[0,0,-9.81];[0,0,-1.62]'), else on ','."""
    grid = {}
    for item in items:
        key, eq, values = item.partition("=")
        if not eq or not key.strip() or not values.strip():
            raise ValueError(f"--grid '{item}': expected KEY=V1,V2,..., e.g. materials.rubber.friction=0.2,0.5")
        parts = values.split(";") if ";" in values else values.split(",")
        grid[key.strip()] = [_typed(v.strip()) for v in parts]
    return grid


def main(argv=None):
    parser = argparse.ArgumentParser(prog="stiction-sweep",
                                     description="Runs every combination of scene values on Dask "
                                                 "(docs/python.md); one row per run.")
    parser.add_argument("scene", help="scene file (.yaml, .urdf, .xml)")
    parser.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                        help="a --set key and its values (repeatable; every combination runs)")
    parser.add_argument("--set", action="append", default=[], dest="overrides", metavar="KEY=VALUE",
                        help="a value for every run (repeatable), as stiction-sim --set")
    parser.add_argument("--duration", type=float, help="simulated time per run [s] (default: the scene's)")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    parser.add_argument("--scheduler", help="a Dask scheduler address instead of local workers")
    parser.add_argument("--metric", action="append", default=[], help="an extra column: a run statistic "
                        "(e.g. max_ncp_residual) or a live parameter key (repeatable)")
    parser.add_argument("--csv", help="write the table to this CSV file")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no table on stdout")
    args = parser.parse_args(argv)
    try:
        grid = parse_grid(args.grid)
        if not grid:
            raise ValueError("--grid: give at least one KEY=V1,V2,...")
        if args.workers < 1:
            raise ValueError(f"--workers: must be >= 1, got {args.workers}")
    except ValueError as e:
        print(f"stiction-sweep: {e}", file=sys.stderr)
        return 2
    from stiction import sweep
    frame = sweep(args.scene, grid, duration=args.duration, metrics=args.metric,
                  client=args.scheduler, n_workers=args.workers, csv=args.csv,
                  progress=not args.quiet, overrides=args.overrides)
    if not args.quiet:
        shown = [c for c in frame.columns if "." not in c or c in grid] if len(frame.columns) > 16 else frame.columns
        print(frame[list(shown)].to_string(index=False))
    failed = frame[frame["status"] != "ok"]
    for _, row in failed.iterrows():
        print(f"stiction-sweep: run {row['run']}: {row['status']}: {row['error']}", file=sys.stderr)
    return 3 if len(failed) else 0


if __name__ == "__main__":
    sys.exit(main())
