#pragma once
// Anderson acceleration (type II, [Anderson]) of a fixed-point
// iteration x ← G(x): from the last m + 1 pairs (x_i, G(x_i)) it proposes
//   x⁺ = G(x_k) − Σ_j γ_j (G(x_{j+1}) − G(x_j)),
//   γ = argmin ‖f_k − Σ_j γ_j (f_{j+1} − f_j)‖₂,  f_i = G(x_i) − x_i,
// which for an affine G is GMRES on (I − M) x = b and, in general, turns a
// linearly converging iteration into a much faster one. Safeguard for a
// nonsmooth G: when G at an extrapolated point moves more (‖f‖ larger) than
// at the last accepted point, that point is rejected, the iteration goes on
// from the last accepted point's plain step and the history restarts.
// CANAL accelerates its AL update with it (canal_solver.h, docs/solvers.md
// "CANAL in piles"); the class knows nothing of contact.
#include <vector>

#include "engine/common/eigen_types.h"

namespace stiction {

class AndersonAccelerator {
 public:
  /// memory m ≥ 0: how many differences enter the least-squares problem
  /// (0: every call returns g, the plain iteration).
  explicit AndersonAccelerator(int memory = 0) : memory_(memory) {}

  void set_memory(int memory) { memory_ = memory; Restart(); }
  int memory() const { return memory_; }
  /// Forgets the history (call when G changes, e.g. a new penalty).
  void Restart();
  /// x: the point G was evaluated at (the point the previous call returned,
  /// or the start); g = G(x). Returns the next point: the extrapolation when
  /// the history holds a difference; g itself when it does not or the
  /// extrapolation is not finite; the last accepted point's g when x was an
  /// extrapolation that the safeguard rejects.
  const VectorX& Next(const VectorX& x, const VectorX& g);
  /// How often the safeguard rejected an extrapolated point.
  int restarts() const { return restarts_; }

 private:
  int memory_ = 0;
  std::vector<VectorX> g_, f_;  // Oldest first, at most memory_ + 1 each.
  double last_f_norm_ = 0;
  bool extrapolated_ = false;  // The point returned last was an extrapolation.
  int restarts_ = 0;
  VectorX next_;
  MatrixX dF_, dG_;
};

}  // namespace stiction
