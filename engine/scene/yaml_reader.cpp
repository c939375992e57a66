#include "engine/scene/yaml_reader.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <system_error>
#include <variant>

#include <Eigen/Eigenvalues>

#include "engine/common/error.h"
#include "engine/common/text.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxQuotedChars = 40;
constexpr std::array<std::string_view, 6> kInertiaKeys = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};

int LineOf(const Ctx& ctx, const YAML::Node& node) {
  if (ctx.from_override) return 0;
  if (ctx.key_line > 0) return ctx.key_line;
  const YAML::Mark mark = node.Mark();
  return mark.line < 0 ? 0 : mark.line + 1;
}

}  // namespace

// ---------------------------------------------------------------------------
// Messages.
// ---------------------------------------------------------------------------

std::string Quote(std::string_view s) {
  std::string text = OneLine(s);
  if (text.size() > kMaxQuotedChars) text = text.substr(0, kMaxQuotedChars) + "...";
  return SingleQuoted(text);
}

std::string ShortList(const std::vector<std::string>& names) {
  constexpr std::size_t kMax = 12;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kMax; ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  if (names.size() > kMax) out += ", ...";
  return out.empty() ? std::string("none") : out;
}

std::string KeyPath(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string IndexPath(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string Describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing (an empty value)";
  if (node.IsScalar()) return Quote(node.Scalar());
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  return "an unknown node";
}

SourceLocation WhereOf(const Ctx& ctx, const YAML::Node& node) {
  return SourceLocation{ctx.label, LineOf(ctx, node)};
}

void Fail(const Ctx& ctx, const YAML::Node& node, const std::string& reason) {
  std::string message = WhereOf(ctx, node).ToString();
  if (!ctx.path.empty()) message += ": " + ctx.path;
  message += ": " + reason;
  throw InputError(OneLine(message));
}

// ---------------------------------------------------------------------------
// MapView.
// ---------------------------------------------------------------------------

MapView::MapView(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node)
    : reader_(reader), ctx_(ctx), node_(node) {
  if (!node.IsMap()) Fail(ctx, node, "expected a map, got " + Describe(node));
  for (YAML::const_iterator it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key_node = it->first;
    const YAML::Node value = it->second;
    if (!key_node.IsScalar()) {
      Fail(reader_.Enter(ctx, value, ctx.path), key_node,
           "map keys must be plain names, got " + Describe(key_node));
    }
    const std::string& key = key_node.Scalar();
    if (const Item* previous = Find(key)) {
      const Ctx child = reader_.Enter(ctx, value, KeyPath(ctx.path, key));
      const Ctx first = reader_.Enter(ctx, previous->value, KeyPath(ctx.path, key));
      Fail(child, child.from_override ? value : key_node,
           "duplicate key " + Quote(key) + " (first given at " +
               WhereOf(first, previous->key_node).ToString() + ")");
    }
    items_.push_back(Item{key, key_node, value});
  }
}

void MapView::FailUnknownKey(const Item& item, const std::string& expected, const std::string& what) const {
  const Ctx child = reader_.Enter(ctx_, item.value, KeyPath(ctx_.path, item.key));
  const bool key_has_mark = !child.from_override && item.key_node.Mark().line >= 0;
  Ctx at = child;
  at.path = ctx_.path;
  Fail(at, key_has_mark ? item.key_node : item.value,
       "unknown key " + Quote(item.key) + (what.empty() ? "" : " " + what) + " (expected one of: " + expected + ")");
}

Ctx MapView::CtxOf(std::string_view key) const {
  const Item* item = Find(key);
  Ctx ctx = reader_.Enter(ctx_, item->value, KeyPath(ctx_.path, key));
  const YAML::Mark mark = item->key_node.Mark();
  if (!ctx.from_override && mark.line >= 0 && !ctx_.from_override) ctx.key_line = mark.line + 1;
  return ctx;
}

void MapView::Require(std::string_view key, const std::string& what) const {
  if (!Has(key)) {
    Fail(ctx_, node_,
         "missing required key " + Quote(key) + (what.empty() ? "" : " " + what));
  }
}

// ---------------------------------------------------------------------------
// YamlReader: origins.
// ---------------------------------------------------------------------------

Ctx YamlReader::Enter(const Ctx& parent, const YAML::Node& child, std::string path) const {
  Ctx ctx{parent.label, parent.dir, parent.from_override, std::move(path)};
  // Newest first: a later override of the same key wins.
  for (auto it = override_nodes_.rbegin(); it != override_nodes_.rend(); ++it) {
    if (it->first.is(child)) {
      ctx.label = it->second;
      ctx.dir = top_dir_;
      ctx.from_override = true;
      break;
    }
  }
  return ctx;
}

std::vector<std::pair<YAML::Node, Ctx>> YamlReader::Elements(const Ctx& ctx, const YAML::Node& node) const {
  std::vector<std::pair<YAML::Node, Ctx>> out;
  std::size_t i = 0;
  for (YAML::const_iterator it = node.begin(); it != node.end(); ++it, ++i) {
    const YAML::Node element = *it;
    out.emplace_back(element, Enter(ctx, element, IndexPath(ctx.path, i)));
  }
  return out;
}

// ---------------------------------------------------------------------------
// YamlReader: scalars.
// ---------------------------------------------------------------------------

double YamlReader::ReadNumber(const Ctx& ctx, const YAML::Node& node) const {
  if (!node.IsScalar()) Fail(ctx, node, "expected a number, got " + Describe(node));
  std::string_view text = node.Scalar();
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr std::array<std::string_view, 10> kNonFinite = {
      ".inf", "+.inf", "-.inf", ".nan", "inf", "+inf", "-inf", "nan", "infinity", "-infinity"};
  if (Contains(kNonFinite, lower)) {
    Fail(ctx, node, "must be a finite number, got " + Quote(text));
  }
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range) {
    Fail(ctx, node, "number out of range, got " + Quote(node.Scalar()));
  }
  if (ec != std::errc() || ptr != end || text.empty()) {
    Fail(ctx, node, "expected a number, got " + Quote(node.Scalar()));
  }
  if (!std::isfinite(value)) Fail(ctx, node, "must be a finite number, got " + Quote(text));
  return value;
}

