// Recursive-descent parser for the PRISM language (PRISM manual, "The PRISM
// Language"; precedence as PRISM's PrismParser.jj). It only builds syntax
// (syntax.hpp); names, types and values are the checker's.
#include <algorithm>

#include "common/error.hpp"
#include "formats/prism_language/lexer.hpp"
#include "formats/prism_language/syntax.hpp"

namespace pmc::prism_language {

namespace {

// Deeper trees are refused rather than risking the stack of whatever thread
// parses (every later pass over a tree recurses too).
constexpr uint32_t k_max_depth = 1000;
// Parentheses, unary operators and calls cost a dozen parser frames per
// level (one per precedence level), so their nesting is capped lower: 256
// levels stay well inside a 1 MiB thread stack (a JVM thread's, say).
constexpr uint32_t k_max_nesting = 256;

class Parser {
 public:
  Parser(std::vector<Token> tokens, const std::string& file) : tokens_(std::move(tokens)), file_(file) {}

  SyntaxProgram program() {
    SyntaxProgram p;
    if (peek().kind == TokenKind::end) {
      error(peek(), "a PRISM model (dtmc, ctmc or mdp, then modules); the file is empty");
    }
    while (peek().kind != TokenKind::end) {
      const Token& t = peek();
      if (auto type = model_type(t.text); type && t.kind == TokenKind::identifier) {
        if (p.type) {
          fail(ErrorCode::parse, "{}: second model type keyword '{}' (the first is at line {})", where(t),
               t.text, p.type_position.line);
        }
        p.type = *type;
        p.type_position = position(t);
        next();
      } else if (t.is("pta") || t.is("pomdp") || t.is("popta") || t.is("ctmdp") || t.is("smg")) {
        fail(ErrorCode::parse, "{}: model type '{}' is not supported (pmc builds dtmc, ctmc and mdp)", where(t), t.text);
      } else if (t.is("const") || t.is("rate") || t.is("prob")) {
        p.constants.push_back(constant());
      } else if (t.is("formula")) {
        SyntaxFormula f;
        f.position = position(next());
        f.name = name("a formula name");
        expect("=");
        f.value = expression();
        expect(";");
        p.formulas.push_back(std::move(f));
      } else if (t.is("global")) {
        next();
        p.globals.push_back(variable());
      } else if (t.is("module")) {
        p.modules.push_back(module());
      } else if (t.is("label")) {
        SyntaxLabel l;
        l.position = position(next());
        if (peek().kind != TokenKind::string) error(peek(), "a label name in double quotes");
        l.name = std::string(next().text);
        expect("=");
        l.condition = expression();
        expect(";");
        p.labels.push_back(std::move(l));
      } else if (t.is("rewards")) {
        p.rewards.push_back(rewards());
      } else if (t.is("init")) {
        if (p.initial_states) {
          fail(ErrorCode::parse, "{}: second 'init ... endinit' block (the first is at line {})", where(t),
               p.initial_position.line);
        }
        p.initial_position = position(next());
        p.initial_states = expression();
        expect("endinit");
      } else if (t.is("system")) {
        fail(ErrorCode::parse, "{}: 'system ... endsystem' is not supported (modules are composed in parallel "
             "on their shared actions)", where(t));
      } else {
        error(t, "'module', 'const', 'formula', 'global', 'label', 'rewards', 'init' or a model type");
      }
    }
    return p;
  }

 private:
  static std::optional<ModelType> model_type(std::string_view word) {
    if (word == "dtmc" || word == "probabilistic") return ModelType::dtmc;
    if (word == "ctmc" || word == "stochastic") return ModelType::ctmc;
    if (word == "mdp" || word == "nondeterministic") return ModelType::mdp;
    return std::nullopt;
  }

  const Token& peek(size_t ahead = 0) const { return tokens_[std::min(at_ + ahead, tokens_.size() - 1)]; }
  const Token& next() {
    const Token& t = tokens_[at_];
    if (at_ + 1 < tokens_.size()) ++at_;
    return t;
  }
  bool accept(std::string_view text) {
    if (!peek().is(text)) return false;
    next();
    return true;
  }
  const Token& expect(std::string_view text) {
    if (!peek().is(text)) error(peek(), fmt::format("'{}'", text));
    return next();
  }
  std::string where(const Token& t) const { return fmt::format("{}:{}:{}", file_, t.line, t.column); }
  static Position position(const Token& t) { return {t.line, t.column}; }

