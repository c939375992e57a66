#include "engine/contact/constraint_history.h"

#include <algorithm>
#include <cmath>

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

namespace {

// The last element of `sorted` (sorted by key) whose key is `key`, or null:
// among equal keys the last saved one.
template <class T>
const T* LastWithKey(const std::vector<T>& sorted, std::uint64_t key) {
  const auto after =
      std::upper_bound(sorted.begin(), sorted.end(), key, [](std::uint64_t k, const T& e) { return k < e.key; });
  if (after == sorted.begin() || (after - 1)->key != key) return nullptr;
  return &*(after - 1);
}

}  // namespace

const ConstraintHistory::Entry* ConstraintHistory::Find(std::uint64_t key, int rows) const {
  const Entry* e = LastWithKey(entries_, key);
  return e != nullptr && e->rows == rows ? e : nullptr;
}

void ConstraintHistory::SaveContactEnds(const ContactProblem& problem, const VectorX& gamma, const VectorX& v,
                                        bool rigid) {
  ends_.clear();
  int row = 0;
  for (const Constraint& c : problem.constraints) {
    const int first_row = row;
    row += c.num_rows;
    if (c.origin != ConstraintOrigin::kContact || c.num_rows != 3) continue;
    ContactEnd end;
    end.gap = c.phi0 + problem.dt * problem.RowVelocity(c, 2, v);
    if (c.kind == ConstraintKind::kHuntCrossley) {
      end.stiffness = c.hc.k;
      end.spring_stiffness = c.hc.k;
    } else if (c.kind == ConstraintKind::kFrictionCone && c.cone.Rn > 0) {
      end.stiffness = 1.0 / (c.cone.Rn * problem.dt * problem.dt);
      // At rest a SAP cone pushes v̂_n / (R_n δt) with v̂_n = x0 / (δt + τd).
      end.spring_stiffness = c.phi0 < 0 && c.cone.vn_hat > 0
                                 ? c.cone.vn_hat / (c.cone.Rn * problem.dt * -c.phi0)
                                 : end.stiffness;
    }
    end.rigid = rigid && !c.compliant;
    end.force = std::max(0.0, gamma[first_row + 2]) / problem.dt;
    ends_.push_back({c.key, end});
  }
  std::stable_sort(ends_.begin(), ends_.end(), [](const KeyedEnd& a, const KeyedEnd& b) { return a.key < b.key; });
}

ContactEnd ConstraintHistory::PreviousContactEnd(std::uint64_t key) const {
  const KeyedEnd* e = LastWithKey(ends_, key);
  return e != nullptr ? e->end : ContactEnd{};
}

double ConstraintHistory::ContactStoredEnergy() const {
  double energy = 0;
  for (const KeyedEnd& e : ends_) {
    const double k = e.end.spring_stiffness;
    if (e.end.rigid || !(k > 0) || !std::isfinite(k)) continue;
    energy += 0.5 * e.end.force * e.end.force / k;
  }
  return energy;
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
