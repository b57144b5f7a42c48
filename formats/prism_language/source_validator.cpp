// Parsed source → PrismModel: constants given and evaluated, renamed modules
// expanded, variables laid out in PRISM's order, every expression bound,
// typed and compiled, and the rules PRISM checks before building (ranges,
// initial values, who may assign what).
#include <algorithm>
#include <cctype>
#include <set>

#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "common/text.hpp"
#include "expression/binder.hpp"
#include "expression/compiler.hpp"
#include "formats/prism_language/syntax.hpp"

namespace pmc::prism_language {

using expression::BindContext;
using expression::Binder;
using expression::compile_expression;
using expression::node_to_string;
using expression::Renames;
using expression::type_name;

namespace {

class SourceValidator {
 public:
  SourceValidator(const SyntaxProgram& syntax, const std::string& file) : syntax_(syntax), binder_(syntax, file) {}
  void set_places(std::shared_ptr<const std::vector<std::string>> places) { binder_.set_places(std::move(places)); }

  PrismModel run(const std::vector<ConstantAssignment>& given) {
    program_.file = binder_.file();
    if (syntax_.type) {
      program_.type = *syntax_.type;
    } else {
      program_.type = ModelType::mdp;
      program_.warnings.push_back(binder_.file() + ": no model type keyword (dtmc, ctmc, mdp): taken as an mdp, as PRISM does");
    }
    names();
    for (const SyntaxVariable& v : syntax_.globals) binder_.variable_names.insert(v.name);
    for (const SyntaxModule& m : syntax_.modules) {
      for (const SyntaxVariable& v : m.variables) binder_.variable_names.insert(v.name);
      for (const SyntaxRename& r : m.renames) binder_.variable_names.insert(r.to);
    }
    constants(given);
    modules();
    variables();
    commands();
    rest();
    return std::move(program_);
  }

 private:
  std::string at(Position p) const { return binder_.location(p).to_string(); }
  std::string at(const Node& n) const { return binder_.location(n.line, n.column).to_string(); }

  // One namespace for constants, formulas and variables, as in PRISM.
  void claim(const std::string& name, Position p, const char* what) {
    auto [it, fresh] = names_.emplace(name, p);
    if (!fresh) {
      fail(ErrorCode::parse, "{}: duplicate name '{}' ({}; '{}' is already declared at {})", at(p), name, what, name,
           at(it->second));
    }
  }

  void names() {
    for (const ConstantDeclaration& c : syntax_.constants) claim(c.name, c.position, "a constant");
    for (const FormulaDeclaration& f : syntax_.formulas) {
      claim(f.name, f.position, "a formula");
      program_.formulas.emplace_back(f.name, node_to_string(f.value));
    }
  }

  void constants(const std::vector<ConstantAssignment>& given) {
    for (const ConstantAssignment& g : given) {
      auto it = binder_.constant_index.find(g.name);
      if (it == binder_.constant_index.end()) {
        std::string declared;
        for (const ConstantDeclaration& c : syntax_.constants) declared += (declared.empty() ? "" : ", ") + c.name;
        fail(ErrorCode::invalid_argument, "{}: constant {}={} given: the model declares no constant '{}' ({})",
             binder_.file(), g.name, g.value, g.name,
             declared.empty() ? std::string("it declares no constants") : "its constants: " + declared);
      }
      const ConstantDeclaration& c = syntax_.constants[it->second];
      if (c.value) {
        fail(ErrorCode::invalid_argument, "{}: constant {}={} given: constant '{}' is already defined in the model",
             at(c.position), g.name, g.value, g.name);
      }
      binder_.give_constant(it->second, g.value);
      given_.insert(g.name);
    }
    std::string missing, example;
    size_t count = 0;
    for (const ConstantDeclaration& c : syntax_.constants) {
      if (c.value || given_.count(c.name)) continue;
      ++count;
      missing += fmt::format("{}{} ({})", missing.empty() ? "" : ", ", c.name, type_name(c.type));
      example += fmt::format("{}{}=...", example.empty() ? "" : ",", c.name);
    }
    if (!missing.empty()) {
      fail(ErrorCode::parse, "{}: undefined constant{} {}: set {} with {}", binder_.file(), count > 1 ? "s" : "",
           missing, count > 1 ? "them" : "it", setting_usage(Setting::constants, example));
    }
    for (size_t i = 0; i < syntax_.constants.size(); ++i) {
      const Node& v = binder_.constant_value(i);
      std::string text = v.kind == NodeKind::boolean ? (v.int_value ? "true" : "false")
                         : v.kind == NodeKind::integer ? std::to_string(v.int_value)
                                                       : fmt::format("{}", v.real_value);
      // A double keeps its type in the text ("3.0", not "3"): properties and
      // formulas read it back from there (SourceDefinitions).
      if (v.kind == NodeKind::real && text.find_first_of(".eEn") == std::string::npos) text += ".0";
      program_.constants.emplace_back(syntax_.constants[i].name, std::move(text));
    }
  }

