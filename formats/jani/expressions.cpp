#include "formats/jani/expressions.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "common/error.hpp"

namespace pmc::jani {

namespace {

// Function calls nest at most this deep (JANI forbids recursion; a file
// that recurses anyway is told so instead of exhausting the stack).
constexpr int k_max_call_depth = 64;

[[noreturn]] void fail_at(const ExpressionScope& scope, ErrorCode code, const std::string& what) {
  fail(code, "{}: {}: {}", *scope.file, (*scope.places)[scope.place], what);
}

const Json& member(const Json& object, const char* key, const ExpressionScope& scope) {
  const auto it = object.find(key);
  if (it == object.end()) {
    fail_at(scope, ErrorCode::parse,
            fmt::format("the operator \"{}\" needs \"{}\"", object.value("op", std::string("?")), key));
  }
  return *it;
}

struct Translator {
  const ExpressionScope& scope;
  // Function parameters in scope (innermost call), by name.
  const std::unordered_map<std::string, Node>* parameters = nullptr;
  int calls = 0;

  Node at(Node n) const {
    n.line = scope.place;
    return n;
  }

  Node name(const std::string& name) const {
    if (parameters != nullptr) {
      if (auto p = parameters->find(name); p != parameters->end()) return p->second;
    }
    const NameMeaning* meaning = nullptr;
    if (scope.locals != nullptr) {
      if (auto l = scope.locals->find(name); l != scope.locals->end()) meaning = &l->second;
    }
    if (meaning == nullptr && scope.globals != nullptr) {
      if (auto g = scope.globals->find(name); g != scope.globals->end()) meaning = &g->second;
    }
    if (meaning == nullptr) {
      fail_at(scope, ErrorCode::parse, fmt::format("unknown identifier {} (no constant, variable or function "
                                                   "parameter of that name is in scope)", quote_for_message(name)));
    }
    if (meaning->kind != NameMeaning::Kind::transient) return identifier_node(meaning->program_name, scope.place);
    if (scope.transient_values != nullptr) {
      if (auto v = scope.transient_values->find(name); v != scope.transient_values->end()) return v->second;
    }
    if (scope.property && meaning->boolean) return identifier_node("\"" + name + "\"", scope.place);
    fail_at(scope, ErrorCode::unsupported,
            fmt::format("reads the transient variable '{}': pmc reads transient variables only as labels "
                        "(booleans) and rewards (numbers) in properties", name));
  }

  Node unary(const Json& e, NodeKind kind) { return operation(kind, {translate(member(e, "exp", scope))}, scope.place); }
  Node binary(const Json& e, NodeKind kind) {
    return operation(kind, {translate(member(e, "left", scope)), translate(member(e, "right", scope))}, scope.place);
  }

  // ∧ and ∨ chains as balanced trees, operands in order (evaluation and its
  // errors stay left to right).
  Node chain(const Json& e, const std::string& op, NodeKind kind) {
    std::vector<const Json*> operands;
    std::vector<const Json*> pending{&e};
    while (!pending.empty()) {
      const Json* x = pending.back();
      pending.pop_back();
      if (x->is_object() && x->contains("op") && (*x)["op"] == op) {
        pending.push_back(&member(*x, "right", scope));
        pending.push_back(&member(*x, "left", scope));
      } else {
        operands.push_back(x);
      }
    }
    std::vector<Node> nodes;
    nodes.reserve(operands.size());
    for (const Json* x : operands) nodes.push_back(translate(*x));
    return balanced(nodes, 0, nodes.size(), kind);
  }
  Node balanced(std::vector<Node>& nodes, size_t first, size_t last, NodeKind kind) const {
    if (last - first == 1) return std::move(nodes[first]);
    const size_t middle = first + (last - first) / 2;
    Node left = balanced(nodes, first, middle, kind);
    Node right = balanced(nodes, middle, last, kind);
    return operation(kind, {std::move(left), std::move(right)}, scope.place);
  }

  const Json* find_function(const std::string& name) const {
    for (const Json* list : {scope.local_functions, scope.functions}) {
      if (list == nullptr || !list->is_array()) continue;
      for (const Json& f : *list) {
        if (f.is_object() && f.value("name", std::string()) == name) return &f;
      }
    }
    return nullptr;
  }

