"""Stiction from Python (docs/python.md).

The engine's facade (``Simulation``, ``State``, ``StepStats``,
``InputError``, ``StepError``) comes from the compiled module
``stiction._stiction``; ``sweep`` runs parameter grids on Dask
(``stiction._sweep``), imported on first use so that ``import stiction``
does not load Dask.
"""
from ._stiction import InputError, Simulation, State, StepError, StepStats

__all__ = ["InputError", "Simulation", "State", "StepError", "StepStats", "sweep", "run"]


def sweep(*args, **kwargs):
    """Runs every combination of a parameter grid on Dask; see stiction._sweep.sweep."""
    from ._sweep import sweep as _sweep
    return _sweep(*args, **kwargs)


def run(*args, **kwargs):
    """One run of a scene, as one row of a sweep; see stiction._sweep.run."""
    from ._sweep import run as _run
    return _run(*args, **kwargs)

