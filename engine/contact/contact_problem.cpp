#include "engine/contact/contact_problem.h"

namespace stiction {

void Constraint::Evaluate(Eigen::Ref<const VectorX> vc, ConstraintEvaluation* out) const {
  switch (kind) {
    case ConstraintKind::kFrictionCone:
      EvaluateFrictionCone(cone, Vector3(vc[0], vc[1], vc[2]), out);
      break;
    case ConstraintKind::kClamped:
      EvaluateClamped(clamped, vc[0], out);
      break;
    case ConstraintKind::kBilateral:
      EvaluateBilateral(bilateral, vc, out);
      break;
    case ConstraintKind::kHuntCrossley:
      EvaluateHuntCrossley(hc, Vector3(vc[0], vc[1], vc[2]), out);
      break;
  }
}

std::uint64_t MakeConstraintKey(ConstraintOrigin origin, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return (static_cast<std::uint64_t>(origin) << 56) | ((a & 0xFFFFFu) << 36) | ((b & 0xFFFFFu) << 16) |
         (c & 0xFFFFu);
}

int ContactProblem::num_rows() const {
  int rows = 0;
  for (const Constraint& c : constraints) rows += c.num_rows;
  return rows;
}

}  // namespace stiction
