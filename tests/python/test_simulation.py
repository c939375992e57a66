"""stiction.Simulation: state, parameters, contacts, and bit-identity with
stiction-sim (docs/python.md)."""
import numpy as np
import pytest

import stiction
from conftest import SCENES, SLIDING_BOX, run_sim


def test_load_errors_are_input_errors_with_the_engine_message(tmp_path):
    with pytest.raises(stiction.InputError) as e:
        stiction.Simulation(str(tmp_path / "missing.yaml"))
    assert isinstance(e.value, ValueError)
    assert "missing.yaml" in str(e.value)
    with pytest.raises(stiction.InputError) as e:
        stiction.Simulation(str(SLIDING_BOX), overrides=["materials.box_surface.friction=-1"])
    # The loader's message, as stiction-sim --set prints it.
    assert str(e.value) == "--set materials.box_surface.friction=-1: materials[0].friction: must be >= 0, got -1"


def test_yaml_text_loads_like_the_file():
    text = SLIDING_BOX.read_text()
    a, b = stiction.Simulation(text), stiction.Simulation(SLIDING_BOX)
    a.step(20)
    b.step(20)
    assert np.array_equal(a.q, b.q) and np.array_equal(a.v, b.v)
    assert a.scene == "<string>"


def test_state_round_trips():
    sim = stiction.Simulation(SLIDING_BOX)
    sim.step(5)
    q, v = sim.q, sim.v
    assert q.dtype == np.float64 and q.shape == (14,) and v.shape == (12,)
    q2, v2 = q.copy(), v.copy()
    q2[4] += 0.25  # The box's x.
    v2[:3] = [0.1, -0.2, 0.3]
    sim.set_state(q2, v2)
    # q of a free body: quaternion w, x, y, z, then position; the engine
    # normalizes the quaternions, which may move their last bit.
    back = sim.q
    assert np.array_equal(sim.v, v2)
    for body in (0, 7):
        assert np.array_equal(back[body + 4:body + 7], q2[body + 4:body + 7])
        assert np.allclose(back[body:body + 4], q2[body:body + 4], rtol=0, atol=1e-15)
    # The arrays are copies: editing them changes nothing.
    q3 = sim.q
    q3[4] = 99
    assert sim.q[4] == q2[4]
    with pytest.raises(stiction.InputError, match="SetState: wrong state size"):
        sim.set_state(q2[:3], v2)


def test_save_restore_repeats_the_following_steps_bit_for_bit():
    sim = stiction.Simulation(SLIDING_BOX)
    sim.step(7)
    saved = sim.save_state()
    assert saved.step_index == 7 and saved.time == sim.time
    first = []
    for _ in range(25):
        sim.step()
        first.append((sim.q, sim.v, sim.contacts()["normal_force"]))
    sim.restore_state(saved)
    assert sim.step_index == 7
    for q, v, fn in first:
        sim.step()
        assert np.array_equal(sim.q, q) and np.array_equal(sim.v, v)
        assert np.array_equal(sim.contacts()["normal_force"], fn)
    sim.reset()
    assert sim.time == 0 and sim.step_index == 0


def test_set_every_live_parameter_to_its_value_and_read_it_back():
    sim = stiction.Simulation(SLIDING_BOX)
    before = sim.parameters()
    assert "time_step" in before and "materials.box_surface.friction" in before and "solver.type" in before
    for key, value in before.items():
        sim.set(key, value)
        assert sim.get(key) == value, key
        assert type(sim.get(key)) is type(value), key
    assert sim.parameters() == before
    sim.step(3)  # Still steps.


def test_set_changes_from_the_next_step_and_refuses_a_bad_value_with_the_engine_message():
    sim = stiction.Simulation(SLIDING_BOX)
    sim.set("materials.box_surface.friction", 0.9)
    assert sim.get("materials.box_surface.friction") == 0.9
    sim.set("solver.type", "pgs")
    assert sim.get("solver.type") == "pgs"
    assert sim.step().solver == "pgs"
    sim.set("time_step", 0.005)
    assert sim.time_step == 0.005
    # The integrator by preset name, as a scene's `integrator:` and --integrator.
    sim.set("integrator", "implicit_euler")
    assert sim.get("integrator") == "implicit_euler"
    assert (sim.get("integrator.theta"), sim.get("integrator.theta_vq")) == (1, 1)
    sim.set("integrator.theta", 0.7)
    assert sim.get("integrator") == "custom"
    with pytest.raises(stiction.InputError) as e:
        sim.set("integrator", "rk4")
    assert str(e.value) == ("integrator: unknown integrator 'rk4' (expected one of: explicit_euler, "
                            "symplectic_euler, implicit_euler, midpoint)")
    with pytest.raises(stiction.InputError) as e:
        sim.set("materials.box_surface.friction", -1)
    assert str(e.value) == "materials.box_surface.friction: must be >= 0 and finite, got -1"
    assert sim.get("materials.box_surface.friction") == 0.9  # Unchanged.
    with pytest.raises(stiction.InputError) as e:
        sim.set("solver.type", "newton")
    assert str(e.value).startswith("solver.type: unknown name 'newton' (one of: sap, ")
    with pytest.raises(stiction.InputError) as e:
        sim.get("materials.steel.friction")
    assert str(e.value) == (
        "materials.steel.friction: not a live parameter (time_step, stepping, integrator.theta, "
        "integrator.theta_vq, contact_model, solver.type, solver.line_search, solver.KEY, solver.SOLVER.KEY, "
        "nmdp.KEY, materials.NAME.KEY with NAME one of: box_surface, floor, default; docs/scene-format.md)")


