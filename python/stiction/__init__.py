"""Stiction from Python (docs/python.md).

The engine's facade (``Simulation``, ``State``, ``StepStats``,
``InputError``, ``StepError``) comes from the compiled module
``stiction._stiction``; ``sweep`` runs parameter grids on Dask
(``stiction._sweep``); ``Renderer``, ``VideoWriter`` and ``record`` draw
with the viewer's renderer (``stiction._render``, a module of its own).
Dask and OpenGL are loaded on first use, never by ``import stiction``.
"""
from ._display import DisplayError, RenderError
from ._stiction import InputError, Simulation, State, StepError, StepStats

__all__ = ["DisplayError", "InputError", "RenderError", "Simulation", "State", "StepError", "StepStats", "sweep",
           "run", "Renderer", "VideoWriter", "record"]


def __getattr__(name):
    # Renderer, VideoWriter, record: stiction/_render.py on first use.
    if name in ("Renderer", "VideoWriter", "record"):
        from . import _render
        return getattr(_render, name)
    raise AttributeError(f"module 'stiction' has no attribute {name!r}")


def sweep(*args, **kwargs):
    """Runs every combination of a parameter grid on Dask; see stiction._sweep.sweep."""
    from ._sweep import sweep as _sweep
    return _sweep(*args, **kwargs)


def run(*args, **kwargs):
    """One run of a scene, as one row of a sweep; see stiction._sweep.run."""
    from ._sweep import run as _run
    return _run(*args, **kwargs)