  [[noreturn]] void error(const Token& t, const std::string& expected) const {
    fail(ErrorCode::parse, "{}: expected {}, found {}", where(t), expected, describe(t));
  }

  std::string name(const char* what) {
    const Token& t = peek();
    if (t.kind != TokenKind::identifier) error(t, what);
    if (is_reserved_word(t.text)) {
      fail(ErrorCode::parse, "{}: expected {}, found keyword '{}' (reserved in PRISM)", where(t), what, t.text);
    }
    next();
    return std::string(t.text);
  }

  SyntaxConstant constant() {
    SyntaxConstant c;
    const Token& keyword = next();
    c.position = position(keyword);
    if (keyword.is("rate") || keyword.is("prob")) {
      c.type = ValueType::real;  // PRISM's old spellings of `const double`
    } else if (accept("int")) {
      c.type = ValueType::integer;
    } else if (accept("double")) {
      c.type = ValueType::real;
    } else if (accept("bool")) {
      c.type = ValueType::boolean;
    }  // `const N` is an int
    c.name = name("a constant name");
    if (accept("=")) c.value = expression();
    expect(";");
    return c;
  }

  SyntaxVariable variable() {
    SyntaxVariable v;
    v.position = position(peek());
    v.name = name("a variable name");
    expect(":");
    if (accept("bool")) {
      v.type = ValueType::boolean;
    } else if (accept("[")) {
      v.type = ValueType::integer;
      v.lower = expression();
      expect("..");
      v.upper = expression();
      expect("]");
    } else if (peek().is("int") || peek().is("clock") || peek().is("double")) {
      fail(ErrorCode::parse, "{}: variable '{}' has no range: pmc needs bounded variables ('{} : [lo..hi]')",
           where(peek()), v.name, v.name);
    } else {
      error(peek(), "a range '[lo..hi]' or 'bool'");
    }
    if (accept("init")) v.init = expression();
    expect(";");
    return v;
  }

  SyntaxModule module() {
    SyntaxModule m;
    m.position = position(next());
    m.name = name("a module name");
    if (accept("=")) {
      m.base = name("the name of the module to rename");
      expect("[");
      do {
        SyntaxRename r;
        r.position = position(peek());
        r.from = rename_word();
        expect("=");
        r.to = rename_word();
        m.renames.push_back(std::move(r));
      } while (accept(","));
      expect("]");
      expect("endmodule");
      return m;
    }
    while (!accept("endmodule")) {
      if (peek().is("[")) {
        m.commands.push_back(command());
      } else if (peek().kind == TokenKind::identifier && !is_reserved_word(peek().text) && peek(1).is(":")) {
        m.variables.push_back(variable());
      } else if (peek().is("global")) {
        fail(ErrorCode::parse, "{}: global variables are declared outside modules", where(peek()));
      } else {
        error(peek(), "a variable declaration, a command '[...] guard -> updates;' or 'endmodule'");
      }
    }
    return m;
  }

  std::string rename_word() {
    return name("an identifier");
  }

  SyntaxCommand command() {
    SyntaxCommand c;
    c.position = position(expect("["));
    c.action_position = position(peek());
    if (!peek().is("]")) c.action = name("an action name or ']'");
    expect("]");
    c.guard = expression();
    expect("->");
    do {
      c.updates.push_back(update());
    } while (accept("+"));
    if (c.updates.size() > 1) {
      for (const SyntaxUpdate& u : c.updates) {
        if (!u.weight) {
          fail(ErrorCode::parse, "{}:{}:{}: expected a probability or rate 'p : ...' before each of several "
               "updates joined by '+'", file_, u.position.line, u.position.column);
        }
      }
    }
    expect(";");
    return c;
  }

  bool at_assignment() const { return peek().is("(") && peek(1).kind == TokenKind::identifier && peek(2).is("'"); }

