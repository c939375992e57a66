// Contacts and body states as numpy arrays, one row per contact or body
// (docs/python.md, "Contacts").
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "python/bindings.h"

namespace py = pybind11;

namespace stiction::python {
namespace {

std::string_view RegionName(ConeRegion r) {
  switch (r) {
    case ConeRegion::kStiction: return "stiction";
    case ConeRegion::kSliding: return "sliding";
    case ConeRegion::kNoContact: return "no_contact";
  }
  return "?";
}

// An (n, cols) array to fill row by row.
py::array_t<double> Rows(py::ssize_t n, py::ssize_t cols) {
  return cols == 1 ? py::array_t<double>(n) : py::array_t<double>({n, cols});
}

}  // namespace

py::dict ContactArrays(const PySimulation& s) {
  const Simulation& sim = s.sim();
  const std::vector<ContactReport>& contacts = sim.contacts();
  const py::ssize_t n = static_cast<py::ssize_t>(contacts.size());
  const double dt = s.last_step_dt();
  const double inv_dt = dt > 0 ? 1 / dt : 0;
  py::array_t<double> position = Rows(n, 3), normal = Rows(n, 3), impulse = Rows(n, 3), force = Rows(n, 3),
                      normal_impulse = Rows(n, 1), tangential_impulse = Rows(n, 2), normal_force = Rows(n, 1),
                      tangential_force = Rows(n, 2), slip_velocity = Rows(n, 3), phi = Rows(n, 1), mu = Rows(n, 1);
  py::array_t<double> frame({n, py::ssize_t{3}, py::ssize_t{3}});
  py::array_t<int> body_a_index(n), body_b_index(n);
  py::list body_a, body_b, region, model;
  auto P = position.mutable_unchecked<2>();
  auto N = normal.mutable_unchecked<2>();
  auto I = impulse.mutable_unchecked<2>();
  auto F = force.mutable_unchecked<2>();
  auto In = normal_impulse.mutable_unchecked<1>();
  auto It = tangential_impulse.mutable_unchecked<2>();
  auto Fn = normal_force.mutable_unchecked<1>();
  auto Ft = tangential_force.mutable_unchecked<2>();
  auto Vc = slip_velocity.mutable_unchecked<2>();
  auto Phi = phi.mutable_unchecked<1>();
  auto Mu = mu.mutable_unchecked<1>();
  auto R = frame.mutable_unchecked<3>();
  auto A = body_a_index.mutable_unchecked<1>();
  auto B = body_b_index.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < n; ++i) {
    const ContactReport& c = contacts[static_cast<std::size_t>(i)];
    const Vector3 gamma_W = c.R_WC * c.gamma_C;
    for (int k = 0; k < 3; ++k) {
      P(i, k) = c.p_W[k];
      N(i, k) = c.R_WC(k, 2);
      I(i, k) = gamma_W[k];
      F(i, k) = gamma_W[k] * inv_dt;
      Vc(i, k) = c.vc[k];
      for (int j = 0; j < 3; ++j) R(i, k, j) = c.R_WC(k, j);
    }
    In(i) = c.gamma_C.z();
    Fn(i) = c.gamma_C.z() * inv_dt;
    for (int k = 0; k < 2; ++k) {
      It(i, k) = c.gamma_C[k];
      Ft(i, k) = c.gamma_C[k] * inv_dt;
    }
    Phi(i) = c.phi;
    Mu(i) = c.mu;
    A(i) = c.body_a;
    B(i) = c.body_b;
    body_a.append(sim.model().body(c.body_a).name);
    body_b.append(sim.model().body(c.body_b).name);
    region.append(std::string(RegionName(c.region)));
    model.append(std::string(ContactModelName(c.model)));
  }
  py::dict d;
  d["position"] = position;
  d["normal"] = normal;
  d["frame"] = frame;
  d["normal_impulse"] = normal_impulse;
  d["tangential_impulse"] = tangential_impulse;
  d["impulse"] = impulse;
  d["normal_force"] = normal_force;
  d["tangential_force"] = tangential_force;
  d["force"] = force;
  d["slip_velocity"] = slip_velocity;
  d["phi"] = phi;
  d["mu"] = mu;
  d["body_a"] = body_a;
  d["body_b"] = body_b;
  d["body_a_index"] = body_a_index;
  d["body_b_index"] = body_b_index;
  d["region"] = region;
  d["model"] = model;
  return d;
}

py::dict BodyArrays(const Simulation& sim) {
  const std::vector<BodyState> bodies = sim.CalcBodyStates();
  const py::ssize_t n = static_cast<py::ssize_t>(bodies.size());
  py::array_t<double> position = Rows(n, 3), quaternion = Rows(n, 4), linear = Rows(n, 3), angular = Rows(n, 3);
  auto P = position.mutable_unchecked<2>();
  auto Q = quaternion.mutable_unchecked<2>();
  auto L = linear.mutable_unchecked<2>();
  auto W = angular.mutable_unchecked<2>();
  py::list names;
  for (py::ssize_t i = 0; i < n; ++i) {
    const BodyState& b = bodies[static_cast<std::size_t>(i)];
    names.append(b.name);
    for (int k = 0; k < 3; ++k) {
      P(i, k) = b.position[k];
      L(i, k) = b.linear_velocity[k];
      W(i, k) = b.angular_velocity[k];
    }
    Q(i, 0) = b.orientation.w();
    Q(i, 1) = b.orientation.x();
    Q(i, 2) = b.orientation.y();
    Q(i, 3) = b.orientation.z();
  }
  py::dict d;
  d["name"] = names;
  d["position"] = position;
  d["quaternion"] = quaternion;
  d["linear_velocity"] = linear;
  d["angular_velocity"] = angular;
  return d;
}

}  // namespace stiction::python
