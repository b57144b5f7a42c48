// Recursive descent over a one-token lookahead lexer. The grammar is in
// parser.hpp. Every error names a 1-based column, what was expected and what
// was found (docs/style.md, "Errors").
#include "property/parser.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace pmc::property {

namespace {

enum class Tok : uint8_t {
  end, identifier, string, number,
  lbracket, rbracket, lparen, rparen, lbrace, rbrace,
  bang, amp, bar, given, implies, equals, question, comma, minus,
  less, less_equal, greater, greater_equal,
  plus, star, slash, not_equals,  // in expressions over state variables only
  caret,                          // Storm's bounds in braces: F^{rew{"r"}<=5}
};

struct Token {
  Tok kind = Tok::end;
  size_t offset = 0;      // 0-based byte offset of the first character
  std::string_view text;  // as written; a string's text includes its quotes
  Number number;          // number only
};

// The brackets and operators: `one` alone, or `two` when `second` follows
// (`!=`, `||`, `=>`, `<=`, `>=`).
struct Punctuation {
  char first;
  Tok one;
  char second = 0;
  Tok two = Tok::end;
};
constexpr Punctuation k_punctuation[] = {
    {'[', Tok::lbracket},   {']', Tok::rbracket}, {'(', Tok::lparen},   {')', Tok::rparen},
    {'{', Tok::lbrace},     {'}', Tok::rbrace},   {'&', Tok::amp},      {'?', Tok::question},
    {',', Tok::comma},      {'-', Tok::minus},    {'+', Tok::plus},     {'*', Tok::star},
    {'/', Tok::slash},      {'^', Tok::caret},    {'!', Tok::bang, '=', Tok::not_equals},     {'|', Tok::bar, '|', Tok::given},
    {'=', Tok::equals, '>', Tok::implies},        {'<', Tok::less, '=', Tok::less_equal},
    {'>', Tok::greater, '=', Tok::greater_equal},
};

// Integers above 2^53 are not exact in a double; as step bounds they would
// silently change, so they are refused.
constexpr double k_max_exact_integer = 9007199254740992.0;

bool is_identifier_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_identifier_char(char c) { return is_identifier_start(c) || is_digit(c); }
bool is_path_keyword(std::string_view s) { return s == "X" || s == "F" || s == "G" || s == "U"; }
// Operator names: each starts an operator where a state formula may stand.
bool is_operator_name(std::string_view s) {
  return s == "P" || s == "Pmin" || s == "Pmax" || s == "R" || s == "Rmin" || s == "Rmax" || s == "S" ||
         s == "LRA" || s == "LRAmin" || s == "LRAmax";
}
// Words of the property language that are never labels (PRISM's and
// Storm's): a misplaced one gets no hint to quote it.
bool is_reserved_word(std::string_view s) {
  return is_path_keyword(s) || is_operator_name(s) || s == "W" || s == "C" || s == "I" ||
         s == "min" || s == "max" || s == "true" || s == "false" || s == "Smin" || s == "Smax";
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) { advance(); }

