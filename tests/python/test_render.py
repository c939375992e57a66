"""stiction.Renderer, VideoWriter and record: the viewer's renderer in a
hidden window (a private Xvfb when DISPLAY is not set), checked against the
viewer itself (docs/python.md, "Images and video")."""
import os
import subprocess
import sys

import numpy as np
import pytest

import stiction
from conftest import SLIDING_BOX

# q of the sliding box scene: per free body quaternion w, x, y, z, then
# position; the box first, then the cube.
BOX_X, BOX_Z = 4, 6


def _decode(path, width, height):
    """The frames of a video as (n, height, width, 3) uint8, through the real ffmpeg."""
    raw = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24",
                          "-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3)


def _moved(sim, x, z):
    q = sim.q.copy()
    q[BOX_X], q[BOX_Z] = x, z
    sim.set_state(q, np.zeros_like(sim.v))


def _box_pixels(image, background):
    """Row and column centroid of the pixels where `image` differs from `background`."""
    rows, cols = np.nonzero(np.abs(image.astype(int) - background.astype(int)).sum(axis=2) > 30)
    assert rows.size > 20, "the box is not in the image"
    return rows.mean(), cols.mean()


def test_render_returns_the_state_top_row_first():
    sim = stiction.Simulation(SLIDING_BOX)
    with stiction.Renderer(sim, 160, 120) as camera:
        # A side view, level with the point looked at (z = 0.3 m), x to the right.
        camera.set_camera(lookat=(0, 0, 0.3), distance=2.0, azimuth=90, elevation=0)
        image = camera.render()
        assert image.shape == (120, 160, 3) and image.dtype == np.uint8
        assert np.array_equal(image, camera.render())  # The same state draws the same pixels.
        _moved(sim, 50.0, 0.05)  # Out of view: the background.
        background = camera.render()
        _moved(sim, 0.3, 0.6)
        high_right = _box_pixels(camera.render(), background)
        _moved(sim, -0.3, 0.05)
        low_left = _box_pixels(camera.render(), background)
    # Top row first: the higher box is nearer the top of the array.
    assert high_right[0] < 60 < low_left[0]
    assert low_left[1] < 80 < high_right[1]


def test_a_text_scene_renders_as_its_file():
    images = []
    for scene in (SLIDING_BOX, SLIDING_BOX.read_text()):
        sim = stiction.Simulation(scene, base_dir=SLIDING_BOX.parent)
        sim.step(10)
        with stiction.Renderer(sim, 64, 48) as camera:
            images.append(camera.render())
    assert np.array_equal(images[0], images[1])


def test_camera_tracking_and_bad_values():
    sim = stiction.Simulation(SLIDING_BOX)
    with stiction.Renderer(sim, 64, 48) as camera:
        before = camera.camera
        camera.set_camera(distance=1.25, azimuth=30)
        after = camera.camera
        assert after["distance"] == 1.25 and after["azimuth"] == 30 and after["lookat"] == before["lookat"]
        # Tracking moves the camera with the box: the lookat point by the box's displacement.
        camera.track("box")
        camera.render()
        x0, lookat0 = sim.body("box")["position"], np.array(camera.camera["lookat"])
        sim.step(20)
        camera.render()
        assert camera.camera["track"] == "box"
        moved = sim.body("box")["position"] - x0
        assert np.linalg.norm(moved) > 0.1
        np.testing.assert_allclose(np.array(camera.camera["lookat"]) - lookat0, moved, atol=1e-6)
        with pytest.raises(stiction.InputError, match=r"track: no body 'lid' \(bodies: box, cube\)"):
            camera.track("lid")
        with pytest.raises(stiction.InputError, match=r"camera elevation: expected a number in \[-90"):
            camera.set_camera(elevation=120)
        with pytest.raises(stiction.RenderError, match="another stiction.Renderer or VideoWriter is open"):
            stiction.Renderer(sim)
    with pytest.raises(stiction.RenderError, match="this Renderer is closed"):
        camera.render()
    with pytest.raises(stiction.InputError, match="Renderer size: expected 16 <= width, height <= 16384 pixels, "
                                                  "got 8x8"):
        stiction.Renderer(sim, 8, 8)


