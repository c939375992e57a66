#include "engine/solvers/anderson_acceleration.h"

#include <Eigen/QR>

namespace stiction {

void AndersonAccelerator::Restart() {
  g_.clear();
  f_.clear();
  extrapolated_ = false;
}

const VectorX& AndersonAccelerator::Next(const VectorX& x, const VectorX& g) {
  if (memory_ <= 0) {
    next_ = g;
    return next_;
  }
  VectorX f = g - x;
  const double f_norm = f.norm();
  // Safeguard: x was an extrapolated point and G moved less well from it
  // than from the last accepted point. Reject it: go on from the plain step
  // G(x_last) = g_.back() and start the history again.
  if (extrapolated_ && !g_.empty() && (f_norm > last_f_norm_ || !f.allFinite())) {
    ++restarts_;
    next_ = g_.back();
    Restart();
    return next_;
  }
  if (!g_.empty() && g.size() != g_.back().size()) Restart();
  last_f_norm_ = f_norm;
  g_.push_back(g);
  f_.push_back(std::move(f));
  if (static_cast<int>(g_.size()) > memory_ + 1) {
    g_.erase(g_.begin());
    f_.erase(f_.begin());
  }
  next_ = g;
  extrapolated_ = false;
  const int m = static_cast<int>(g_.size()) - 1;
  if (m == 0) return next_;
  dF_.resize(g.size(), m);
  dG_.resize(g.size(), m);
  for (int j = 0; j < m; ++j) {
    dF_.col(j) = f_[j + 1] - f_[j];
    dG_.col(j) = g_[j + 1] - g_[j];
  }
  // Column-pivoting QR: the differences become nearly dependent as the
  // iteration converges; the pivoting keeps γ bounded there.
  const VectorX gamma = dF_.colPivHouseholderQr().solve(f_.back());
  if (!gamma.allFinite()) return next_;
  VectorX extrapolated = g - dG_ * gamma;
  if (!extrapolated.allFinite()) return next_;
  next_ = std::move(extrapolated);
  extrapolated_ = true;
  return next_;
}

}  // namespace stiction
