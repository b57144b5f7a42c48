// A JANI document → the PRISM-language front end's syntax (jani.hpp gives
// the mapping), and its properties → PRISM text (property_translation.cpp).
#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "common/error.hpp"
#include "expression/lexer.hpp"
#include "formats/jani/expressions.hpp"
#include "formats/jani/property_translation.hpp"
#include "formats/jani/translation.hpp"

namespace pmc::jani {

namespace {

using expression::ConstantDeclaration;
using expression::ValueType;
using prism_language::SyntaxAssignment;
using prism_language::SyntaxCommand;
using prism_language::SyntaxCommandReward;
using prism_language::SyntaxLabel;
using prism_language::SyntaxModule;
using prism_language::SyntaxRewardItem;
using prism_language::SyntaxRewards;
using prism_language::SyntaxUpdate;
using prism_language::SyntaxVariable;

// JANI features pmc builds; any other a file declares is refused up front.
const std::set<std::string> k_supported_features = {"derived-operators", "functions", "state-exit-rewards"};

struct Transient {
  std::string name;
  bool boolean = false;
  Json initial;
  uint32_t place = 0;
};

struct Element {
  const Json* automaton = nullptr;
  std::string name;
  std::string path;  // "automata[2] \"sender\""
  std::unordered_map<std::string, NameMeaning> locals;
  std::vector<std::string> locations;
  std::map<std::string, uint32_t> location_index;
  std::vector<uint32_t> initial_locations;
  std::string location_variable;  // empty with one location
};

class ModelTranslator {
 public:
  ModelTranslator(const Json& document, const std::string& file, bool properties_only)
      : doc_(document), file_(file), properties_only_(properties_only) {}

  Translation run() {
    if (!doc_.is_object()) fail(ErrorCode::parse, "{}: a JANI model is a JSON object, not {}", file_, json_type_name(doc_));
    model_type();
    features();
    constants();
    global_variables();
    automata();
    composition();
    if (properties_only_) {
      // The properties need the names and the transients' state values, not
      // the edges: a model whose edges pmc refuses still lists them.
      collect_properties();
      out_.places = places_.shared();
      return std::move(out_);
    }
    commands();
    collect_properties();
    transients_to_labels_and_rewards();
    initial_states();
    out_.places = places_.shared();
    return std::move(out_);
  }

 private:
  struct InitialValue {
    std::string variable;
    Node value;
    uint32_t place;
  };
  struct EdgeTransient {
    std::string name;
    const Json* value;
    uint32_t place;
  };
  struct ModuleCommand {
    size_t module, command, element, edge;
  };
  struct Vector {
    std::vector<std::string> actions;  // per element; empty: does not take part
    std::string result;                // "" silent
    uint32_t place = 0;
    std::string program_action;
  };

  template <typename... Args>
  [[noreturn]] void error(uint32_t place, ErrorCode code, fmt::format_string<Args...> format, Args&&... args) const {
    fail(code, "{}: {}: {}", file_, places_[place], fmt::format(format, std::forward<Args>(args)...));
  }

  const Json& required(const Json& object, const char* key, uint32_t place) const {
    if (!object.is_object()) error(place, ErrorCode::parse, "expected an object, found {}", json_type_name(object));
    auto it = object.find(key);
    if (it == object.end()) error(place, ErrorCode::parse, "\"{}\" is missing", key);
    return *it;
  }
  std::string required_name(const Json& object, const char* key, uint32_t place) const {
    const Json& v = required(object, key, place);
    if (!v.is_string()) error(place, ErrorCode::parse, "\"{}\" must be a string, found {}", key, json_type_name(v));
    return v.get<std::string>();
  }
  const Json& array_member(const Json& object, const char* key, uint32_t place, bool needed) const {
    static const Json empty = Json::array();
    if (!object.is_object()) error(place, ErrorCode::parse, "expected an object, found {}", json_type_name(object));
    auto it = object.find(key);
    if (it == object.end()) {
      if (needed) error(place, ErrorCode::parse, "\"{}\" is missing", key);
      return empty;
    }
    if (!it->is_array()) error(place, ErrorCode::parse, "\"{}\" must be an array, found {}", key, json_type_name(*it));
    return *it;
  }

  ExpressionScope scope(uint32_t place, const Element* element = nullptr) const {
    ExpressionScope s;
    s.file = &file_;
    s.places = &places_;
    s.place = place;
    s.globals = &globals_;
    s.locals = element != nullptr ? &element->locals : nullptr;
    s.functions = doc_.contains("functions") ? &doc_["functions"] : nullptr;
    s.local_functions = element != nullptr && element->automaton->contains("functions")
                            ? &(*element->automaton)["functions"]
                            : nullptr;
    return s;
  }
  // {"exp": e} (JANI's wrapper of guards, rates and probabilities).
  const Json& wrapped(const Json& holder, uint32_t place) const {
    if (!holder.is_object() || !holder.contains("exp")) {
      error(place, ErrorCode::parse, "expected {{\"exp\": expression}}, found {}", json_type_name(holder));
    }
    return holder["exp"];
  }

  void claim(const std::string& name, uint32_t place) {
    if (!used_names_.insert(name).second) {
      error(place, ErrorCode::parse, "the name {} is declared twice", quote_for_message(name));
    }
  }

