// ParameterReferenceMarkdown() (engine/parameters/parameter_reference.h):
// what `stiction-sim --list` prints and docs/scene-format.md embeds. It is
// generated from the registries and tables, so the test walks the same
// registries and tables and checks that each appears, complete, as a
// well-formed Markdown table: a registry entry or key left out, or a '|' in
// a description that splits a row into too many cells, would make the
// documentation wrong without any other test noticing.
#include "engine/parameters/parameter_reference.h"

#include <gtest/gtest.h>

#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/parameters/sap_parameters.h"
#include "engine/parameters/solver_settings.h"

namespace stiction {
namespace {

using Row = std::vector<std::string>;

// A Markdown table: its rows (header first, the |---| line dropped), and the
// last line of text above it.
struct Table {
  std::string caption;
  std::vector<Row> rows;
};

// The cells of "| a | b \| c |": split at '|' not escaped by '\', trimmed,
// with "\|" turned back into '|'. GitHub's tables split at every unescaped
// '|', even inside `code`.
Row SplitRow(const std::string& line) {
  Row cells;
  std::string cell;
  bool started = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell.push_back('|');
      ++i;
    } else if (line[i] == '|') {
      if (started) {
        const std::size_t b = cell.find_first_not_of(' ');
        const std::size_t e = cell.find_last_not_of(' ');
        cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      }
      started = true;
      cell.clear();
    } else {
      cell.push_back(line[i]);
    }
  }
  // Text after the last '|' is not a cell; a row must end with '|'.
  EXPECT_TRUE(cell.empty()) << "row does not end with '|': " << line;
  return cells;
}

std::vector<Table> ParseTables(const std::string& markdown) {
  std::vector<Table> tables;
  std::istringstream in(markdown);
  std::string line, caption;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '|') {
      if (!in_table) tables.push_back({caption, {}});
      in_table = true;
      if (line.rfind("|---", 0) == 0) continue;
      tables.back().rows.push_back(SplitRow(line));
    } else {
      in_table = false;
      if (!line.empty()) caption = line;
    }
  }
  return tables;
}

// `text`, built by appending (g++ 12 warns, falsely, on "`" + std::string
// under -Wrestrict, as parameter_reference.cpp notes).
std::string Code(std::string_view text) {
  std::string out(1, '`');
  out.append(text);
  out.push_back('`');
  return out;
}

// The table whose first column, below the header, is exactly `firsts`;
// nullptr if none is.
const Table* FindTable(const std::vector<Table>& tables, const std::vector<std::string>& firsts) {
  for (const Table& t : tables) {
    if (t.rows.size() != firsts.size() + 1) continue;
    bool same = true;
    for (std::size_t i = 0; i < firsts.size() && same; ++i) {
      same = !t.rows[i + 1].empty() && t.rows[i + 1][0] == firsts[i];
    }
    if (same) return &t;
  }
  return nullptr;
}

class ParameterReferenceTest : public testing::Test {
 protected:
  const std::string markdown_ = ParameterReferenceMarkdown();
  const std::vector<Table> tables_ = ParseTables(markdown_);

  // A registry's name table: every entry in registry order, with its
  // description.
  template <typename Entry>
  void ExpectRegistryTable(std::span<const Entry> entries) {
    std::vector<std::string> names;
    for (const Entry& e : entries) names.push_back(Code(e.name));
    const Table* t = FindTable(tables_, names);
    ASSERT_NE(t, nullptr) << "no table lists " << names.front() << "…";
    EXPECT_EQ(t->rows[0][0], "name");
    for (std::size_t i = 0; i < entries.size(); ++i) {
      EXPECT_EQ(t->rows[i + 1].back(), entries[i].description) << entries[i].name;
    }
  }