  Property parse() {
    Property property;
    property.text = std::string(text_);
    property.root = parse_state();
    root_ = property.root.get();
    if (property.root->kind == StateKind::op || property.root->kind == StateKind::filter) {
      refuse_what_follows_an_operator(property.root->kind == StateKind::filter);
    }
    if (tok_.kind == Tok::given) {
      error_at(tok_.offset, "'||' separates a path formula from its condition inside P[...], as in "
                            "P=? [ F \"a\" || F \"b\" ]; the disjunction of state formulas is '|'");
    }
    if (tok_.kind != Tok::end) expected("'&', '|', '=>' or end of input");
    // PRISM allows `=?` only on the outermost operator: a nested one has
    // no boolean value to combine with.
    const Operator* top = property.top_operator();
    for (const auto& [op, offset] : queries_) {
      if (op != top && !filter_operands_.contains(op)) {
        error_at(offset, "'=?' is only allowed in the outermost operator or as the operand of a filter "
                         "(filter(max, P=? [ ... ])); a nested operator needs a bound such as '>=0.5'");
      }
    }
    // A filter that gives a number stands only where a number may: the
    // whole property, or the operand of another filter.
    require_truth_values(*property.root, true);
    // A conditional probability is undefined in states where its condition
    // has probability 0, which no state formula could combine with.
    for (const auto& [op, offset] : conditions_) {
      if (op != top) error_at(offset, "a conditional probability ('||') is only allowed in the outermost operator");
    }
    return property;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  Token tok_;
  int depth_ = 0;
  int path_depth_ = 0;  // > 0 while parsing the operands of a path formula (not inside a nested operator)
  std::vector<std::pair<const Operator*, size_t>> queries_;  // every `=?`, with the offset of its '='
  std::vector<std::pair<const Operator*, size_t>> conditions_;  // every `||`, with its offset
  std::unordered_set<const Operator*> filter_operands_;  // query operators that are a filter's operand
  const StateFormula* root_ = nullptr;                   // the whole property, once parsed
  // Offset of a '(' where a state formula may start -> whether an
  // expression operator follows its ')' (parenthesis_starts_expression).
  std::unordered_map<size_t, bool> parenthesis_kind_;

  // ---- errors ----

  // The text around `offset` with a caret under it. Bytes that would not
  // print as one column are shown as '?', so the caret stays aligned.
  std::string caret_display(size_t offset) const {
    constexpr size_t k_before = 40, k_width = 72;
    size_t start = offset > k_before ? offset - k_before : 0;
    size_t stop = std::min(text_.size(), start + k_width);
    std::string line = start > 0 ? "..." : "";
    size_t caret = line.size() + (offset - start);
    for (size_t i = start; i < stop; ++i) {
      unsigned char c = static_cast<unsigned char>(text_[i]);
      line += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    if (stop < text_.size()) line += "...";
    return "  " + line + "\n  " + std::string(caret, ' ') + "^";
  }

  [[noreturn]] void error_at(size_t offset, const std::string& message) const {
    fail(ErrorCode::property, "column {}: {}\n{}", offset + 1, message, caret_display(offset));
  }

  // Syntax other tools accept and pmc does not check: named, so that the
  // user knows it is the construct, not a typo (code `unsupported`).
  [[noreturn]] void unsupported_at(size_t offset, std::string_view construct) const {
    fail(ErrorCode::unsupported, "column {}: {} is not supported\n{}", offset + 1, construct, caret_display(offset));
  }

  // After a whole property that is one operator: PRISM's and Storm's
  // additions to it.
  void refuse_what_follows_an_operator(bool filter) const {
    if (filter && tok_.kind != Tok::lbrace && tok_.kind != Tok::end && tok_.kind != Tok::amp &&
        tok_.kind != Tok::bar && tok_.kind != Tok::implies && tok_.kind != Tok::given) {
      const bool comparison = tok_.kind == Tok::less || tok_.kind == Tok::less_equal || tok_.kind == Tok::greater ||
                              tok_.kind == Tok::greater_equal || tok_.kind == Tok::equals;
      const bool arithmetic = tok_.kind == Tok::plus || tok_.kind == Tok::minus || tok_.kind == Tok::star ||
                              tok_.kind == Tok::slash;
      if (comparison) unsupported_at(tok_.offset, "comparing a filter's value (as in filter(max, P=? [ ... ]) > 0.5)");
      if (arithmetic) unsupported_at(tok_.offset, "arithmetic over a filter's value (as in 1 - filter(max, ...))");
    }
    switch (tok_.kind) {
      case Tok::lbrace:
        unsupported_at(tok_.offset, "a state restriction after the property (Storm's {\"init\"}; pmc reports the "
                                    "value in the initial states, and every state's in --json/the C ABI)");
      case Tok::plus: case Tok::minus: case Tok::star: case Tok::slash:
        unsupported_at(tok_.offset, "arithmetic over an operator's value (as in 1 - P=? [ ... ])");
      case Tok::less: case Tok::less_equal: case Tok::greater: case Tok::greater_equal: case Tok::equals:
        unsupported_at(tok_.offset, "comparing an operator's value after the brackets (write the bound in the "
                                    "operator: P>=0.5 [ ... ])");
      default: return;
    }
  }

  // A word followed by '(' or '[' that names a construct of PRISM's or
  // Storm's property language pmc does not check.
  void refuse_unsupported_construct() {
    const std::string_view word = tok_.text;
    const Tok next = peek().kind;
    if (next == Tok::lparen) {
      if (word == "multi") unsupported_at(tok_.offset, "multi(...) (multi-objective queries)");
      if (word == "quantile") unsupported_at(tok_.offset, "quantile(...) (Storm's quantiles)");
    }
    if ((word == "A" || word == "E") && next == Tok::lbracket) {
      unsupported_at(tok_.offset, fmt::format("{} [ ... ] (CTL's path quantifiers; P>=1 [ ... ] and P>0 [ ... ] "
                                              "are their probabilistic counterparts)",
                                              word));
    }
    if (word == "W") unsupported_at(tok_.offset, "weak until (W)");
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::end: return "end of input";
      case Tok::string: return std::string(t.text);
      case Tok::number: return "number " + std::string(t.text);
      case Tok::identifier:
        if (is_path_keyword(t.text)) return "path operator '" + std::string(t.text) + "'";
        return quote_for_message(t.text);
      default: return "'" + std::string(t.text) + "'";
    }
  }

  [[noreturn]] void expected(std::string_view what) const {
    error_at(tok_.offset, fmt::format("expected {} but found {}", what, describe(tok_)));
  }

  void expect(Tok kind, std::string_view what) {
    if (tok_.kind != kind) expected(what);
    advance();
  }

  bool at_identifier(std::string_view name) const { return tok_.kind == Tok::identifier && tok_.text == name; }

  // ---- lexer ----

  void advance() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\f' || text_[pos_] == '\v')) {
      ++pos_;
    }
    tok_ = Token{};
    tok_.offset = pos_;
    if (pos_ == text_.size()) return;
    size_t start = pos_;
    char c = text_[pos_];
    if (is_identifier_start(c)) {
      while (pos_ < text_.size() && is_identifier_char(text_[pos_])) ++pos_;
      tok_.kind = Tok::identifier;
    } else if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
      lex_number();
    } else if (c == '"') {
      lex_string();
    } else {
      lex_punctuation();
    }
    tok_.text = text_.substr(start, pos_ - start);
  }

  void lex_punctuation() {
    const char c = text_[pos_];
    for (const Punctuation& p : k_punctuation) {
      if (p.first != c) continue;
      const bool pair = p.second != 0 && pos_ + 1 < text_.size() && text_[pos_ + 1] == p.second;
      tok_.kind = pair ? p.two : p.one;
      pos_ += pair ? 2 : 1;
      return;
    }
    error_at(pos_, "unexpected character " + quote_for_message(text_.substr(pos_, 1)));
  }

  void lex_number() {
    size_t start = pos_;
    bool integer = true;
    auto digits = [&] {
      size_t first = pos_;
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
      return pos_ > first;
    };
    digits();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      integer = false;
      ++pos_;
      digits();
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      integer = false;
      size_t e = pos_++;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) error_at(e, "malformed number: expected digits after the exponent 'e'");
    }
    double value = 0.0;
    auto [end, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, value);
    if (ec == std::errc::result_out_of_range) {
      error_at(start, "number " + std::string(text_.substr(start, pos_ - start)) + " is out of range");
    }
    if (ec != std::errc() || end != text_.data() + pos_) {
      error_at(start, "malformed number " + quote_for_message(text_.substr(start, pos_ - start)));
    }
    if (integer && value > k_max_exact_integer) {
      error_at(start, "integer " + std::string(text_.substr(start, pos_ - start)) + " is too large (limit 2^53)");
    }
    tok_.kind = Tok::number;
    tok_.number = Number{value, integer, nullptr};
  }

  // Labels and reward names: any printable characters but '"', non-empty,
  // on one line. PRISM restricts them to identifiers; models exported by
  // other tools are not always so tidy, and nothing here depends on it.
  void lex_string() {
    size_t start = pos_++;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c < 0x20 || c == 0x7f) {
        error_at(pos_, "unterminated name: expected closing '\"' but found " +
                           quote_for_message(text_.substr(pos_, 1)));
      }
      ++pos_;
    }
    if (pos_ == text_.size()) error_at(start, "unterminated name: expected closing '\"' but found end of input");
    ++pos_;
    if (pos_ - start == 2) error_at(start, "empty name \"\": expected a label or reward structure name");
    tok_.kind = Tok::string;
  }

  // ---- tree building ----

  // Every node goes through here (from make or make_expression), so no tree
  // is deeper than k_max_depth and the recursive walks in ast.cpp (and the
  // destructors) stay shallow. `below`: the height of its tallest part.
  template <typename Node>
  std::shared_ptr<const Node> with_height(Node node, int below, size_t error_offset) const {
    node.height = below + 1;
    if (node.height > k_max_depth) too_deep(error_offset);
    return std::make_shared<const Node>(std::move(node));
  }

  StatePtr make(StateFormula node, size_t error_offset) const {
    int below = 0;
    for (const StatePtr& child : {node.left, node.right}) {
      if (child) below = std::max(below, child->height);
    }
    if (node.op) {
      // The path or reward formula in between counts as one more level.
      const Operator& op = *node.op;
      for (const StatePtr& child : {op.path ? op.path->left : nullptr, op.path ? op.path->right : nullptr,
                                    op.condition ? op.condition->left : nullptr,
                                    op.condition ? op.condition->right : nullptr, op.reward.target, op.state}) {
        if (child) below = std::max(below, child->height + 1);
      }
    }
    if (node.expression) below = std::max(below, node.expression->height);
    if (node.filter) {
      for (const StatePtr& child : {node.filter->operand, node.filter->states}) {
        if (child) below = std::max(below, child->height);
      }
    }
    return with_height(std::move(node), below, error_offset);
  }

  StatePtr make_binary(StateKind kind, StatePtr left, StatePtr right, size_t operator_offset) const {
    StateFormula node;
    node.kind = kind;
    node.column = left->column;
    node.left = std::move(left);
    node.right = std::move(right);
    return make(std::move(node), operator_offset);
  }

  [[noreturn]] void too_deep(size_t offset) const {
    error_at(offset, fmt::format("formula nested too deeply (the limit is {} levels)", k_max_depth));
  }

  // ---- state formulas ----

  StatePtr parse_state() {
    // Right-associative, collected iteratively: a long `a => b => ...`
    // chain must not recurse once per operator.
    std::vector<StatePtr> operands{parse_or()};
    std::vector<size_t> operators;
    while (tok_.kind == Tok::implies) {
      // n operators make a chain n+1 levels deep.
      if (static_cast<int>(operators.size()) + 1 >= k_max_depth) too_deep(tok_.offset);
      operators.push_back(tok_.offset);
      advance();
      operands.push_back(parse_or());
    }
    StatePtr result = std::move(operands.back());
    for (size_t i = operators.size(); i-- > 0;) {
      result = make_binary(StateKind::implication, std::move(operands[i]), std::move(result), operators[i]);
    }
    return result;
  }

  // One left-associative level of state formulas: operands from `next`,
  // joined by the operator `op` (making `kind` nodes).
  StatePtr parse_left_associative(StatePtr (Parser::*next)(), Tok op, StateKind kind) {
    StatePtr result = (this->*next)();
    while (tok_.kind == op) {
      const size_t offset = tok_.offset;
      advance();
      result = make_binary(kind, std::move(result), (this->*next)(), offset);
    }
    return result;
  }

  StatePtr parse_or() { return parse_left_associative(&Parser::parse_and, Tok::bar, StateKind::disjunction); }
  StatePtr parse_and() { return parse_left_associative(&Parser::parse_unary, Tok::amp, StateKind::conjunction); }

  // Each '!', '(' and nested operator passes through here once, so this
  // counter bounds the recursion depth before any node exists (e.g. on
  // 100000 opening parentheses).
  struct DepthGuard {
    Parser& parser;
    explicit DepthGuard(Parser& p) : parser(p) {
      if (++parser.depth_ > k_max_depth) parser.too_deep(parser.tok_.offset);
    }
    ~DepthGuard() { --parser.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };

  StatePtr parse_unary() {
    DepthGuard guard(*this);
    size_t offset = tok_.offset;
    StateFormula node;
    node.column = offset + 1;
    switch (tok_.kind) {
      case Tok::bang:
        advance();
        node.kind = StateKind::negation;
        node.left = parse_unary();
        return make(std::move(node), offset);
      case Tok::string:
        node.kind = StateKind::label;
        node.label = std::string(tok_.text.substr(1, tok_.text.size() - 2));
        advance();
        return make(std::move(node), offset);
      case Tok::lparen: {
        if (parenthesis_starts_expression()) return parse_expression_atom();
        advance();
        StatePtr inner = parse_state();
        expect(Tok::rparen, "')'");
        return inner;
      }
      case Tok::number:
      case Tok::minus: return parse_expression_atom();
      case Tok::identifier: break;
      default: expected("a state formula");
    }
    std::string_view word = tok_.text;
    if (word == "true" || word == "false") {
      if (continues_expression(peek().kind)) return parse_expression_atom();  // true=b
      node.kind = StateKind::constant;
      node.value = word == "true";
      advance();
      return make(std::move(node), offset);
    }
    if (is_operator_name(word) || starts_time_operator()) {
      node.kind = StateKind::op;
      node.op = parse_operator();
      return make(std::move(node), offset);
    }
    if (word == "filter" && peek().kind == Tok::lparen) {
      node.kind = StateKind::filter;
      node.filter = parse_filter();
      return make(std::move(node), offset);
    }
    if (is_path_keyword(word)) {
      if (path_depth_ > 0) {
        unsupported_at(tok_.offset, fmt::format("'{}' where a state formula stands: LTL (a temporal operator inside "
                                                "another or under !, & or |, as in G F a or !(F a))",
                                                word));
      }
      error_at(tok_.offset, fmt::format("expected a state formula but found {} (a path formula stands directly "
                                        "inside P: P=? [ F \"goal\" ])",
                                        describe(tok_)));
    }
    refuse_unsupported_construct();
    if (word == "Smin" || word == "Smax") {
      error_at(tok_.offset, fmt::format("expected a state formula but found '{}': S takes no min or max (Storm's "
                                        "LRAmin/LRAmax are the long-run averages of MDPs)",
                                        word));
    }
    if (function_arity(word) >= 0 && peek().kind == Tok::lparen) return parse_expression_atom();  // min(a,b)<2
    if (is_reserved_word(word)) {
      error_at(tok_.offset, fmt::format("expected a state formula but found keyword '{}'", word));
    }
    // A word before '=?', '[' or '{' is a misspelt operator, not a variable.
    const Token next = peek();
    if (next.kind == Tok::lbracket || next.kind == Tok::lbrace ||
        (next.kind == Tok::equals && peek(2).kind == Tok::question)) {
      error_at(tok_.offset, fmt::format("expected a state formula but found {} (the operators are P, Pmin, Pmax, "
                                        "R, Rmin, Rmax, S, LRA, LRAmin, LRAmax, T, Tmin and Tmax)",
                                        describe(tok_)));
    }
    // Any other word is a state variable: whether the model has it, and
    // of which type, the checker decides (labels are in double quotes).
    return parse_expression_atom();
  }

  // ---- expressions over state variables ----
  //
  //   atom     := sum ( relop sum )?      relop: = != < <= > >=
  //   sum      := product ( ( '+' | '-' ) product )*
  //   product  := factor ( ( '*' | '/' ) factor )*
  //   factor   := '-' factor | number | 'true' | 'false' | variable
  //             | function '(' atom ( ',' atom )* ')' | '(' atom ')'
  //
  // PRISM's precedence: arithmetic binds tighter than comparisons, which
  // bind tighter than '!', '&', '|' and '=>' (the state formula's).

  // The token `n` places ahead (1: the next one), consuming nothing.
  Token peek(int n = 1) {
    const size_t saved_pos = pos_;
    const Token saved = tok_;
    for (int i = 0; i < n; ++i) advance();
    const Token ahead = tok_;
    pos_ = saved_pos;
    tok_ = saved;
    return ahead;
  }

  // Tokens that continue an expression after an operand: what tells
  // `(x+1)=2` (an expression) from `("a" | "b")` (a state formula in
  // parentheses), and `true=b` from `true`.
  static bool continues_expression(Tok kind) {
    switch (kind) {
      case Tok::plus: case Tok::minus: case Tok::star: case Tok::slash:
      case Tok::equals: case Tok::not_equals: case Tok::less: case Tok::less_equal:
      case Tok::greater: case Tok::greater_equal: return true;
      default: return false;
    }
  }

  // At a '(' where a state formula may start: whether an expression
  // operator follows its ')'. One scan to the matching ')' decides every
  // '(' inside too (kept in parenthesis_kind_), so deep nesting costs
  // linear time, not quadratic.
  bool parenthesis_starts_expression() {
    const size_t start = tok_.offset;
    if (auto it = parenthesis_kind_.find(start); it != parenthesis_kind_.end()) return it->second;
    const size_t saved_pos = pos_;
    const Token saved = tok_;
    std::vector<size_t> open;
    try {
      while (tok_.kind != Tok::end) {
        if (tok_.kind == Tok::lparen) {
          open.push_back(tok_.offset);
        } else if (tok_.kind == Tok::rparen && !open.empty()) {
          const size_t opened = open.back();
          open.pop_back();
          advance();
          parenthesis_kind_[opened] = continues_expression(tok_.kind);
          if (open.empty()) break;
          continue;  // the token after ')' may itself be '(' or ')'
        }
        advance();
      }
    } catch (const Error&) {
      // A character that starts no token: the parse proper reports it where it stands.
    }
    for (size_t opened : open) parenthesis_kind_[opened] = false;  // unclosed: the group's parse says so
    pos_ = saved_pos;
    tok_ = saved;
    return parenthesis_kind_[start];
  }

  StatePtr parse_expression_atom() {
    const size_t offset = tok_.offset;
    StateFormula node;
    node.kind = StateKind::expression;
    node.column = offset + 1;
    node.expression = parse_relation();
    return make(std::move(node), offset);
  }

  ExprPtr make_expression(Expression node, size_t error_offset) const {
    int below = 0;
    for (const ExprPtr& arg : node.args) below = std::max(below, arg->height);
    return with_height(std::move(node), below, error_offset);
  }

  ExprPtr make_expression_binary(ExprKind kind, ExprPtr left, ExprPtr right, size_t operator_offset) const {
    Expression node;
    node.kind = kind;
    node.column = left->column;
    node.args = {std::move(left), std::move(right)};
    return make_expression(std::move(node), operator_offset);
  }

  static std::optional<ExprKind> relation_of(Tok kind) {
    switch (kind) {
      case Tok::equals: return ExprKind::equal;
      case Tok::not_equals: return ExprKind::not_equal;
      case Tok::less: return ExprKind::less;
      case Tok::less_equal: return ExprKind::less_equal;
      case Tok::greater: return ExprKind::greater;
      case Tok::greater_equal: return ExprKind::greater_equal;
      default: return std::nullopt;
    }
  }

  ExprPtr parse_relation() {
    ExprPtr left = parse_sum();
    const std::optional<ExprKind> relation = relation_of(tok_.kind);
    if (!relation) return left;
    const size_t offset = tok_.offset;
    advance();
    ExprPtr result = make_expression_binary(*relation, std::move(left), parse_sum(), offset);
    if (relation_of(tok_.kind)) {
      error_at(tok_.offset, fmt::format("comparisons do not chain: '{}' follows a comparison (write a=b & b=c, or "
                                        "parenthesise one side)",
                                        tok_.text));
    }
    return result;
  }

  // One left-associative level: operands from `next`, joined by the
  // operators `a` and `b` (tokens and the nodes they make).
  ExprPtr parse_left_associative(ExprPtr (Parser::*next)(), Tok a, ExprKind a_kind, Tok b, ExprKind b_kind) {
    ExprPtr result = (this->*next)();
    while (tok_.kind == a || tok_.kind == b) {
      const ExprKind kind = tok_.kind == a ? a_kind : b_kind;
      const size_t offset = tok_.offset;
      advance();
      result = make_expression_binary(kind, std::move(result), (this->*next)(), offset);
    }
    return result;
  }

  ExprPtr parse_sum() {
    return parse_left_associative(&Parser::parse_product, Tok::plus, ExprKind::add, Tok::minus, ExprKind::subtract);
  }

  ExprPtr parse_product() {
    return parse_left_associative(&Parser::parse_factor, Tok::star, ExprKind::multiply, Tok::slash, ExprKind::divide);
  }

  ExprPtr parse_factor() {
    DepthGuard guard(*this);
    const size_t offset = tok_.offset;
    Expression node;
    node.column = offset + 1;
    switch (tok_.kind) {
      case Tok::minus:
        advance();
        node.kind = ExprKind::negate;
        node.args = {parse_factor()};
        return make_expression(std::move(node), offset);
      case Tok::number:
        node.kind = ExprKind::number;
        node.number = tok_.number;
        advance();
        return make_expression(std::move(node), offset);
      case Tok::lparen: {
        advance();
        ExprPtr inner = parse_relation();
        expect(Tok::rparen, "')'");
        return inner;
      }
      case Tok::identifier: break;
      default: expected("an expression (a number, a variable or '(')");
    }
    const std::string_view word = tok_.text;
    if (word == "true" || word == "false") {
      node.kind = ExprKind::boolean;
      node.value = word == "true";
      advance();
      return make_expression(std::move(node), offset);
    }
    const int arity = function_arity(word);
    if (arity >= 0 && peek().kind == Tok::lparen) return parse_call(word, arity);
    if (word == "filter" && peek().kind == Tok::lparen) {
      unsupported_at(offset, "a filter inside an expression (arithmetic over or comparisons with a filter's value)");
    }
    if (is_reserved_word(word)) {
      error_at(offset, fmt::format("expected an expression but found keyword '{}' (operators such as P, R and S "
                                   "cannot stand inside an expression)",
                                   word));
    }
    node.kind = ExprKind::variable;
    node.name = std::string(word);
    advance();
    return make_expression(std::move(node), offset);
  }

  ExprPtr parse_call(std::string_view name, int arity) {
    const size_t offset = tok_.offset;
    Expression node;
    node.kind = ExprKind::call;
    node.column = offset + 1;
    node.name = std::string(name);
    advance();  // the name
    advance();  // '('
    node.args.push_back(parse_relation());
    while (tok_.kind == Tok::comma) {
      if (static_cast<int>(node.args.size()) >= k_max_depth) too_deep(tok_.offset);
      advance();
      node.args.push_back(parse_relation());
    }
    expect(Tok::rparen, "',' or ')'");
    const int given = static_cast<int>(node.args.size());
    if (arity == 0 && given < 2) {
      error_at(offset, fmt::format("{} takes two or more arguments but is given {}", name, given));
    }
    if (arity > 0 && given != arity) {
      error_at(offset, fmt::format("{} takes {} argument{} but is given {}", name, arity, arity == 1 ? "" : "s",
                                   given));
    }
    return make_expression(std::move(node), offset);
  }

  // ---- operators ----

  OperatorPtr parse_operator() {
    auto op = std::make_shared<Operator>();
    op->column = tok_.offset + 1;
    std::string_view word = tok_.text;
    op->kind = word[0] == 'P'   ? OperatorKind::probability
               : word[0] == 'R' ? OperatorKind::reward
               : word[0] == 'T' ? OperatorKind::time
                                : OperatorKind::steady_state;
    // Storm's LRA is PRISM's S (the long-run average of a state formula).
    op->written_lra = word.substr(0, 3) == "LRA";
    const std::string_view suffix = word.substr(op->written_lra ? 3 : 1);
    if (!suffix.empty()) op->optimisation = suffix == "min" ? Optimisation::min : Optimisation::max;
    advance();
    if (word == "R") {
      // PRISM's order: R{"name"}min=? — the name comes before min/max.
      if (tok_.kind == Tok::lbrace) op->reward_name = parse_reward_name();
      if (at_identifier("min") || at_identifier("max")) {
        op->optimisation = tok_.text == "min" ? Optimisation::min : Optimisation::max;
        advance();
      }
    }
    parse_comparison(*op);
    expect(Tok::lbracket, "'['");
    const int outer_path_depth = path_depth_;
    path_depth_ = 0;
    switch (op->kind) {
      case OperatorKind::probability:
        op->path = parse_path();
        if (tok_.kind == Tok::given) {
          // Storm's conditional probability: P[ path || condition ].
          conditions_.emplace_back(op.get(), tok_.offset);
          advance();
          if (tok_.kind == Tok::rbracket || tok_.kind == Tok::end) {
            expected("a condition (a path formula such as F \"b\") after '||'");
          }
          op->condition = parse_path();
        }
        break;
      case OperatorKind::reward: op->reward = parse_reward(); break;
      case OperatorKind::steady_state: op->state = parse_state(); break;
      case OperatorKind::time: op->reward = parse_time_target(); break;
    }
    path_depth_ = outer_path_depth;
    if (op->kind == OperatorKind::probability &&
        (tok_.kind == Tok::identifier && (is_path_keyword(tok_.text) || tok_.text == "W" || tok_.text == "R"))) {
      unsupported_at(tok_.offset, fmt::format("'{}' after a path formula: LTL (as in a U b U c)", tok_.text));
    }
    if (tok_.kind == Tok::given) {
      error_at(tok_.offset, op->kind == OperatorKind::probability
                                ? "a P operator takes one condition ('||')"
                                : "only a P operator takes a condition ('||'), as in P=? [ F \"a\" || F \"b\" ]");
    }
    expect(Tok::rbracket, "']'");
    return op;
  }

  // Storm's T, Tmin and Tmax: an operator where a comparison, a bound value
  // and '[' follow (`T=? [`, `T<=5 [`, `T<=B*2 [`); otherwise a state
  // variable's or a constant's name (`F<=T "a"`, `T<3 & "b"`).
  bool starts_time_operator() {
    const std::string_view word = tok_.text;
    if (word != "T" && word != "Tmin" && word != "Tmax") return false;
    switch (peek().kind) {
      case Tok::equals: return peek(2).kind == Tok::question;
      case Tok::less:
      case Tok::less_equal:
      case Tok::greater:
      case Tok::greater_equal: return bound_value_and_bracket_follow();
      case Tok::lbracket: return true;  // the missing comparison is reported by parse_comparison
      default: return false;
    }
  }

  // Whether, after the current word and its comparison, a bound value (as
  // parse_bound_value reads it: operands joined by + - * /, a negative one
  // too, which parse_comparison refuses) and '[' come. Looks ahead only: the
  // lexer is left where it was, and text it cannot read is left for the
  // parse to report.
  bool bound_value_and_bracket_follow() {
    const size_t saved_pos = pos_;
    const Token saved = tok_;
    bool follow = false;
    try {
      advance();  // the word
      advance();  // the comparison
      follow = skip_bound_value() && tok_.kind == Tok::lbracket;
    } catch (const Error&) {
      follow = false;
    }
    pos_ = saved_pos;
    tok_ = saved;
    return follow;
  }

  bool skip_bound_value() {
    if (!skip_bound_operand()) return false;
    while (tok_.kind == Tok::plus || tok_.kind == Tok::minus || tok_.kind == Tok::star || tok_.kind == Tok::slash) {
      advance();
      if (!skip_bound_operand()) return false;
    }
    return true;
  }

  // -x, 5, T, max(a,b), (T*3600).
  bool skip_bound_operand() {
    while (tok_.kind == Tok::minus) advance();
    if (tok_.kind == Tok::number) {
      advance();
      return true;
    }
    if (tok_.kind == Tok::identifier) {
      const bool function = function_arity(tok_.text) >= 0;
      advance();
      // A name before '(' that is no function ends the value, as in parse_bound_value.
      return !function || tok_.kind != Tok::lparen || skip_parenthesised();
    }
    return tok_.kind == Tok::lparen && skip_parenthesised();
  }

  // From '(' past its ')'; false at the end of the text.
  bool skip_parenthesised() {
    size_t open = 0;
    do {
      if (tok_.kind == Tok::end) return false;
      if (tok_.kind == Tok::lparen) ++open;
      if (tok_.kind == Tok::rparen) --open;
      advance();
    } while (open > 0);
    return true;
  }

  // filter(op, φ) or filter(op, φ, states): PRISM's filters. Only the
  // types that the text alone decides are checked here; an expression over
  // state variables (`x`) is typed by the checker against the model.
  FilterPtr parse_filter() {
    auto filter = std::make_shared<Filter>();
    filter->column = tok_.offset + 1;
    advance();  // 'filter'
    advance();  // '('
    const size_t op_offset = tok_.offset;
    if (tok_.kind != Tok::identifier && tok_.kind != Tok::plus && tok_.kind != Tok::amp && tok_.kind != Tok::bar) {
      expected(fmt::format("a filter operator ({})", filter_operator_list()));
    }
    const std::optional<FilterOp> op = filter_op_from_name(tok_.text);
    if (!op) {
      error_at(op_offset, fmt::format("unknown filter operator {}: the operators are {}",
                                      quote_for_message(tok_.text), filter_operator_list()));
    }
    filter->op = *op;
    filter->written = std::string(tok_.text);
    advance();
    if (tok_.kind == Tok::rparen) {
      expected(fmt::format("',' and the formula filter({}, ...) applies to", filter->written));
    }
    expect(Tok::comma, "',' after the filter operator");
    // The operands are state formulas of their own, not inside the path
    // formula the filter may stand in.
    const int outer_path_depth = path_depth_;
    path_depth_ = 0;
    const size_t operand_offset = tok_.offset;
    filter->operand_column = operand_offset + 1;
    if (tok_.kind == Tok::rparen || tok_.kind == Tok::comma) {
      expected(fmt::format("the formula filter({}, ...) applies to", filter->written));
    }
    filter->operand = parse_state();
    if (filter->operand->kind == StateKind::op && filter->operand->op->is_query()) {
      filter_operands_.insert(filter->operand->op.get());
    }
    size_t states_offset = 0;
    if (tok_.kind == Tok::comma) {
      advance();
      states_offset = tok_.offset;
      filter->states_column = states_offset + 1;
      if (tok_.kind == Tok::rparen) expected("the filter's states (a state formula such as \"init\")");
      filter->states = parse_state();
    }
    path_depth_ = outer_path_depth;
    expect(Tok::rparen, filter->states ? "')' closing the filter" : "',' or ')' closing the filter");
    const ValueKind operand = value_kind(*filter->operand);
    const ValueKind needed = operand_kind_needed(filter->op);
    if (needed != ValueKind::unknown && operand != ValueKind::unknown && operand != needed) {
      error_at(operand_offset, filter_operand_mismatch(filter->written, needed, to_string(*filter->operand)));
    }
    if (filter->states && value_kind(*filter->states) == ValueKind::number) {
      error_at(states_offset, fmt::format("the states of a filter are a state formula (a truth value, such as "
                                          "\"init\" or x>2), but {} is a number",
                                          quote_for_message(to_string(*filter->states), 60)));
    }
    return filter;
  }

  static std::string filter_operator_list() {
    std::string names;
    for (std::string_view name : k_filter_op_names) names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
    return names;
  }

  // Where a filter's operand has the wrong kind of value: what it needs,
  // what it is, and which operators take the other kind.
  static std::string filter_operand_mismatch(std::string_view written, ValueKind needed, const std::string& operand) {
    if (needed == ValueKind::number) {
      return fmt::format("filter({}, ...) needs a number in each state, such as P=? [ ... ] or R=? [ ... ], but {} is "
                         "a truth value (count, forall and exists take truth values)",
                         written, quote_for_message(operand, 60));
    }
    return fmt::format("filter({}, ...) needs a truth value in each state, such as \"a\" or P>=0.5 [ ... ], but {} "
                       "is a number (min, max, sum, avg, range, argmin and argmax take numbers)",
                       written, quote_for_message(operand, 60));
  }

  // After the parse: a filter that gives a number stands only where a number
  // may (the whole property, a filter's operand), and print/printall, whose
  // listing is the result's, only at the top.
  void require_truth_values(const StateFormula& f, bool number_allowed) const {
    auto truth = [&](const StatePtr& child) {
      if (child) require_truth_values(*child, false);
    };
    if (f.kind == StateKind::filter) {
      const Filter& filter = *f.filter;
      if (!number_allowed && filter_result_kind(filter.op, value_kind(*filter.operand)) == ValueKind::number) {
        error_at(f.column - 1, fmt::format("filter({}, ...) gives a number, but a truth value is needed here (only "
                                           "the whole property or a filter's operand may be a number)",
                                           filter.written));
      }
      if (filter.op == FilterOp::range && &f != root_) {
        error_at(f.column - 1, "filter(range, ...) gives an interval [low, high], which only the whole property may "
                               "be (min and max give its ends)");
      }
      if ((filter.op == FilterOp::print || filter.op == FilterOp::printall) && &f != root_) {
        unsupported_at(f.column - 1, fmt::format("filter({}, ...) inside another formula (pmc lists the states of "
                                                 "the outermost filter only)",
                                                 filter.written));
      }
      require_truth_values(*filter.operand, true);
      truth(filter.states);
      return;
    }
    truth(f.left);
    truth(f.right);
    if (f.kind != StateKind::op) return;
    const Operator& op = *f.op;
    for (const PathPtr& path : {op.path, op.condition}) {
      if (path) {
        truth(path->left);
        truth(path->right);
      }
    }
    truth(op.reward.target);
    truth(op.state);
  }

  void parse_comparison(Operator& op) {
    switch (tok_.kind) {
      case Tok::equals:
        queries_.emplace_back(&op, tok_.offset);
        advance();
        expect(Tok::question, "'?' after '='");
        op.comparison = Comparison::query;
        return;
      case Tok::less: op.comparison = Comparison::less; break;
      case Tok::less_equal: op.comparison = Comparison::less_equal; break;
      case Tok::greater: op.comparison = Comparison::greater; break;
      case Tok::greater_equal: op.comparison = Comparison::greater_equal; break;
      default: expected("'=?' or a bound ('<', '<=', '>' or '>=' and a number)");
    }
    advance();
    bool is_probability = op.kind == OperatorKind::probability || op.kind == OperatorKind::steady_state;
    std::string_view what = is_probability                     ? "a probability bound in [0,1]"
                            : op.kind == OperatorKind::time ? "a non-negative time bound"
                                                            : "a non-negative reward bound";
    const Token first = tok_;
    const Number threshold = parse_bound_value(what);
    if (threshold.expression) {
      op.threshold_expression = threshold.expression;  // checked once evaluated (bind_definitions)
      return;
    }
    op.threshold = threshold.value;
    if (first.kind == Tok::number) op.threshold_text = std::string(first.text);
    if (is_probability && op.threshold > 1.0) {
      error_at(first.offset, fmt::format("probability bound must be in [0,1] but found {}", first.text));
    }
  }

  // A bound or threshold: a number, or as in PRISM an expression over
  // constants (`T`, `(T*3600)`, `T/2`, `max(a,b)`), kept unevaluated for
  // bind_definitions. It is an arithmetic expression (no comparison outside
  // parentheses), so `F<=T x=1` ends the bound at T; a name followed by '('
  // that is no function ends there too (`F<=T (x=1)`), as PRISM's parser does.
  Number parse_bound_value(std::string_view what) {
    const bool starts_bound = tok_.kind == Tok::number || tok_.kind == Tok::lparen ||
                              (tok_.kind == Tok::identifier && (!is_reserved_word(tok_.text) ||
                                                                (function_arity(tok_.text) >= 0 && peek().kind == Tok::lparen)));
    if (!starts_bound) expected(what);
    if (tok_.kind == Tok::number) {
      const Tok next = peek().kind;
      if (next != Tok::plus && next != Tok::minus && next != Tok::star && next != Tok::slash) {
        const Number n = tok_.number;
        advance();
        return n;
      }
    }
    ExprPtr e = parse_sum();
    if (e->kind == ExprKind::number) return e->number;  // `5`, `(5)`: a literal
    Number n;
    n.expression = std::move(e);
    return n;
  }

  // ---- path and reward formulas ----

  PathPtr parse_path() {
    ++path_depth_;
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{path_depth_};
    auto path = std::make_shared<PathFormula>();
    path->column = tok_.offset + 1;
    if (at_identifier("X")) {
      path->kind = PathKind::next;
      advance();
      if (starts_time_bound()) error_at(tok_.offset, "'X' takes no time bound");
      path->right = parse_state();
    } else if (at_identifier("F") || at_identifier("G")) {
      path->kind = tok_.text == "F" ? PathKind::eventually : PathKind::globally;
      advance();
      parse_path_bound(*path);
      path->right = parse_state();
    } else {
      path->left = parse_state();
      if (at_identifier("W")) unsupported_at(tok_.offset, "weak until (W)");
      if (at_identifier("R")) unsupported_at(tok_.offset, "release (R)");
      if (!at_identifier("U")) expected("'U' (a path formula is X a, F a, G a or a U b)");
      path->kind = PathKind::until;
      advance();
      parse_path_bound(*path);
      path->right = parse_state();
    }
    return path;
  }

  // '{' starts no state formula, so after X (or R's F) it is a misplaced
  // bound too.
  bool starts_time_bound() const {
    return tok_.kind == Tok::less_equal || tok_.kind == Tok::greater_equal || tok_.kind == Tok::lbracket ||
           tok_.kind == Tok::less || tok_.kind == Tok::greater || tok_.kind == Tok::caret || tok_.kind == Tok::lbrace;
  }

  // '{' "name" '}': a reward structure's name, after R or in a reward bound.
  std::string parse_reward_name() {
    expect(Tok::lbrace, "'{'");
    if (tok_.kind != Tok::string) expected("a reward structure name in double quotes");
    std::string name(tok_.text.substr(1, tok_.text.size() - 2));
    advance();
    expect(Tok::rbrace, "'}'");
    return name;
  }

  // One bound of Storm's list: a reference (`rew{"r"}`, `{"r"}`, `rew`,
  // `steps`, `time` or nothing, which is time), then `<=b`, `<b`, `>=b`,
  // `>b`, `=b` or `[a,b]`.
  struct StormBound {
    bool reward = false;
    std::string reward_name;
    size_t offset = 0;
    Tok comparison = Tok::less_equal;  // less, less_equal, greater, greater_equal; lbracket: [first, second]
    Number first, second;
  };

  StormBound parse_storm_bound() {
    StormBound b;
    b.offset = tok_.offset;
    if (at_identifier("rew")) {
      b.reward = true;
      advance();
      if (tok_.kind == Tok::lbrace) b.reward_name = parse_reward_name();
    } else if (tok_.kind == Tok::lbrace) {
      b.reward = true;
      b.reward_name = parse_reward_name();
    } else if (at_identifier("steps") || at_identifier("time")) {
      advance();
    }
    b.comparison = tok_.kind;
    switch (tok_.kind) {
      case Tok::less: case Tok::less_equal: case Tok::greater: case Tok::greater_equal:
        advance();
        b.first = parse_bound_value(b.reward ? "a non-negative reward bound" : "a non-negative time bound");
        return b;
      case Tok::equals:
        advance();
        b.comparison = Tok::lbracket;
        b.first = b.second = parse_bound_value("a non-negative bound");
        return b;
      case Tok::lbracket:
        advance();
        b.first = parse_bound_value("a non-negative interval start");
        expect(Tok::comma, "','");
        b.second = parse_bound_value("a non-negative interval end");
        expect(Tok::rbracket, "']' closing the interval");
        return b;
      default:
        expected("'<=', '<', '>=', '>', '=' or '[' (a bound such as rew{\"r\"}<=5, steps<=5 or time<=5)");
    }
  }

  // After F, G or U: PRISM's time bound (<=t, >=t, [t1,t2]), or Storm's
  // bounds: `^{rew{"r"}<=b}` (also without '^', or `rew` alone for the
  // first reward structure), `{"r"}<=b`, and `^{steps<=k}`/`^{time<=t}`,
  // which are the time bound again. One bound per path formula.
  void parse_path_bound(PathFormula& path) {
    if (tok_.kind != Tok::caret && tok_.kind != Tok::lbrace) {
      path.bound = parse_time_bound();
      return;
    }
    const size_t start = tok_.offset;
    const bool written_short = tok_.kind == Tok::lbrace && peek().kind == Tok::string;  // {"r"}<=b
    if (tok_.kind == Tok::caret) {
      advance();
      if (tok_.kind != Tok::lbrace) expected("'{' after '^' (bounds as in F^{rew{\"r\"}<=5})");
    }
    if (!written_short) advance();  // the list's '{'
    std::vector<StormBound> bounds{parse_storm_bound()};
    while (tok_.kind == Tok::comma) {
      advance();
      bounds.push_back(parse_storm_bound());
    }
    if (!written_short) expect(Tok::rbrace, "',' or '}' closing the bounds");
    if (bounds.size() > 1) {
      unsupported_at(bounds[1].offset, "a second bound on one path formula (multi-dimensional bounds, as in "
                                       "F^{rew{\"a\"}<=5, rew{\"b\"}<=3} a)");
    }
    const StormBound& b = bounds.front();
    if (!b.reward) {
      switch (b.comparison) {
        case Tok::less_equal: path.bound.upper = b.first; return;
        case Tok::greater_equal: path.bound.lower = b.first; return;
        case Tok::lbracket:
          if (b.first.is_literal() && b.second.is_literal() && b.first.value > b.second.value) {
            error_at(b.offset, fmt::format("empty time interval: start {} exceeds end {}", to_string(b.first),
                                           to_string(b.second)));
          }
          path.bound.lower = b.first;
          path.bound.upper = b.second;
          return;
        default:
          error_at(b.offset, "strict time bound is not supported; use '<=', '>=' or '[t1,t2]'");
      }
    }
    if (path.kind == PathKind::globally) {
      unsupported_at(start, "a reward bound on G (reward bounds are for F and U)");
    }
    if (b.comparison == Tok::lbracket) {
      unsupported_at(b.offset, "a reward interval (rew[a,b] or rew=b; a reward bound is <, <=, > or >= one value)");
    }
    RewardBound reward;
    reward.reward_name = b.reward_name;
    reward.comparison = b.comparison == Tok::less         ? Comparison::less
                        : b.comparison == Tok::less_equal ? Comparison::less_equal
                        : b.comparison == Tok::greater    ? Comparison::greater
                                                          : Comparison::greater_equal;
    reward.bound = b.first;
    reward.written_short = written_short;
    reward.column = start + 1;
    path.reward_bound = std::move(reward);
  }

  TimeBound parse_time_bound() {
    TimeBound bound;
    switch (tok_.kind) {
      case Tok::less_equal:
        advance();
        bound.upper = parse_time("a non-negative time bound");
        break;
      case Tok::greater_equal:
        advance();
        bound.lower = parse_time("a non-negative time bound");
        break;
      case Tok::lbracket: {
        advance();
        size_t lower_offset = tok_.offset;
        bound.lower = parse_time("a non-negative interval start");
        expect(Tok::comma, "','");
        bound.upper = parse_time("a non-negative interval end");
        expect(Tok::rbracket, "']' closing the time interval");
        if (bound.lower->is_literal() && bound.upper->is_literal() && bound.lower->value > bound.upper->value) {
          error_at(lower_offset, fmt::format("empty time interval: start {} exceeds end {}",
                                             to_string(*bound.lower), to_string(*bound.upper)));
        }
        break;
      }
      case Tok::less:
      case Tok::greater:
        error_at(tok_.offset, fmt::format("strict time bound '{}' is not supported; use '<=', '>=' or '[t1,t2]'",
                                          tok_.text));
      default: break;
    }
    return bound;
  }

  Number parse_time(std::string_view what) { return parse_bound_value(what); }

  // T's `F ψ`: Storm's expected time takes an unbounded eventually only.
  RewardFormula parse_time_target() {
    RewardFormula reward;
    reward.column = tok_.offset + 1;
    if (!at_identifier("F")) {
      expected("'F' (T is the expected time to reach a state formula: T=? [ F \"goal\" ])");
    }
    reward.kind = RewardKind::reachability;
    advance();
    if (starts_time_bound()) {
      error_at(tok_.offset, "T takes an unbounded 'F': the expected time to reach a state formula, T=? [ F \"goal\" ]");
    }
    reward.target = parse_state();
    return reward;
  }

  RewardFormula parse_reward() {
    RewardFormula reward;
    reward.column = tok_.offset + 1;
    if (at_identifier("F")) {
      reward.kind = RewardKind::reachability;
      advance();
      if (starts_time_bound()) {
        error_at(tok_.offset, "a reward operator takes an unbounded 'F'; use 'C<=k' for a bounded accumulation");
      }
      reward.target = parse_state();
    } else if (at_identifier("C")) {
      reward.kind = RewardKind::cumulative;
      const size_t c_offset = tok_.offset;
      advance();
      if (tok_.kind == Tok::rbracket) unsupported_at(c_offset, "C without a bound (the total reward, Storm's R=? [ C ])");
      expect(Tok::less_equal, "'<=' after 'C'");
      reward.bound = parse_time("a non-negative time bound");
    } else if (at_identifier("I")) {
      reward.kind = RewardKind::instantaneous;
      advance();
      expect(Tok::equals, "'=' after 'I'");
      reward.bound = parse_time("a non-negative time");
    } else if (at_identifier("S") || at_identifier("LRA")) {
      reward.kind = RewardKind::long_run;
      reward.written_lra = tok_.text == "LRA";
      advance();
    } else {
      expected("a reward formula (F a, C<=k, I=k, S or LRA)");
    }
    return reward;
  }
};

}  // namespace

Property parse_property(std::string_view text) { return Parser(text).parse(); }

}  // namespace pmc::property
