#include "engine/scene/parameter_assignments.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <string_view>

#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/common/text.h"
#include "engine/parameters/parameter_binding.h"

namespace stiction {
namespace {

// One live parameter: its key, and its value read and written as text.
struct LiveParameter {
  std::string key;
  std::function<std::string()> get;
  std::function<void(std::string_view)> set;  // Throws InputError (without the key).
};

double ParseNumber(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw InputError("expected a number, got '" + std::string(text) + "'");
  }
  return value;
}

// A binding of a parameter table as a live parameter: the number read and
// range-checked as the scene loader checks it.
LiveParameter Bound(const std::string& key, ParameterBinding b) {
  LiveParameter p{key, [b] { return FormatParameterValue(b); }, nullptr};
  p.set = [b](std::string_view text) {
    if (bool* const* flag = std::get_if<bool*>(&b.value)) {
      if (text != "true" && text != "false") throw InputError("expected true or false, got '" + std::string(text) + "'");
      **flag = text == "true";
      return;
    }
    const double value = ParseNumber(text);
    std::string unit = b.unit.empty() ? "" : " [" + std::string(b.unit) + "]";
    if (!b.range.Contains(value)) {
      throw InputError("must be " + b.range.Describe() + " and finite, got " + std::string(text) + unit);
    }
    if (int* const* integer = std::get_if<int*>(&b.value)) {
      if (value != std::floor(value)) throw InputError("expected an integer, got '" + std::string(text) + "'");
      **integer = static_cast<int>(value);
      return;
    }
    *std::get<double*>(b.value) = value;
  };
  return p;
}

void AddTable(const std::string& prefix, const ParameterTable& table, std::vector<LiveParameter>* out) {
  for (const ParameterBinding& b : table) out->push_back(Bound(prefix + std::string(b.key), b));
}

// A name from a list (Choices: the registry's infos with a `name`).
template <typename Info, typename T>
LiveParameter Choice(const std::string& key, T* value, std::span<const Info> infos, T Info::*member) {
  return LiveParameter{key,
                       [value, infos, member] {
                         for (const auto& info : infos) {
                           if (info.*member == *value) return std::string(info.name);
                         }
                         return std::string("?");
                       },
                       [value, infos, member](std::string_view text) {
                         std::string names;
                         for (const auto& info : infos) {
                           if (info.name == text) {
                             *value = info.*member;
                             return;
                           }
                           names += (names.empty() ? "" : ", ") + std::string(info.name);
                         }
                         throw InputError("unknown name '" + std::string(text) + "' (one of: " + names + ")");
                       }};
}

// Every live parameter of `p`, bound to it.
std::vector<LiveParameter> LiveParameters(SceneParameters* p) {
  std::vector<LiveParameter> out;
  // The scene key's range, (0, 1] s.
  out.push_back(Bound("time_step", ParameterBinding{"time_step", "s", "", &p->time_step, ParameterRange{0, 1, true, false}}));
  out.push_back(Choice("stepping", &p->scheme, SteppingSchemes(), &SteppingSchemeInfo::scheme));
  AddTable("integrator.", BindParameters(p->integrator), &out);
  out.push_back(Choice("contact_model", &p->contact.model, ContactModels(), &ContactModelInfo::model));
  out.push_back(Choice("solver.type", &p->solver.type, SolverTypes(), &SolverTypeInfo::type));
  out.push_back(Choice("solver.line_search", &p->solver.sap.line_search, LineSearches(), &LineSearchInfo::kind));
  AddTable("solver.", BindParameters(p->solver.sap), &out);
  AddTable("solver.", BindParameters(p->contact), &out);
  AddTable("solver.", BindStepParameters(p->solver), &out);
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (info.own_map) AddTable("solver." + std::string(info.name) + ".", info.bind(p->solver), &out);
  }
  AddTable("nmdp.", BindParameters(p->nmdp), &out);
  for (auto& [name, material] : p->materials) {
    const std::string prefix = "materials." + name + ".";
    AddTable(prefix, BindParameters(material), &out);
    std::optional<ContactModel>* model = &material.model;
    out.push_back(LiveParameter{prefix + "contact_model",
                                [model] { return *model ? std::string(ContactModelName(**model)) : "none"; },
                                [model](std::string_view text) {
                                  if (text == "none") {
                                    model->reset();
                                    return;
                                  }
                                  const std::optional<ContactModel> m = ParseContactModel(text);
                                  if (!m) throw InputError("unknown contact model '" + std::string(text) + "'");
                                  *model = *m;
                                }});
  }
  return out;
}

std::string Trimmed(const std::string& s) {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::vector<std::string> FlattenSceneParameters(const SceneParameters& p) {
  SceneParameters copy = p;
  std::vector<std::string> out;
  for (const LiveParameter& l : LiveParameters(&copy)) out.push_back(l.key + "=" + l.get());
  return out;
}

std::vector<std::string> DiffSceneParameters(const SceneParameters& before, const SceneParameters& after) {
  const std::vector<std::string> a = FlattenSceneParameters(before), b = FlattenSceneParameters(after);
  if (a.size() != b.size()) throw InputError("parameters: the two sets have different materials");
  std::vector<std::string> diff;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) diff.push_back(b[i]);
  }
  return diff;
}

void ApplyParameterAssignment(const std::string& assignment, SceneParameters* p) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw InputError("'" + assignment + "': expected KEY=VALUE, e.g. materials.rubber.friction=0.4");
  }
  const std::string key = Trimmed(assignment.substr(0, eq));
  const std::string value = Trimmed(assignment.substr(eq + 1));
  if (key == "integrator") {  // A preset by name, as a scene's `integrator: NAME` and --integrator.
    if (FindChoice(IntegratorPresets(), value) == nullptr) {
      throw InputError("integrator: unknown integrator '" + value + "' (expected one of: " +
                       ChoiceNames(IntegratorPresets()) + ")");
    }
    p->integrator = IntegratorPreset(value);
    return;
  }
  std::vector<LiveParameter> live = LiveParameters(p);
  for (LiveParameter& l : live) {
    if (l.key != key) continue;
    try {
      l.set(value);
    } catch (const InputError& e) {
      throw InputError(key + ": " + e.what());
    }
    if (key.rfind("integrator.", 0) == 0) {
      p->integrator.name = std::string(kCustomIntegrator);
      for (const IntegratorPresetInfo& preset : IntegratorPresets()) {
        if (preset.theta == p->integrator.theta && preset.theta_vq == p->integrator.theta_vq) {
          p->integrator.name = std::string(preset.name);
        }
      }
    }
    return;
  }
  std::string materials;
  for (const auto& [name, m] : p->materials) materials += (materials.empty() ? "" : ", ") + name;
  throw InputError(key + ": not a live parameter (time_step, stepping, integrator.theta, integrator.theta_vq, "
                         "contact_model, solver.type, solver.line_search, solver.KEY, solver.SOLVER.KEY, nmdp.KEY, "
                         "materials.NAME.KEY with NAME one of: " + materials + "; docs/scene-format.md)");
}

}  // namespace stiction
