#include "engine/scene/robot_description.h"

#include <algorithm>
#include <limits>
#include <map>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/shape_inertia.h"

namespace stiction {

namespace {

/// Inertia of a point mass m at offset d about the origin: m (dᵀd I − d dᵀ).
Matrix3 PointInertia(double m, const Vector3& d) {
  return m * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
}

}  // namespace

void AddMassProperties(double mass, const Vector3& com_O, const Matrix3& I_Ocm_O,
                       const RigidTransform& X_IO, BodyDescription* into) {
  if (mass <= 0) return;
  const double total = into->mass + mass;
  const Vector3 c_added = X_IO * com_O;
  const Vector3 c = (into->mass * into->com_B + mass * c_added) / total;
  const Matrix3 I_added = X_IO.R * I_Ocm_O * X_IO.R.transpose();
  // Both inertias moved to the combined centre of mass (parallel axes).
  into->I_Bcm_B = into->I_Bcm_B + PointInertia(into->mass, into->com_B - c) + I_added +
                  PointInertia(mass, c_added - c);
  into->I_Bcm_B = 0.5 * (into->I_Bcm_B + into->I_Bcm_B.transpose());
  into->com_B = c;
  into->mass = total;
}

void LumpWeldedMasses(RobotDescription* robot, const std::string& mass_element) {
  std::map<std::string, std::size_t> body_index;
  for (std::size_t i = 0; i < robot->bodies.size(); ++i) body_index[robot->bodies[i].name] = i;
  std::map<std::string, const JointDescription*> inboard;
  for (const JointDescription& j : robot->joints) inboard[j.child] = &j;
  // Bodies are parent-before-child, so a reverse walk moves a chain of
  // welded bodies' masses all the way up.
  for (std::size_t i = robot->bodies.size(); i-- > 0;) {
    BodyDescription& body = robot->bodies[i];
    const auto it = inboard.find(body.name);
    if (it == inboard.end() || it->second->type != JointType::kFixed) continue;
    const JointDescription& joint = *it->second;
    if (joint.parent == "world") continue;  // Welded to R: keeps its mass.
    BodyDescription& parent = robot->bodies[body_index.at(joint.parent)];
    // Fixed joint: X_PC = X_PF X_CM⁻¹ (F and M coincide).
    AddMassProperties(body.mass, body.com_B, body.I_Bcm_B, joint.X_PF * joint.X_CM.inverse(), &parent);
    body.mass = 0;
    body.com_B.setZero();
    body.I_Bcm_B.setZero();
  }
  // Whether a body or anything outboard of it has mass (children after
  // parents: a reverse walk).
  std::vector<char> carries_mass(robot->bodies.size(), 0);
  for (std::size_t i = robot->bodies.size(); i-- > 0;) {
    const BodyDescription& body = robot->bodies[i];
    carries_mass[i] = carries_mass[i] || body.mass > 0;
    const auto it = inboard.find(body.name);
    if (carries_mass[i] && it != inboard.end() && it->second->parent != "world") {
      carries_mass[body_index.at(it->second->parent)] = 1;
    }
  }
  for (std::size_t i = 0; i < robot->bodies.size(); ++i) {
    BodyDescription& body = robot->bodies[i];
    if (!(body.mass > 0) && !body.I_Bcm_B.isZero(0.0)) {
      // An inertia without a mass (PyBullet's iiwa base): nothing to weigh.
      body.I_Bcm_B.setZero();
      robot->notes.push_back(body.where.ToString() + ": '" + body.name + "' has an inertia but no mass: inertia ignored");
    }
    const auto it = inboard.find(body.name);
    const bool moves = it != inboard.end() && it->second->type != JointType::kFixed;
    if (!moves || body.joint_frame || body.mass > 0) continue;
    // A massless body on a joint that carries bodies with mass moves them,
    // as a joint frame does (Drake's PR2 base: x, y and θ through two
    // massless links); M(q) gets their inertia.
    if (!carries_mass[i]) {
      throw InputError(body.where.ToString() + ": '" + body.name + "' moves (joint '" + it->second->name +
                       "') but has no mass, and nothing welded to it or outboard of it has any; give it an " +
                       mass_element);
    }
    body.joint_frame = true;
    robot->notes.push_back(body.where.ToString() + ": '" + body.name + "' moves (joint '" + it->second->name +
                           "') without mass: a joint frame that moves the links outboard of it");
  }
}

void StartInsideLimits(const std::map<std::string, double>& given, RobotDescription* robot) {
  auto follows = [&](const std::string& name) {
    return std::any_of(robot->couplers.begin(), robot->couplers.end(),
                       [&](const JointCouplerDescription& c) { return c.joint == name; });
  };
  for (JointDescription& j : robot->joints) {
    const bool axial = j.type == JointType::kRevolute || j.type == JointType::kPrismatic;
    if (!axial || !j.initial_q.empty() || given.count(j.name) || follows(j.name)) continue;
    const double q0 = std::clamp(0.0, j.lower_limit, j.upper_limit);
    if (q0 == 0.0) continue;
    j.initial_q = {q0};
    robot->notes.push_back(j.where.ToString() + ": joint '" + j.name + "' starts at " + FormatNumber(q0) +
                           (q0 == j.lower_limit ? ", its lower limit" : ", its upper limit") +
                           ": 0 is outside [" + FormatNumber(j.lower_limit) + ", " + FormatNumber(j.upper_limit) +
                           "] (set `initial:` in the scene to choose)");
  }
}

}  // namespace stiction
