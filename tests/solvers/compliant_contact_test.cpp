// Pressure-field polygons (Constraint::compliant) in the exact-NCP solvers
// (issue 36 item 5; ncp_constraints.h): a compliant polygon keeps SAP's
// convex cost of its own compliance, so on a problem made only of such
// polygons CANAL, SubADMM and exact PGS solve SAP's convex problem
// ([SAP] Eq. 18) and must find SAP's minimizer. Before, they made each
// polygon a rigid contact and pushed its overlap (the deformation) out.
#include <gtest/gtest.h>

#include "engine/solvers/canal_solver.h"
#include "engine/solvers/ncp_constraints.h"
#include "engine/solvers/pgs_solver.h"
#include "engine/solvers/sap_solver.h"
#include "engine/solvers/subadmm_solver.h"
#include "tests/solvers/test_problems.h"

namespace stiction {
namespace {

ContactProblem CompliantProblem(unsigned seed) {
  ContactProblem p = test::RandomProblem(seed, 3, 8);
  for (Constraint& c : p.constraints) {
    c.origin = ConstraintOrigin::kContact;
    c.mu = c.cone.mu;
    c.phi0 = -1e-3;  // Overlapping, as a pressure-field polygon is.
    c.compliant = true;
  }
  return p;
}

TEST(CompliantContactTest, APolygonIsSoftOnlyWithSapsCone) {
  Constraint c;
  c.origin = ConstraintOrigin::kContact;
  c.num_rows = 3;
  EXPECT_EQ(NcpTypeOf(c), NcpConstraintType::kContact);
  c.compliant = true;
  EXPECT_EQ(NcpTypeOf(c), NcpConstraintType::kSoft);
  c.kind = ConstraintKind::kHuntCrossley;  // Its own model: still rigid there.
  EXPECT_EQ(NcpTypeOf(c), NcpConstraintType::kContact);
}

TEST(CompliantContactTest, EveryExactSolverFindsSapsMinimizer) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    const ContactProblem p = CompliantProblem(seed);
    SapSolverParameters sap_params;
    sap_params.relative_tolerance = 1e-12;
    SolverResult sap;
    ASSERT_EQ(SapSolver(sap_params).Solve(p, p.v_star, &sap), SolverStatus::kConverged) << sap.message;

    CanalSolverParameters canal_params;
    canal_params.max_iterations = 200;
    canal_params.tolerance = 1e-10;
    SubAdmmSolverParameters subadmm_params;
    subadmm_params.max_iterations = 20000;
    subadmm_params.tolerance = 1e-10;
    PgsSolverParameters pgs_params;
    pgs_params.max_iterations = 20000;
    pgs_params.tolerance = 1e-12;
    SolverResult canal, subadmm, pgs;
    ASSERT_EQ(CanalSolver(canal_params).Solve(p, p.v_star, &canal), SolverStatus::kConverged) << canal.message;
    ASSERT_EQ(SubAdmmSolver(subadmm_params).Solve(p, p.v_star, &subadmm), SolverStatus::kConverged)
        << subadmm.message;
    ASSERT_EQ(PgsSolver(pgs_params).Solve(p, p.v_star, &pgs), SolverStatus::kConverged) << pgs.message;
    const double scale = sap.v.norm();
    EXPECT_LT((canal.v - sap.v).norm(), 1e-6 * scale);
    EXPECT_LT((subadmm.v - sap.v).norm(), 1e-6 * scale);
    EXPECT_LT((pgs.v - sap.v).norm(), 1e-6 * scale);
    EXPECT_LT((subadmm.gamma - sap.gamma).norm(), 1e-6 * sap.gamma.norm());
  }
}

}  // namespace
}  // namespace stiction