  // A parameter table: every key in table order, with its default, unit,
  // range and description. Returns the table (nullptr on failure).
  const Table* ExpectParameterTable(const ParameterTable& table) {
    std::vector<std::string> keys;
    for (const ParameterBinding& p : table) keys.push_back(Code(p.key));
    const Table* t = FindTable(tables_, keys);
    EXPECT_NE(t, nullptr) << "no table lists the keys " << keys.front() << "…";
    if (t == nullptr) return nullptr;
    EXPECT_EQ(t->rows[0], (Row{"key", "default", "unit", "valid", "description"}));
    for (std::size_t i = 0; i < table.size(); ++i) {
      const ParameterBinding& p = table[i];
      const Row& row = t->rows[i + 1];
      if (row.size() != 5) continue;  // Reported by EveryRowHasItsHeadersCellCount.
      EXPECT_EQ(row[1], FormatParameterValue(p)) << p.key;
      EXPECT_EQ(row[2], p.unit.empty() ? "–" : std::string(p.unit)) << p.key;
      if (!std::holds_alternative<bool*>(p.value)) {
        EXPECT_NE(row[3].find(p.range.Describe()), std::string::npos) << p.key << ": " << row[3];
      }
      EXPECT_EQ(row[4], p.description) << p.key;
    }
    return t;
  }
};

TEST_F(ParameterReferenceTest, EveryRowHasItsHeadersCellCount) {
  ASSERT_FALSE(tables_.empty());
  int parameter_tables = 0;
  for (const Table& t : tables_) {
    ASSERT_GE(t.rows.size(), 2u) << t.caption;  // A header and at least one entry.
    ASSERT_FALSE(t.rows[0].empty()) << t.caption;
    if (t.rows[0][0] == "key") {
      ++parameter_tables;
      EXPECT_EQ(t.rows[0].size(), 5u) << t.caption;
    }
    for (const Row& row : t.rows) {
      EXPECT_EQ(row.size(), t.rows[0].size()) << t.caption << ": row starting " << (row.empty() ? "" : row[0]);
    }
  }
  // SAP, the solver budget, each own-map solver, the contact
  // regularization, the material, the custom integrator, `nmdp:`.
  int own_maps = 0;
  for (const SolverTypeInfo& s : SolverTypes()) own_maps += s.own_map;
  EXPECT_EQ(parameter_tables, 6 + own_maps);
}

TEST_F(ParameterReferenceTest, EscapedBarsStayInsideTheirCell) {
  // At least one description holds a '|' (a norm, ||J v - z||); its row must
  // still have five cells and the cell must read as the description. If no
  // description held one, this test would check nothing: it says so.
  SolverSettings settings;
  int with_bar = 0;
  for (const SolverTypeInfo& s : SolverTypes()) {
    for (const ParameterBinding& p : s.bind(settings)) {
      if (p.description.find('|') == std::string_view::npos) continue;
      ++with_bar;
      bool found = false;
      for (const Table& t : tables_) {
        for (const Row& row : t.rows) {
          if (row.empty() || row[0] != Code(p.key) || row.back() != p.description) continue;
          found = true;
          EXPECT_EQ(row.size(), 5u);
        }
      }
      EXPECT_TRUE(found) << p.key;
    }
  }
  EXPECT_GT(with_bar, 0);
  // Unescaped, the row would split at each bar.
  EXPECT_EQ(markdown_.find("||J"), std::string::npos);
}

TEST_F(ParameterReferenceTest, ListsEveryRegistryEntry) {
  ExpectRegistryTable(SolverTypes());
  ExpectRegistryTable(LineSearches());
  ExpectRegistryTable(ContactModels());
  ExpectRegistryTable(IntegratorPresets());
  ExpectRegistryTable(SteppingSchemes());
}

TEST_F(ParameterReferenceTest, SteppingSchemesShowTitleAndContactSolver) {
  std::vector<std::string> names;
  for (const SteppingSchemeInfo& s : SteppingSchemes()) names.push_back(Code(s.name));
  const Table* t = FindTable(tables_, names);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->rows[0], (Row{"name", "title", "contact solver", "description"}));
  for (std::size_t i = 0; i < SteppingSchemes().size(); ++i) {
    const SteppingSchemeInfo& s = SteppingSchemes()[i];
    const Row& row = t->rows[i + 1];
    ASSERT_EQ(row.size(), 4u) << s.name;
    EXPECT_EQ(row[1], s.title) << s.name;
    EXPECT_EQ(row[2], s.uses_contact_solver ? "`solver:`" : "none") << s.name;
  }
}