  void model_type() {
    const uint32_t place = places_.add("\"type\"");
    const std::string type = required_name(doc_, "type", place);
    if (type == "dtmc") {
      out_.program.type = ModelType::dtmc;
    } else if (type == "ctmc") {
      out_.program.type = ModelType::ctmc;
    } else if (type == "mdp") {
      out_.program.type = ModelType::mdp;
    } else {
      error(place, ErrorCode::unsupported, "model type {} is not supported (pmc builds dtmc, ctmc and mdp{})",
            quote_for_message(type),
            type == "lts" || type == "ma" || type == "pta" || type == "sta" || type == "ha" || type == "sha" ||
                    type == "ctmdp"
                ? ""
                : "; is this a JANI file?");
    }
    type_ = out_.program.type.value();
    if (doc_.contains("jani-version") && !(doc_["jani-version"] == 1)) {
      error(places_.add("\"jani-version\""), ErrorCode::unsupported, "JANI version {} (pmc reads version 1)",
            doc_["jani-version"].dump());
    }
  }

  void features() {
    const uint32_t place = places_.add("\"features\"");
    for (const Json& f : array_member(doc_, "features", place, false)) {
      if (!f.is_string()) error(place, ErrorCode::parse, "a feature must be a string, found {}", json_type_name(f));
      if (!k_supported_features.count(f.get<std::string>())) {
        error(place, ErrorCode::unsupported, "the JANI extension {} is not supported (pmc reads {})",
              quote_for_message(f.get<std::string>()), "derived-operators, functions and state-exit-rewards");
      }
    }
  }

  // A declared type: "bool", "int", "real", or {"kind": "bounded", "base": ..., bounds}; clocks and the rest
  // are refused.
  struct Type {
    ValueType value = ValueType::integer;
    const Json* lower = nullptr;
    const Json* upper = nullptr;
    bool bounded = false;
  };
  Type type_of(const Json& t, uint32_t place) const {
    Type out;
    if (t.is_string()) {
      const std::string name = t.get<std::string>();
      if (name == "bool") {
        out.value = ValueType::boolean;
      } else if (name == "int") {
        out.value = ValueType::integer;
      } else if (name == "real") {
        out.value = ValueType::real;
      } else if (name == "clock" || name == "continuous") {
        error(place, ErrorCode::unsupported, "type '{}' belongs to timed and hybrid models, which pmc does not build",
              name);
      } else {
        error(place, ErrorCode::parse, "unknown type {} (bool, int, real or a bounded type)", quote_for_message(name));
      }
      return out;
    }
    if (t.is_object() && t.value("kind", std::string()) == "bounded") {
      const std::string base = t.value("base", std::string());
      if (base != "int" && base != "real") error(place, ErrorCode::parse, "a bounded type's \"base\" is int or real");
      out.value = base == "int" ? ValueType::integer : ValueType::real;
      out.bounded = true;
      if (t.contains("lower-bound")) out.lower = &t["lower-bound"];
      if (t.contains("upper-bound")) out.upper = &t["upper-bound"];
      return out;
    }
    if (t.is_object() && t.contains("kind")) {
      error(place, ErrorCode::unsupported, "type kind {} (JANI's arrays and datatypes) is not supported",
            t["kind"].dump());
    }
    error(place, ErrorCode::parse, "expected a type, found {}", json_type_name(t));
  }

  void constants() {
    const Json& list = array_member(doc_, "constants", places_.add("\"constants\""), false);
    for (size_t i = 0; i < list.size(); ++i) {
      const uint32_t place = places_.add(fmt::format("constants[{}]", i));
      const std::string name = required_name(list[i], "name", place);
      places_.rename(place, fmt::format("constants[{}] \"{}\"", i, name));
      claim(name, place);
      ConstantDeclaration c;
      c.name = name;
      c.type = type_of(required(list[i], "type", place), place).value;
      c.position = {place, 0};
      if (list[i].contains("value")) c.value = translate_expression(list[i]["value"], scope(place));
      globals_[name] = {NameMeaning::Kind::constant, name, false};
      program_names_.insert(name);
      // An open constant nothing outside the properties reads is theirs
      // (as a properties file's): the model builds without a value for it.
      if (!c.value && !names_read_by_model().count(name)) {
        out_.property_constants.push_back(std::move(c));
        continue;
      }
      out_.program.constants.push_back(std::move(c));
    }
  }

  // Every string the document holds outside its properties and the
  // constants' own names: a superset of the identifiers the model reads
  // (automaton, action and location names included, which only makes the
  // test above keep a constant in the model).
  const std::set<std::string>& names_read_by_model() {
    if (model_names_) return *model_names_;
    model_names_.emplace();
    auto walk = [&](const Json& j, auto&& self) -> void {
      if (j.is_string()) {
        model_names_->insert(j.get<std::string>());
      } else if (j.is_array() || j.is_object()) {
        for (const Json& child : j) self(child, self);
      }
    };
    for (const auto& [key, value] : doc_.items()) {
      if (key == "properties") continue;
      if (key != "constants" || !value.is_array()) {
        walk(value, walk);
        continue;
      }
      for (const Json& c : value) {
        if (!c.is_object()) continue;
        for (const auto& [field, part] : c.items()) {
          if (field != "name") walk(part, walk);
        }
      }
    }
    return *model_names_;
  }