  Node call(const Json& e) {
    const Json& function = member(e, "function", scope);
    if (!function.is_string()) fail_at(scope, ErrorCode::parse, "\"function\" of a call must be a name");
    const std::string name = function.get<std::string>();
    const Json* definition = find_function(name);
    if (definition == nullptr) fail_at(scope, ErrorCode::parse, fmt::format("call of unknown function '{}'", name));
    const Json& args = member(e, "args", scope);
    const Json empty = Json::array();
    const Json& params = definition->contains("parameters") ? (*definition)["parameters"] : empty;
    if (!args.is_array() || !params.is_array() || args.size() != params.size()) {
      fail_at(scope, ErrorCode::parse,
              fmt::format("function '{}' takes {} argument(s), the call gives {}", name,
                          params.is_array() ? params.size() : 0, args.is_array() ? args.size() : 0));
    }
    if (calls >= k_max_call_depth) {
      fail_at(scope, ErrorCode::parse,
              fmt::format("calls of '{}' nest deeper than {} (JANI functions may not recurse)", name,
                          k_max_call_depth));
    }
    std::unordered_map<std::string, Node> bound;
    for (size_t i = 0; i < args.size(); ++i) {
      if (!params[i].is_object() || !params[i].contains("name") || !params[i]["name"].is_string()) {
        fail_at(scope, ErrorCode::parse, fmt::format("function '{}': parameter {} has no name", name, i + 1));
      }
      bound[params[i]["name"].get<std::string>()] = translate(args[i]);
    }
    if (!definition->contains("body")) fail_at(scope, ErrorCode::parse, fmt::format("function '{}' has no body", name));
    // The body sees its parameters, the model's names and (an automaton's
    // function) the automaton's variables, not the caller's parameters.
    Translator inner{scope, &bound, calls + 1};
    return inner.translate((*definition)["body"]);
  }

