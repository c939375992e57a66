"""Images and videos of a stiction.Simulation (docs/python.md, "Images and video").

The viewer's own renderer draws the states the simulation computed, in a
hidden window (a private Xvfb when there is no display, see _display.py):

    sim = stiction.Simulation("assets/scenes/grasp_hold.yaml")
    with stiction.Renderer(sim, width=640, height=480) as camera:
        image = camera.render()            # (480, 640, 3) uint8, top row first

    with stiction.VideoWriter(sim, "out.mp4", fps=30) as video:
        while sim.time < 2.0:
            sim.step()
            video.capture()                # writes the frames due by sim.time

    stiction.record("assets/scenes/grasp_hold.yaml", "grasp.mp4", duration=2)

One renderer (or video writer) is open per process at a time.
"""
import math
import sys

import numpy as np

from ._display import DisplayError, RenderError, ensure_display
from ._stiction import InputError, Simulation


def _module():
    ensure_display()
    from . import _glrender as native  # Loads OpenGL only now.
    return native


def _size(size):
    try:
        width, height = (int(x) for x in size)
    except (TypeError, ValueError):
        raise InputError(f"size: expected (width, height) in pixels, got {size!r}") from None
    return width, height


class Renderer:
    """Images of ``sim``'s states, as the viewer draws them.

    ``sim`` is a stiction.Simulation; the renderer loads the same scene (the
    same file or text and ``--set`` overrides) and draws whatever state
    ``sim`` is in when ``render()`` is called. The camera is the scene's
    (its ``camera:`` entry and script); ``set_camera`` and ``track`` change
    it. ``contact_points=True`` draws the viewer's contact glyphs.
    Raises RenderError (no display, no OpenGL 3.3, another renderer open).
    """

    def __init__(self, sim, width=640, height=480, *, contact_points=False):
        if not isinstance(sim, Simulation):
            raise TypeError(f"Renderer: expected a stiction.Simulation, got {type(sim).__name__}")
        native = _module()
        self._sim = sim
        self._native = native.Renderer(sim.scene_source, list(sim.overrides), sim.base_dir,
                                       int(width), int(height), bool(contact_points))

    @property
    def width(self):
        return self._live().width

    @property
    def height(self):
        return self._live().height

    def _live(self):
        if self._native is None:
            raise RenderError("this Renderer is closed")
        return self._native

    def render(self):
        """The simulation's current state as a (height, width, 3) uint8 RGB array, top row first."""
        return self._live().render(self._sim.q, self._sim.v, self._sim.time)

    @property
    def camera(self):
        """The orbit camera: lookat [m], distance [m], azimuth, elevation, fovy [deg], tracked body."""
        return self._live().camera()

    def set_camera(self, lookat=None, distance=None, azimuth=None, elevation=None, fovy=None):
        """Moves the orbit camera (units as in ``camera``); it then stays where it is put, the scene's
        camera script no longer moves it."""
        self._live().set_camera(lookat, distance, azimuth, elevation, fovy)

    def track(self, body):
        """Moves the camera with body ``body`` (a name): from the next render on, the lookat point
        follows the body's displacement, as the viewer's Track. None stops."""
        self._live().track(body or "")

    def close(self):
        """Closes the window (and finishes a video in progress, keeping its frames)."""
        self._native = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class VideoWriter:
    """A video of ``sim`` as your script steps it: frames are due at fixed simulated times
    (frame k of a video started at t0 shows the first state that reaches t0 + k / fps), as
    in the viewer's recordings, so one simulated second is always ``fps`` frames.

    Call ``capture()`` after each step (or each ``step(n)``); it renders only when a
    frame is due. The first frame is the state at construction. ``overlay`` and
    ``caption`` are ``stiction --overlay`` / ``--caption``. H.264 MP4 through ffmpeg (a
    PNG sequence beside ``path`` when ffmpeg is missing, with a warning). ``close()``
    finishes the file; a with block closes it even when the script raises.
    """

    def __init__(self, sim, path, fps=30.0, size=(1280, 720), *, overlay="time,scene", caption="",
                 contact_points=False):
        width, height = _size(size)
        self._sim = sim
        self._renderer = Renderer(sim, width, height, contact_points=contact_points)
        try:
            self._renderer._native.start_video(str(path), float(fps), width, height, overlay, caption,
                                               sim.q, sim.v, sim.time)
        except BaseException:
            self._renderer.close()
            raise
        self.message = ""
        self._path = self._renderer._native.video_path
        self.capture()  # Frame 0: the state now.

    @property
    def renderer(self):
        """The Renderer drawing the frames (its camera, tracking)."""
        return self._renderer

    @property
    def frames(self):
        """Frames written so far."""
        if self._renderer._native is None:
            return self._frames
        return self._renderer._native.frames_written

    @property
    def path(self):
        """The MP4 file (or the PNG sequence's directory without ffmpeg)."""
        return self._path

    def capture(self, max_frames=None):
        """Writes the frames due at the simulation's time (0, 1, or more when one step spans
        several frame times); returns how many. A reset (an earlier time) restarts the frame
        clock there."""
        limit = sys.maxsize if max_frames is None else int(max_frames)
        return self._renderer._live().capture_video(self._sim.q, self._sim.v, self._sim.time, limit)

    def close(self):
        """Finishes the file; returns the viewer's line about it. Raises RenderError when frames were
        lost or ffmpeg failed (the file keeps its complete fragments)."""
        native = self._renderer._native
        if native is None:
            return self.message
        try:
            self.message = native.stop_video()
        finally:
            self._frames = native.frames_written
            self._renderer.close()
        return self.message

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def record(scene, path, *, duration=None, fps=30.0, size=(1280, 720), overrides=(), base_dir=None,
           overlay="time,scene", caption="", progress=None):
    """Simulates ``scene`` (a path or YAML text, with ``--set`` ``overrides``) for ``duration``
    simulated seconds (default: the scene's) and records it to ``path``: the same video as
    ``stiction --headless SCENE --record PATH`` (exactly round(duration x fps) frames, the
    first at t = 0). ``progress``: a bar on stderr (default: when stderr is a terminal).
    Returns a dict: path, frames, duration [s], steps, message. A failed step raises
    StepError after the video is finished with the frames so far."""
    sim = Simulation(scene, list(overrides), base_dir)
    duration = sim.duration if duration is None else float(duration)
    if not math.isfinite(duration) or duration <= 0:
        raise InputError(f"duration: expected a positive number of seconds, got {duration!r}")
    total = round(duration * fps)
    if total < 1:
        raise InputError(f"duration {duration:g} s at {fps:g} fps is less than one frame")
    show = sys.stderr.isatty() if progress is None else bool(progress)
    with VideoWriter(sim, path, fps=fps, size=size, overlay=overlay, caption=caption) as video:
        while video.frames < total:
            sim.step()
            video.capture(total - video.frames)
            if show:
                done = video.frames / total
                bar = "#" * int(30 * done)
                print(f"\r[{bar:<30}] {sim.time:7.3f} / {duration:g} s", end="", file=sys.stderr, flush=True)
        if show:
            print(file=sys.stderr)
        frames = video.frames
    return {"path": video.path, "frames": frames, "duration": frames / fps, "steps": sim.step_index,
            "message": video.message}


__all__ = ["DisplayError", "RenderError", "Renderer", "VideoWriter", "record"]
