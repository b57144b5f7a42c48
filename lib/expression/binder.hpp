// Name binding and typing of expression trees against declared constants
// and formulas (declarations.hpp): constants become literals (evaluated on
// first use, in dependency order, cycles reported), formulas are expanded (PRISM
// expands them before renaming modules, so a renamed module's renaming
// applies inside the formulas it uses), identifiers become variables.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "expression/declarations.hpp"

namespace pmc::expression {

// A renamed module's `from → to` (identifiers and actions).
using Renames = std::map<std::string, std::string>;

struct BindContext {
  const Renames* renames = nullptr;
  // Constants, ranges and initial values may not read variables; `what`
  // names the thing for the message ("the value of constant N").
  bool constants_only = false;
  std::string what;
  uint64_t nodes = 0;  // formula expansion can grow a tree exponentially: capped
};

class Binder {
 public:
  Binder(const Declarations& declarations, const std::string& file);
  // A JSON source's numbered places (SourceLocation::places): positions'
  // lines index them from then on.
  void set_places(std::shared_ptr<const std::vector<std::string>> places) { places_ = std::move(places); }

  const std::string& file() const { return file_; }
  SourceLocation location(uint32_t line, uint32_t column) const { return {file_, line, column, places_}; }
  SourceLocation location(Position p) const { return location(p.line, p.column); }

  // Sets an undefined constant from --const text (typed by its declaration).
  void give_constant(size_t index, const std::string& text);
  // The literal value of constant `index`, evaluated on first use.
  const Node& constant_value(size_t index);

  // Variables become visible to bind() as they are declared.
  void declare_variable(const std::string& name, uint32_t index, ValueType type);

  // A bound, typed copy of `n`; throws pmc::Error (parse) on an unknown
  // identifier, a type error, a recursive formula or constant.
  Node bind(const Node& n, BindContext& context, uint32_t depth = 0);

  // Binds `n` and requires `type` (a number for integer when `numeric`),
  // naming `what` in the message.
  Node bind_typed(const Node& n, BindContext& context, ValueType type, bool numeric = false);

  // Binds a constant expression of type `type` (integer, boolean or real)
  // and evaluates it.
  Node evaluate_constant(const Node& n, BindContext& context, ValueType type);

  std::unordered_map<std::string, size_t> constant_index, formula_index;
  // Every variable the source declares (renamed modules' too), known before
  // any is bound: a constant reading one is told so, not "unknown".
  std::set<std::string> variable_names;

 private:
  Node bind_identifier(const Node& n, BindContext& context, uint32_t depth);
  void type_node(Node& n) const;

  const Declarations& declarations_;
  std::string file_;
  std::shared_ptr<const std::vector<std::string>> places_;
  struct ConstantState {
    std::optional<Node> value;  // literal
    std::optional<std::string> given;
    bool evaluating = false;
  };
  std::vector<ConstantState> constants_;
  std::vector<bool> expanding_;  // formulas being expanded (recursion check)
  std::vector<std::string> chain_;  // names being evaluated or expanded, for cycle messages
  struct VariableRef {
    uint32_t index;
    ValueType type;
  };
  std::unordered_map<std::string, VariableRef> variables_;
};

const char* type_name(ValueType type);

}  // namespace pmc::expression
