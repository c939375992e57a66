#include "engine/contact/constraint_history.h"

#include <algorithm>
#include <limits>

namespace stiction {

void ConstraintHistory::Save(const ContactProblem& problem, const VectorX& gamma, const VectorX& slack) {
  dt_ = problem.dt;
  gamma_ = gamma;
  if (slack.size() > 0) {
    slack_ = slack;
  } else {
    slack_.setZero(gamma.size());
  }
  entries_.clear();
  int row = 0;
  for (const Constraint& c : problem.constraints) {
    entries_.push_back({c.key, row, c.num_rows});
    row += c.num_rows;
  }
  // Stable: among equal keys the last constraint stays last, and Find takes it.
  std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
}

const ConstraintHistory::Entry* ConstraintHistory::Find(std::uint64_t key, int rows) const {
  const auto after = std::upper_bound(entries_.begin(), entries_.end(), key,
                                      [](std::uint64_t k, const Entry& e) { return k < e.key; });
  if (after == entries_.begin()) return nullptr;
  const Entry& e = *(after - 1);
  return e.key == key && e.rows == rows ? &e : nullptr;
}

void ConstraintHistory::SaveContactEnds(const ContactProblem& problem, const VectorX& v) {
  ends_.clear();
  for (const Constraint& c : problem.constraints) {
    if (c.origin != ConstraintOrigin::kContact || c.num_rows != 3) continue;
    ContactEnd end;
    end.gap = c.phi0 + problem.dt * problem.RowVelocity(c, 2, v);
    if (c.kind == ConstraintKind::kHuntCrossley) {
      end.stiffness = c.hc.k;
    } else if (c.kind == ConstraintKind::kFrictionCone && c.cone.Rn > 0) {
      end.stiffness = 1.0 / (c.cone.Rn * problem.dt * problem.dt);
    }
    ends_.push_back({c.key, end});
  }
  std::stable_sort(ends_.begin(), ends_.end(), [](const KeyedEnd& a, const KeyedEnd& b) { return a.key < b.key; });
}

ContactEnd ConstraintHistory::PreviousContactEnd(std::uint64_t key) const {
  const auto after = std::upper_bound(ends_.begin(), ends_.end(), key,
                                      [](std::uint64_t k, const KeyedEnd& e) { return k < e.key; });
  if (after == ends_.begin() || (after - 1)->key != key) return {};
  return (after - 1)->end;
}

std::span<const double> ConstraintHistory::Impulse(std::uint64_t key, int rows) const {
  const Entry* e = Find(key, rows);
  if (e == nullptr) return {};
  return {gamma_.data() + e->row, static_cast<std::size_t>(e->rows)};
}

int ConstraintHistory::ApplyWarmStart(ContactProblem* problem) const {
  int found = 0;
  for (Constraint& c : problem->constraints) {
    const Entry* e = Find(c.key, c.num_rows);
    if (e == nullptr) {
      c.warm_gamma.resize(0);
      c.warm_slack.resize(0);
      continue;
    }
    c.warm_gamma = gamma_.segment(e->row, e->rows);
    c.warm_slack = slack_.segment(e->row, e->rows);
    ++found;
  }
  return found;
}

}  // namespace stiction
