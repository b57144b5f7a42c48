// PRISM's expression grammar, loosest operator first (see grammar.hpp).
#include "expression/grammar.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <utility>

#include "common/error.hpp"

namespace pmc::expression {

namespace {

// Deeper trees are refused rather than risking the stack of whatever thread
// parses (every later pass over a tree recurses too).
constexpr uint32_t k_max_depth = 1000;
// Parentheses, unary operators and calls cost a dozen parser frames per
// level (one per precedence level), so their nesting is capped lower: 256
// levels stay well inside a 1 MiB thread stack (a JVM thread's, say).
constexpr uint32_t k_max_nesting = 256;

// One expression's parse: the cursor and how deeply it is nested so far.
class ExpressionGrammar {
 public:
  explicit ExpressionGrammar(TokenCursor& in) : in_(in) {}

  // expression() is the entry; below it one method per precedence level,
  // loosest first: `? :`, `=>`, `<=>`, `|`, `&`, `!`, `=`, relations, `+`,
  // `*`, unary minus, then literals, names, parentheses and calls.

  static std::vector<Node> list(Node a) {
    std::vector<Node> out;
    out.push_back(std::move(a));
    return out;
  }
  static std::vector<Node> list(Node a, Node b) {
    std::vector<Node> out = list(std::move(a));
    out.push_back(std::move(b));
    return out;
  }

  // A node at its first child's position.
  Node make(NodeKind kind, std::vector<Node> children) {
    Node n;
    n.kind = kind;
    n.line = children[0].line;
    n.column = children[0].column;
    for (const Node& c : children) n.depth = std::max(n.depth, c.depth + 1);
    if (n.depth > k_max_depth) {
      fail(ErrorCode::parse, "{}:{}:{}: expression nested too deeply (more than {} levels)", in_.file(), n.line,
           n.column, k_max_depth);
    }
    n.children = std::move(children);
    return n;
  }

  Node expression() {
    nest(peek());
    Node n = conditional();
    --nesting_;
    return n;
  }

  Node conditional() {
    Node c = implies();
    if (!accept("?")) return c;
    Node a = implies();
    expect(":");
    Node b = expression();  // right-associative
    std::vector<Node> parts = list(std::move(c), std::move(a));
    parts.push_back(std::move(b));
    return make(NodeKind::conditional, std::move(parts));
  }

  Node implies() {
    Node a = iff();
    if (!accept("=>")) return a;
    Node b = implies();
    return make(NodeKind::implies, list(std::move(a), std::move(b)));
  }

  template <typename Operand>
  Node left_associative(Operand operand, std::initializer_list<std::pair<std::string_view, NodeKind>> ops) {
    Node a = (this->*operand)();
    while (true) {
      std::optional<NodeKind> kind;
      for (const auto& [text, k] : ops) {
        if (peek().is(text)) kind = k;
      }
      if (!kind) return a;
      next();
      Node b = (this->*operand)();
      a = make(*kind, list(std::move(a), std::move(b)));
    }
  }

  Node iff() { return left_associative(&ExpressionGrammar::disjunction, {{"<=>", NodeKind::iff}}); }
  Node disjunction() { return left_associative(&ExpressionGrammar::conjunction, {{"|", NodeKind::logical_or}}); }
  Node conjunction() { return left_associative(&ExpressionGrammar::negation, {{"&", NodeKind::logical_and}}); }

  // `op operand` where the operand is this level again (`!!a`, `--a`), or
  // else the next tighter level; the node stands at the operator.
  template <typename Level>
  Node prefix(std::string_view op, NodeKind kind, Level same, Level tighter) {
    if (!peek().is(op)) return (this->*tighter)();
    const Token& op_token = next();
    nest(op_token);
    Node a = (this->*same)();
    --nesting_;
    Node n = make(kind, list(std::move(a)));
    n.line = op_token.line;
    n.column = op_token.column;
    return n;
  }

  Node negation() {
    return prefix("!", NodeKind::logical_not, &ExpressionGrammar::negation, &ExpressionGrammar::equality);
  }

