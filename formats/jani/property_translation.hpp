// JANI properties → PRISM-syntax property text for pmc's property checker:
//
//   filter(values, φ, initial)        φ (the value at the initial state)
//   filter(f, φ, ψ)                   filter(f, φ, ψ)
//   Pmin/Pmax(a U[bounds] b)          Pmin=? [ a U<=t b ] (chains: P=?)
//   … with a reward bound             Pmax=? [ a U^{rew{"r"}>=B} b ] (Storm's)
//   Emin/Emax(r, reach, accumulate)   R{"r"}min=? [ F reach ]
//   … with a step or time instant     [ I=t ] (nothing accumulated), [ C<=t ]
//   Smin/Smax(φ)                      S=? [ φ ] (a number: R{"r"}=? [ S ])
//   P/E/S compared with a bound       Pmin>=0.5 [ ... ]
//
// Reward structures are named by the expression whose expectation is taken:
// a transient variable's name, else the expression's PRISM text; the model
// translation builds one for each (reward_expressions()).
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/jani/expressions.hpp"

namespace pmc::jani {

class PropertyTranslator {
 public:
  // `has_state_part(e)`: whether the reward `e` is non-zero in some state
  // (a location's transient value or a transient's initial value), as
  // opposed to earned on edges only.
  PropertyTranslator(const Json& document, const std::string& file, Places& places,
                     const std::unordered_map<std::string, NameMeaning>& globals, ModelType type,
                     std::function<bool(const Json&)> has_state_part)
      : doc_(document),
        file_(file),
        places_(places),
        globals_(globals),
        type_(type),
        has_state_part_(std::move(has_state_part)) {}

  std::vector<Property> run();

  // The reward structures the properties use: name, and the expression
  // (nullptr where the name is a transient variable's).
  const std::vector<std::pair<std::string, const Json*>>& reward_expressions() const { return rewards_; }
  // PRISM's property syntax has no `c ? a : b`: each conditional in a
  // property is a formula of the model that the property names instead.
  std::vector<std::pair<std::string, Node>>& formulas() { return formulas_; }

 private:
  std::string query(const Json& e, uint32_t place, const std::string& bound);
  std::string path(const Json& e, uint32_t place);
  std::string bounds(const Json& bounds, uint32_t place, bool steps);
  std::string reward_bound(const Json& bounds, uint32_t place);
  std::string reward(const Json& e, uint32_t place);
  std::string predicate(const Json& e, uint32_t place);
  std::string reward_name(const Json& e, uint32_t place);
  bool is_numeric_reward(const Json& e, uint32_t place);
  ExpressionScope scope(uint32_t place) const;
  std::string optimum(const std::string& op) const;  // "min", "max" or "" (chains)

  const Json& doc_;
  const std::string& file_;
  Places& places_;
  const std::unordered_map<std::string, NameMeaning>& globals_;
  ModelType type_;
  std::function<bool(const Json&)> has_state_part_;
  Node conditionals_to_formulas(Node n, uint32_t place);
  std::vector<std::pair<std::string, const Json*>> rewards_;
  std::vector<std::pair<std::string, Node>> formulas_;
  std::string property_name_;  // the property being translated, for its formulas' names
};

}  // namespace pmc::jani
