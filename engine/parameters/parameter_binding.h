#pragma once
// One scalar parameter of a settings struct as scenes, the CLI, the viewer
// and the docs see it: its key, unit, one-line description and valid range,
// bound to the member that holds it. Each settings struct lists its
// parameters once, in a Bind…() function next to it; its default member
// initializers are the one place its defaults are written. The scene loader
// reads scene keys through these tables, the facade validates API calls with
// them, and `stiction-sim --list` prints them for docs/scene-format.md.
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace stiction {

/// The valid values of a number: an interval whose ends may be open, closed
/// or infinite.
struct ParameterRange {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;

  /// Whether x is a finite number in the interval (false for NaN and ±∞:
  /// every parameter is finite).
  bool Contains(double x) const;
  /// As in "must be …": "positive", ">= 0", "> 1", "in [0, 1]", "in (0, 1]".
  std::string Describe() const;
};

inline constexpr ParameterRange kAnyNumber{};
inline constexpr ParameterRange kPositive{0, std::numeric_limits<double>::infinity(), true, false};
inline constexpr ParameterRange kNonNegative{0, std::numeric_limits<double>::infinity(), false, false};
/// [lo, hi].
constexpr ParameterRange ClosedRange(double lo, double hi) { return {lo, hi, false, false}; }
/// (lo, hi).
constexpr ParameterRange OpenRange(double lo, double hi) { return {lo, hi, true, true}; }
/// (lo, ∞).
constexpr ParameterRange Above(double lo) { return {lo, std::numeric_limits<double>::infinity(), true, false}; }
/// [lo, ∞).
constexpr ParameterRange AtLeast(double lo) { return {lo, std::numeric_limits<double>::infinity(), false, false}; }

struct ParameterBinding {
  std::string_view key;          ///< Scene key (snake_case).
  std::string_view unit;         ///< SI unit, "" when dimensionless.
  std::string_view description;  ///< One line, for docs and help.
  std::variant<double*, int*, bool*> value;  ///< The member it reads and writes.
  ParameterRange range;          ///< Valid values of a number or integer.
};
using ParameterTable = std::vector<ParameterBinding>;

/// The bound value as text: shortest round-trip decimal, integer, true/false.
std::string FormatParameterValue(const ParameterBinding& p);

/// Throws InputError "<owner>: <key> must be <range> and finite, got <value>
/// [<unit>]" for the first parameter of `table` that is out of range or not
/// finite. For API edges (the facade, the viewer); the loader reports the
/// same ranges with file and line.
void CheckParameters(std::string_view owner, const ParameterTable& table);

/// CheckParameters on the table of a settings struct (a copy is bound, so
/// that a const struct can be checked).
template <typename Settings>
void CheckParameterRanges(std::string_view owner, const Settings& settings) {
  Settings copy = settings;
  CheckParameters(owner, BindParameters(copy));
}

}  // namespace stiction
