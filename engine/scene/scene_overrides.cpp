#include "engine/scene/scene_overrides.h"

#include <charconv>
#include <cstddef>
#include <string_view>

#include "engine/common/error.h"
#include "engine/common/text.h"

namespace stiction {
namespace {

std::string_view Trim(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const std::size_t last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

[[noreturn]] void Fail(const std::string& assignment, const std::string& reason) {
  throw InputError(OverrideLabel(assignment) + ": " + OneLine(reason));
}


std::string Join(const std::vector<std::string>& path, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += '.';
    out += path[i];
  }
  return out;
}

bool ParseIndex(const std::string& s, std::size_t* index) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, *index);
  return ec == std::errc() && ptr == end;
}

// Finds the map value under `key` without creating it (yaml-cpp's non-const
// operator[] inserts). Returns an invalid-free "found" flag via `found`.
YAML::Node FindMapValue(const YAML::Node& map, const std::string& key, bool* found) {
  for (YAML::const_iterator it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) {
      *found = true;
      return it->second;
    }
  }
  *found = false;
  return YAML::Node();
}

// The element of `seq` whose `name` is `segment`, else the one at index
// `segment`.
YAML::Node FindSequenceElement(const YAML::Node& seq, const std::string& segment,
                               bool* found) {
  for (YAML::const_iterator it = seq.begin(); it != seq.end(); ++it) {
    const YAML::Node element = *it;
    if (!element.IsMap()) continue;
    bool has_name = false;
    const YAML::Node name = FindMapValue(element, "name", &has_name);
    if (has_name && name.IsScalar() && name.Scalar() == segment) {
      *found = true;
      return element;
    }
  }
  std::size_t index = 0;
  if (ParseIndex(segment, &index) && index < seq.size()) {
    std::size_t i = 0;
    for (YAML::const_iterator it = seq.begin(); it != seq.end(); ++it, ++i) {
      if (i == index) {
        *found = true;
        return *it;
      }
    }
  }
  *found = false;
  return YAML::Node();
}

}  // namespace

std::string OverrideLabel(const std::string& assignment) {
  return "--set " + OneLine(assignment);
}

OverrideAssignment ParseOverride(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    Fail(assignment, "expected KEY=VALUE (e.g. time_step=0.002), found no '='");
  }
  OverrideAssignment out;
  out.text = assignment;
  out.value = assignment.substr(eq + 1);
  const std::string_view key = Trim(std::string_view(assignment).substr(0, eq));
  if (key.empty()) Fail(assignment, "empty key before '='");
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    const std::string_view segment =
        Trim(key.substr(start, dot == std::string_view::npos ? std::string_view::npos
                                                             : dot - start));
    if (segment.empty()) {
      Fail(assignment, "empty segment in key " + SingleQuoted(std::string(key)));
    }
    out.path.emplace_back(segment);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return out;
}

YAML::Node ApplyOverride(YAML::Node& root, const std::string& assignment) {
  const OverrideAssignment parsed = ParseOverride(assignment);
  YAML::Node value;
  try {
    value = YAML::Load(parsed.value);
  } catch (const YAML::Exception& e) {
    Fail(assignment, "value is not valid YAML: " + e.msg);
  }
  if (!root.IsMap()) Fail(assignment, "the scene's top level is not a map");

  YAML::Node node = root;
  YAML::Node created(YAML::NodeType::Undefined);  // Topmost map this override created.
  const std::vector<std::string>& path = parsed.path;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const std::string& segment = path[i];
    const bool is_leaf = i + 1 == path.size();
    const std::string where = i == 0 ? std::string("the scene") : SingleQuoted(Join(path, i));
    bool found = false;
    YAML::Node child;
    if (node.IsMap()) {
      child = FindMapValue(node, segment, &found);
      if (!found) {
        if (is_leaf) {
          node.force_insert(segment, value);
          return created.IsDefined() ? created : value;
        }
        // A missing map on the way (e.g. "solver" in a scene that relies on
        // the defaults) is created; the loader still rejects unknown keys.
        node.force_insert(segment, YAML::Node(YAML::NodeType::Map));
        child = FindMapValue(node, segment, &found);
        if (!created.IsDefined()) created.reset(child);
      }
    } else if (node.IsSequence()) {
      child = FindSequenceElement(node, segment, &found);
      if (!found) {
        Fail(assignment, "no element named " + SingleQuoted(segment) + " in " + where + " (it has " +
                             std::to_string(node.size()) + " elements)");
      }
    } else {
      Fail(assignment, where + " is not a map or a list, so " + SingleQuoted(segment) +
                           " cannot be selected in it");
    }
    if (is_leaf) {
      // Node assignment re-points the tree's node at the new value's data.
      child = value;
      return value;
    }
    node.reset(child);
  }
  return value;  // Unreachable: the path has at least one segment.
}

}  // namespace stiction