double YamlReader::ReadPositive(const Ctx& ctx, const YAML::Node& node) const {
  const double value = ReadNumber(ctx, node);
  if (!(value > 0)) Fail(ctx, node, "must be positive, got " + OneLine(node.Scalar()));
  return value;
}

double YamlReader::ReadNonNegative(const Ctx& ctx, const YAML::Node& node) const {
  const double value = ReadNumber(ctx, node);
  if (value < 0) Fail(ctx, node, "must be >= 0, got " + OneLine(node.Scalar()));
  return value;
}

double YamlReader::ReadInRange(const Ctx& ctx, const YAML::Node& node, double lo, double hi) const {
  const double value = ReadNumber(ctx, node);
  if (value < lo || value > hi) {
    Fail(ctx, node, "must be in [" + FormatNumber(lo) + ", " + FormatNumber(hi) + "], got " +
                        OneLine(node.Scalar()));
  }
  return value;
}

bool YamlReader::ReadBool(const Ctx& ctx, const YAML::Node& node) const {
  if (node.IsScalar()) {
    const std::string& s = node.Scalar();
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
  }
  Fail(ctx, node, "expected true or false, got " + Describe(node));
}

std::string YamlReader::ReadString(const Ctx& ctx, const YAML::Node& node) const {
  if (!node.IsScalar()) Fail(ctx, node, "expected a string, got " + Describe(node));
  return node.Scalar();
}

std::string YamlReader::ReadName(const Ctx& ctx, const YAML::Node& node) const {
  std::string name = ReadString(ctx, node);
  if (name.empty()) Fail(ctx, node, "must not be empty");
  return name;
}

std::vector<std::string> YamlReader::ReadNameList(const Ctx& ctx, const YAML::Node& node,
                                                  const std::string& what) const {
  if (!node.IsSequence()) Fail(ctx, node, "expected a list of " + what + ", got " + Describe(node));
  std::vector<std::string> out;
  for (const auto& [element, element_ctx] : Elements(ctx, node)) out.push_back(ReadName(element_ctx, element));
  return out;
}

