// The module stiction._stiction (re-exported by python/stiction/__init__.py):
// the engine's facade for Python, numpy in and out, SI units
// (docs/python.md).
#include <pybind11/pybind11.h>

#include "engine/common/error.h"
#include "python/bindings.h"

namespace py = pybind11;

namespace stiction::python {
namespace {
struct StepErrorTag {};
py::handle step_error_type;
}  // namespace

py::handle StepErrorType() { return step_error_type; }

}  // namespace stiction::python

PYBIND11_MODULE(_stiction, m) {
  using namespace stiction::python;
  m.doc() = "Stiction: contact-rich multibody simulation (docs/python.md)";
  // Bad input at an API edge: the engine's one-line "FILE:LINE: KEY: reason".
  static py::exception<stiction::InputError> input_error(m, "InputError", PyExc_ValueError);
  input_error.attr("__module__") = "stiction";
  input_error.attr("__doc__") = "A scene, value or key the engine refused; str(e) is its 'FILE:LINE: KEY: reason'.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const stiction::InputError& e) {
      PyErr_SetString(input_error.ptr(), e.what());
    }
  });
  // A failed step: the state stays at the last good step.
  static py::exception<StepErrorTag> step_error(m, "StepError", PyExc_RuntimeError);
  step_error.attr("__module__") = "stiction";
  step_error.attr("__doc__") =
      "A step failed (solver_failed or non_finite); the state is the last good step's. Attributes: status, step, "
      "steps_taken.";
  step_error_type = step_error;
  BindStepStats(m);
  BindSimulation(m);
}