  // A state variable's syntax; `program_name` may differ from its JANI name (a local renamed apart).
  SyntaxVariable state_variable(const Json& v, const std::string& program_name, uint32_t place,
                                const Element* element) {
    const Type t = type_of(required(v, "type", place), place);
    SyntaxVariable out;
    out.name = program_name;
    out.position = {place, 0};
    const ExpressionScope s = scope(place, element);
    if (t.value == ValueType::real) {
      error(place, ErrorCode::unsupported, "real-valued state variables are not supported (pmc's states are "
            "integers and booleans; transient reals are rewards)");
    }
    out.type = t.value;
    if (t.value == ValueType::integer) {
      if (!t.bounded) {
        // PRISM has no unbounded integers; Storm stores them in 32 bits. An
        // update that leaves the range is an error naming it.
        out.lower = integer_node(std::numeric_limits<int32_t>::min(), place);
        out.upper = integer_node(std::numeric_limits<int32_t>::max(), place);
        out_.warnings.push_back(fmt::format("{}: {}: the unbounded integer '{}' is stored in 32 bits",
                                                    file_, places_[place], program_name));
      } else {
        if (t.lower == nullptr || t.upper == nullptr) {
          error(place, ErrorCode::unsupported, "a bounded integer needs both bounds (pmc packs states by range)");
        }
        out.lower = translate_expression(*t.lower, s);
        out.upper = translate_expression(*t.upper, s);
      }
    }
    if (v.contains("initial-value")) {
      initial_values_.push_back({program_name, translate_expression(v["initial-value"], s), place});
    } else {
      any_free_initial_ = true;
    }
    return out;
  }

  void add_transient(const Json& v, const std::string& name, uint32_t place) {
    const Type t = type_of(required(v, "type", place), place);
    if (!v.contains("initial-value")) error(place, ErrorCode::parse, "the transient variable '{}' needs an initial value", name);
    transients_.push_back({name, t.value == ValueType::boolean, v["initial-value"], place});
    globals_[name] = {NameMeaning::Kind::transient, name, t.value == ValueType::boolean};
  }

  void global_variables() {
    const Json& list = array_member(doc_, "variables", places_.add("\"variables\""), false);
    for (size_t i = 0; i < list.size(); ++i) {
      const uint32_t place = places_.add(fmt::format("variables[{}]", i));
      const std::string name = required_name(list[i], "name", place);
      places_.rename(place, fmt::format("variables[{}] \"{}\"", i, name));
      claim(name, place);
      if (list[i].value("transient", false)) {
        add_transient(list[i], name, place);
        continue;
      }
      const std::string program_name = fresh_name(name, "global");
      out_.program.globals.push_back(state_variable(list[i], program_name, place, nullptr));
      globals_[name] = {NameMeaning::Kind::variable, program_name, false};
    }
  }

  void automata() {
    const uint32_t place = places_.add("\"automata\"");
    const Json& list = array_member(doc_, "automata", place, true);
    for (size_t i = 0; i < list.size(); ++i) {
      const uint32_t here = places_.add(fmt::format("automata[{}]", i));
      const std::string name = required_name(list[i], "name", here);
      if (!automata_.emplace(name, i).second) error(here, ErrorCode::parse, "two automata are named '{}'", name);
    }
  }

  // A name for the program that no other name has, and that PRISM's syntax
  // can write (so that .sta files and properties can name it): `base`, else
  // `prefix_base`, else numbered; characters an identifier cannot hold
  // become '_', and a reserved word gets a '_' appended.
  std::string fresh_name(const std::string& base, const std::string& prefix) {
    auto identifier = [](const std::string& text) {
      std::string out;
      for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
      if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
      if (expression::is_reserved_word(out)) out += '_';
      return out;
    };
    auto taken = [&](const std::string& n) { return program_names_.count(n) > 0; };
    std::string name = identifier(base);
    if (name != base || taken(name)) {
      // A JANI name kept as it is never clashes with another JANI name; a
      // changed one might, so it may take the automaton's prefix too.
      if (taken(name)) name = identifier(prefix) + "_" + identifier(base);
      for (int k = 2; taken(name); ++k) name = fmt::format("{}_{}_{}", identifier(prefix), identifier(base), k);
    }
    program_names_.insert(name);
    return name;
  }