std::string YamlReader::ReadExistingFile(const Ctx& ctx, const YAML::Node& node, const std::string& what) const {
  const std::string file = ReadName(ctx, node);
  std::error_code ec;
  const fs::path resolved =
      fs::absolute(fs::path(file).is_absolute() ? fs::path(file) : fs::path(ctx.dir) / file, ec).lexically_normal();
  if (!fs::is_regular_file(resolved, ec)) {
    Fail(ctx, node, what + " " + Quote(file) + " not found (resolved to " + resolved.string() + ")");
  }
  return resolved.string();
}

// ---------------------------------------------------------------------------
// YamlReader: vectors and frames.
// ---------------------------------------------------------------------------

VectorX YamlReader::ReadNumbers(const Ctx& ctx, const YAML::Node& node, int min_size, int max_size) const {
  const std::string expected =
      min_size == max_size
          ? "a list of " + std::to_string(min_size) + " numbers"
          : "a list of " + std::to_string(min_size) + " to " + std::to_string(max_size) +
                " numbers";
  if (!node.IsSequence()) Fail(ctx, node, "expected " + expected + ", got " + Describe(node));
  const int size = static_cast<int>(node.size());
  if (size < min_size || size > max_size) {
    Fail(ctx, node, "expected " + expected + ", got a list of " + std::to_string(size));
  }
  VectorX out(size);
  int i = 0;
  for (const auto& [element, element_ctx] : Elements(ctx, node)) {
    out[i++] = ReadNumber(element_ctx, element);
  }
  return out;
}

Vector3 YamlReader::ReadVector3(const Ctx& ctx, const YAML::Node& node) const {
  return ReadNumbers(ctx, node, 3, 3);
}

Vector3 YamlReader::ReadPositiveVector3(const Ctx& ctx, const YAML::Node& node) const {
  const Vector3 out = ReadVector3(ctx, node);
  for (const auto& [element, element_ctx] : Elements(ctx, node)) ReadPositive(element_ctx, element);
  return out;
}

Vector4 YamlReader::ReadColor(const Ctx& ctx, const YAML::Node& node) const {
  const VectorX rgba = ReadNumbers(ctx, node, 3, 4);
  for (const auto& [element, element_ctx] : Elements(ctx, node)) {
    ReadInRange(element_ctx, element, 0.0, 1.0);
  }
  return Vector4(rgba[0], rgba[1], rgba[2], rgba.size() == 4 ? rgba[3] : 1.0);
}

Quaternion YamlReader::ReadQuaternion(const Ctx& ctx, const YAML::Node& node) const {
  const VectorX wxyz = ReadNumbers(ctx, node, 4, 4);
  const double norm = wxyz.norm();
  if (!(norm > 1e-12)) Fail(ctx, node, "quaternion [w, x, y, z] must be nonzero");
  return Quaternion(wxyz[0] / norm, wxyz[1] / norm, wxyz[2] / norm, wxyz[3] / norm);
}

Quaternion YamlReader::ReadRpy(const Ctx& ctx, const YAML::Node& node) const {
  const Vector3 rpy = ReadVector3(ctx, node);
  // Extrinsic roll about x, then pitch about y, then yaw about z (as URDF and
  // Drake): R = Rz(yaw) Ry(pitch) Rx(roll).
  return Quaternion(Eigen::AngleAxisd(rpy.z(), Vector3::UnitZ()) *
                    Eigen::AngleAxisd(rpy.y(), Vector3::UnitY()) *
                    Eigen::AngleAxisd(rpy.x(), Vector3::UnitX()));
}

Quaternion YamlReader::ReadOrientation(const Ctx& ctx, const YAML::Node& node) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(std::array<std::string_view, 2>{"rpy", "quaternion"});
  if (map.Has("rpy") && map.Has("quaternion")) {
    Fail(map.CtxOf("quaternion"), map.Get("quaternion"),
         "give either 'rpy' or 'quaternion', not both");
  }
  if (map.Has("rpy")) return ReadRpy(map.CtxOf("rpy"), map.Get("rpy"));
  if (map.Has("quaternion")) return ReadQuaternion(map.CtxOf("quaternion"), map.Get("quaternion"));
  return Quaternion::Identity();
}

