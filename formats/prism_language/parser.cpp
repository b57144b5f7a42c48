// Recursive-descent parser for the PRISM language (PRISM manual, "The PRISM
// Language"): constants, formulas, modules, commands, labels, rewards; the
// expressions in them are the shared grammar's (expression/grammar.hpp). It
// only builds syntax (syntax.hpp); names, types and values are the
// validator's.
#include <algorithm>

#include "common/error.hpp"
#include "expression/grammar.hpp"
#include "expression/lexer.hpp"
#include "expression/token_cursor.hpp"
#include "formats/prism_language/syntax.hpp"

namespace pmc::prism_language {

using expression::is_reserved_word;
using expression::parse_expression;
using expression::Token;
using expression::TokenCursor;
using expression::TokenKind;
using expression::tokenize;

namespace {

// The model-level grammar; expressions are the shared grammar's.
class Parser : TokenCursor {
 public:
  using TokenCursor::TokenCursor;

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
        FormulaDeclaration f;
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

  static Position position(const Token& t) { return {t.line, t.column}; }

  ConstantDeclaration constant() {
    ConstantDeclaration c;
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
               "updates joined by '+'", file(), u.position.line, u.position.column);
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

  Node expression() { return parse_expression(*this); }

};

}  // namespace

SyntaxProgram parse_syntax(std::string_view source, const std::string& file) {
  return Parser(tokenize(source, file), file).program();
}

}  // namespace pmc::prism_language