  void composition() {
    const uint32_t place = places_.add("\"system\"");
    const Json& system = required(doc_, "system", place);
    const Json& elements = array_member(system, "elements", place, true);
    if (elements.empty()) error(place, ErrorCode::parse, "the composition has no elements");
    for (size_t i = 0; i < elements.size(); ++i) {
      const uint32_t here = places_.add(fmt::format("system, elements[{}]", i));
      const std::string name = required_name(elements[i], "automaton", here);
      auto found = automata_.find(name);
      if (found == automata_.end()) error(here, ErrorCode::parse, "no automaton is named {}", quote_for_message(name));
      if (elements[i].contains("input-enable") && !elements[i]["input-enable"].empty()) {
        error(here, ErrorCode::unsupported, "\"input-enable\" is not supported");
      }
      for (const Element& e : elements_) {
        if (e.name == name) {
          error(here, ErrorCode::unsupported, "automaton '{}' is an element twice (pmc needs each automaton once)", name);
        }
      }
      Element element;
      element.automaton = &doc_["automata"][found->second];
      element.name = name;
      element.path = fmt::format("automata[{}] \"{}\"", found->second, name);
      elements_.push_back(std::move(element));
    }
    for (Element& e : elements_) declare_automaton(e);
    // Vectors: each a program action of its own.
    const Json& syncs = array_member(system, "syncs", place, false);
    std::set<std::string> declared_actions;
    const uint32_t actions_place = places_.add("\"actions\"");
    for (const Json& a : array_member(doc_, "actions", actions_place, false)) {
      declared_actions.insert(required_name(a, "name", actions_place));
    }
    for (size_t k = 0; k < syncs.size(); ++k) {
      const uint32_t here = places_.add(fmt::format("system, syncs[{}]", k));
      const Json& vector = array_member(syncs[k], "synchronise", here, true);
      if (vector.size() != elements_.size()) {
        error(here, ErrorCode::parse, "\"synchronise\" has {} entries, but the composition has {} elements",
              vector.size(), elements_.size());
      }
      Vector v;
      for (const Json& a : vector) {
        if (a.is_null()) {
          v.actions.emplace_back();
          continue;
        }
        if (!a.is_string()) error(here, ErrorCode::parse, "a vector's entry is an action name or null");
        if (!declared_actions.count(a.get<std::string>())) {
          error(here, ErrorCode::parse, "action {} is not declared in \"actions\"", quote_for_message(a.get<std::string>()));
        }
        v.actions.push_back(a.get<std::string>());
      }
      if (syncs[k].contains("result")) {
        if (!syncs[k]["result"].is_string()) error(here, ErrorCode::parse, "\"result\" must be an action name");
        v.result = syncs[k]["result"].get<std::string>();
      }
      v.place = here;
      vectors_.push_back(std::move(v));
    }
    // One automaton on its own takes every action it has: its own vector.
    if (!system.contains("syncs") && elements_.size() == 1) {
      std::set<std::string> seen;
      for (const Json& edge : array_member(*elements_[0].automaton, "edges", place, false)) {
        if (edge.is_object() && edge.contains("action") && edge["action"].is_string()) {
          const std::string a = edge["action"].get<std::string>();
          if (seen.insert(a).second) vectors_.push_back({{a}, a, place, ""});
        }
      }
    }
    for (size_t k = 0; k < vectors_.size(); ++k) {
      vectors_[k].program_action = fmt::format("{}#{}", vectors_[k].result, k);
      out_.vector_actions.emplace_back(vectors_[k].program_action, vectors_[k].result);
    }
  }

  void declare_automaton(Element& e) {
    const Json& a = *e.automaton;
    const uint32_t here = places_.add(e.path);
    for (const Json& v : array_member(a, "variables", here, false)) {
      const std::string name = required_name(v, "name", here);
      if (v.value("transient", false)) {
        error(here, ErrorCode::unsupported, "the local transient variable '{}' (pmc reads transient variables "
              "declared globally)", name);
      }
      if (e.locals.count(name)) error(here, ErrorCode::parse, "automaton '{}' declares '{}' twice", e.name, name);
      e.locals[name] = {NameMeaning::Kind::variable, fresh_name(name, e.name), false};
    }
    const Json& locations = array_member(a, "locations", here, true);
    if (locations.empty()) error(here, ErrorCode::parse, "automaton '{}' has no location", e.name);
    for (size_t l = 0; l < locations.size(); ++l) {
      const std::string name = required_name(locations[l], "name", places_.add(fmt::format("{}, locations[{}]", e.path, l)));
      if (!e.location_index.emplace(name, static_cast<uint32_t>(l)).second) {
        error(here, ErrorCode::parse, "two locations are named '{}'", name);
      }
      e.locations.push_back(name);
    }
    const uint32_t init_place = places_.add(e.path + ", initial-locations");
    for (const Json& l : array_member(a, "initial-locations", init_place, true)) {
      if (!l.is_string() || !e.location_index.count(l.get<std::string>())) {
        error(init_place, ErrorCode::parse, "{} is not a location of '{}'", l.dump(), e.name);
      }
      e.initial_locations.push_back(e.location_index[l.get<std::string>()]);
    }
    if (e.initial_locations.empty()) error(init_place, ErrorCode::parse, "automaton '{}' has no initial location", e.name);
    if (e.locations.size() > 1) e.location_variable = fresh_name("location", e.name);
  }


  // Every element's module, each edge a command per vector it takes part in.
  void commands() {
    for (size_t i = 0; i < elements_.size(); ++i) {
      Element& e = elements_[i];
      SyntaxModule module;
      module.name = fresh_name(e.name, "automaton");
      module.position = {places_.add(e.path), 0};
      const uint32_t here = module.position.line;
      for (const Json& v : array_member(*e.automaton, "variables", here, false)) {
        const std::string name = v["name"].get<std::string>();
        module.variables.push_back(state_variable(v, e.locals[name].program_name, here, &e));
      }
      if (!e.location_variable.empty()) {
        SyntaxVariable loc;
        loc.name = e.location_variable;
        loc.type = ValueType::integer;
        loc.lower = integer_node(0, here);
        loc.upper = integer_node(static_cast<int64_t>(e.locations.size()) - 1, here);
        loc.position = {here, 0};
        if (e.initial_locations.size() == 1) {
          initial_values_.push_back({loc.name, integer_node(e.initial_locations[0], here), here});
        } else {
          any_free_initial_ = true;
        }
        module.variables.push_back(std::move(loc));
      }
      const Json& edges = array_member(*e.automaton, "edges", here, false);
      for (size_t j = 0; j < edges.size(); ++j) edge(e, i, edges[j], j, module);
      out_.program.modules.push_back(std::move(module));
    }
  }

  Node location_is(const Element& e, uint32_t location, uint32_t place) const {
    return operation(NodeKind::equal, {identifier_node(e.location_variable, place), integer_node(location, place)}, place);
  }

