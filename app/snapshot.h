#pragma once
// What the renderer and the panels read of the simulation after a frame's
// physics: an immutable copy, so that drawing never reaches into the engine.
// If physics ever moves to its own thread this is what it would hand over.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/simulation.h"

namespace stiction::app {

/// One contact point of the last step, in viewer terms (SI units).
struct ContactSnapshot {
  int body_a = 0, body_b = 0;        ///< Model body indices (0 = world).
  std::string name_a, name_b;
  Vector3 p_W = Vector3::Zero();     ///< Contact point [m].
  Matrix3 R_WC = Matrix3::Identity(); ///< Contact frame; z = normal from A to B.
  double phi = 0;                    ///< Signed distance at the step start [m] (< 0: overlap).
  double mu = 0;                     ///< Friction coefficient of the pair.
  Vector3 gamma_C = Vector3::Zero(); ///< Impulse on B in frame C [N s] (z: normal).
  Vector3 f_W = Vector3::Zero();     ///< Average force on B over the step, γ/δt, world [N].
  double slip_speed = 0;             ///< ‖v_t‖ of B relative to A [m/s].
  double utilisation = 0;            ///< |γ_t| / (μ γ_n); 0 without normal impulse.
  ConeRegion region = ConeRegion::kNoContact;
  /// A pressure-field polygon: its surface (index into
  /// Snapshot::contact_surfaces) and polygon; −1 for a rigid point contact.
  int surface = -1, polygon = -1;
  double normal_force() const { return f_W.dot(R_WC.col(2)); }  ///< f_n [N].
  Vector3 normal_force_W() const { return normal_force() * R_WC.col(2); }
  Vector3 friction_force_W() const { return f_W - normal_force_W(); }
};

/// One pressure-field contact surface of the last step (compliant geometry,
/// engine/geometry/contact_surface.h), with what the viewer shows of it:
/// the polygons to colour by pressure and the patch's net wrench from the
/// solved impulses of its polygons' contacts.
struct ContactSurfaceSnapshot {
  int body_a = 0, body_b = 0;         ///< Model body indices (0 = world).
  std::string name_a, name_b;
  std::vector<Vector3> vertices_W;    ///< [m]
  std::vector<double> pressures;      ///< Per vertex [Pa].
  /// Polygon i: vertices [first, first + count), its centroid, normal (A to
  /// B), area [m²] and centroid pressure [Pa].
  std::vector<ContactPolygon> polygons;
  double area = 0;                    ///< Σ polygon areas [m²].
  double peak_pressure = 0;           ///< Largest vertex pressure [Pa].
  Vector3 centroid_W = Vector3::Zero();  ///< Pressure-weighted centroid [m].
  Vector3 normal_W = Vector3::UnitZ();   ///< Area-weighted mean normal, unit, A to B.
  /// Σ γ/δt of the polygons' contacts: the average force on B over the step
  /// [N], and its moment about centroid_W [N m] (world frame). Zero when the
  /// bodies' contacts were not solved (both immovable).
  Vector3 force_W = Vector3::Zero();
  Vector3 moment_W = Vector3::Zero();
  double normal_force() const { return force_W.dot(normal_W); }  ///< [N]
  double tangential_force() const { return (force_W - normal_force() * normal_W).norm(); }  ///< [N]
};

struct Snapshot {
  double time = 0;  ///< Simulated time [s].
  /// Pose of every model body in the world, indexed by model body (0 = the
  /// world, identity).
  std::vector<RigidTransform> X_WB;
  /// Centre of mass of every model body in the world [m] (index 0 unused).
  std::vector<Vector3> p_WBcm;
  /// 1 for a body asleep (solver.sleep), drawn darker; index = body index.
  std::vector<char> asleep;
  /// Spatial velocity parts of every body (index 0 zero): origin velocity
  /// [m/s] and angular velocity [rad/s], world frame.
  std::vector<Vector3> v_WB, w_WB;
  StepStats last_stats;        ///< Statistics of the last step taken.
  double kinetic_energy = 0;   ///< [J]
  /// The contacts of the last step taken (empty after a load or a reset).
  std::vector<ContactSnapshot> contacts;
  /// The pressure-field contact surfaces of that step (ContactSnapshot::surface
  /// indexes them); empty without compliant geometry.
  std::vector<ContactSurfaceSnapshot> contact_surfaces;
  /// The largest vertex pressure over contact_surfaces [Pa] (0 without).
  double peak_pressure = 0;
  /// Bodies drawn a second time, see-through, at these poses: the gripper's
  /// target pose (the teleop "ghost"). Empty when the scene has no gripper.
  std::vector<std::pair<int, RigidTransform>> ghost_bodies;
  /// The timeline's previous branch at this step (drawn see-through in a
  /// warm tint): every body where the replaced run had it.
  std::vector<std::pair<int, RigidTransform>> branch_ghost_bodies;
};

/// The state a contact glyph is coloured by.
inline bool IsSeparating(const ContactSnapshot& c) {
  return c.region == ConeRegion::kNoContact || !(c.gamma_C.z() > 0);
}
inline const char* ContactStateName(const ContactSnapshot& c) {
  if (IsSeparating(c)) return "separating";
  return c.region == ConeRegion::kStiction ? "stick" : "slip";
}

/// The name the viewer shows for a model body (0: "world").
inline std::string SnapshotBodyName(const Simulation& sim, int body) {
  if (body == 0) return "world";
  return body > 0 && body < sim.model().num_bodies() ? sim.model().body(body).name : "?";
}

/// The bodies of a contact or contact surface, as indices and names.
template <typename Out>
void SetSnapshotBodies(const Simulation& sim, int body_a, int body_b, Out* out) {
  out->body_a = body_a;
  out->body_b = body_b;
  out->name_a = SnapshotBodyName(sim, body_a);
  out->name_b = SnapshotBodyName(sim, body_b);
}

/// One contact of the last step, copied from Simulation::contacts().
inline ContactSnapshot MakeContactSnapshot(const Simulation& sim, const ContactReport& r, double dt) {
  ContactSnapshot c;
  SetSnapshotBodies(sim, r.body_a, r.body_b, &c);
  c.p_W = r.p_W;
  c.R_WC = r.R_WC;
  c.phi = r.phi;
  c.mu = r.mu;
  c.gamma_C = r.gamma_C;
  c.f_W = r.R_WC * r.gamma_C / dt;
  c.slip_speed = r.vc.head<2>().norm();
  const double gamma_t = r.gamma_C.head<2>().norm();
  const double bound = r.mu * r.gamma_C.z();
  c.utilisation = bound > 0 ? gamma_t / bound : 0.0;
  c.region = r.region;
  c.surface = r.surface;
  c.polygon = r.polygon;
  return c;
}

/// Copies the engine's contact surfaces and sums each surface's polygon
/// forces from `contacts` (already in the snapshot, so each report's γ/δt is
/// computed once). One pass over the polygons and one over the contacts:
/// the pile's thousands of polygons cost a copy, not a search.
inline void AddContactSurfaces(const Simulation& sim, Snapshot* s) {
  const std::vector<ContactSurface>& surfaces = sim.contact_surfaces();
  s->contact_surfaces.resize(surfaces.size());
  s->peak_pressure = 0;
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const ContactSurface& in = surfaces[i];
    ContactSurfaceSnapshot& out = s->contact_surfaces[i];
    SetSnapshotBodies(sim, in.body_a, in.body_b, &out);
    out.vertices_W = in.vertices_W;
    out.pressures = in.pressures;
    out.polygons = in.polygons;
    out.area = in.Area();
    out.peak_pressure = in.PeakPressure();
    out.centroid_W = in.PressureCentroid();
    Vector3 n = Vector3::Zero();
    for (const ContactPolygon& p : in.polygons) n += p.area * p.nhat_W;
    if (n.norm() > 0) out.normal_W = n.normalized();
    s->peak_pressure = std::max(s->peak_pressure, out.peak_pressure);
  }
  for (const ContactSnapshot& c : s->contacts) {
    if (c.surface < 0 || c.surface >= static_cast<int>(s->contact_surfaces.size())) continue;
    ContactSurfaceSnapshot& out = s->contact_surfaces[c.surface];
    out.force_W += c.f_W;
    out.moment_W += (c.p_W - out.centroid_W).cross(c.f_W);
  }
}