  // Each module as its base syntax and a renaming (empty for an ordinary one).
  struct Expanded {
    const SyntaxModule* body;
    Renames renames;
  };

  void modules() {
    std::map<std::string, size_t> by_name;
    for (size_t i = 0; i < syntax_.modules.size(); ++i) {
      const SyntaxModule& m = syntax_.modules[i];
      if (auto [it, fresh] = by_name.emplace(m.name, i); !fresh) {
        fail(ErrorCode::parse, "{}: duplicate module name '{}' (first declared at {})", at(m.position), m.name,
             at(syntax_.modules[it->second].position));
      }
    }
    if (syntax_.modules.empty()) {
      fail(ErrorCode::parse, "{}: the model has no module (expected 'module name ... endmodule')", binder_.file());
    }
    for (const SyntaxModule& m : syntax_.modules) {
      if (m.base.empty()) {
        expanded_.push_back({&m, {}});
        continue;
      }
      auto base = by_name.find(m.base);
      if (base == by_name.end()) {
        fail(ErrorCode::parse, "{}: module '{}' renames unknown module '{}'", at(m.position), m.name, m.base);
      }
      const SyntaxModule& b = syntax_.modules[base->second];
      if (!b.base.empty()) {
        fail(ErrorCode::parse, "{}: module '{}' renames '{}', which is itself a renamed module (rename '{}' instead)",
             at(m.position), m.name, b.name, b.base);
      }
      // What the base module declares or mentions (PRISM renames any identifier in it).
      std::set<std::string> known;
      for (const SyntaxVariable& v : b.variables) {
        known.insert(v.name);
        identifiers(v.lower, known);
        identifiers(v.upper, known);
        if (v.init) identifiers(*v.init, known);
      }
      for (const SyntaxCommand& c : b.commands) {
        known.insert(c.action);
        identifiers(c.guard, known);
        for (const SyntaxCommandReward& r : c.rewards) identifiers(r.value, known);
        for (const SyntaxUpdate& u : c.updates) {
          if (u.weight) identifiers(*u.weight, known);
          for (const SyntaxAssignment& a : u.assignments) {
            known.insert(a.variable);
            identifiers(a.value, known);
          }
        }
      }
      for (const SyntaxVariable& v : syntax_.globals) known.insert(v.name);
      for (const auto& [name, p] : names_) known.insert(name);
      for (const SyntaxModule& other : syntax_.modules) {  // other modules' variables, renamed ones too
        for (const SyntaxVariable& v : other.variables) known.insert(v.name);
        for (const SyntaxRename& r : other.renames) known.insert(r.to);
      }
      Expanded e{&b, {}};
      for (const SyntaxRename& r : m.renames) {
        if (!known.count(r.from)) {
          fail(ErrorCode::parse, "{}: module '{}' renames '{}', which module '{}' neither declares nor uses "
               "(nor is it a constant, formula or global)", at(r.position), m.name, r.from, b.name);
        }
        if (!e.renames.emplace(r.from, r.to).second) {
          fail(ErrorCode::parse, "{}: module '{}' renames '{}' twice", at(r.position), m.name, r.from);
        }
      }
      expanded_.push_back(std::move(e));
    }
  }