  void edge(const Element& e, size_t element, const Json& edge, size_t j, SyntaxModule& module) {
    const uint32_t here = places_.add(fmt::format("{}, edges[{}]", e.path, j));
    const std::string location = required_name(edge, "location", here);
    auto from = e.location_index.find(location);
    if (from == e.location_index.end()) error(here, ErrorCode::parse, "'{}' is no location of '{}'", location, e.name);
    SyntaxCommand command;
    command.position = {here, 0};
    if (edge.contains("guard")) {
      const uint32_t place = places_.add(fmt::format("{}, edges[{}], guard", e.path, j));
      command.guard = translate_expression(wrapped(edge["guard"], place), scope(place, &e));
    } else {
      command.guard = boolean_node(true, here);
    }
    if (!e.location_variable.empty()) {
      command.guard = operation(NodeKind::logical_and, {location_is(e, from->second, here), std::move(command.guard)}, here);
    }
    std::optional<Node> rate;
    const Json* rate_json = nullptr;
    if (edge.contains("rate")) {
      const uint32_t place = places_.add(fmt::format("{}, edges[{}], rate", e.path, j));
      if (type_ != ModelType::ctmc) {
        error(place, ErrorCode::parse, "an edge of a {} has a rate (only a ctmc's edges have rates)",
              type_ == ModelType::dtmc ? "dtmc" : "mdp");
      }
      rate_json = &wrapped(edge["rate"], place);
      rate = translate_expression(*rate_json, scope(place, &e));
    }
    const Json& destinations = array_member(edge, "destinations", here, true);
    if (destinations.empty()) error(here, ErrorCode::parse, "the edge has no destination");
    std::string transient_signature;
    for (size_t d = 0; d < destinations.size(); ++d) {
      const uint32_t place = places_.add(fmt::format("{}, edges[{}], destinations[{}]", e.path, j, d));
      SyntaxUpdate update;
      update.position = {place, 0};
      const std::string to = required_name(destinations[d], "location", place);
      auto target = e.location_index.find(to);
      if (target == e.location_index.end()) error(place, ErrorCode::parse, "'{}' is no location of '{}'", to, e.name);
      std::optional<Node> probability;
      bool folded = false;
      if (destinations[d].contains("probability")) {
        const uint32_t p = places_.add(fmt::format("{}, edges[{}], destinations[{}], probability", e.path, j, d));
        const Json& written = wrapped(destinations[d]["probability"], p);
        // Tools that write a PRISM command as a JANI edge give the edge the
        // sum R of its rates and each destination r_i / R: the weight
        // R·(r_i / R) is then r_i, PRISM's own rate, computed once instead
        // of R three times (QVBS majority's R is a sum of three divisions
        // and powers: its build took 1.73× its PRISM original's).
        folded = rate_json != nullptr && written.is_object() && written.contains("op") && written["op"] == "/" &&
                 written.contains("left") && written.contains("right") && written["right"] == *rate_json;
        probability = translate_expression(folded ? written["left"] : written, scope(p, &e));
      }
      if (folded) {
        update.weight = *probability;
      } else if (rate && probability) {
        update.weight = operation(NodeKind::multiply, {*rate, *probability}, place);
      } else if (rate) {
        update.weight = *rate;
      } else if (probability) {
        update.weight = *probability;
      }
      std::vector<std::pair<std::string, std::string>> transient_assignments;
      std::vector<LeveledAssignment> leveled;
      const Json& assignments = array_member(destinations[d], "assignments", place, false);
      for (size_t k = 0; k < assignments.size(); ++k) {
        const uint32_t a = places_.add(fmt::format("{}, edges[{}], destinations[{}], assignments[{}]", e.path, j, d, k));
        const Json& ref = required(assignments[k], "ref", a);
        if (!ref.is_string()) error(a, ErrorCode::unsupported, "\"ref\" must name a variable (arrays are not supported)");
        int64_t level = 0;
        if (assignments[k].contains("index")) {
          const Json& index = assignments[k]["index"];
          if (!index.is_number_integer()) error(a, ErrorCode::parse, "\"index\" must be an integer (the level)");
          level = index.get<int64_t>();
        }
        const std::string name = ref.get<std::string>();
        const Json& value = required(assignments[k], "value", a);
        const NameMeaning* meaning = lookup(e, name);
        if (meaning == nullptr) error(a, ErrorCode::parse, "assignment to unknown variable {}", quote_for_message(name));
        if (meaning->kind == NameMeaning::Kind::constant) error(a, ErrorCode::parse, "assignment to constant '{}'", name);
        if (meaning->kind == NameMeaning::Kind::transient) {
          if (level != 0) {
            error(a, ErrorCode::unsupported, "an assignment to transient variable '{}' at level {} (\"index\"): "
                  "pmc's transition rewards are computed from the state before the transition", name, level);
          }
          transient_assignments.emplace_back(name, value.dump());
          // The edge's transient assignments are its first destination's (the others must agree).
          if (d == 0) edge_transients_[edge_key(element, j)].push_back({name, &value, a});
          continue;
        }
        leveled.push_back({level, meaning->program_name, name, translate_expression(value, scope(a, &e)), a});
      }
      update.assignments = in_one_step(std::move(leveled));
      if (!e.location_variable.empty() && target->second != from->second) {
        update.assignments.push_back(
            {e.location_variable, integer_node(target->second, place), {place, 0}});
      }
      std::sort(transient_assignments.begin(), transient_assignments.end());
      std::string signature;
      for (const auto& [n, v] : transient_assignments) signature += n + "=" + v + ";";
      if (d == 0) {
        transient_signature = signature;
      } else if (signature != transient_signature) {
        error(place, ErrorCode::unsupported, "its transient assignments differ from the edge's first destination's "
              "(pmc's transition rewards belong to a whole edge)");
      }
      command.updates.push_back(std::move(update));
    }
    const std::string action =
        edge.contains("action") && edge["action"].is_string() ? edge["action"].get<std::string>() : std::string();
    if (action.empty()) {
      module_commands_.push_back({module_index(element), module.commands.size(), element, j});
      module.commands.push_back(std::move(command));
      return;
    }
    // One command per vector the action takes part in; none: it never fires.
    for (const Vector& v : vectors_) {
      if (v.actions[element] != action) continue;
      SyntaxCommand copy = command;
      copy.action = v.program_action;
      copy.action_position = {here, 0};
      module_commands_.push_back({module_index(element), module.commands.size(), element, j});
      module.commands.push_back(std::move(copy));
    }
  }

