// A model built from a PRISM-language source keeps the source's constants
// and formulas (SourceDefinitions, model/model.hpp) so that properties can
// name them, as PRISM's do: `P=? [ F "stable" ]` and `P=? [ F num_tokens=1 ]`
// alike. SourceScope binds those names against a model's state variables
// with the grammar and binder that read the source, so a formula means in
// a property what it meant in the source (`? :`, `<=>`, integer arithmetic).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "expression/expression.hpp"
#include "expression/syntax_tree.hpp"
#include "model/model.hpp"

namespace pmc::expression {

// Throws pmc::Error (property) naming the first definition whose text does
// not parse: possible only in a .pmcb file not written by pmc, whose reader
// calls this.
void check_source_definitions(const SourceDefinitions& definitions);

// A constant's final value as a model keeps it (SourceDefinitions: "4",
// "0.5", "2.0", "true") as a typed literal node; nothing for other text.
std::optional<Node> constant_literal(const std::string& text);

// The definitions parsed once, for the names one property uses. Not
// thread-safe (binding caches constants' values); one per compiled property.
class SourceScope {
 public:
  // Throws as check_source_definitions. Both arguments must outlive the scope.
  SourceScope(const SourceDefinitions& definitions, const StateValuations& valuations);
  ~SourceScope();
  SourceScope(const SourceScope&) = delete;
  SourceScope& operator=(const SourceScope&) = delete;

  // Constant or formula `name` (definitions.defines(name)) over the columns
  // of the valuations (a state is one row of them), the constants and
  // formulas it names folded in; a constant is a constant Expression.
  // Throws pmc::Error (property) naming it when it does not bind.
  Expression bind(const std::string& name);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pmc::expression