def test_record_makes_the_viewers_headless_video(tmp_path):
    # The same scene, duration, rate and size through stiction.record and
    # through `stiction --headless --record`: the same frames, bit for bit
    # (the same states, drawn by the same renderer, encoded alike).
    viewer = os.environ.get("STICTION_VIEWER") or str(SLIDING_BOX.parents[2] / "build" / "app" / "stiction")
    result = stiction.record(SLIDING_BOX, tmp_path / "python.mp4", duration=0.5, fps=30, size=(160, 120))
    assert result["frames"] == 15 and result["path"] == str(tmp_path / "python.mp4")
    assert "video saved" in result["message"]
    # The display the renderer used (a private Xvfb when there was none).
    subprocess.run([viewer, "--headless", str(SLIDING_BOX), "--record", str(tmp_path / "viewer.mp4"), "--duration",
                    "0.5", "--size", "160x120", "--no-settings"], check=True, capture_output=True)
    ours, theirs = _decode(tmp_path / "python.mp4", 160, 120), _decode(tmp_path / "viewer.mp4", 160, 120)
    assert ours.shape == theirs.shape == (15, 120, 160, 3)
    assert np.array_equal(ours, theirs)
    assert np.abs(ours[0].astype(int) - ours[-1].astype(int)).mean() > 1  # The box moved.


def test_video_writer_follows_the_script_and_its_resets(tmp_path):
    sim = stiction.Simulation(SLIDING_BOX)
    with stiction.VideoWriter(sim, tmp_path / "v.mp4", fps=20, size=(64, 48), overlay="none") as video:
        assert video.frames == 1  # The state at the start.
        sim.step(10)  # 0.1 s: frames at 0.05 and 0.1 s.
        assert video.capture() == 2
        sim.step(30)  # One capture for 0.3 s: six frames of the one state there.
        assert video.capture() == 6
        sim.reset()   # Back to t = 0: the video goes on from there at once.
        assert video.capture() == 1
        assert video.capture() == 0
    assert video.frames == 10
    assert _decode(tmp_path / "v.mp4", 64, 48).shape[0] == 10


def test_a_video_that_cannot_be_written_says_where(tmp_path):
    sim = stiction.Simulation(SLIDING_BOX)
    with pytest.raises(stiction.RenderError, match=str(tmp_path / "missing" / "v.mp4")):
        stiction.VideoWriter(sim, tmp_path / "missing" / "v.mp4", size=(64, 48))
    with pytest.raises(stiction.InputError, match="fps: expected a number in"):
        stiction.VideoWriter(sim, tmp_path / "v.mp4", fps=0, size=(64, 48))
    with pytest.raises(stiction.InputError, match="overlay: "):
        stiction.VideoWriter(sim, tmp_path / "v.mp4", size=(64, 48), overlay="clock")
    # Each failure closed its window: a renderer opens again.
    with stiction.Renderer(sim, 32, 32) as camera:
        assert camera.render().shape == (32, 32, 3)


@pytest.mark.parametrize("display, message", [
    ("", "no X display: DISPLAY is not set and STICTION_XVFB=0 forbids starting Xvfb"),
    (":4242", "cannot open a window"),
])
def test_no_display_is_a_clear_error(display, message):
    code = ("import stiction, sys\n"
            f"sim = stiction.Simulation({str(SLIDING_BOX)!r})\n"
            "try:\n"
            "    stiction.Renderer(sim)\n"
            "except stiction.RenderError as e:\n"
            "    print(type(e).__name__, e)\n")
    env = dict(os.environ, DISPLAY=display, STICTION_XVFB="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert message in out