TEST_F(ParameterReferenceTest, ListsTheNmdpKeysUnderTheirMap) {
  NmdpParameters nmdp;
  const Table* t = ExpectParameterTable(BindParameters(nmdp));
  ASSERT_NE(t, nullptr);
  EXPECT_NE(t->caption.find("`nmdp:`"), std::string::npos) << t->caption;
}

TEST_F(ParameterReferenceTest, IntegratorPresetsShowTheirTheta) {
  std::vector<std::string> names;
  for (const IntegratorPresetInfo& p : IntegratorPresets()) names.push_back(Code(p.name));
  const Table* t = FindTable(tables_, names);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->rows[0], (Row{"name", "theta", "theta_vq", "description"}));
  for (std::size_t i = 0; i < IntegratorPresets().size(); ++i) {
    const Row& row = t->rows[i + 1];
    EXPECT_EQ(std::stod(row[1]), IntegratorPresets()[i].theta) << row[0];
    EXPECT_EQ(std::stod(row[2]), IntegratorPresets()[i].theta_vq) << row[0];
  }
}

TEST_F(ParameterReferenceTest, ListsEveryKeyOfEverySolver) {
  SolverSettings settings;
  for (const SolverTypeInfo& s : SolverTypes()) {
    SCOPED_TRACE(std::string(s.name));
    const Table* t = ExpectParameterTable(s.bind(settings));
    if (t == nullptr || !s.own_map) continue;
    // An own map's table says where its keys go, `solver.<name>:`.
    EXPECT_NE(t->caption.find(Code(std::string("solver.").append(s.name).append(":"))), std::string::npos) << t->caption;
  }
}

TEST_F(ParameterReferenceTest, ListsTheContactMaterialAndIntegratorKeys) {
  ContactModelParameters contact;
  ExpectParameterTable(BindParameters(contact));
  ContactMaterial material;
  ExpectParameterTable(BindParameters(material));
  IntegratorSettings integrator;
  ExpectParameterTable(BindParameters(integrator));
}

TEST_F(ParameterReferenceTest, EndsWithOneNewline) {
  // It is embedded in docs/scene-format.md and printed by --list: one
  // newline ends the last table, no blank line after it, and no line has
  // trailing spaces (which Markdown may read as a line break).
  ASSERT_GE(markdown_.size(), 2u);
  EXPECT_EQ(markdown_.back(), '\n');
  EXPECT_NE(markdown_[markdown_.size() - 2], '\n');
  EXPECT_EQ(markdown_.find(" \n"), std::string::npos);
}

// docs/scene-format.md embeds the reference between two markers; a change to
// engine/parameters/ that is not carried into the docs fails here
// (scripts/update-parameter-reference.sh rewrites the section).
TEST(ParameterReferenceDocsTest, SceneFormatEmbedsTheCurrentReference) {
  std::ifstream in(std::string(STICTION_SOURCE_DIR) + "/docs/scene-format.md");
  ASSERT_TRUE(in) << "docs/scene-format.md not found";
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string begin = "<!-- BEGIN GENERATED: stiction-sim --list -->\n";
  const std::string end = "<!-- END GENERATED: stiction-sim --list -->";
  const std::size_t b = doc.find(begin);
  const std::size_t e = doc.find(end);
  ASSERT_NE(b, std::string::npos) << "begin marker missing";
  ASSERT_NE(e, std::string::npos) << "end marker missing";
  ASSERT_LT(b, e);
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()), ParameterReferenceMarkdown())
      << "docs/scene-format.md is out of date: run scripts/update-parameter-reference.sh";
}

}  // namespace
}  // namespace stiction