  static void identifiers(const Node& n, std::set<std::string>& out) {
    if (n.kind == NodeKind::identifier) out.insert(n.name);
    for (const Node& c : n.children) identifiers(c, out);
  }

  static std::string renamed(const Renames& r, const std::string& name) {
    auto it = r.find(name);
    return it == r.end() ? name : it->second;
  }

  void variable(const SyntaxVariable& v, const Renames& renames, int32_t module) {
    Variable out;
    out.name = renamed(renames, v.name);
    out.type = v.type;
    out.module = module;
    out.location = binder_.location(v.position);
    claim(out.name, v.position, "a variable");
    BindContext context;
    context.renames = &renames;
    context.constants_only = true;
    if (v.type == ValueType::integer) {
      context.what = fmt::format("the lower bound of {}", out.name);
      const int64_t lower = binder_.evaluate_constant(v.lower, context, ValueType::integer).int_value;
      context.what = fmt::format("the upper bound of {}", out.name);
      const int64_t upper = binder_.evaluate_constant(v.upper, context, ValueType::integer).int_value;
      if (lower < -2147483648LL || upper > 2147483647LL) {
        fail(ErrorCode::parse, "{}: range [{}..{}] of variable '{}' exceeds 32-bit integers", at(v.position), lower,
             upper, out.name);
      }
      if (lower > upper) {
        fail(ErrorCode::parse, "{}: range [{}..{}] of variable '{}' is empty (lower bound above upper bound)",
             at(v.position), lower, upper, out.name);
      }
      out.lower = static_cast<int32_t>(lower);
      out.upper = static_cast<int32_t>(upper);
    } else {
      out.lower = 0;
      out.upper = 1;
    }
    out.initial = out.lower;
    if (v.init) {
      if (syntax_.initial_states) {
        fail(ErrorCode::parse, "{}: variable '{}' has an initial value, but the model also has 'init ... endinit' "
             "(at {}): PRISM allows one or the other", at(v.position), out.name, at(syntax_.initial_position));
      }
      context.what = fmt::format("the initial value of {}", out.name);
      const Node value = binder_.evaluate_constant(*v.init, context, v.type);
      if (value.int_value < out.lower || value.int_value > out.upper) {
        fail(ErrorCode::parse, "{}: initial value {} of variable '{}' is outside its range [{}..{}]", at(*v.init),
             value.int_value, out.name, out.lower, out.upper);
      }
      out.initial = static_cast<int32_t>(value.int_value);
    }
    binder_.declare_variable(out.name, static_cast<uint32_t>(program_.variables.size()), out.type);
    program_.variables.push_back(std::move(out));
  }

  void variables() {
    const Renames none;
    for (const SyntaxVariable& v : syntax_.globals) variable(v, none, -1);
    for (size_t m = 0; m < expanded_.size(); ++m) {
      Module module;
      module.name = syntax_.modules[m].name;
      module.location = binder_.location(syntax_.modules[m].position);
      for (const SyntaxVariable& v : expanded_[m].body->variables) {
        module.variables.push_back(static_cast<uint32_t>(program_.variables.size()));
        variable(v, expanded_[m].renames, static_cast<int32_t>(m));
      }
      program_.modules.push_back(std::move(module));
    }
  }

  uint32_t action(const std::string& name) {
    if (name.empty()) return 0;
    auto [it, fresh] = actions_.emplace(name, static_cast<uint32_t>(program_.actions.size()));
    if (fresh) program_.actions.push_back(name);
    return it->second;
  }

  Expression compile(const Node& bound) { return compile_expression(bound, binder_.location(bound.line, bound.column)); }

