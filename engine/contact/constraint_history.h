#pragma once
// What each constraint of the previous step carried, keyed by
// Constraint::key: its impulse γ and slack z after the last usable solve.
// Four users read it, all outside the solvers so that every solver stays a
// function of its problem (islands, threads and solver switches need no
// care):
//   * warm starts ([CANAL] Sec. V-D: u and z from the previous step), which
//     ApplyWarmStart writes into Constraint::warm_gamma / warm_slack;
//   * the carried-load regularization of near-rigid constraints
//     (near_rigid.h), which reads the impulse each constraint carried;
//   * Hunt & Crossley contacts, which read how each contact left the last
//     step (ContactEnd: its predicted gap and stiffness) to tell depth a
//     solve produced from depth that appeared outside one;
//   * the energy compressed contacts hold (ContactStoredEnergy), which the
//     soak's energy budget hands over at a model or solver switch.
// Keys only say "probably the same constraint": a mismatch in row count
// drops the value. Saved every step: the store keeps its capacity (stacked
// values and a sorted key index), so that a steady stream of steps
// allocates nothing.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"

namespace stiction {

/// How a contact left the last step: the gap its solve predicted for the
/// step's end, φ0 + δt J_n v [m], and the normal stiffness it had [N/m]: a
/// Hunt & Crossley contact's k, a SAP cone's 1/(R_n δt²) (the slope of its
/// normal impulse in the depth, as near_rigid.h's NearRigidStiffness).
struct ContactEnd {
  double gap = std::numeric_limits<double>::quiet_NaN();
  double stiffness = std::numeric_limits<double>::quiet_NaN();
  /// Solved as rigid contact (an exact solver's Signorini row): its depth
  /// is an error the solver recovers, not a spring's deformation.
  bool rigid = false;
  /// The normal force the solve gave it, γ_n / δt [N].
  double force = 0;
  /// Its force per depth at rest, F / x [N/m]: a Hunt & Crossley contact's
  /// k, a SAP cone's 1/(R_n δt (δt + τd)) (its `stiffness` is the slope in
  /// the step's end depth, which counts τd's damping as stiffness).
  double spring_stiffness = std::numeric_limits<double>::quiet_NaN();
};

class ConstraintHistory {
 public:
  void Clear() {
    entries_.clear();
    ends_.clear();
  }
  /// Replaces the store with every constraint's rows of `gamma` and `slack`
  /// (stacked in problem order; an empty `slack` stores zeros) and the
  /// problem's time step.
  void Save(const ContactProblem& problem, const VectorX& gamma, const VectorX& slack);
  /// Records, for every contact constraint of `problem`, how the step's
  /// last solve left it (ContactEnd) at the solved velocities `v` (every
  /// tree's). Kept apart from the impulses, which every solve of a step
  /// replaces (the sudden-load re-solve reads the first solve's): the
  /// contact ends are the previous step's for every solve of the next one.
  /// `rigid`: the solve treated contacts as rigid (an exact solver), except
  /// pressure-field polygons, which keep their compliance in every solver.
  void SaveContactEnds(const ContactProblem& problem, const VectorX& gamma, const VectorX& v, bool rigid);
  /// How the last step left the contact constraint with `key` (3 rows);
  /// both NaN when it was not in that step's problem.
  ContactEnd PreviousContactEnd(std::uint64_t key) const;
  /// The energy the last step's compliant contacts hold [J]: Σ F² / (2 k),
  /// a spring of the contact's stiffness at rest k (ContactEnd::
  /// spring_stiffness) carrying the solved normal force F: a Hunt &
  /// Crossley contact's ∫ k x dx at the depth where k x = F, and likewise
  /// for a SAP cone's spring. The force, not the depth: a Hunt & Crossley
  /// contact separating faster than 1/d pushes with nothing however deep
  /// it is, and depth no solve produced is softened
  /// (contact_constraints.cpp), so ½ k x² would count energy no contact
  /// gives back. Rigid ends count nothing: an exact solver's overlap is no
  /// spring, and the work its recovery does depends on how it is pushed
  /// out, not on the state (F x at one step measured half of it,
  /// ContactStoredEnergyTest).
  double ContactStoredEnergy() const;
  /// The impulse [N s or N m s per row] the constraint with `key` carried,
  /// when it had `rows` rows; empty when it was not in the last problem.
  std::span<const double> Impulse(std::uint64_t key, int rows) const;
  /// Writes the stored values into the constraints of `problem` whose key
  /// was seen with the same number of rows (the others keep none). Returns
  /// how many constraints were found.
  int ApplyWarmStart(ContactProblem* problem) const;
  /// The time step [s] over which the stored impulses acted (0 before any Save).
  double dt() const { return dt_; }
  /// Bytes held (for a state history's memory cap).
  std::size_t Bytes() const {
    return sizeof(*this) + entries_.capacity() * sizeof(Entry) +
           sizeof(double) * static_cast<std::size_t>(gamma_.size() + slack_.size()) +
           ends_.capacity() * sizeof(KeyedEnd);
  }

 private:
  struct Entry {
    std::uint64_t key;
    int row;   // First row in gamma_ and slack_.
    int rows;
  };
  struct KeyedEnd {
    std::uint64_t key;
    ContactEnd end;
  };
  // The entry of `key` with `rows` rows, or null.
  const Entry* Find(std::uint64_t key, int rows) const;

  std::vector<Entry> entries_;  // Sorted by key; a repeated key keeps its last constraint.
  VectorX gamma_, slack_;
  std::vector<KeyedEnd> ends_;  // Sorted by key; a repeated key keeps its last contact.
  double dt_ = 0;
};

}  // namespace stiction
