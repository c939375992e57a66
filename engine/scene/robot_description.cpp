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
  for (const BodyDescription& body : robot->bodies) {
    const auto it = inboard.find(body.name);
    const bool moves = it != inboard.end() && it->second->type != JointType::kFixed;
    // A joint frame moves massless by design: the body it carries has the
    // mass (this check holds for that body, the last of the chain).
    if (moves && !body.joint_frame && !(body.mass > 0)) {
      throw InputError(body.where.ToString() + ": '" + body.name + "' moves (joint '" + it->second->name +
                       "') but has no mass, and nothing welded to it has any; give it an " + mass_element);
    }
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