  void commands() {
    program_.actions.push_back("");
    for (size_t m = 0; m < expanded_.size(); ++m) {
      const Renames& renames = expanded_[m].renames;
      Module& module = program_.modules[m];
      for (const SyntaxCommand& c : expanded_[m].body->commands) {
        Command command;
        command.location = binder_.location(c.position);
        command.action = action(renamed(renames, c.action));
        BindContext context;
        context.renames = &renames;
        context.what = "a guard";
        command.guard = compile(binder_.bind_typed(c.guard, context, ValueType::boolean));
        for (const SyntaxUpdate& u : c.updates) command.updates.push_back(update(u, renames, static_cast<int32_t>(m)));
        for (const SyntaxCommandReward& r : c.rewards) command.rewards.push_back(command_reward(r, renames));
        if (command.action != 0) module.alphabet.push_back(command.action);
        module.commands.push_back(std::move(command));
      }
      std::sort(module.alphabet.begin(), module.alphabet.end());
      module.alphabet.erase(std::unique(module.alphabet.begin(), module.alphabet.end()), module.alphabet.end());
    }
  }

  // Commands are bound before the reward structures (rest()), so the
  // structures' names are looked up in the syntax; a duplicate name is
  // reported by rest(), here the first structure of that name answers.
  CommandReward command_reward(const SyntaxCommandReward& r, const Renames& renames) {
    CommandReward out;
    out.location = binder_.location(r.position);
    auto named = std::find_if(syntax_.rewards.begin(), syntax_.rewards.end(),
                              [&](const SyntaxRewards& s) { return !s.name.empty() && s.name == r.structure; });
    if (named == syntax_.rewards.end()) {
      std::string names;
      for (const SyntaxRewards& s : syntax_.rewards) {
        if (!s.name.empty()) names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", s.name);
      }
      fail(ErrorCode::parse, "{}: the command earns a reward of structure \"{}\", which the model does not "
           "declare ({})", at(r.position), r.structure,
           names.empty() ? std::string("it has no named reward structures") : "its named structures: " + names);
    }
    out.structure = static_cast<uint32_t>(named - syntax_.rewards.begin());
    BindContext context;
    context.renames = &renames;
    context.what = fmt::format("the command's reward for \"{}\"", r.structure);
    out.value = compile(binder_.bind_typed(r.value, context, ValueType::real, true));
    return out;
  }

  Update update(const SyntaxUpdate& u, const Renames& renames, int32_t module) {
    Update out;
    out.location = binder_.location(u.position);
    BindContext context;
    context.renames = &renames;
    if (u.weight) {
      context.what = program_.type == ModelType::ctmc ? "a rate" : "a probability";
      out.weight = compile(binder_.bind_typed(*u.weight, context, ValueType::real, true));
    } else {
      Node one;
      one.kind = NodeKind::real;
      one.type = ValueType::real;
      one.real_value = 1;
      one.exact = "1";
      one.line = u.position.line;
      one.column = u.position.column;
      out.weight = compile(one);
    }
    std::set<uint32_t> assigned;
    for (const SyntaxAssignment& a : u.assignments) {
      const std::string name = renamed(renames, a.variable);
      auto it = std::find_if(program_.variables.begin(), program_.variables.end(),
                             [&](const Variable& v) { return v.name == name; });
      if (it == program_.variables.end()) {
        fail(ErrorCode::parse, "{}: assignment to unknown variable '{}'{}", at(a.position), name,
             name != a.variable ? fmt::format(" (renamed from '{}')", a.variable) : std::string());
      }
      const Variable& v = *it;
      const auto index = static_cast<uint32_t>(it - program_.variables.begin());
      if (v.module >= 0 && v.module != module) {
        fail(ErrorCode::parse, "{}: module '{}' assigns variable '{}', which belongs to module '{}' (a module may "
             "only change its own variables and globals)", at(a.position), program_.modules[module].name, name,
             program_.modules[v.module].name);
      }
      if (!assigned.insert(index).second) {
        fail(ErrorCode::parse, "{}: variable '{}' is assigned twice in one update", at(a.position), name);
      }
      context.what = fmt::format("the value assigned to {} ({})", name, type_name(v.type));
      Assignment assignment;
      assignment.variable = index;
      assignment.location = binder_.location(a.position);
      Node value = binder_.bind(a.value, context);
      if (value.type != v.type) {
        fail(ErrorCode::parse, "{}: type error: variable '{}' is {} {}, but the value assigned is {} '{}'",
             at(a.value), name, v.type == ValueType::integer ? "an" : "a", type_name(v.type),
             value.type == ValueType::integer ? "an int" : value.type == ValueType::real ? "a double" : "a bool",
             node_to_string(a.value));
      }
      assignment.value = compile(value);
      out.assignments.push_back(std::move(assignment));
    }
    return out;
  }