  size_t module_index(size_t element) const { return element; }
  static uint64_t edge_key(size_t element, size_t edge) { return (static_cast<uint64_t>(element) << 32) | edge; }

  // One assignment of a destination at its level ("index"): JANI runs the
  // levels in ascending order, each reading the values the lower ones left.
  struct LeveledAssignment {
    int64_t level;
    std::string variable;  // the program's name
    std::string name;      // the file's
    Node value;
    uint32_t place;
  };

  // A destination's levels as one simultaneous update, PRISM's: a value at
  // a higher level has the variables this destination assigned lower
  // replaced by what they were assigned, and a variable assigned at
  // several levels keeps its highest. Substitution sees only this
  // destination, so a higher level that reads a global variable it does not
  // assign itself is refused (a synchronising automaton may assign that
  // variable at a lower level). A variable assigned twice at one level is an
  // error, as in JANI.
  std::vector<SyntaxAssignment> in_one_step(std::vector<LeveledAssignment> leveled) const {
    std::stable_sort(leveled.begin(), leveled.end(),
                     [](const LeveledAssignment& a, const LeveledAssignment& b) { return a.level < b.level; });
    std::set<std::string> global_variables;  // filled only where a destination has levels
    if (!leveled.empty() && leveled.front().level != leveled.back().level) {
      for (const auto& [name, meaning] : globals_) {
        if (meaning.kind == NameMeaning::Kind::variable) global_variables.insert(meaning.program_name);
      }
    }
    std::vector<SyntaxAssignment> out;
    std::map<std::string, size_t> slot;  // variable -> its assignment in `out`
    std::map<std::string, Node> before;  // what the lower levels assigned
    for (size_t first = 0; first < leveled.size();) {
      size_t last = first;
      while (last < leveled.size() && leveled[last].level == leveled[first].level) ++last;
      std::map<std::string, Node> assigned;
      for (size_t i = first; i < last; ++i) {
        LeveledAssignment& a = leveled[i];
        if (assigned.count(a.variable)) {
          error(a.place, ErrorCode::parse, "variable '{}' is assigned twice at level {}", a.name, a.level);
        }
        if (first > 0) {
          std::set<std::string> read;
          identifiers_in(a.value, read);
          for (const std::string& name : read) {
            if (global_variables.count(name) && !before.count(name)) {
              error(a.place, ErrorCode::unsupported,
                    "an assignment at level {} reads global variable '{}', which another automaton may assign at "
                    "a lower level: pmc's updates read one state",
                    a.level, name);
            }
          }
          a.value = substituted(a.value, before);
        }
        assigned.emplace(a.variable, a.value);
        if (auto s = slot.find(a.variable); s != slot.end()) {
          out[s->second].value = a.value;
          out[s->second].position = {a.place, 0};
        } else {
          slot.emplace(a.variable, out.size());
          out.push_back({a.variable, a.value, {a.place, 0}});
        }
      }
      for (auto& [variable, value] : assigned) before[variable] = std::move(value);
      first = last;
    }
    return out;
  }

  static void identifiers_in(const Node& n, std::set<std::string>& out) {
    if (n.kind == expression::NodeKind::identifier) out.insert(n.name);
    for (const Node& c : n.children) identifiers_in(c, out);
  }

  // `n` with the identifiers `values` names replaced by their values.
  static Node substituted(const Node& n, const std::map<std::string, Node>& values) {
    if (n.kind == expression::NodeKind::identifier) {
      auto v = values.find(n.name);
      return v == values.end() ? n : v->second;
    }
    Node out = expression::with_mapped_children(n, [&](const Node& c) { return substituted(c, values); });
    for (const Node& c : out.children) out.depth = std::max(out.depth, c.depth + 1);
    return out;
  }

  const NameMeaning* lookup(const Element& e, const std::string& name) const {
    if (auto l = e.locals.find(name); l != e.locals.end()) return &l->second;
    if (auto g = globals_.find(name); g != globals_.end()) return &g->second;
    return nullptr;
  }

  void collect_properties() {
    PropertyTranslator translator(doc_, file_, places_, globals_, type_,
                                  [this](const Json& e) { return reward_has_state_part(e); });
    out_.properties = translator.run();
    reward_expressions_ = translator.reward_expressions();
    for (auto& [name, value] : translator.formulas()) {
      expression::FormulaDeclaration f;
      f.name = name;
      f.position = {value.line, 0};
      f.value = std::move(value);
      out_.program.formulas.push_back(std::move(f));
    }
  }

  // Whether the reward `e` is non-zero in some state: its value over the
  // transients' state values is not the literal 0 (see reward_structure).
  bool reward_has_state_part(const Json& e) {
    const uint32_t place = places_.add("a property's reward");
    ExpressionScope s = scope(place);
    std::vector<std::string> read;
    names_read(e, s, read);
    std::unordered_map<std::string, Node> values;
    for (const std::string& n : read) {
      if (const Transient* t = transient(n); t != nullptr && !t->boolean) values[n] = state_value(*t);
    }
    s.transient_values = &values;
    const Node state = translate_expression(e, s);
    return !((state.kind == NodeKind::integer && state.int_value == 0) ||
             (state.kind == NodeKind::real && state.real_value == 0));
  }

