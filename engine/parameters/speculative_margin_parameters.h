#pragma once
// The speculative margin of the contact query (docs/contact-model.md, step
// 1; ThetaMethodStepper::CalcSpeculativeMargin): pairs closer than it enter
// the contact problem with φ > 0. Keys at `solver:`'s top level, live like
// every other solver key.
#include "engine/parameters/parameter_binding.h"

namespace stiction {

struct SpeculativeMarginParameters {
  /// The margin bounds every body's approach speed by |v_cm| + r |ω|. With
  /// false (the default, as before 2026-11-28) r = 0.1 m for every body;
  /// with true r is the body's own extent: the radius about its centre of
  /// mass of a sphere holding its collision geometry. A 12 mm marble
  /// rolling at 1 m/s then counts as 2 m/s instead of 9.3 m/s, and a 1 m
  /// plank's tip is no longer under-estimated.
  bool body_extents = false;
};

/// `speculative_body_extents`.
ParameterTable BindParameters(SpeculativeMarginParameters& p);

}  // namespace stiction