  SyntaxUpdate update() {
    SyntaxUpdate u;
    u.position = position(peek());
    const bool bare_true = peek().is("true") && (peek(1).is(";") || peek(1).is("+"));
    if (!at_assignment() && !bare_true) {
      u.weight = expression();
      expect(":");
    }
    if (accept("true")) return u;
    do {
      if (!at_assignment()) error(peek(), "an assignment '(x'=...)' or 'true'");
      expect("(");
      SyntaxAssignment a;
      a.position = position(peek());
      a.variable = name("a variable name");
      expect("'");
      expect("=");
      a.value = expression();
      expect(")");
      u.assignments.push_back(std::move(a));
    } while (accept("&"));
    return u;
  }

  SyntaxRewards rewards() {
    SyntaxRewards r;
    r.position = position(next());
    if (peek().kind == TokenKind::string) r.name = std::string(next().text);
    while (!accept("endrewards")) {
      SyntaxRewardItem item;
      item.position = position(peek());
      if (accept("[")) {
        item.transition = true;
        if (!peek().is("]")) item.action = name("an action name or ']'");
        expect("]");
      }
      item.guard = expression();
      expect(":");
      item.value = expression();
      expect(";");
      r.items.push_back(std::move(item));
    }
    return r;
  }

  // Expressions, loosest first.

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
      fail(ErrorCode::parse, "{}:{}:{}: expression nested too deeply (more than {} levels)", file_, n.line,
           n.column, k_max_depth);
    }
    n.children = std::move(children);
    return n;
  }

  Node expression() {
    if (++nesting_ > k_max_nesting) {
      fail(ErrorCode::parse, "{}: expression nested too deeply (more than {} levels)", where(peek()), k_max_nesting);
    }
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

  Node iff() { return left_associative(&Parser::disjunction, {{"<=>", NodeKind::iff}}); }
  Node disjunction() { return left_associative(&Parser::conjunction, {{"|", NodeKind::logical_or}}); }
  Node conjunction() { return left_associative(&Parser::negation, {{"&", NodeKind::logical_and}}); }

  Node negation() {
    if (!peek().is("!")) return equality();
    const Token& bang = next();
    nest(bang);
    Node a = negation();
    --nesting_;
    Node n = make(NodeKind::logical_not, list(std::move(a)));
    n.line = bang.line;
    n.column = bang.column;
    return n;
  }

  Node equality() {
    return left_associative(&Parser::relational, {{"=", NodeKind::equal}, {"!=", NodeKind::not_equal}});
  }
  Node relational() {
    return left_associative(&Parser::additive, {{"<", NodeKind::less},
                                                {"<=", NodeKind::less_equal},
                                                {">", NodeKind::greater},
                                                {">=", NodeKind::greater_equal}});
  }
  Node additive() {
    return left_associative(&Parser::multiplicative, {{"+", NodeKind::add}, {"-", NodeKind::subtract}});
  }
  Node multiplicative() {
    return left_associative(&Parser::unary, {{"*", NodeKind::multiply}, {"/", NodeKind::divide}});
  }

  void nest(const Token& t) {
    if (++nesting_ > k_max_nesting) {
      fail(ErrorCode::parse, "{}: expression nested too deeply (more than {} levels)", where(t), k_max_nesting);
    }
  }

  Node unary() {
    if (!peek().is("-")) return basic();
    const Token& minus = next();
    nest(minus);
    Node a = unary();
    --nesting_;
    Node n = make(NodeKind::negate, list(std::move(a)));
    n.line = minus.line;
    n.column = minus.column;
    return n;
  }

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
      n.real_value = next().real_value;
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
    struct Known {
      std::string_view name;
      NodeKind kind;
      size_t arguments;  // 0: one or more
    };
    static constexpr Known known[] = {
        {"min", NodeKind::function_min, 0},     {"max", NodeKind::function_max, 0},
        {"floor", NodeKind::function_floor, 1}, {"ceil", NodeKind::function_ceil, 1},
        {"round", NodeKind::function_round, 1}, {"pow", NodeKind::function_pow, 2},
        {"mod", NodeKind::function_mod, 2},     {"log", NodeKind::function_log, 2}};
    const Known* k = nullptr;
    for (const Known& candidate : known) {
      if (candidate.name == function.text) k = &candidate;
    }
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

  std::vector<Token> tokens_;
  size_t at_ = 0;
  const std::string& file_;
  uint32_t nesting_ = 0;
};

}  // namespace

SyntaxProgram parse_syntax(std::string_view source, const std::string& file) {
  return Parser(tokenize(source, file), file).program();
}

}  // namespace pmc::prism_language
