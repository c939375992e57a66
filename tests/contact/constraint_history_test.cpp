// ConstraintHistory: what each constraint carried in the previous step, by
// key, for warm starts and the carried-load estimate.
#include "engine/contact/constraint_history.h"

#include <gtest/gtest.h>

namespace stiction {
namespace {

ContactProblem TwoConstraints(std::uint64_t key_a, int rows_a, std::uint64_t key_b, int rows_b) {
  ContactProblem p;
  p.dt = 0.01;
  p.constraints.resize(2);
  p.constraints[0].key = key_a;
  p.constraints[0].num_rows = rows_a;
  p.constraints[1].key = key_b;
  p.constraints[1].num_rows = rows_b;
  return p;
}

TEST(ConstraintHistoryTest, ImpulsesAreFoundByKeyAndRowCount) {
  ConstraintHistory history;
  EXPECT_TRUE(history.Impulse(7, 3).empty());
  EXPECT_EQ(history.dt(), 0.0);
  const ContactProblem p = TwoConstraints(7, 3, 9, 1);
  VectorX gamma(4);
  gamma << 1, 2, 3, 4;
  history.Save(p, gamma, VectorX());
  EXPECT_EQ(history.dt(), 0.01);
  const std::span<const double> a = history.Impulse(7, 3);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(a[1], 2);
  EXPECT_EQ(a[2], 3);
  const std::span<const double> b = history.Impulse(9, 1);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0], 4);
  // A key seen with another row count is another constraint.
  EXPECT_TRUE(history.Impulse(9, 3).empty());
  EXPECT_TRUE(history.Impulse(8, 3).empty());
  // Save replaces the store; Clear empties it.
  history.Save(TwoConstraints(1, 1, 2, 1), VectorX::Ones(2), VectorX());
  EXPECT_TRUE(history.Impulse(7, 3).empty());
  history.Clear();
  EXPECT_TRUE(history.Impulse(1, 1).empty());
  // A key repeated within one problem keeps its last constraint's values.
  VectorX two(2);
  two << 5, 6;
  history.Save(TwoConstraints(3, 1, 3, 1), two, VectorX());
  ASSERT_EQ(history.Impulse(3, 1).size(), 1u);
  EXPECT_EQ(history.Impulse(3, 1)[0], 6);
}

TEST(ConstraintHistoryTest, WarmStartsGoToTheConstraintsItRecognizes) {
  ConstraintHistory history;
  VectorX gamma(4), slack(4);
  gamma << 1, 2, 3, 4;
  slack << 5, 6, 7, 8;
  history.Save(TwoConstraints(7, 3, 9, 1), gamma, slack);
  // Next step: 9 is back with one row, 7 with a different row count, 5 is new.
  ContactProblem next = TwoConstraints(9, 1, 7, 1);
  next.constraints.resize(3);
  next.constraints[2].key = 5;
  next.constraints[2].num_rows = 3;
  next.constraints[2].warm_gamma = VectorX::Ones(3);  // Stale values are dropped.
  EXPECT_EQ(history.ApplyWarmStart(&next), 1);
  EXPECT_EQ(next.constraints[0].warm_gamma, VectorX::Constant(1, 4));
  EXPECT_EQ(next.constraints[0].warm_slack, VectorX::Constant(1, 8));
  EXPECT_EQ(next.constraints[1].warm_gamma.size(), 0);
  EXPECT_EQ(next.constraints[2].warm_gamma.size(), 0);
}

}  // namespace
}  // namespace stiction
