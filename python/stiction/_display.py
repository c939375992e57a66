"""An X display for the renderer (docs/python.md, "Images and video").

The viewer's renderer needs an X server even for a hidden window. When
``DISPLAY`` is not set (a server, a container, CI), the first renderer of
the process starts a private ``Xvfb`` (Debian's package ``xvfb``, installed
by ``scripts/setup-deps.sh``) as ``tests/app/run_under_xvfb.sh`` does: it
picks a free display itself (``-displayfd``), and it is stopped when the
process exits. ``STICTION_XVFB=0`` turns this off (then a missing display is
an error).
"""
import atexit
import os
import select
import shutil
import subprocess

_xvfb = None  # The Xvfb this process started, if any.


class RenderError(RuntimeError):
    """No display, no OpenGL 3.3, a second renderer in the process, or a video that could not be written."""


class DisplayError(RenderError):
    """No X display and no way to start one."""


def _stop():
    global _xvfb
    if _xvfb is not None and _xvfb.poll() is None:
        _xvfb.terminate()
        try:
            _xvfb.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _xvfb.kill()
    _xvfb = None


def ensure_display(timeout_s=30.0):
    """Returns the X display the renderer will use, starting Xvfb if there is none."""
    global _xvfb
    if os.environ.get("DISPLAY"):
        return os.environ["DISPLAY"]
    if os.environ.get("STICTION_XVFB", "1") == "0":
        raise DisplayError("no X display: DISPLAY is not set and STICTION_XVFB=0 forbids starting Xvfb")
    program = shutil.which("Xvfb")
    if program is None:
        raise DisplayError("no X display: DISPLAY is not set and Xvfb is not installed "
                           "(install the package xvfb, scripts/setup-deps.sh, or run under a display)")
    read_fd, write_fd = os.pipe()
    try:
        _xvfb = subprocess.Popen(
            [program, "-displayfd", str(write_fd), "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)  # A terminal's Ctrl+C reaches Python, which then stops it.
        os.close(write_fd)
        write_fd = -1
        number = b""
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read_fd], [], [], timeout_s)
            chunk = os.read(read_fd, 16) if ready else b""
            if not chunk:
                _stop()
                raise DisplayError(f"no X display: {program} did not start within {timeout_s:g} s")
            number += chunk
    finally:
        os.close(read_fd)
        if write_fd >= 0:
            os.close(write_fd)
    atexit.register(_stop)
    os.environ["DISPLAY"] = ":" + number.decode().strip()
    return os.environ["DISPLAY"]
