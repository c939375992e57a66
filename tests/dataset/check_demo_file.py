#!/usr/bin/python3
"""Reads a dataset written by stiction-sim with h5py (Debian's python3-h5py),
as robomimic's and robosuite's code would, and checks its layout, shapes and
attributes (issue 39, item 4; docs/datasets.md).

It also runs docs/datasets.md's Python snippet, as written there, on the
same file (with matplotlib's Agg backend).

Usage: check_demo_file.py STICTION_SIM SCENE_DIR SCRATCH_DIR DATASETS_MD
"""
import json
import os
import subprocess
import sys

import h5py
import numpy as np


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def main():
    sim, scenes, scratch, doc = sys.argv[1:5]
    os.makedirs(scratch, exist_ok=True)
    path = os.path.join(scratch, "demos.hdf5")
    if os.path.exists(path):
        os.remove(path)
    # The first marked by hand; the second by default, from its script,
    # which has not finished after 0.5 s: a failure.
    runs = [("iiwa_pick_place.yaml", "1", ["--outcome", "success"]), ("two_arm_stack.yaml", "0.5", [])]
    for scene, duration, extra in runs:
        subprocess.run([sim, os.path.join(scenes, scene), "--duration", duration, "--quiet", "--dataset", path] + extra,
                       check=True)

    with h5py.File(path, "r") as f:
        expect(f.attrs["format"] == "stiction-demos-1", "root attribute format")
        expect(isinstance(f.attrs["stiction_version"], str), "root attribute stiction_version")
        data = f["data"]
        expect(sorted(data.keys()) == ["demo_0", "demo_1"], "demo groups: %s" % list(data.keys()))
        expect(int(data.attrs["total"]) == 100 + 50, "data.attrs['total'] = %s" % data.attrs["total"])
        env = json.loads(data.attrs["env_args"])
        expect(env["env_name"] == "iiwa_pick_place" and "scene" in env["env_kwargs"], "env_args: %s" % env)

        demo = data["demo_0"]
        n = int(demo.attrs["num_samples"])
        expect(n == 100, "num_samples %d" % n)
        nq, nv = int(demo.attrs["nq"]), int(demo.attrs["nv"])
        expect(demo["states"].shape == (n, 1 + nq + nv) and demo["states"].dtype == np.float64, "states shape")
        expect(demo["actions"].shape == (n, 7), "actions shape %s" % (demo["actions"].shape,))
        expect(demo["action_rates"].shape == (n, 5), "action_rates shape")
        expect(demo["rewards"].shape == (n,) and demo["dones"].shape == (n,), "rewards/dones shape")
        expect(demo["dones"][-1] == 1 and demo["dones"][:-1].sum() == 0, "dones: 1 at the last step only")
        expect(demo["rewards"][-1] == 1 and int(demo.attrs["success"]) == 1, "a success is rewarded at its end")
        with open(os.path.join(scenes, "iiwa_pick_place.yaml"), encoding="utf-8") as scene_file:
            expect(demo.attrs["model_file"] == scene_file.read(), "model_file holds the scene's text")
        expect(list(demo.attrs["grippers"]) == ["gripper"], "grippers: %s" % list(demo.attrs["grippers"]))
        expect(len(demo.attrs["action_layout"]) == 7, "action_layout names the 7 columns")
        states = demo["states"][()]
        expect(np.allclose(states[:, 0], np.arange(n) * float(demo.attrs["time_step"])), "states[:, 0] is t")
        obs = demo["obs"]
        for key, cols in [("robot0_eef_pos", 3), ("robot0_eef_quat", 4), ("robot0_gripper_qpos", 2)]:
            expect(obs[key].shape == (n, cols), "obs/%s shape %s" % (key, obs[key].shape))
        quat = obs["robot0_eef_quat"][()]
        expect(np.allclose(np.linalg.norm(quat, axis=1), 1.0), "eef quaternions are unit")
        objects = list(demo.attrs["objects"])
        expect(obs["object"].shape == (n, 7 * len(objects)), "obs/object: 7 per object")
        # The end effector follows its target: the action's xyz and the
        # observed eef position agree to the impedance's sag at the end.
        gap = np.abs(demo["actions"][-1, :3] - obs["robot0_eef_pos"][-1])
        expect(gap.max() < 0.02, "eef within 2 cm of its target at the end: %s" % gap)

        two = data["demo_1"]
        expect(two["actions"].shape == (50, 14), "two grippers: 14 action columns")
        expect(list(two.attrs["grippers"]) == ["left", "right"], "gripper order")
        expect(int(two.attrs["success"]) == 0 and two["rewards"][()].sum() == 0, "an unfinished script is a failure")
        expect("robot1_eef_pos" in two["obs"], "obs of the second robot")
    print("OK: %s holds 2 demos in robomimic's layout" % path)
    run_doc_snippet(doc, scratch)


def run_doc_snippet(doc, scratch):
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Load a demo in Python", 1)[1]
    snippet = section.split("```python\n", 1)[1].split("```", 1)[0]
    plot = os.path.join(scratch, "action_x.png")
    if os.path.exists(plot):
        os.remove(plot)
    env = dict(os.environ, MPLBACKEND="Agg")
    result = subprocess.run([sys.executable, "-c", snippet], cwd=scratch, env=env, capture_output=True, text=True)
    expect(result.returncode == 0, "the docs' snippet failed:\n" + result.stderr)
    expect(result.stdout.strip() == "100 samples, success", "the snippet printed %r" % result.stdout)
    expect(os.path.getsize(plot) > 1000, "the snippet's plot action_x.png")
    print("OK: docs/datasets.md's snippet printed %r and plotted %s" % (result.stdout.strip(), plot))


if __name__ == "__main__":
    main()
