#include "engine/parameters/parameter_binding.h"

#include <charconv>
#include <cmath>

#include "engine/common/error.h"
#include "engine/common/text.h"

namespace stiction {

bool ParameterRange::Contains(double x) const {
  if (!std::isfinite(x)) return false;
  const bool above = lo_open ? x > lo : x >= lo;
  const bool below = hi_open ? x < hi : x <= hi;
  return above && below;
}

std::string ParameterRange::Describe() const {
  if (std::isinf(hi)) {
    if (std::isinf(lo)) return "a number";
    if (lo == 0) return lo_open ? "positive" : ">= 0";
    return (lo_open ? "> " : ">= ") + FormatNumber(lo);
  }
  return std::string("in ") + (lo_open ? "(" : "[") + FormatNumber(lo) + ", " + FormatNumber(hi) +
         (hi_open ? ")" : "]");
}

std::string FormatParameterValue(const ParameterBinding& p) {
  if (const bool* const* flag = std::get_if<bool*>(&p.value)) return **flag ? "true" : "false";
  if (const int* const* integer = std::get_if<int*>(&p.value)) return std::to_string(**integer);
  char buffer[32];
  const double value = *std::get<double*>(p.value);
  const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, r.ptr);
}

void CheckParameters(std::string_view owner, const ParameterTable& table) {
  for (const ParameterBinding& p : table) {
    if (std::holds_alternative<bool*>(p.value)) continue;
    const double value = std::holds_alternative<int*>(p.value) ? *std::get<int*>(p.value)
                                                               : *std::get<double*>(p.value);
    if (p.range.Contains(value)) continue;
    std::string message = std::string(owner) + ": " + std::string(p.key) + " must be " + p.range.Describe() +
                          " and finite, got " + FormatParameterValue(p);
    if (!p.unit.empty()) message += " [" + std::string(p.unit) + "]";
    throw InputError(message);
  }
}

}  // namespace stiction
