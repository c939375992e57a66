#pragma once
// Lookups over a registry of named choices: a fixed table of entries, each
// with a `name` (as scenes, the CLI and the viewer spell it), a one-line
// `description` and whatever else its enumeration needs. A registry is the
// one place a choice's name is written; everything else goes through these
// lookups (engine/parameters/ holds the registries).
#include <span>
#include <string>
#include <string_view>

namespace stiction {

/// The entry called `name`, or nullptr.
template <typename Entry>
const Entry* FindChoice(std::span<const Entry> entries, std::string_view name) {
  for (const Entry& e : entries) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

/// "a, b, c": the names in registry order, for messages and help texts.
template <typename Entry>
std::string ChoiceNames(std::span<const Entry> entries, std::string_view separator = ", ") {
  std::string out;
  for (const Entry& e : entries) {
    if (!out.empty()) out += separator;
    out += e.name;
  }
  return out;
}

}  // namespace stiction