PoseValue YamlReader::ReadPose(const Ctx& ctx, const YAML::Node& node) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(std::array<std::string_view, 3>{"position", "rpy", "quaternion"});
  PoseValue pose;
  if (map.Has("rpy") && map.Has("quaternion")) {
    Fail(map.CtxOf("quaternion"), map.Get("quaternion"),
         "give either 'rpy' or 'quaternion', not both");
  }
  if (map.Has("position")) pose.X.p = ReadVector3(map.CtxOf("position"), map.Get("position"));
  if (map.Has("rpy")) pose.q = ReadRpy(map.CtxOf("rpy"), map.Get("rpy"));
  if (map.Has("quaternion")) {
    pose.q = ReadQuaternion(map.CtxOf("quaternion"), map.Get("quaternion"));
  }
  pose.X.R = pose.q.toRotationMatrix();
  return pose;
}

Matrix3 YamlReader::ReadInertia(const Ctx& ctx, const YAML::Node& node) const {
  const MapView map(*this, ctx, node);
  map.AllowOnly(kInertiaKeys);
  for (const char* key : {"ixx", "iyy", "izz"}) map.Require(key);
  auto get = [&](const char* key) {
    return map.Has(key) ? ReadNumber(map.CtxOf(key), map.Get(key)) : 0.0;
  };
  const double ixx = get("ixx"), iyy = get("iyy"), izz = get("izz");
  const double ixy = get("ixy"), ixz = get("ixz"), iyz = get("iyz");
  Matrix3 I;
  I << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
  const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(I, Eigen::EigenvaluesOnly);
  const Vector3 moments = eigen.eigenvalues();  // Ascending.
  const std::string shown = "[" + FormatNumber(moments[0]) + ", " + FormatNumber(moments[1]) +
                            ", " + FormatNumber(moments[2]) + "]";
  if (!(moments[0] > 0)) {
    Fail(ctx, node, "must be positive definite, got principal moments " + shown);
  }
  // A rigid body's principal moments satisfy a + b >= c (with equality only
  // for planar bodies); 1e-9 relative slack absorbs rounding.
  if (moments[0] + moments[1] < moments[2] * (1.0 - 1e-9)) {
    Fail(ctx, node, "principal moments " + shown +
                        " violate the triangle inequality (the two smaller must sum to at least "
                        "the largest); no rigid body has this inertia");
  }
  return I;
}

// ---------------------------------------------------------------------------
// YamlReader: parameter tables.
// ---------------------------------------------------------------------------

void YamlReader::ReadParameters(const MapView& map, const ParameterTable& table,
                                const std::function<void()>& validate) const {
  for (const ParameterBinding& p : table) {
    if (!map.Has(p.key)) continue;
    const Ctx key_ctx = map.CtxOf(p.key);
    const YAML::Node& value = map.Get(p.key);
    if (bool* const* flag = std::get_if<bool*>(&p.value)) {
      **flag = ReadBool(key_ctx, value);
    } else {
      const double number = ReadNumber(key_ctx, value);
      int* const* integer = std::get_if<int*>(&p.value);
      if (integer != nullptr && number != std::floor(number)) {
        Fail(key_ctx, value, "expected an integer, got " + Quote(value.Scalar()));
      }
      if (!p.range.Contains(number)) {
        Fail(key_ctx, value, "must be " + p.range.Describe() + ", got " + OneLine(value.Scalar()));
      }
      if (integer != nullptr) {
        **integer = static_cast<int>(number);
      } else {
        *std::get<double*>(p.value) = number;
      }
    }
  }
  try {
    validate();
  } catch (const InputError& e) {
    Fail(map.ctx(), map.node(), e.what());
  }
}

void YamlReader::ReadSubMap(const MapView& map, std::string_view key, const ParameterTable& table,
                            const std::function<void()>& validate) const {
  if (!map.Has(key)) return;
  ReadParameterMap(map.CtxOf(key), map.Get(key), table, validate);
}

void YamlReader::ReadParameterMap(const Ctx& ctx, const YAML::Node& node, const ParameterTable& table,
                                  const std::function<void()>& validate) const {
  const MapView map(*this, ctx, node);
  std::vector<std::string_view> keys;
  for (const ParameterBinding& p : table) keys.push_back(p.key);
  map.AllowOnly(keys);
  ReadParameters(map, table, validate);
}

}  // namespace stiction
