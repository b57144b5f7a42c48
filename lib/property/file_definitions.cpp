// A properties file's constants are declared to lib/expression's binder
// after the model's (literals), given values as a source's undefined
// constants are (Binder::give_constant types them), and evaluated as a
// source's constants are: in dependency order, cycles reported. Before that,
// one walk finds the constants that cannot have a value (none given, or
// reading one that has none): they stay without one, so that only the
// properties using them fail.
#include "property/file_definitions.hpp"

#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"
#include "expression/binder.hpp"

namespace pmc::property {

namespace {

using expression::Node;
using expression::NodeKind;
using expression::ValueType;

Node literal_node(ValueType type, double value) {
  Node n;
  n.type = type;
  n.kind = type == ValueType::boolean ? NodeKind::boolean : type == ValueType::integer ? NodeKind::integer : NodeKind::real;
  if (type == ValueType::real) {
    n.real_value = value;
  } else {
    n.int_value = static_cast<int64_t>(value);  // an int's or bool's value: exact
  }
  return n;
}

double node_value(const Node& literal) {
  return literal.kind == NodeKind::real ? literal.real_value : static_cast<double>(literal.int_value);
}

// Every identifier of `n` with its node (for its position).
void collect_identifiers(const Node& n, std::vector<const Node*>& out) {
  if (n.kind == NodeKind::identifier) out.push_back(&n);
  for (const Node& child : n.children) collect_identifiers(child, out);
}

// Names a property mentions: identifiers in its expressions, bounds and
// thresholds (in `names`), and labels (in `labels`).
struct Mentions {
  std::set<std::string> names, labels;

  void expression(const ExprPtr& e) {
    if (!e) return;
    if (e->kind == ExprKind::variable) names.insert(e->name);
    for (const ExprPtr& arg : e->args) expression(arg);
  }
  void number(const Number& n) { expression(n.expression); }
  void path(const PathPtr& p) {
    if (!p) return;
    state(p->left);
    state(p->right);
    if (p->bound.lower) number(*p->bound.lower);
    if (p->bound.upper) number(*p->bound.upper);
    if (p->reward_bound) number(p->reward_bound->bound);
  }
  void state(const StatePtr& f) {
    if (!f) return;
    if (f->kind == StateKind::label) labels.insert(f->label);
    expression(f->expression);
    state(f->left);
    state(f->right);
    if (f->filter) {
      state(f->filter->operand);
      state(f->filter->states);
    }
    if (!f->op) return;
    path(f->op->path);
    path(f->op->condition);
    state(f->op->reward.target);
    number(f->op->reward.bound);
    state(f->op->state);
    expression(f->op->threshold_expression);
  }
};

}  // namespace

std::set<std::string> constants_used(const Property& property, const PropertiesFile& file) {
  Mentions mentions;
  mentions.state(property.root);
  std::set<std::string> used, seen_names, seen_labels;
  // Until nothing new: formulas and labels bring their bodies' names,
  // constants their values'.
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::string& label : std::set<std::string>(mentions.labels)) {
      if (!seen_labels.insert(label).second) continue;
      for (const FileDefinition& l : file.labels) {
        if (l.name == label) mentions.state(l.body), grew = true;
      }
    }
    for (const std::string& name : std::set<std::string>(mentions.names)) {
      if (!seen_names.insert(name).second) continue;
      grew = true;
      for (const FileDefinition& f : file.formulas) {
        if (f.name == name) mentions.state(f.body);
      }
      if (const FileConstant* c = file.find_constant(name)) {
        used.insert(name);
        if (!c->value) continue;
        std::vector<const Node*> identifiers;
        collect_identifiers(*c->value, identifiers);
        for (const Node* id : identifiers) mentions.names.insert(id->name);
      }
    }
  }
  return used;
}

std::vector<ConstantValue> literal_constants(const std::vector<expression::ConstantAssignment>& given,
                                             const std::string& origin) {
  std::vector<ConstantValue> out;
  for (const expression::ConstantAssignment& a : given) {
    ConstantValue c;
    c.name = a.name;
    c.origin = origin;
    const char* begin = a.value.data();
    const char* end = begin + a.value.size();
    int64_t integer = 0;
    double real = 0;
    if (a.value == "true" || a.value == "false") {
      c.type = ValueType::boolean;
      c.value = a.value == "true" ? 1.0 : 0.0;
    } else if (auto [stop, error] = std::from_chars(begin, end, integer); error == std::errc() && stop == end) {
      c.type = ValueType::integer;
      c.value = static_cast<double>(integer);
    } else if (auto [stop2, error2] = std::from_chars(begin, end, real);
               error2 == std::errc() && stop2 == end && std::isfinite(real)) {
      c.type = ValueType::real;
      c.value = real;
    } else {
      fail(ErrorCode::invalid_argument, "constants: {}: the value must be a number, true or false",
           quote_for_message(a.name + "=" + a.value));
    }
    out.push_back(std::move(c));
  }
  return out;
}