  void rest() {
    BindContext context;
    if (syntax_.initial_states) {
      context.what = "the 'init ... endinit' condition";
      program_.initial_states = compile(binder_.bind_typed(*syntax_.initial_states, context, ValueType::boolean));
    }
    std::set<std::string> labels;
    for (const SyntaxLabel& l : syntax_.labels) {
      if (l.name == "init" || l.name == "deadlock") {
        fail(ErrorCode::parse, "{}: label \"{}\" is built in and cannot be redefined", at(l.position), l.name);
      }
      if (!labels.insert(l.name).second) fail(ErrorCode::parse, "{}: duplicate label \"{}\"", at(l.position), l.name);
      context.what = fmt::format("label \"{}\"", l.name);
      program_.labels.push_back(
          {l.name, compile(binder_.bind_typed(l.condition, context, ValueType::boolean)), binder_.location(l.position)});
    }
    std::set<std::string> names;
    for (const SyntaxRewards& r : syntax_.rewards) {
      if (!r.name.empty() && !names.insert(r.name).second) {
        fail(ErrorCode::parse, "{}: duplicate reward structure \"{}\"", at(r.position), r.name);
      }
      RewardDefinition out;
      out.name = r.name;
      out.location = binder_.location(r.position);
      for (const SyntaxRewardItem& item : r.items) {
        context.what = "a reward guard";
        Expression guard = compile(binder_.bind_typed(item.guard, context, ValueType::boolean));
        context.what = "a reward";
        Expression value = compile(binder_.bind_typed(item.value, context, ValueType::real, true));
        if (!item.transition) {
          out.state_items.push_back({std::move(guard), std::move(value), binder_.location(item.position)});
          continue;
        }
        if (!item.action.empty() && !actions_.count(item.action)) {
          program_.warnings.push_back(fmt::format("{}: reward for action '{}', which no module has", at(item.position),
                                                  item.action));
        }
        out.transition_items.push_back(
            {action(item.action), std::move(guard), std::move(value), binder_.location(item.position)});
      }
      program_.rewards.push_back(std::move(out));
    }
  }

  const SyntaxProgram& syntax_;
  Binder binder_;
  PrismModel program_;
  std::map<std::string, Position> names_;
  std::set<std::string> given_;
  std::vector<Expanded> expanded_;
  std::map<std::string, uint32_t> actions_;
};

}  // namespace

PrismModel check_program(SyntaxProgram syntax, const std::string& file,
                         const std::vector<ConstantAssignment>& constants,
                         std::shared_ptr<const std::vector<std::string>> places) {
  SourceValidator validator(syntax, file);
  if (places) validator.set_places(std::move(places));
  return validator.run(constants);
}

PrismModel parse_program(std::string_view source, const std::string& file_name,
                         const std::vector<ConstantAssignment>& constants) {
  return check_program(parse_syntax(source, file_name), file_name, constants);
}

PrismModel load_program(const std::string& path, const std::vector<ConstantAssignment>& constants) {
  return parse_program(read_file_content(path), path, constants);
}

std::vector<DeclaredConstant> declared_constants(const std::string& path) {
  const SyntaxProgram syntax = parse_syntax(read_file_content(path), path);
  std::vector<DeclaredConstant> out;
  for (const ConstantDeclaration& c : syntax.constants) out.push_back({c.name, c.type, c.value.has_value()});
  return out;
}

}  // namespace pmc::prism_language
