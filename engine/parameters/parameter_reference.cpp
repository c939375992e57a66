#include "engine/parameters/parameter_reference.h"

#include <sstream>
#include <string_view>

#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/parameters/sap_parameters.h"
#include "engine/parameters/solver_settings.h"

namespace stiction {

namespace {

// `text` (built with append: g++ 12 flags "`" + std::string + "`" under -Wrestrict).
std::string Code(std::string_view text) {
  std::string out(1, '`');
  out.append(text);
  out.push_back('`');
  return out;
}

// A table cell: '|' escaped.
std::string Cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

// One table row per parameter: key, default, unit, valid values, description.
void WriteTable(const ParameterTable& table, std::ostringstream& out) {
  out << "| key | default | unit | valid | description |\n|---|---|---|---|---|\n";
  for (const ParameterBinding& p : table) {
    const bool flag = std::holds_alternative<bool*>(p.value);
    const std::string valid = flag ? "true, false"
                              : std::holds_alternative<int*>(p.value) ? "integer " + p.range.Describe()
                                                                      : p.range.Describe();
    out << "| " << Code(p.key) << " | " << FormatParameterValue(p) << " | " << (p.unit.empty() ? "–" : p.unit)
        << " | " << valid << " | " << Cell(p.description) << " |\n";
  }
  out << '\n';
}

}  // namespace

std::string ParameterReferenceMarkdown() {
  std::ostringstream out;
  out << "### Solvers (`solver.type`, `--solver`)\n\n| name | description |\n|---|---|\n";
  for (const SolverTypeInfo& s : SolverTypes()) out << "| " << Code(s.name) << " | " << Cell(s.description) << " |\n";
  out << '\n';
  SolverSettings solver;
  out << "Keys at `solver:`'s top level (SAP's parameters; `line_search` is one of the line searches below):\n\n";
  WriteTable(BindParameters(solver.sap), out);
  out << "The time budget of whichever solver runs, the halving of a step that fails, and sleeping islands, at "
         "`solver:`'s top level (the iteration budget is each solver's `max_iterations`):\n\n";
  WriteTable(BindStepParameters(solver), out);
  for (const SolverTypeInfo& s : SolverTypes()) {
    if (!s.own_map) continue;
    out << "Keys of `solver." << s.name << ":`:\n\n";
    WriteTable(s.bind(solver), out);
  }
  out << "### Line searches (`solver.line_search`)\n\n| name | description |\n|---|---|\n";
  for (const LineSearchInfo& l : LineSearches()) out << "| " << Code(l.name) << " | " << Cell(l.description) << " |\n";
  out << '\n';

  out << "### Contact models (`contact_model`, `materials[].contact_model`)\n\n"
         "| name | description |\n|---|---|\n";
  for (const ContactModelInfo& m : ContactModels()) out << "| " << Code(m.name) << " | " << Cell(m.description) << " |\n";
  out << '\n';
  ContactModelParameters contact;
  out << "Contact regularization, keys at `solver:`'s top level:\n\n";
  WriteTable(BindParameters(contact), out);
  ContactMaterial material;
  out << "Material keys (`materials[]`, besides `name` and `contact_model`):\n\n";
  WriteTable(BindParameters(material), out);

  out << "### Integrator presets (`integrator`, `--integrator`)\n\n"
         "| name | theta | theta_vq | description |\n|---|---|---|---|\n";
  for (const IntegratorPresetInfo& p : IntegratorPresets()) {
    out << "| " << Code(p.name) << " | " << p.theta << " | " << p.theta_vq << " | " << Cell(p.description) << " |\n";
  }
  out << "\nOr a map `integrator: {theta, theta_vq}` (" << kCustomIntegrator << "):\n\n";
  IntegratorSettings integrator;
  WriteTable(BindParameters(integrator), out);

  out << "### Stepping schemes (`stepping`, `--stepping`)\n\n"
         "| name | title | contact solver | description |\n|---|---|---|---|\n";
  for (const SteppingSchemeInfo& s : SteppingSchemes()) {
    out << "| " << Code(s.name) << " | " << Cell(s.title) << " | " << (s.uses_contact_solver ? "`solver:`" : "none")
        << " | " << Cell(s.description) << " |\n";
  }
  out << "\nKeys of `nmdp:` (the NMDP schemes' parameters, kept whatever `stepping` is):\n\n";
  NmdpParameters nmdp;
  WriteTable(BindParameters(nmdp), out);
  std::string text = out.str();
  text.pop_back();  // One trailing newline.
  return text;
}

}  // namespace stiction
