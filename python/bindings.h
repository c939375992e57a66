#pragma once
// The pieces of the module `stiction` (stiction_module.cpp puts them
// together): each Bind* adds one topic's classes and functions.
#include <pybind11/pybind11.h>

#include "python/py_simulation.h"

namespace stiction::python {

/// The exception class stiction.StepError (a RuntimeError), made by the
/// module's init.
pybind11::handle StepErrorType();

/// stiction.StepStats: one step's statistics (engine/stepping/step_result.h).
void BindStepStats(pybind11::module_& m);
/// stiction.Simulation and stiction.State.
void BindSimulation(pybind11::module_& m);

/// The contacts of the last step as numpy arrays (bind_contacts.cpp).
pybind11::dict ContactArrays(const PySimulation& s);
/// Every body's pose and velocity as numpy arrays (bind_contacts.cpp).
pybind11::dict BodyArrays(const Simulation& sim);

/// A parameter's value text as Python: bool, int, float or str.
pybind11::object ParameterValue(const std::string& text);
/// A Python value as the text of an assignment: true/false, the shortest
/// repr of a float, an int's digits, a string as it is.
std::string ParameterText(const pybind11::handle& value);

}  // namespace stiction::python
