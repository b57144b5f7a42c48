// PRISM's built-in functions, and expression trees back to PRISM text for
// messages: parenthesised as PRISM's precedence needs, so the text parses
// to the same tree.
#include "expression/syntax_tree.hpp"

#include <fmt/format.h>

namespace pmc::expression {

namespace {

constexpr BuiltinFunction k_functions[] = {
    {"min", NodeKind::function_min, 0},     {"max", NodeKind::function_max, 0},
    {"floor", NodeKind::function_floor, 1}, {"ceil", NodeKind::function_ceil, 1},
    {"round", NodeKind::function_round, 1}, {"pow", NodeKind::function_pow, 2},
    {"mod", NodeKind::function_mod, 2},     {"log", NodeKind::function_log, 2}};

}  // namespace

const BuiltinFunction* find_function(std::string_view name) {
  for (const BuiltinFunction& f : k_functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const char* function_name(NodeKind kind) {
  for (const BuiltinFunction& f : k_functions) {
    if (f.kind == kind) return f.name.data();  // the names are literals: NUL-terminated
  }
  return "";
}

bool is_function(NodeKind kind) { return *function_name(kind) != '\0'; }

const char* operator_text(NodeKind kind) {
  switch (kind) {
    case NodeKind::multiply: return "*";
    case NodeKind::divide: return "/";
    case NodeKind::add: return "+";
    case NodeKind::subtract: return "-";
    case NodeKind::less: return "<";
    case NodeKind::less_equal: return "<=";
    case NodeKind::greater: return ">";
    case NodeKind::greater_equal: return ">=";
    case NodeKind::equal: return "=";
    case NodeKind::not_equal: return "!=";
    case NodeKind::logical_and: return "&";
    case NodeKind::logical_or: return "|";
    case NodeKind::implies: return "=>";
    case NodeKind::iff: return "<=>";
    default: return "?";
  }
}

namespace {

// PRISM's precedence, loosest first (PRISM manual, "Expressions").
int precedence(const Node& n) {
  switch (n.kind) {
    case NodeKind::conditional: return 1;
    case NodeKind::implies: return 2;
    case NodeKind::iff: return 3;
    case NodeKind::logical_or: return 4;
    case NodeKind::logical_and: return 5;
    case NodeKind::logical_not: return 6;
    case NodeKind::equal:
    case NodeKind::not_equal: return 7;
    case NodeKind::less:
    case NodeKind::less_equal:
    case NodeKind::greater:
    case NodeKind::greater_equal: return 8;
    case NodeKind::add:
    case NodeKind::subtract: return 9;
    case NodeKind::multiply:
    case NodeKind::divide: return 10;
    case NodeKind::negate: return 11;
    case NodeKind::integer: return n.int_value < 0 ? 11 : 12;
    case NodeKind::real: return n.real_value < 0 ? 11 : 12;
    default: return 12;
  }
}

void write(const Node& n, std::string& out);

void write_operand(const Node& n, bool parenthesise, std::string& out) {
  if (parenthesise) out += '(';
  write(n, out);
  if (parenthesise) out += ')';
}

void write(const Node& n, std::string& out) {
  const int p = precedence(n);
  switch (n.kind) {
    case NodeKind::boolean: out += n.int_value ? "true" : "false"; return;
    case NodeKind::integer: out += std::to_string(n.int_value); return;
    case NodeKind::real: out += real_literal_text(n.real_value); return;
    case NodeKind::identifier:
    case NodeKind::variable: out += n.name; return;
    case NodeKind::negate:
      out += '-';
      write_operand(n.children[0], precedence(n.children[0]) < p, out);
      return;
    case NodeKind::logical_not:
      out += '!';
      write_operand(n.children[0], precedence(n.children[0]) < p, out);
      return;
    case NodeKind::conditional:
      write_operand(n.children[0], precedence(n.children[0]) <= p, out);
      out += " ? ";
      write_operand(n.children[1], precedence(n.children[1]) <= p, out);
      out += " : ";
      write_operand(n.children[2], precedence(n.children[2]) < p, out);
      return;
    default: break;
  }
  if (is_function(n.kind)) {
    out += function_name(n.kind);
    out += '(';
    for (size_t i = 0; i < n.children.size(); ++i) {
      if (i > 0) out += ", ";
      write(n.children[i], out);
    }
    out += ')';
    return;
  }
  // Binary operators associate to the left, except `=>` (to the right).
  const bool right = n.kind == NodeKind::implies;
  write_operand(n.children[0], right ? precedence(n.children[0]) <= p : precedence(n.children[0]) < p, out);
  out += ' ';
  out += operator_text(n.kind);
  out += ' ';
  write_operand(n.children[1], right ? precedence(n.children[1]) < p : precedence(n.children[1]) <= p, out);
}

}  // namespace

std::string node_to_string(const Node& node) {
  std::string out;
  write(node, out);
  return out;
}

std::string real_literal_text(double value) {
  std::string text = fmt::format("{}", value);
  // PRISM writes reals with a point, so "1" stays recognisably a double.
  if (text.find_first_of(".eEni") == std::string::npos) text += ".0";
  return text;
}

}  // namespace pmc::expression
