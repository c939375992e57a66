#pragma once
// The reference of every named choice and tunable parameter, generated from
// the registries and parameter tables of this folder: what
// `stiction-sim --list` prints and docs/scene-format.md embeds (a test keeps
// the two equal).
#include <string>

namespace stiction {

/// Markdown: solvers, contact models, integrator presets, line searches and
/// stepping schemes (name and description), and every parameter table
/// (scene key, default, unit, valid range, description).
std::string ParameterReferenceMarkdown();

}  // namespace stiction