  // A transient variable's value in a state: its locations' transient
  // values (the first element that sets it wins), else its initial value.
  Node state_value(const Transient& t) {
    ExpressionScope s = scope(t.place);
    Node value = translate_expression(t.initial, s);
    for (size_t i = elements_.size(); i-- > 0;) {
      const Element& e = elements_[i];
      const Json& locations = (*e.automaton)["locations"];
      for (size_t l = e.locations.size(); l-- > 0;) {
        const uint32_t place = places_.add(fmt::format("{}, locations[{}] \"{}\", transient-values", e.path, l,
                                                       e.locations[l]));
        for (const Json& tv : array_member(locations[l], "transient-values", place, false)) {
          if (required_name(tv, "ref", place) != t.name) continue;
          Node v = translate_expression(required(tv, "value", place), scope(place, &e));
          if (e.location_variable.empty()) {
            value = std::move(v);
          } else {
            value = operation(NodeKind::conditional, {location_is(e, static_cast<uint32_t>(l), place), std::move(v),
                                                      std::move(value)}, place);
          }
        }
      }
    }
    return value;
  }

  const Transient* transient(const std::string& name) const {
    for (const Transient& t : transients_) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }

  // Labels from transient booleans; reward structures from each transient
  // number and each expression a property takes the expectation of.
  void transients_to_labels_and_rewards() {
    for (const Transient& t : transients_) {
      if (!t.boolean) continue;
      out_.program.labels.push_back(SyntaxLabel{t.name, state_value(t), {t.place, 0}});
    }
    std::vector<std::pair<std::string, const Json*>> structures;
    std::set<std::string> names;
    for (const Transient& t : transients_) {
      if (t.boolean) continue;
      names.insert(t.name);
      structures.emplace_back(t.name, nullptr);
    }
    for (const auto& [name, expression] : reward_expressions_) {
      if (names.insert(name).second) structures.emplace_back(name, expression);
    }
    for (const auto& [name, expression] : structures) reward_structure(name, expression);
  }

  // Structure `name`: the expectation of `expression` (nullptr: of the
  // transient variable `name`). In a state it is the expression over the
  // transients' state values; on an edge, its change by the edge's
  // transient assignments (the expression with the assigned values, the
  // others 0, less the expression with all 0).
  void reward_structure(const std::string& name, const Json* expression) {
    const uint32_t place = expression != nullptr ? places_.add(fmt::format("the reward {} of a property", name))
                                                 : transient(name)->place;
    const Json own = name;
    const Json& e = expression != nullptr ? *expression : own;
    ExpressionScope s = scope(place);
    std::vector<std::string> read;
    names_read(e, s, read);
    std::vector<const Transient*> used;
    for (const std::string& n : read) {
      const Transient* t = transient(n);
      if (t != nullptr && std::find(used.begin(), used.end(), t) == used.end()) used.push_back(t);
    }
    for (const Transient* t : used) {
      if (t->boolean) error(place, ErrorCode::unsupported, "a reward reads the transient boolean '{}'", t->name);
    }
    SyntaxRewards rewards;
    rewards.name = name;
    rewards.position = {place, 0};
    std::unordered_map<std::string, Node> values;
    for (const Transient* t : used) values[t->name] = state_value(*t);
    s.transient_values = &values;
    Node state = translate_expression(e, s);
    // A reward only edges earn (its state value the literal 0) has no state rewards.
    const bool zero = (state.kind == NodeKind::integer && state.int_value == 0) ||
                      (state.kind == NodeKind::real && state.real_value == 0);
    if (!zero) {
      rewards.items.push_back(SyntaxRewardItem{false, "", boolean_node(true, place), std::move(state), {place, 0}});
    }
    std::unordered_map<std::string, Node> zeros;
    for (const Transient* t : used) zeros[t->name] = integer_node(0, place);
    s.transient_values = &zeros;
    const Node base = translate_expression(e, s);
    std::vector<EarnedReward> earned;
    for (const ModuleCommand& mc : module_commands_) {
      auto assigned = edge_transients_.find(edge_key(mc.element, mc.edge));
      if (assigned == edge_transients_.end()) continue;
      std::unordered_map<std::string, Node> on_edge = zeros;
      bool any = false;
      for (const EdgeTransient& a : assigned->second) {
        if (!values.count(a.name)) continue;
        on_edge[a.name] = translate_expression(*a.value, scope(a.place, &elements_[mc.element]));
        any = true;
      }
      if (!any) continue;
      ExpressionScope es = scope(mc_place(mc), &elements_[mc.element]);
      es.transient_values = &on_edge;
      earned.push_back({mc, operation(NodeKind::subtract, {translate_expression(e, es), base}, es.place)});
    }
    attach_transition_rewards(name, earned, rewards);
    out_.program.rewards.push_back(std::move(rewards));
  }

  struct EarnedReward {
    ModuleCommand command;
    Node value;
  };