def test_resting_box_normal_forces_sum_to_m_g():
    sim = stiction.Simulation(SCENES / "box_resting.yaml")
    stats = sim.step(50)
    c = sim.contacts()
    assert stats.num_contacts == len(c["normal_force"]) > 0
    assert c["position"].shape == (len(c["normal_force"]), 3)
    assert set(c["body_b"]) | set(c["body_a"]) == {"world", "box"}
    m, g = 1.0, 9.81
    assert np.sum(c["normal_force"]) == pytest.approx(m * g, rel=1e-6)
    # The world-frame force on the box is straight up, m g in all.
    total = np.sum(np.where(np.array(c["body_b"])[:, None] == "box", 1, -1) * c["force"], axis=0)
    assert total == pytest.approx([0, 0, m * g], rel=1e-6, abs=1e-9)
    assert np.allclose(np.abs(c["normal"][:, 2]), 1)
    assert sim.kinetic_energy == pytest.approx(0, abs=1e-9)
    assert sim.potential_energy == pytest.approx(m * g * sim.body("box")["position"][2], rel=1e-9)


@pytest.mark.parametrize("scene,duration", [(SLIDING_BOX, 0.6), (SCENES / "grasp_box.yaml", 1.5)])
def test_python_stepping_is_bit_identical_to_stiction_sim(stiction_sim, tmp_path, scene, duration):
    # The JSON report's numbers are the shortest text that reads back to the
    # same double, so == compares bits.
    report = run_sim(stiction_sim, scene, tmp_path, duration)
    sim = stiction.Simulation(scene)
    n = sim.steps_for(duration)
    for _ in range(n):  # One step per call, as a controller would.
        sim.step()
    assert report["status"] == "ok" and report["steps"] == n == sim.step_index
    assert report["sim_time_s"] == sim.time
    assert report["stats"]["mean_iterations"] == sim.run_statistics()["mean_iterations"]
    bodies = sim.bodies()
    assert [b["name"] for b in report["bodies"]] == bodies["name"]
    for i, b in enumerate(report["bodies"]):
        assert b["position"] == bodies["position"][i].tolist(), b["name"]
        assert b["quaternion"] == bodies["quaternion"][i].tolist(), b["name"]
        assert b["linear_velocity"] == bodies["linear_velocity"][i].tolist(), b["name"]
        assert b["angular_velocity"] == bodies["angular_velocity"][i].tolist(), b["name"]
    assert report["energy"]["final_kinetic_J"] == sim.kinetic_energy


HINGE = """
description: A 1 kg link on a hinge about y, held by a PD actuator.
gravity: [0, 0, -9.81]
time_step: 0.01
bodies:
  - name: link
    mass: 1.0
    geometry:
      - shape: {type: box, size: [0.04, 0.04, 0.4]}
joints:
  - {name: hinge, type: revolute, parent: world, child: link, axis: [0, 1, 0],
     parent_frame: {position: [0, 0, 1]}, child_frame: {position: [0, 0, 0.2]}}
actuators:
  - {name: motor, joint: hinge, kp: 200, kd: 20}
"""


def test_actuator_target_moves_the_joint():
    sim = stiction.Simulation(HINGE)
    assert sim.actuator_names == ["motor"]
    sim.set_actuator_target("motor", 0.3)
    sim.step(300)
    assert sim.q[0] == pytest.approx(0.3, abs=0.02)
    assert sim.actuator_efforts.shape == (1,)
    with pytest.raises(stiction.InputError):
        sim.set_actuator_target("nope", 0.0)


STARVED_SOLVER = ["solver.max_iterations=1", "solver.max_step_halvings=0", "solver.relative_tolerance=1e-14",
                  "solver.absolute_tolerance=1e-300"]


def test_a_failed_step_raises_step_error_with_stiction_sims_message(stiction_sim, tmp_path):
    assert issubclass(stiction.StepError, RuntimeError)
    assert issubclass(stiction.InputError, ValueError)
    with pytest.raises(stiction.InputError):
        stiction.Simulation(SLIDING_BOX).step(0)
    report = run_sim(stiction_sim, SLIDING_BOX, tmp_path, 0.6, STARVED_SOLVER)
    assert report["status"] == "solver_failed"
    sim = stiction.Simulation(SLIDING_BOX)
    sim.update(dict(a.split("=") for a in STARVED_SOLVER))
    with pytest.raises(stiction.StepError) as e:
        sim.step(60)
    assert e.value.status == "solver_failed"
    assert e.value.step == report["steps"] + 1 and e.value.steps_taken == report["steps"] == sim.step_index
    assert str(e.value) == f"step {e.value.step} at t=0: {report['error']}"
