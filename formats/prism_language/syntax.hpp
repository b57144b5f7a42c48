// A PRISM-language source as written: what parser.cpp produces and
// source_validator.cpp turns into a PrismModel. Names are not yet bound,
// renamed modules not yet expanded. Private to the front ends: the JANI
// translator (formats/jani/) builds it too, so that both languages share
// the checks and the explorer.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "expression/declarations.hpp"
#include "expression/syntax_tree.hpp"
#include "formats/prism_language/prism_model.hpp"

namespace pmc::prism_language {

using expression::ConstantDeclaration;
using expression::Declarations;
using expression::FormulaDeclaration;
using expression::Node;
using expression::NodeKind;
using expression::Position;

struct SyntaxVariable {
  std::string name;
  ValueType type = ValueType::integer;
  Node lower, upper;        // integers only
  std::optional<Node> init;
  Position position;
};

struct SyntaxAssignment {
  std::string variable;
  Node value;
  Position position;
};

struct SyntaxUpdate {
  std::optional<Node> weight;  // nothing: the implicit 1
  std::vector<SyntaxAssignment> assignments;
  Position position;
};

// A reward the command earns in every transition it takes part in (JANI's
// transient assignments on an edge); PRISM-language sources have none.
struct SyntaxCommandReward {
  std::string structure;  // the name of a reward structure of the program (SyntaxProgram::rewards)
  Node value;             // a number, read in the source state
  Position position;
};

struct SyntaxCommand {
  std::string action;  // empty: `[]`
  Position action_position;
  Node guard;
  std::vector<SyntaxUpdate> updates;
  std::vector<SyntaxCommandReward> rewards;
  Position position;
};

struct SyntaxRename {
  std::string from, to;
  Position position;
};

struct SyntaxModule {
  std::string name;
  std::vector<SyntaxVariable> variables;
  std::vector<SyntaxCommand> commands;
  // `module name = base [ from=to, ... ] endmodule`
  std::string base;
  std::vector<SyntaxRename> renames;
  Position position;
};

struct SyntaxLabel {
  std::string name;
  Node condition;
  Position position;
};

struct SyntaxRewardItem {
  bool transition = false;
  std::string action;  // transition items; empty: `[]`
  Node guard, value;
  Position position;
};

struct SyntaxRewards {
  std::string name;
  std::vector<SyntaxRewardItem> items;
  Position position;
};

// Its constants and formulas (Declarations) are what the binder resolves
// names against.
struct SyntaxProgram : Declarations {
  std::optional<ModelType> type;  // nothing: no keyword (PRISM then takes an MDP)
  Position type_position;
  std::vector<SyntaxVariable> globals;
  std::vector<SyntaxModule> modules;
  std::optional<Node> initial_states;
  Position initial_position;
  std::vector<SyntaxLabel> labels;
  std::vector<SyntaxRewards> rewards;
};

// Parses `source` (file name for messages). Throws pmc::Error (parse) at the
// first syntax error, naming file:line:column, what was expected and found.
SyntaxProgram parse_syntax(std::string_view source, const std::string& file);

// Binds, types and checks a parsed source with the user's constants.
// `places`: a JSON source's numbered places, which its positions' lines
// index (SourceLocation::places); none for a text source.
PrismModel check_program(SyntaxProgram syntax, const std::string& file,
                         const std::vector<ConstantAssignment>& constants,
                         std::shared_ptr<const std::vector<std::string>> places = nullptr);

}  // namespace pmc::prism_language
