// Why no exact solver settles the clutter at μ = 1 (docs/solvers.md, "CANAL
// in piles"), on the smallest case that shows it, with its analytic answer.
//
// A point mass m in the corner between the floor (normal +z) and a wall
// (normal +x), overlapping both by d. Penetration recovery asks each contact
// to separate at w = r d / δt (e_n = r φ0/δt, [CANAL] Eq. 3). Separating from
// both means sliding along both, and each sliding friction pushes the mass
// back into the other surface. With normal impulses N_f (floor) and N_w
// (wall), both contacts active and sliding:
//   x:  m w = N_w − μ N_f
//   z:  m w = −m g δt + N_f − μ N_w
// so N_f = m (w (1 + μ) + g δt) / (1 − μ²) and N_w = m w + μ N_f. Every other
// mode contradicts a request: a contact that opens or sticks leaves the other
// one's friction unbalanced, or stops the motion its neighbour asks for. For
// μ ≥ 1 the feedback gain μ² reaches 1 and the exact NCP has no solution:
// the multipliers of every exact solver grow with its iterations instead of
// converging. In the clutter (μ = 1, walls at right angles to the floor) the
// settled pile has such corners, which is where CANAL's steps at its cap come
// from once the pile is at rest. Without recovery (d = 0) the mass rests with
// N_f = m g δt for every μ. With the recovery moved out of the velocity
// problem (`split_recovery`, engine/solvers/position_recovery.h) the NCP is
// the one without recovery, and the overlap is removed by a frictionless
// position correction, which always has an answer.
#include <gtest/gtest.h>

#include "engine/solvers/canal_solver.h"
#include "engine/solvers/pgs_solver.h"
#include "engine/solvers/position_recovery.h"

