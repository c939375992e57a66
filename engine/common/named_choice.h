#pragma once
// Lookups over a registry of named choices: a fixed table of entries, each
// with a `name` (as scenes, the CLI and the viewer spell it), a one-line
// `description` and whatever else its enumeration needs. A registry is the
// one place a choice's name is written; everything else goes through these
// lookups (engine/parameters/ holds the registries).
#include <optional>
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

/// The entry whose `key` member equals `value`. Every enumerator has an
/// entry (the registries' tests check it); the first entry stands in for
/// an impossible miss.
template <typename Entry, typename Value>
const Entry& ChoiceOf(std::span<const Entry> entries, Value Entry::*key, Value value) {
  for (const Entry& e : entries) {
    if (e.*key == value) return e;
  }
  return entries.front();
}

/// The `key` member of the entry called `name`; nullopt if there is none.
template <typename Entry, typename Value>
std::optional<Value> ParseChoice(std::span<const Entry> entries, Value Entry::*key, std::string_view name) {
  const Entry* e = FindChoice(entries, name);
  if (e == nullptr) return std::nullopt;
  return e->*key;
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