/// Reads the simulation's current state into a snapshot.
/// `with_contacts`: copy Simulation::contacts() (false right after a load or
/// reset, when the engine still holds the reports of an older step).
/// `step_dt`: the δt of that step [s] (forces are γ/δt); 0: the current δt.
inline Snapshot MakeSnapshot(const Simulation& sim, const StepStats& last_stats, bool with_contacts = true,
                             double step_dt = 0) {
  Snapshot s;
  s.time = sim.time();
  const std::vector<BodyState> states = sim.CalcBodyStates();
  const int nb = sim.model().num_bodies();
  s.X_WB.assign(nb, RigidTransform::Identity());
  s.p_WBcm.assign(nb, Vector3::Zero());
  s.v_WB.assign(nb, Vector3::Zero());
  s.w_WB.assign(nb, Vector3::Zero());
  for (int b = 1; b < nb; ++b) {
    const BodyState& st = states[b - 1];
    s.X_WB[b] = RigidTransform{st.orientation.toRotationMatrix(), st.position};
    s.p_WBcm[b] = s.X_WB[b] * sim.model().body(b).com_B;
    s.v_WB[b] = st.linear_velocity;
    s.w_WB[b] = st.angular_velocity;
  }
  s.asleep = sim.asleep_bodies();
  s.last_stats = last_stats;
  s.kinetic_energy = sim.CalcKineticEnergy();
  if (with_contacts) {
    const double dt = step_dt > 0 ? step_dt : sim.time_step();
    s.contacts.reserve(sim.contacts().size());
    for (const ContactReport& r : sim.contacts()) s.contacts.push_back(MakeContactSnapshot(sim, r, dt));
    AddContactSurfaces(sim, &s);
  }
  return s;
}

}  // namespace stiction::app