  Node equality() {
    return left_associative(&ExpressionGrammar::relational, {{"=", NodeKind::equal}, {"!=", NodeKind::not_equal}});
  }
  Node relational() {
    return left_associative(&ExpressionGrammar::additive, {{"<", NodeKind::less},
                                                {"<=", NodeKind::less_equal},
                                                {">", NodeKind::greater},
                                                {">=", NodeKind::greater_equal}});
  }
  Node additive() {
    return left_associative(&ExpressionGrammar::multiplicative, {{"+", NodeKind::add}, {"-", NodeKind::subtract}});
  }
  Node multiplicative() {
    return left_associative(&ExpressionGrammar::unary, {{"*", NodeKind::multiply}, {"/", NodeKind::divide}});
  }

  void nest(const Token& t) {
    if (++nesting_ > k_max_nesting) {
      fail(ErrorCode::parse, "{}: expression nested too deeply (more than {} levels)", where(t), k_max_nesting);
    }
  }

  Node unary() { return prefix("-", NodeKind::negate, &ExpressionGrammar::unary, &ExpressionGrammar::basic); }

  Node basic() {
    const Token& t = peek();
    Node n;
    n.line = t.line;
    n.column = t.column;
    if (t.kind == TokenKind::integer) {
      n.kind = NodeKind::integer;
      n.int_value = next().int_value;
      return n;
    }
    if (t.kind == TokenKind::real) {
      n.kind = NodeKind::real;
      const Token& literal = next();
      n.real_value = literal.real_value;
      n.exact = std::string(literal.text);
      return n;
    }
    if (t.is("true") || t.is("false")) {
      n.kind = NodeKind::boolean;
      n.int_value = next().is("true");
      return n;
    }
    if (t.is("(")) {
      next();
      Node inner = expression();
      expect(")");
      return inner;
    }
    if (t.is("func")) {
      next();
      expect("(");
      const Token& f = peek();
      if (f.kind != TokenKind::identifier) error(f, "a function name");
      next();
      expect(",");
      return call(f, n);
    }
    if (t.kind == TokenKind::identifier && peek(1).is("(")) {
      next();
      next();
      return call(t, n);
    }
    if (t.kind == TokenKind::identifier && !is_reserved_word(t.text)) {
      n.kind = NodeKind::identifier;
      n.name = std::string(next().text);
      return n;
    }
    error(t, "an expression");
  }

  // After `name(` (or `func(name,`): the arguments and `)`.
  Node call(const Token& function, const Node& at) {
    const BuiltinFunction* k = find_function(function.text);
    if (!k) {
      fail(ErrorCode::parse, "{}: unknown function '{}' (PRISM's are min, max, floor, ceil, round, pow, mod, log)",
           where(function), function.text);
    }
    std::vector<Node> arguments;
    nest(function);
    do {
      arguments.push_back(expression());
    } while (accept(","));
    --nesting_;
    expect(")");
    if (k->arguments != 0 && arguments.size() != k->arguments) {
      fail(ErrorCode::parse, "{}: function '{}' takes {} argument{}, found {}", where(function), k->name,
           k->arguments, k->arguments == 1 ? "" : "s", arguments.size());
    }
    Node n = make(k->kind, std::move(arguments));
    n.line = at.line;
    n.column = at.column;
    n.name = std::string(k->name);
    return n;
  }

 private:
  const Token& peek(size_t ahead = 0) const { return in_.peek(ahead); }
  const Token& next() { return in_.next(); }
  bool accept(std::string_view text) { return in_.accept(text); }
  const Token& expect(std::string_view text) { return in_.expect(text); }
  std::string where(const Token& t) const { return in_.where(t); }
  [[noreturn]] void error(const Token& t, const std::string& expected) const { in_.error(t, expected); }

  TokenCursor& in_;
  uint32_t nesting_ = 0;
};

}  // namespace

Node parse_expression(TokenCursor& cursor) { return ExpressionGrammar(cursor).expression(); }

}  // namespace pmc::expression