  // The edges' rewards, as PRISM's `[a] true : v` items where that says the
  // same (so that the GPU explorer, which has no command rewards, builds
  // the model too): every command of one action in one module earns the
  // same value (for silent commands, every silent command of every module,
  // since `[]` items reach them all). Otherwise each command earns its own.
  void attach_transition_rewards(const std::string& name, std::vector<EarnedReward>& earned, SyntaxRewards& rewards) {
    // Group key: (module, action) for vector actions, (all modules, "") for silent ones.
    auto key = [&](const ModuleCommand& mc) {
      const std::string& action = out_.program.modules[mc.module].commands[mc.command].action;
      return std::make_pair(action.empty() ? SIZE_MAX : mc.module, action);
    };
    std::map<std::pair<size_t, std::string>, size_t> commands_in_group;
    for (const ModuleCommand& mc : module_commands_) ++commands_in_group[key(mc)];
    std::map<std::pair<size_t, std::string>, std::vector<EarnedReward*>> groups;
    for (EarnedReward& r : earned) groups[key(r.command)].push_back(&r);
    for (auto& [group, members] : groups) {
      const std::string text = expression::node_to_string(members.front()->value);
      const bool uniform =
          members.size() == commands_in_group[group] &&
          std::all_of(members.begin(), members.end(),
                      [&](const EarnedReward* r) { return expression::node_to_string(r->value) == text; });
      if (uniform) {
        const uint32_t place = members.front()->value.line;
        rewards.items.push_back(
            SyntaxRewardItem{true, group.second, boolean_node(true, place), members.front()->value, {place, 0}});
        continue;
      }
      for (EarnedReward* r : members) {
        SyntaxCommand& command = out_.program.modules[r->command.module].commands[r->command.command];
        const uint32_t place = r->value.line;
        command.rewards.push_back(SyntaxCommandReward{name, std::move(r->value), {place, 0}});
      }
    }
  }
  uint32_t mc_place(const ModuleCommand& mc) const {
    return out_.program.modules[mc.module].commands[mc.command].position.line;
  }

  // Initial values per variable when they fix one state; else an
  // `init ... endinit` condition (variables without an initial value,
  // several initial locations, or "restrict-initial").
  void initial_states() {
    // The model's "restrict-initial" and each automaton's (over its local variables).
    std::vector<Node> restrictions;
    auto restriction = [&](const Json& holder, const std::string& where, const Element* element) {
      if (!holder.contains("restrict-initial")) return;
      const uint32_t place = places_.add(where);
      Node r = translate_expression(wrapped(holder["restrict-initial"], place), scope(place, element));
      if (!(r.kind == NodeKind::boolean && r.int_value == 1)) restrictions.push_back(std::move(r));
    };
    restriction(doc_, "\"restrict-initial\"", nullptr);
    for (const Element& e : elements_) restriction(*e.automaton, e.path + ", restrict-initial", &e);
    if (restrictions.empty() && !any_free_initial_) {
      for (InitialValue& v : initial_values_) variable_syntax(v.variable)->init = std::move(v.value);
      return;
    }
    std::vector<Node> conjuncts;
    for (InitialValue& v : initial_values_) {
      conjuncts.push_back(operation(NodeKind::equal, {identifier_node(v.variable, v.place), std::move(v.value)}, v.place));
    }
    for (const Element& e : elements_) {
      if (e.location_variable.empty() || e.initial_locations.size() == 1) continue;
      const uint32_t place = places_.add(e.path + ", initial-locations");
      std::vector<Node> any;
      for (uint32_t l : e.initial_locations) any.push_back(location_is(e, l, place));
      Node either = std::move(any[0]);
      for (size_t k = 1; k < any.size(); ++k) either = operation(NodeKind::logical_or, {std::move(either), std::move(any[k])}, place);
      conjuncts.push_back(std::move(either));
    }
    for (Node& r : restrictions) conjuncts.push_back(std::move(r));
    const uint32_t place = places_.add("the initial states");
    Node init = conjuncts.empty() ? boolean_node(true, place) : std::move(conjuncts[0]);
    for (size_t k = 1; k < conjuncts.size(); ++k) init = operation(NodeKind::logical_and, {std::move(init), std::move(conjuncts[k])}, place);
    out_.program.initial_states = std::move(init);
    out_.program.initial_position = {place, 0};
  }

  SyntaxVariable* variable_syntax(const std::string& name) {
    for (SyntaxVariable& v : out_.program.globals) {
      if (v.name == name) return &v;
    }
    for (SyntaxModule& m : out_.program.modules) {
      for (SyntaxVariable& v : m.variables) {
        if (v.name == name) return &v;
      }
    }
    fail(ErrorCode::internal, "JANI translation: no variable '{}'", name);
  }


  const Json& doc_;
  const std::string& file_;
  bool properties_only_;
  Places places_;
  Translation out_;
  ModelType type_ = ModelType::dtmc;
  std::set<std::string> used_names_;     // constants and global names as JANI declares them
  std::optional<std::set<std::string>> model_names_;  // names_read_by_model()
  std::set<std::string> program_names_;  // constant, variable and module names the program has
  std::unordered_map<std::string, NameMeaning> globals_;
  std::vector<Transient> transients_;
  std::map<std::string, size_t> automata_;
  std::vector<Element> elements_;
  std::vector<Vector> vectors_;
  std::vector<InitialValue> initial_values_;
  bool any_free_initial_ = false;
  std::unordered_map<uint64_t, std::vector<EdgeTransient>> edge_transients_;
  std::vector<ModuleCommand> module_commands_;
  std::vector<std::pair<std::string, const Json*>> reward_expressions_;
};

}  // namespace

Translation translate(const Json& document, const std::string& file, bool properties_only) {
  return ModelTranslator(document, file, properties_only).run();
}

}  // namespace pmc::jani