  Node translate(const Json& e) {
    if (e.is_boolean()) return boolean_node(e.get<bool>(), scope.place);
    if (e.is_number_integer()) return integer_node(e.get<int64_t>(), scope.place);
    if (e.is_number_unsigned()) {
      fail_at(scope, ErrorCode::parse, fmt::format("the integer {} exceeds 64-bit integers", e.dump()));
    }
    if (e.is_number_float()) return real_node(e.get<double>(), scope.place);
    if (e.is_string()) return name(e.get<std::string>());
    if (!e.is_object()) {
      fail_at(scope, ErrorCode::parse,
              fmt::format("expected an expression (a number, a boolean, a name or an object with \"op\"), found {}",
                          json_type_name(e)));
    }
    if (auto c = e.find("constant"); c != e.end()) {
      if (*c == "e") return real_node(std::numbers::e, scope.place);
      if (*c == "π") return real_node(std::numbers::pi, scope.place);
      fail_at(scope, ErrorCode::parse, fmt::format("unknown constant {} (JANI has \"e\" and \"π\")", c->dump()));
    }
    const auto op_it = e.find("op");
    if (op_it == e.end() || !op_it->is_string()) {
      fail_at(scope, ErrorCode::parse, "an expression object needs \"op\" (or \"constant\")");
    }
    const std::string& op = op_it->get_ref<const std::string&>();
    if (op == "∧") return chain(e, op, NodeKind::logical_and);
    if (op == "∨") return chain(e, op, NodeKind::logical_or);
    if (op == "⇒") return binary(e, NodeKind::implies);
    if (op == "¬") return unary(e, NodeKind::logical_not);
    if (op == "=") return binary(e, NodeKind::equal);
    if (op == "≠") return binary(e, NodeKind::not_equal);
    if (op == "<") return binary(e, NodeKind::less);
    if (op == "≤") return binary(e, NodeKind::less_equal);
    if (op == ">") return binary(e, NodeKind::greater);
    if (op == "≥") return binary(e, NodeKind::greater_equal);
    if (op == "+") return binary(e, NodeKind::add);
    if (op == "-") return binary(e, NodeKind::subtract);
    if (op == "*") return binary(e, NodeKind::multiply);
    if (op == "/") return binary(e, NodeKind::divide);
    if (op == "%") return binary(e, NodeKind::function_mod);
    if (op == "pow") return binary(e, NodeKind::function_pow);
    if (op == "log") return binary(e, NodeKind::function_log);
    if (op == "min") return binary(e, NodeKind::function_min);
    if (op == "max") return binary(e, NodeKind::function_max);
    if (op == "floor") return unary(e, NodeKind::function_floor);
    if (op == "ceil") return unary(e, NodeKind::function_ceil);
    if (op == "ite") {
      return operation(NodeKind::conditional,
                       {translate(member(e, "if", scope)), translate(member(e, "then", scope)),
                        translate(member(e, "else", scope))},
                       scope.place);
    }
    if (op == "abs") {  // x < 0 ? -x : x
      Node x = translate(member(e, "exp", scope));
      Node negative = operation(NodeKind::less, {x, integer_node(0, scope.place)}, scope.place);
      Node minus = operation(NodeKind::negate, {x}, scope.place);
      return operation(NodeKind::conditional, {std::move(negative), std::move(minus), x}, scope.place);
    }
    if (op == "sgn") {  // x > 0 ? 1 : (x < 0 ? -1 : 0)
      Node x = translate(member(e, "exp", scope));
      Node below = operation(NodeKind::conditional,
                             {operation(NodeKind::less, {x, integer_node(0, scope.place)}, scope.place),
                              integer_node(-1, scope.place), integer_node(0, scope.place)},
                             scope.place);
      return operation(NodeKind::conditional,
                       {operation(NodeKind::greater, {x, integer_node(0, scope.place)}, scope.place),
                        integer_node(1, scope.place), std::move(below)},
                       scope.place);
    }
    if (op == "trc") {  // toward zero: x < 0 ? ceil(x) : floor(x)
      Node x = translate(member(e, "exp", scope));
      return operation(NodeKind::conditional,
                       {operation(NodeKind::less, {x, integer_node(0, scope.place)}, scope.place),
                        operation(NodeKind::function_ceil, {x}, scope.place),
                        operation(NodeKind::function_floor, {x}, scope.place)},
                       scope.place);
    }
    if (op == "call") return call(e);
    if (scope.property && (op == "initial" || op == "deadlock")) {
      return identifier_node(op == "initial" ? "\"init\"" : "\"deadlock\"", scope.place);
    }
    if (op == "Pmin" || op == "Pmax" || op == "Emin" || op == "Emax" || op == "Smin" || op == "Smax" ||
        op == "filter" || op == "U" || op == "W" || op == "F" || op == "G" || op == "R" || op == "∀" || op == "∃") {
      fail_at(scope, ErrorCode::unsupported,
              fmt::format("the operator \"{}\" stands where pmc needs a plain expression over the state", op));
    }
    if (op == "timelock" || op == "initial" || op == "deadlock") {
      fail_at(scope, ErrorCode::unsupported, fmt::format("\"{}\" may only be used in properties{}", op,
                                                         op == "timelock" ? " of timed models" : ""));
    }
    if (op == "aa" || op == "av" || op == "ac" || op == "da" || op == "de" || op == "nondet" || op == "der") {
      fail_at(scope, ErrorCode::unsupported,
              fmt::format("the operator \"{}\" (JANI's arrays, datatypes, nondeterministic selection or "
                          "derivatives) is not supported", op));
    }
    fail_at(scope, ErrorCode::unsupported, fmt::format("unknown or unsupported operator {}", quote_for_message(op)));
  }
};

void collect_names(const Json& e, const ExpressionScope& scope, std::vector<std::string>& out, int depth) {
  if (depth > k_max_call_depth) return;  // translate_expression reports the recursion
  if (e.is_string()) {
    out.push_back(e.get<std::string>());
    return;
  }
  if (e.is_array()) {
    for (const Json& x : e) collect_names(x, scope, out, depth);
    return;
  }
  if (!e.is_object()) return;
  if (auto op = e.find("op"); op != e.end() && *op == "call" && e.contains("function") && e["function"].is_string()) {
    const std::string name = e["function"].get<std::string>();
    for (const Json* list : {scope.local_functions, scope.functions}) {
      if (list == nullptr || !list->is_array()) continue;
      for (const Json& f : *list) {
        if (f.is_object() && f.value("name", std::string()) == name && f.contains("body")) {
          collect_names(f["body"], scope, out, depth + 1);
        }
      }
    }
    if (e.contains("args")) collect_names(e["args"], scope, out, depth);
    return;
  }
  for (const auto& [key, value] : e.items()) {
    if (key != "op" && key != "comment" && key != "function" && key != "constant" && key != "fun") {
      collect_names(value, scope, out, depth);
    }
  }
}

}  // namespace

Node integer_node(int64_t value, uint32_t place) {
  Node n;
  n.kind = NodeKind::integer;
  n.int_value = value;
  n.line = place;
  return n;
}

Node boolean_node(bool value, uint32_t place) {
  Node n;
  n.kind = NodeKind::boolean;
  n.int_value = value ? 1 : 0;
  n.line = place;
  return n;
}

Node real_node(double value, uint32_t place) {
  Node n;
  n.kind = NodeKind::real;
  n.real_value = value;
  // The shortest decimal that reads back as the double: what a JANI writer
  // printed, so --exact takes 0.1 as 1/10.
  if (std::isfinite(value)) n.exact = fmt::format("{}", value);
  n.line = place;
  return n;
}

Node identifier_node(const std::string& name, uint32_t place) {
  Node n;
  n.kind = NodeKind::identifier;
  n.name = name;
  n.line = place;
  return n;
}

Node operation(NodeKind kind, std::vector<Node> children, uint32_t place) {
  Node n;
  n.kind = kind;
  n.line = place;
  for (const Node& c : children) n.depth = std::max(n.depth, c.depth + 1);
  n.children = std::move(children);
  return n;
}

Node translate_expression(const Json& expression, const ExpressionScope& scope) {
  Translator translator{scope};
  return translator.translate(expression);
}

void names_read(const Json& expression, const ExpressionScope& scope, std::vector<std::string>& out) {
  collect_names(expression, scope, out, 0);
}

std::string json_type_name(const Json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string";
  if (value.is_array()) return "an array";
  return "an object";
}

}  // namespace pmc::jani
