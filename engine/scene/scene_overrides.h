#pragma once
// Command-line overrides of scene values: "dotted.key=value" (the CLI's --set).
// They edit the YAML tree before validation, so an overridden value gets
// exactly the same checks as one written in the file.
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace stiction {

/// One parsed "a.b.c=value" assignment.
struct OverrideAssignment {
  std::string text;               ///< The assignment as given, e.g. "bodies.box.mass=2".
  std::vector<std::string> path;  ///< Key segments, e.g. {"bodies", "box", "mass"}.
  std::string value;              ///< The text after the first '=', parsed as YAML.
};

/// The "file" part of error messages about an overridden value:
/// "--set bodies.box.mass=2".
std::string OverrideLabel(const std::string& assignment);

/// Splits "a.b.c=value" at the first '='. Throws InputError
/// ("--set KEY=VALUE: reason") when the '=' is missing or a key segment is
/// empty.
OverrideAssignment ParseOverride(const std::string& assignment);

/// Applies one assignment to `root` (a YAML map) and returns the node that now
/// holds the new value (or the topmost map the override had to create), so
/// callers can remember where it came from.
///
/// Path segments select map keys; inside a sequence a segment selects the
/// element whose `name` equals it, else (if it is a non-negative integer) the
/// element with that index. The value is parsed as YAML ("1e-3", "[0, 0, -1]",
/// "{theta: 1, theta_vq: 1}", "midpoint"). Missing map keys are created (the
/// loader then rejects unknown ones); a missing list element, or a path
/// through a scalar, throws InputError naming the segment, e.g.
/// "--set bodies.foo.mass=1: no element named 'foo' in 'bodies'".
YAML::Node ApplyOverride(YAML::Node& root, const std::string& assignment);

}  // namespace stiction
