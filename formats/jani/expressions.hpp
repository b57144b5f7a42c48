// JANI expressions → the front end's expression trees (expression/
// syntax_tree.hpp), names left for the binder to resolve. Functions are
// inlined; JANI's derived operators (abs, sgn, trc) are written out in
// PRISM's; long chains of ∧ and ∨ are balanced so that the binder's depth
// limit does not reject what a tool wrote as a left-deep list.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/jani/translation.hpp"

namespace pmc::jani {

using expression::Node;
using expression::NodeKind;

// Numbered places for error messages (SourceLocation::places).
class Places {
 public:
  Places() : places_(std::make_shared<std::vector<std::string>>()) {}
  // The place's number (a position's line).
  uint32_t add(std::string place) {
    places_->push_back(std::move(place));
    return static_cast<uint32_t>(places_->size());
  }
  const std::string& operator[](uint32_t line) const { return (*places_)[line - 1]; }
  void rename(uint32_t line, std::string place) { (*places_)[line - 1] = std::move(place); }
  std::shared_ptr<std::vector<std::string>> shared() const { return places_; }

 private:
  std::shared_ptr<std::vector<std::string>> places_;
};

// What a name in an expression stands for.
struct NameMeaning {
  enum class Kind { constant, variable, transient };
  Kind kind = Kind::variable;
  std::string program_name;  // constants and variables: the program's name for it
  bool boolean = false;      // transient: a label (else a reward)
};

// Where an expression is read, and what its names may mean there.
struct ExpressionScope {
  const std::string* file = nullptr;
  const Places* places = nullptr;
  uint32_t place = 0;
  const std::unordered_map<std::string, NameMeaning>* globals = nullptr;
  const std::unordered_map<std::string, NameMeaning>* locals = nullptr;  // the automaton's, or none
  const Json* functions = nullptr;        // the model's "functions" array, or none
  const Json* local_functions = nullptr;  // the automaton's
  // A transient variable's value where it is read (rewards, labels), by its
  // JANI name; none: reading one is an error.
  const std::unordered_map<std::string, Node>* transient_values = nullptr;
  // In a property: transient booleans are labels ("name"), and `initial`
  // and `deadlock` the built-in labels.
  bool property = false;
};

// Throws Error(parse) naming the place for what is no JANI expression or
// names nothing, Error(unsupported) for operators pmc does not have.
Node translate_expression(const Json& expression, const ExpressionScope& scope);

// Literal nodes at a place.
Node integer_node(int64_t value, uint32_t place);
Node boolean_node(bool value, uint32_t place);
Node real_node(double value, uint32_t place);
Node identifier_node(const std::string& name, uint32_t place);
Node operation(NodeKind kind, std::vector<Node> children, uint32_t place);

// The JANI names (transient or not) an expression reads, functions' bodies
// included.
void names_read(const Json& expression, const ExpressionScope& scope, std::vector<std::string>& out);

// "a number", "an object", ...: for messages.
std::string json_type_name(const Json& value);

}  // namespace pmc::jani
