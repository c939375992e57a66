#pragma once
// What the contact inspector says about a pressure-field patch when the
// selected contact is one of its polygons: the body pair, area, net force
// (normal and tangential) and moment from the solved impulses, pressure
// centroid, peak and mean pressure, polygon count. Lines of text (ASCII,
// units on every figure), so the panel and the tests read the same words.
#include <string>
#include <vector>

#include "app/snapshot.h"

namespace stiction::app {

/// The inspector's lines for `surface` (index `surface_index` in the
/// snapshot) with its polygon `polygon` selected.
std::vector<std::string> DescribePatch(const ContactSurfaceSnapshot& surface, int surface_index, int polygon);

}  // namespace stiction::app