namespace stiction {
namespace {

constexpr double kMass = 1.0;      // kg
constexpr double kDt = 0.01;       // s
constexpr double kGravity = 9.81;  // m/s²
constexpr double kRecovery = 0.2;  // r, both solvers' default

// Rows of a contact: two tangents, then the normal.
ContactProblem Corner(double mu, double overlap) {
  ContactProblem p;
  p.dt = kDt;
  p.tree_v_start = {0};
  p.tree_nv = {3};
  p.A = {kMass * MatrixX::Identity(3, 3)};
  p.v_star = Vector3(0, 0, -kGravity * kDt);
  Constraint floor;
  floor.num_rows = 3;
  floor.origin = ConstraintOrigin::kContact;
  floor.mu = floor.cone.mu = mu;
  floor.phi0 = -overlap;
  floor.key = 1;
  floor.blocks = {{0, MatrixX::Identity(3, 3)}};  // t = x, y; n = z.
  Constraint wall = floor;
  wall.key = 2;
  MatrixX J_wall(3, 3);
  J_wall << 0, 1, 0,  // t = y
      0, 0, 1,        // t = z
      1, 0, 0;        // n = x
  wall.blocks = {{0, J_wall}};
  p.constraints = {floor, wall};
  return p;
}

// CANAL stops on velocity changes below 1e-10 m/s, PGS below 1e-12 m/s;
// the caps are the tests' own.
template <class Parameters>
Parameters Exact(int max_iterations, double tolerance) {
  Parameters params;
  params.tolerance = tolerance;
  params.max_iterations = max_iterations;
  params.penetration_recovery = kRecovery;
  return params;
}
CanalSolverParameters Canal(int max_iterations) { return Exact<CanalSolverParameters>(max_iterations, 1e-10); }
PgsSolverParameters Pgs(int max_iterations) { return Exact<PgsSolverParameters>(max_iterations, 1e-12); }

TEST(CornerJamTest, BelowMuOneEveryExactSolverFindsTheSlidingAnswer) {
  const double mu = 0.5, d = 1e-3;
  const double w = kRecovery * d / kDt;  // 2 cm/s
  const double n_floor = kMass * (w * (1 + mu) + kGravity * kDt) / (1 - mu * mu);
  const double n_wall = kMass * w + mu * n_floor;
  const ContactProblem p = Corner(mu, d);
  SolverResult canal, pgs;
  ASSERT_EQ(CanalSolver(Canal(100)).Solve(p, p.v_star, &canal), SolverStatus::kConverged) << canal.message;
  ASSERT_EQ(PgsSolver(Pgs(2000)).Solve(p, p.v_star, &pgs), SolverStatus::kConverged) << pgs.message;
  for (const SolverResult* r : {&canal, &pgs}) {
    // Velocities to 1e-8 m/s: both stop at velocity changes of 1e-10 m/s or
    // less, and the map contracts by μ² = 0.25 per PGS sweep.
    EXPECT_NEAR(r->v[0], w, 1e-8);
    EXPECT_NEAR(r->v[1], 0, 1e-8);
    EXPECT_NEAR(r->v[2], w, 1e-8);
    // Impulses: m = 1 kg times the velocity tolerance, over 1 − μ².
    EXPECT_NEAR(r->gamma[2], n_floor, 1e-7);
    EXPECT_NEAR(r->gamma[0], -mu * n_floor, 1e-7);  // Floor friction opposes the slide away from the wall.
    EXPECT_NEAR(r->gamma[5], n_wall, 1e-7);
    EXPECT_NEAR(r->gamma[4], -mu * n_wall, 1e-7);  // Wall friction opposes the slide up.
  }
}

TEST(CornerJamTest, AtMuOneWithRecoveryTheMultipliersGrowWithTheIterations) {
  const ContactProblem p = Corner(1.0, 1e-3);
  const double weight = kMass * kGravity * kDt;  // N s per step
  SolverResult canal_short, canal_long, pgs_short, pgs_long;
  EXPECT_EQ(CanalSolver(Canal(50)).Solve(p, p.v_star, &canal_short), SolverStatus::kMaxIterations);
  EXPECT_EQ(CanalSolver(Canal(200)).Solve(p, p.v_star, &canal_long), SolverStatus::kMaxIterations);
  EXPECT_EQ(PgsSolver(Pgs(500)).Solve(p, p.v_star, &pgs_short), SolverStatus::kMaxIterations);
  EXPECT_EQ(PgsSolver(Pgs(2000)).Solve(p, p.v_star, &pgs_long), SolverStatus::kMaxIterations);
  SCOPED_TRACE(testing::Message() << "floor impulse [N s]: CANAL " << canal_short.gamma[2] << " after 50, "
                                  << canal_long.gamma[2] << " after 200 AL iterations; PGS " << pgs_short.gamma[2]
                                  << " after 500, " << pgs_long.gamma[2] << " after 2000 sweeps; weight "
                                  << weight << "; CANAL residual " << canal_short.constraint_residual << ", "
                                  << canal_long.constraint_residual << " m/s");
  // No solution to converge to. PGS's squeeze grows by the same amount every
  // sweep, well past any finite answer's scale (the weight), and by at least
  // half again with four times the sweeps. CANAL returns its best iterate
  // at the cap (canal_solver.cpp), and four times the AL iterations find no
  // better one: its residual stays at the scale of the requested
  // separation speed w = 2 cm/s, not of its tolerance.
  const double w = kRecovery * 1e-3 / kDt;
  EXPECT_GT(canal_short.constraint_residual, 0.1 * w);
  EXPECT_GE(canal_long.constraint_residual, canal_short.constraint_residual);
  EXPECT_GT(pgs_long.gamma[2], 1.5 * pgs_short.gamma[2]);
  EXPECT_GT(pgs_long.gamma[2], 10 * weight);
}

TEST(CornerJamTest, AtMuOneWithoutAnOverlapTheMassRestsOnTheFloor) {
  const ContactProblem p = Corner(1.0, 0.0);
  SolverResult canal, pgs;
  ASSERT_EQ(CanalSolver(Canal(100)).Solve(p, p.v_star, &canal), SolverStatus::kConverged) << canal.message;
  ASSERT_EQ(PgsSolver(Pgs(100)).Solve(p, p.v_star, &pgs), SolverStatus::kConverged) << pgs.message;
  for (const SolverResult* r : {&canal, &pgs}) {
    EXPECT_NEAR(r->v.norm(), 0, 1e-8);
    EXPECT_NEAR(r->gamma[2], kMass * kGravity * kDt, 1e-8);  // The weight, 1 kg × 1e-8 m/s.
    EXPECT_NEAR(r->gamma.tail<3>().norm(), 0, 1e-8);         // The wall carries nothing.
  }
}

TEST(CornerJamTest, AtMuOneWithSplitRecoveryTheVelocityProblemRestsAndPositionsSeparateFromBoth) {
  const double d = 1e-3;
  const ContactProblem p = Corner(1.0, d);
  CanalSolverParameters canal_params = Canal(100);
  canal_params.split_recovery = true;
  PgsSolverParameters pgs_params = Pgs(100);
  pgs_params.split_recovery = true;
  SolverResult canal, pgs;
  ASSERT_EQ(CanalSolver(canal_params).Solve(p, p.v_star, &canal), SolverStatus::kConverged) << canal.message;
  ASSERT_EQ(PgsSolver(pgs_params).Solve(p, p.v_star, &pgs), SolverStatus::kConverged) << pgs.message;
  for (const SolverResult* r : {&canal, &pgs}) {
    // The overlap neither deepens nor is pushed out by velocity: at rest,
    // the floor carries the weight and the wall nothing.
    EXPECT_NEAR(r->v.norm(), 0, 1e-8);
    EXPECT_NEAR(r->gamma[2], kMass * kGravity * kDt, 1e-8);
    EXPECT_NEAR(r->gamma.tail<3>().norm(), 0, 1e-8);
  }
  // The position correction: min ½ m ‖Δv‖² with Δv_x ≥ w and Δv_z ≥ w,
  // w = r d / δt (the step leaves the overlap d, v = 0), is Δv = (w, 0, w):
  // out of both surfaces at once, which friction cannot oppose here.
  const double w = kRecovery * d / kDt;
  PositionRecovery recovery;
  VectorX dv;
  const PositionRecoveryResult result = recovery.Solve(p, VectorX::Zero(3), canal.v, 0.5, {.recovery = kRecovery}, &dv);
  EXPECT_TRUE(result.converged);
  EXPECT_NEAR(dv[0], w, 1e-9);
  EXPECT_NEAR(dv[1], 0, 1e-9);
  EXPECT_NEAR(dv[2], w, 1e-9);
  EXPECT_NEAR(result.max_correction_m, kRecovery * d, 1e-11);
}

// A step that stops the mass at the floor: no overlap at the start, the
// wall 1 cm away, v0 = −1 m/s into the floor and v = 0.
struct FloorImpact {
  ContactProblem p = Corner(0.5, 0.0);
  VectorX v0 = Vector3(0, 0, -1);
  VectorX v = VectorX::Zero(3);
  FloorImpact() { p.constraints[1].phi0 = 0.01; }
};

TEST(CornerJamTest, ThePositionCorrectionTakesTheStepsMotionIntoAccount) {
  // No overlap at the start, but the step's velocities (v0 = −1 m/s, v = 0
  // into the floor, positions integrating their mean under the midpoint
  // rule) carry the mass δt/2 · 1 m/s = 5 mm into it: the correction removes
  // r of those 5 mm. A gap the step leaves open (the wall, 1 cm away) asks
  // for nothing.
  auto [p, v0, v] = FloorImpact();
  PositionRecovery recovery;
  VectorX dv;
  recovery.Solve(p, v0, v, 0.5, {.recovery = kRecovery}, &dv);
  EXPECT_NEAR(dv[0], 0, 1e-12);
  EXPECT_NEAR(dv[1], 0, 1e-12);
  EXPECT_NEAR(dv[2], kRecovery * 0.005 / kDt, 1e-9);
  // Nothing overlaps after a step that stops at the surface: Δv = 0.
  v0.setZero();
  recovery.Solve(p, v0, v, 0.5, {.recovery = kRecovery}, &dv);
  EXPECT_EQ(dv.norm(), 0);
}

TEST(CornerJamTest, TheArrivalCorrectionEndsAnImpactWhereTheContactProblemPutIt) {
  // The impact of the test above without split recovery: the problem stops
  // the mass at the floor (v = 0 from v0 = −1 m/s), but the midpoint rule's
  // positions integrate the mean velocity and carry it δt/2 · 1 m/s = 5 mm
  // in. `arrival` ends it at the problem's prediction φ0 + δt v_n = 0.
  auto [p, v0, v] = FloorImpact();
  PositionRecovery recovery;
  VectorX dv;
  const PositionRecoveryResult result = recovery.Solve(p, v0, v, 0.5, {.arrival = true}, &dv);
  EXPECT_NEAR(dv[0], 0, 1e-12);
  EXPECT_NEAR(dv[1], 0, 1e-12);
  EXPECT_NEAR(dv[2], 0.005 / kDt, 1e-9);
  EXPECT_NEAR(result.max_correction_m, 0.005, 1e-11);
  // With split recovery as well, the higher target wins: the surface, over
  // (1 − r) of the 5 mm.
  recovery.Solve(p, v0, v, 0.5, {.recovery = kRecovery, .arrival = true}, &dv);
  EXPECT_NEAR(dv[2], 0.005 / kDt, 1e-9);
  // A contact the problem leaves 2 mm deep (v_n = −0.2 m/s from φ0 = 0, a
  // compliant contact's deformation): the positions' mean velocity,
  // −0.6 m/s, would leave it 6 mm deep; the correction ends it at the 2 mm
  // the problem's force assumed, not at the surface.
  v << 0, 0, -0.2;
  recovery.Solve(p, v0, v, 0.5, {.arrival = true}, &dv);
  EXPECT_NEAR(dv[2], 0.004 / kDt, 1e-9);
  // Implicit Euler's positions integrate v itself: nothing to correct.
  recovery.Solve(p, v0, v, 1.0, {.arrival = true}, &dv);
  EXPECT_EQ(dv.norm(), 0);
}

}  // namespace
}  // namespace stiction
