// stiction.Simulation, stiction.State and stiction.StepStats
// (docs/python.md). Stepping releases the GIL.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <charconv>
#include <cmath>

#include "cli/cli_runner.h"
#include "cli/report_writer.h"
#include "engine/common/error.h"
#include "python/bindings.h"

namespace py = pybind11;

namespace stiction::python {
namespace {

py::array_t<double> ToNumpy(const VectorX& x) { return py::array_t<double>(x.size(), x.data()); }

VectorX FromNumpy(const py::array_t<double, py::array::c_style | py::array::forcecast>& a, const char* what) {
  if (a.ndim() != 1) throw InputError(std::string(what) + ": expected a 1-D array, got " + std::to_string(a.ndim()) + "-D");
  VectorX x(a.shape(0));
  for (py::ssize_t i = 0; i < a.shape(0); ++i) x[i] = a.data()[i];
  return x;
}

std::string PathText(const py::handle& scene) {
  return py::str(py::module_::import("os").attr("fspath")(scene)).cast<std::string>();
}

// step(n): the last step's statistics; StepError when one fails.
StepStats StepN(PySimulation& s, std::int64_t n) {
  if (n < 1) throw InputError("step: n must be >= 1, got " + std::to_string(n));
  StepFailure failure;
  std::int64_t taken = 0;
  {
    py::gil_scoped_release release;
    taken = s.Step(n, &failure);
  }
  if (failure.status != StepStatus::kSuccess) {
    py::object e = StepErrorType()(failure.message);
    e.attr("status") = cli::StepStatusName(failure.status);
    e.attr("step") = failure.step;
    e.attr("steps_taken") = taken;
    PyErr_SetObject(StepErrorType().ptr(), e.ptr());
    throw py::error_already_set();
  }
  return s.last_stats();
}

py::dict BodyDict(const BodyState& b) {
  py::dict d;
  d["name"] = b.name;
  d["position"] = ToNumpy(b.position);
  d["quaternion"] = ToNumpy(Eigen::Vector4d(b.orientation.w(), b.orientation.x(), b.orientation.y(), b.orientation.z()));
  d["linear_velocity"] = ToNumpy(b.linear_velocity);
  d["angular_velocity"] = ToNumpy(b.angular_velocity);
  return d;
}

// The same figures as stiction-sim's report `stats` (docs/cli.md).
py::dict RunStatisticsDict(const PySimulation& s) {
  const cli::RunStatistics& r = s.stats();
  py::dict d;
  d["steps"] = r.num_steps();
  d["contact_steps"] = r.num_contact_steps();
  d["mean_iterations"] = r.mean_iterations();
  d["max_iterations"] = r.max_iterations();
  d["mean_line_search_iterations"] = r.mean_line_search_iterations();
  d["mean_contacts"] = r.mean_contacts();
  d["max_contacts"] = r.max_contacts();
  d["mean_outer_iterations"] = r.mean_outer_iterations();
  d["unconverged_steps"] = r.unconverged_steps();
  d["max_ncp_residual"] = r.max_ncp_residual();
  d["mean_ncp_residual"] = r.mean_ncp_residual();
  d["max_penetration_m"] = r.max_penetration_m();
  d["mean_penetration_m"] = r.mean_penetration_m();
  d["mean_step_wall_time_s"] = r.mean_step_wall_time_s();
  d["subdivided_steps"] = r.subdivided_steps();
  d["solver_fallback_steps"] = r.solver_fallback_steps();
  d["mean_sleeping_bodies"] = r.mean_sleeping_bodies();
  d["max_sleeping_bodies"] = r.max_sleeping_bodies();
  d["finite"] = r.finite();
  return d;
}

}  // namespace

py::object ParameterValue(const std::string& text) {
  if (text == "true") return py::bool_(true);
  if (text == "false") return py::bool_(false);
  long long i = 0;
  const char* end = text.data() + text.size();
  auto [pi, ei] = std::from_chars(text.data(), end, i);
  if (ei == std::errc() && pi == end && !text.empty()) return py::int_(i);
  double x = 0;
  auto [pd, ed] = std::from_chars(text.data(), end, x);
  if (ed == std::errc() && pd == end && !text.empty()) return py::float_(x);
  return py::str(text);
}

std::string ParameterText(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (PyFloat_Check(value.ptr())) return py::repr(value).cast<std::string>();
  return py::str(value).cast<std::string>();
}

void BindStepStats(py::module_& m) {
  py::class_<StepStats> c(m, "StepStats", "One step's statistics (engine/stepping/step_result.h); SI units.");
  c.def_readonly("iterations", &StepStats::iterations)
      .def_readonly("line_search_iterations", &StepStats::line_search_iterations)
      .def_readonly("num_contacts", &StepStats::num_contacts)
      .def_readonly("momentum_error", &StepStats::momentum_error)
      .def_readonly("complementarity_error", &StepStats::complementarity_error)
      .def_readonly("ncp_residual", &StepStats::ncp_residual)
      .def_readonly("max_penetration_m", &StepStats::max_penetration_m)
      .def_readonly("wall_time_s", &StepStats::wall_time_s)
      .def_readonly("qp_iterations", &StepStats::qp_iterations)
      .def_readonly("subdivisions", &StepStats::subdivisions)
      .def_readonly("outer_iterations", &StepStats::outer_iterations)
      .def_readonly("solver_converged", &StepStats::solver_converged)
      .def_readonly("budget_hit", &StepStats::budget_hit)
      .def_readonly("solver_fallback", &StepStats::solver_fallback)
      .def_readonly("sleeping_bodies", &StepStats::sleeping_bodies)
      .def_property_readonly("solver", [](const StepStats& s) { return std::string(SolverTypeName(s.solver)); })
      .def_property_readonly("scheme", [](const StepStats& s) { return std::string(SteppingSchemeName(s.scheme)); });
  static const char* const kFields[] = {"iterations", "line_search_iterations", "num_contacts", "momentum_error",
                                        "complementarity_error", "ncp_residual", "max_penetration_m", "wall_time_s",
                                        "qp_iterations", "subdivisions", "outer_iterations", "solver_converged",
                                        "budget_hit", "solver_fallback", "sleeping_bodies", "solver", "scheme"};
  c.def("as_dict", [](py::object self) {
    py::dict d;
    for (const char* f : kFields) d[f] = self.attr(f);
    return d;
  }, "The statistics as a dict.");
  c.def("__repr__", [](py::object self) {
    return "StepStats(" + py::str(self.attr("as_dict")()).cast<std::string>() + ")";
  });
}

void BindSimulation(py::module_& m) {
  py::class_<SavedState>(m, "State", "A saved state (Simulation.save_state): q, v, t, step index, warm starts, "
                                     "the grippers' script position.")
      .def_property_readonly("time", [](const SavedState& s) { return s.sim.time; }, "[s]")
      .def_property_readonly("step_index", [](const SavedState& s) { return s.sim.step_index; });

  py::class_<PySimulation> c(m, "Simulation", "A loaded scene, stepped as stiction-sim steps it (docs/python.md).");
  c.def(py::init([](py::object scene, std::vector<std::string> overrides, py::object base_dir) {
          const std::string text = PathText(scene);
          const std::string dir = base_dir.is_none() ? std::string(".") : PathText(base_dir);
          py::gil_scoped_release release;
          return new PySimulation(text, overrides, dir);
        }),
        py::arg("scene"), py::arg("overrides") = std::vector<std::string>{}, py::arg("base_dir") = py::none(),
        "Loads a scene file (.yaml, .urdf, .xml, .mjcf) or YAML text; `overrides` are `--set` assignments "
        "('materials.steel.friction=0.3'), `base_dir` resolves a text's includes and meshes. Raises InputError.");
  c.def("step", &StepN, py::arg("n") = 1,
        "Takes n steps (the scene's gripper script first, as stiction-sim) with the GIL released; returns the last "
        "step's StepStats. Raises StepError when a step fails (the state is then the last good step's).");
  c.def("steps_for", [](const PySimulation& s, double duration) {
          return cli::StepsForDuration(duration, s.sim().time_step());
        }, py::arg("duration"),
        "The number of steps stiction-sim --duration takes for `duration` [s]: ceil(duration / time_step), not "
        "rounded up within 1e-9.");
  c.def("reset", &PySimulation::Reset, "Back to t = 0 (parameters and actuator targets are kept).");
  c.def_property_readonly("time", [](const PySimulation& s) { return s.sim().time(); }, "Simulated time [s].");
  c.def_property_readonly("step_index", [](const PySimulation& s) { return s.sim().step_index(); },
                          "Successful steps since the start or the last reset.");
  c.def_property_readonly("time_step", [](const PySimulation& s) { return s.sim().time_step(); },
                          "δt [s] of the next step (set it with set('time_step', dt)).");
  c.def_property_readonly("q", [](const PySimulation& s) { return ToNumpy(s.sim().positions()); },
                          "Generalized positions (a copy).");
  c.def_property_readonly("v", [](const PySimulation& s) { return ToNumpy(s.sim().velocities()); },
                          "Generalized velocities (a copy).");
  c.def("set_state", [](PySimulation& s, py::array_t<double, py::array::c_style | py::array::forcecast> q,
                        py::array_t<double, py::array::c_style | py::array::forcecast> v) {
          s.sim().SetState(FromNumpy(q, "q"), FromNumpy(v, "v"));
        }, py::arg("q"), py::arg("v"), "Replaces q and v (quaternions are normalized). Raises InputError.");
  c.def_property_readonly("body_names", [](const PySimulation& s) {
    std::vector<std::string> names;
    for (int b = 1; b < s.sim().model().num_bodies(); ++b) names.push_back(s.sim().model().body(b).name);
    return names;
  }, "Every body but the world, in model order.");
  c.def("bodies", [](const PySimulation& s) { return BodyArrays(s.sim()); },
        "Every body's world pose and velocity: dict of name (list), position (n, 3) [m], quaternion (n, 4) w, x, y, "
        "z, linear_velocity (n, 3) [m/s] of the origin, angular_velocity (n, 3) [rad/s].");
  c.def("body", [](const PySimulation& s, const std::string& name) {
    for (const BodyState& b : s.sim().CalcBodyStates()) {
      if (b.name == name) return BodyDict(b);
    }
    throw InputError("body '" + name + "': no such body");
  }, py::arg("name"), "One body's world pose and velocity (dict). Raises InputError for an unknown name.");
  c.def("contacts", &ContactArrays,
        "The contacts of the last step as numpy arrays (docs/python.md, 'Contacts').");
  c.def("parameters", [](const PySimulation& s) {
    py::dict d;
    for (const std::string& a : s.Parameters()) {
      const std::size_t eq = a.find('=');
      d[py::str(a.substr(0, eq))] = ParameterValue(a.substr(eq + 1));
    }
    return d;
  }, "Every live parameter (the keys of --set and the viewer's panels) and its value.");
  c.def("get", [](const PySimulation& s, const std::string& key) { return ParameterValue(s.GetParameter(key)); },
        py::arg("key"), "A live parameter's value. Raises InputError for an unknown key.");
  c.def("set", [](PySimulation& s, const std::string& key, py::handle value) {
          s.SetParameters({key + "=" + ParameterText(value)});
        }, py::arg("key"), py::arg("value"),
        "Sets a live parameter from the next step on ('materials.box_surface.friction', 'solver.type', "
        "'time_step', ...). Raises InputError with the engine's 'KEY: reason'; nothing changes then.");
  c.def("update", [](PySimulation& s, py::dict values) {
          std::vector<std::string> assignments;
          for (auto [k, v] : values) assignments.push_back(py::str(k).cast<std::string>() + "=" + ParameterText(v));
          s.SetParameters(assignments);
        }, py::arg("values"), "Sets several live parameters together: all or none.");
  c.def_property_readonly("actuator_names", [](const PySimulation& s) { return s.sim().actuator_names(); });
  c.def("set_actuator_target", [](PySimulation& s, const std::string& name, double position, double velocity) {
          s.sim().SetActuatorTarget(name, position, velocity);
        }, py::arg("name"), py::arg("position"), py::arg("velocity") = 0.0,
        "A PD actuator's target q_d [rad or m] and v_d [rad/s or m/s] from the next step on.");
  c.def_property_readonly("actuator_efforts", [](const PySimulation& s) {
    const std::vector<double>& e = s.sim().actuator_efforts();
    return py::array_t<double>(static_cast<py::ssize_t>(e.size()), e.data());
  }, "Each actuator's generalized force over the last step [N m or N].");
  c.def_property_readonly("motor_names", [](const PySimulation& s) { return s.sim().motor_names(); });
  c.def("set_motor_control", [](PySimulation& s, const std::string& name, double ctrl) {
          s.sim().SetMotorControl(name, ctrl);
        }, py::arg("name"), py::arg("ctrl"), "A motor's control from the next step on (clamped to its range).");
  c.def_property_readonly("kinetic_energy", [](const PySimulation& s) { return s.sim().CalcKineticEnergy(); }, "[J]");
  c.def_property_readonly("potential_energy", [](const PySimulation& s) { return s.sim().CalcPotentialEnergy(); },
                          "Gravity + joint springs [J].");
  c.def("save_state", &PySimulation::SaveState,
        "The state for restore_state (the timeline): steps after a restore repeat bit for bit.");
  c.def("restore_state", &PySimulation::RestoreState, py::arg("state"), "Raises InputError for another model's state.");
  c.def("run_statistics", &RunStatisticsDict,
        "Means and maxima over the steps since the start or the last reset, as stiction-sim's report `stats`.");
  c.def_property_readonly("wall_time", &PySimulation::wall_time_s,
                          "Wall time spent stepping since the start or the last reset [s].");
  c.def_property_readonly("script_error", &PySimulation::script_error,
                          "The gripper script's first error ('' if none); the run goes on, as stiction-sim's.");
  c.def_property_readonly("material_names", [](const PySimulation& s) { return s.sim().material_names(); });
  c.def_property_readonly("load_notes", [](const PySimulation& s) { return s.sim().load_notes(); });
  c.def_property_readonly("duration", [](const PySimulation& s) { return s.sim().scene().duration; },
                          "The scene's `duration` [s] (what stiction-sim runs without --duration).");
  c.def_property_readonly("description", [](const PySimulation& s) { return s.sim().scene().description; });
  c.def_property_readonly("scene", &PySimulation::scene_label);
  c.def_property_readonly("overrides", &PySimulation::overrides);
  c.def_property_readonly("scene_source", &PySimulation::scene_source,
                          "The scene's path, or its YAML text when it was given as text.");
  c.def_property_readonly("base_dir", &PySimulation::base_dir,
                          "The directory a text scene's relative paths resolve from.");
  c.def("__repr__", [](const PySimulation& s) {
    return "<stiction.Simulation " + s.scene_label() + " t=" + std::to_string(s.sim().time()) + " s>";
  });
}

}  // namespace stiction::python