Definitions file_definitions(const PropertiesFile& file, const std::vector<expression::ConstantAssignment>& given,
                             const std::vector<ConstantValue>& outer) {
  const std::string& name = file.file_name;
  expression::Declarations declarations;
  std::map<std::string, const ConstantValue*> outer_by_name;
  for (const ConstantValue& o : outer) {
    if (!o.value) continue;
    outer_by_name.emplace(o.name, &o);
    expression::ConstantDeclaration d;
    d.name = o.name;
    d.type = o.type;
    d.value = literal_node(o.type, *o.value);
    declarations.constants.push_back(std::move(d));
  }
  const size_t first = declarations.constants.size();  // the binder's index of the file's first constant
  for (const FileConstant& c : file.constants) {
    if (const auto it = outer_by_name.find(c.name); it != outer_by_name.end()) {
      fail(ErrorCode::parse, "{}:{}: constant '{}' is a constant of {} too; a name is declared once", name, c.line,
           c.name, it->second->origin);
    }
    expression::ConstantDeclaration d;
    d.name = c.name;
    d.type = c.type;
    d.value = c.value;
    d.position = {static_cast<uint32_t>(c.line), static_cast<uint32_t>(c.column)};
    declarations.constants.push_back(std::move(d));
  }
  expression::Binder binder(declarations, name);
  std::set<std::string> given_names;
  for (const expression::ConstantAssignment& a : given) {
    const FileConstant* c = file.find_constant(a.name);
    if (c == nullptr) continue;  // the model's, or unknown: the caller's to judge
    if (c->value) {
      fail(ErrorCode::invalid_argument, "{}:{}: constant {}={} given: constant '{}' is already defined in the "
           "properties file", name, c->line, a.name, a.value, a.name);
    }
    binder.give_constant(first + static_cast<size_t>(c - file.constants.data()), a.value);
    given_names.insert(a.name);
  }

  // For each file constant: "" when it can have a value, else the name of
  // the constant without one that it needs (itself when it is that one).
  const size_t count = file.constants.size();
  std::vector<std::optional<std::string>> needs(count);
  std::vector<bool> visiting(count, false);
  std::function<std::string(size_t)> find_need = [&](size_t i) -> std::string {
    if (needs[i]) return *needs[i];
    if (visiting[i]) return "";  // a cycle: the binder names it when evaluating
    const FileConstant& c = file.constants[i];
    if (!c.value) return *(needs[i] = given_names.count(c.name) ? "" : c.name);
    visiting[i] = true;
    std::vector<const Node*> identifiers;
    collect_identifiers(*c.value, identifiers);
    std::string need;
    for (const Node* id : identifiers) {
      if (const FileConstant* other = file.find_constant(id->name)) {
        const std::string n = find_need(static_cast<size_t>(other - file.constants.data()));
        if (need.empty()) need = n;
      } else if (outer_by_name.count(id->name) == 0) {
        fail(ErrorCode::parse, "{}:{}:{}: the value of constant '{}' reads '{}', which is no constant (a constant's "
             "value may read the file's constants, the model's and values given with --const)",
             name, id->line, id->column, c.name, id->name);
      }
    }
    visiting[i] = false;
    return *(needs[i] = need);
  };

  Definitions out;
  for (size_t i = 0; i < count; ++i) {
    const FileConstant& c = file.constants[i];
    ConstantValue v;
    v.name = c.name;
    v.type = c.type;
    // Line 0: a constant without a line (a JANI model's), named by the file alone.
    const std::string where = c.line > 0 ? fmt::format("{}:{}", name, c.line) : name;
    v.origin = given_names.count(c.name) ? where + ", given with --const" : where;
    const std::string need = find_need(i);
    if (need.empty()) {
      v.value = node_value(binder.constant_value(first + i));
    } else if (need != c.name) {
      v.needs = need;
    }
    out.constants.push_back(std::move(v));
  }
  for (const FileDefinition& f : file.formulas) out.formulas.emplace_back(f.name, f.body);
  for (const FileDefinition& l : file.labels) out.labels.emplace_back(l.name, l.body);
  return out;
}

}  // namespace pmc::property
