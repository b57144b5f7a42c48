#include "formats/jani/property_translation.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"
#include "expression/syntax_tree.hpp"

namespace pmc::jani {

namespace {

bool is_query(const Json& e) {
  if (!e.is_object() || !e.contains("op") || !e["op"].is_string()) return false;
  const std::string op = e["op"].get<std::string>();
  return op == "Pmin" || op == "Pmax" || op == "Emin" || op == "Emax" || op == "Smin" || op == "Smax";
}

// A comparison's PRISM spelling, and the one with its sides swapped.
const char* comparison(const std::string& op, bool swapped) {
  if (op == "<") return swapped ? ">" : "<";
  if (op == "≤") return swapped ? ">=" : "<=";
  if (op == ">") return swapped ? "<" : ">";
  if (op == "≥") return swapped ? "<=" : ">=";
  return nullptr;
}

}  // namespace

ExpressionScope PropertyTranslator::scope(uint32_t place) const {
  ExpressionScope s;
  s.file = &file_;
  s.places = &places_;
  s.place = place;
  s.globals = &globals_;
  s.functions = doc_.contains("functions") ? &doc_["functions"] : nullptr;
  s.property = true;
  return s;
}

std::string PropertyTranslator::optimum(const std::string& op) const {
  if (type_ != ModelType::mdp) return "";
  return op.ends_with("min") ? "min" : "max";
}

std::string PropertyTranslator::predicate(const Json& e, uint32_t place) {
  return expression::node_to_string(conditionals_to_formulas(translate_expression(e, scope(place)), place));
}

Node PropertyTranslator::conditionals_to_formulas(Node n, uint32_t place) {
  if (n.kind != NodeKind::conditional) {
    for (Node& c : n.children) c = conditionals_to_formulas(std::move(c), place);
    return n;
  }
  // The formula's name: the property's, letters, digits and '_' kept.
  std::string base;
  for (char c : property_name_) base += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "property_" + base;
  std::string name;
  for (size_t k = formulas_.size() + 1;; ++k) {
    name = fmt::format("{}_if{}", base, k);
    const bool taken = globals_.count(name) > 0 || std::any_of(formulas_.begin(), formulas_.end(),
                                                               [&](const auto& f) { return f.first == name; });
    if (!taken) break;
  }
  const std::string text = expression::node_to_string(n);
  if (text.find('"') != std::string::npos) {
    fail(ErrorCode::unsupported, "{}: {}: a conditional over labels in a property is not supported", file_,
         places_[place]);
  }
  formulas_.emplace_back(name, std::move(n));
  return identifier_node(name, place);
}

std::vector<Property> PropertyTranslator::run() {
  std::vector<Property> out;
  if (!doc_.is_object() || !doc_.contains("properties")) return out;
  const uint32_t list_place = places_.add("\"properties\"");
  const Json& list = doc_["properties"];
  if (!list.is_array()) {
    fail(ErrorCode::parse, "{}: {}: \"properties\" must be an array, found {}", file_, places_[list_place],
         json_type_name(list));
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& p = list[i];
    Property property;
    property.name = p.is_object() && p.contains("name") && p["name"].is_string() ? p["name"].get<std::string>()
                                                                                  : fmt::format("property {}", i + 1);
    const uint32_t place = places_.add(fmt::format("properties[{}] \"{}\"", i, property.name));
    property_name_ = property.name;
    try {
      if (!p.is_object() || !p.contains("expression")) {
        fail(ErrorCode::parse, "{}: {}: a property needs \"name\" and \"expression\"", file_, places_[place]);
      }
      const Json& e = p["expression"];
      if (e.is_object() && e.value("op", std::string()) == "filter") {
        const std::string fun = e.value("fun", std::string());
        if (!e.contains("values") || !e.contains("states")) {
          fail(ErrorCode::parse, "{}: {}: a filter needs \"fun\", \"values\" and \"states\"", file_, places_[place]);
        }
        const std::string values = query(e["values"], place, "");
        const Json& states = e["states"];
        const bool initial = states.is_object() && states.value("op", std::string()) == "initial";
        if (fun == "values" && initial) {
          property.text = values;
        } else {
          static const std::pair<const char*, const char*> k_functions[] = {
              {"min", "min"},       {"max", "max"},       {"sum", "sum"},       {"avg", "avg"},
              {"count", "count"},   {"∀", "forall"},      {"∃", "exists"},      {"argmin", "argmin"},
              {"argmax", "argmax"}, {"values", "print"}};
          const auto f = std::find_if(std::begin(k_functions), std::end(k_functions),
                                      [&](const auto& entry) { return fun == entry.first; });
          if (f == std::end(k_functions)) {
            fail(ErrorCode::parse, "{}: {}: unknown filter function {}", file_, places_[place],
                 quote_for_message(fun));
          }
          property.text = fmt::format("filter({}, {}, {})", f->second, values, predicate(states, place));
        }
      } else {
        property.text = query(e, place, "");
      }
    } catch (const Error& error) {
      if (error.code() != ErrorCode::parse && error.code() != ErrorCode::unsupported) throw;
      property.error = error.what();
      property.error_code = error.code();
      property.text = fmt::format("(JANI property \"{}\")", property.name);
    }
    out.push_back(std::move(property));
  }
  return out;
}

// A state formula: a query (P, E, S, with or without a bound) or a plain
// expression over the state.
std::string PropertyTranslator::query(const Json& e, uint32_t place, const std::string& bound) {
  if (e.is_object() && e.contains("op") && e["op"].is_string() && e.contains("left") && e.contains("right")) {
    const std::string op = e["op"].get<std::string>();
    if (comparison(op, false) != nullptr) {
      if (is_query(e["left"])) {
        return query(e["left"], place, comparison(op, false) + predicate(e["right"], place));
      }
      if (is_query(e["right"])) {
        return query(e["right"], place, comparison(op, true) + predicate(e["left"], place));
      }
    }
  }
  if (!is_query(e)) return predicate(e, place);
  const std::string op = e["op"].get<std::string>();
  const std::string tail = bound.empty() ? "=?" : bound;
  auto required = [&](const char* key) -> const Json& {
    if (!e.contains(key)) fail(ErrorCode::parse, "{}: {}: \"{}\" needs \"{}\"", file_, places_[place], op, key);
    return e[key];
  };
  if (op == "Pmin" || op == "Pmax") {
    return fmt::format("P{}{} [ {} ]", optimum(op), tail, path(required("exp"), place));
  }
  if (op == "Smin" || op == "Smax") {
    const Json& exp = required("exp");
    if (is_numeric_reward(exp, place)) {
      return fmt::format("R{{\"{}\"}}{}{} [ S ]", reward_name(exp, place), optimum(op), tail);
    }
    return fmt::format("S{}{} [ {} ]", optimum(op), tail, predicate(exp, place));
  }
  return fmt::format("R{{\"{}\"}}{}{} [ {} ]", reward_name(required("exp"), place), optimum(op), tail, reward(e, place));
}

// Whether a long-run expression is a number (a reward) rather than a
// condition: it reads a transient number.
bool PropertyTranslator::is_numeric_reward(const Json& e, uint32_t place) {
  std::vector<std::string> read;
  names_read(e, scope(place), read);
  return std::any_of(read.begin(), read.end(), [&](const std::string& n) {
    auto g = globals_.find(n);
    return g != globals_.end() && g->second.kind == NameMeaning::Kind::transient && !g->second.boolean;
  });
}

std::string PropertyTranslator::reward_name(const Json& e, uint32_t place) {
  std::string name;
  if (e.is_string()) {
    auto g = globals_.find(e.get<std::string>());
    if (g != globals_.end() && g->second.kind == NameMeaning::Kind::transient && !g->second.boolean) {
      name = g->first;
    }
  }
  if (name.empty()) {
    // Named by its text, the transient numbers written by their names.
    std::unordered_map<std::string, Node> as_names;
    for (const auto& [n, meaning] : globals_) {
      if (meaning.kind == NameMeaning::Kind::transient && !meaning.boolean) as_names[n] = identifier_node(n, place);
    }
    ExpressionScope s = scope(place);
    s.transient_values = &as_names;
    name = expression::node_to_string(translate_expression(e, s));
  }
  if (name.find('"') != std::string::npos) {
    fail(ErrorCode::unsupported, "{}: {}: the reward {} has a double quote in its name", file_, places_[place],
         quote_for_message(name));
  }
  const bool known = std::any_of(rewards_.begin(), rewards_.end(), [&](const auto& r) { return r.first == name; });
  if (!known) rewards_.emplace_back(name, &e);
  return name;
}

// The path of an E query: what is accumulated until when.
std::string PropertyTranslator::reward(const Json& e, uint32_t place) {
  if (e.contains("reward-instants")) {
    fail(ErrorCode::unsupported, "{}: {}: \"reward-instants\" are not supported", file_, places_[place]);
  }
  bool accumulates = false;
  if (e.contains("accumulate")) {
    const Json& a = e["accumulate"];
    if (!a.is_array()) fail(ErrorCode::parse, "{}: {}: \"accumulate\" must be an array", file_, places_[place]);
    accumulates = !a.empty();
    const bool time = std::find(a.begin(), a.end(), Json("time")) != a.end();
    const bool steps = std::find(a.begin(), a.end(), Json("steps")) != a.end();
    // "exit" (state-exit-rewards): a state's reward collected as the state is
    // left, once per step in discrete time: PRISM's state rewards, which is
    // how QVBS writes the state rewards of PRISM's dtmc and mdp models.
    const bool exit = std::find(a.begin(), a.end(), Json("exit")) != a.end();
    // A ctmc's reward earned on edges only is the same whether accumulated
    // per step or over time (PRISM's transition rewards); a state part
    // would be a rate, which pmc accumulates over time only.
    if (type_ == ModelType::ctmc && accumulates && !time && e.contains("exp") && has_state_part_(e["exp"])) {
      fail(ErrorCode::unsupported, "{}: {}: a ctmc's reward with state values accumulated without \"time\" (pmc "
           "accumulates rates over time, PRISM's semantics)", file_, places_[place]);
    }
    if (type_ != ModelType::ctmc && accumulates && !steps && !exit) {
      fail(ErrorCode::unsupported, "{}: {}: a {}'s rewards accumulated over time only (pmc accumulates them per "
           "step, PRISM's semantics)", file_, places_[place], type_ == ModelType::dtmc ? "dtmc" : "mdp");
    }
  }
  const bool step = e.contains("step-instant");
  const bool time = e.contains("time-instant");
  if (e.contains("reach")) {
    if (step || time) {
      fail(ErrorCode::unsupported, "{}: {}: a reachability reward with an instant is not supported", file_,
           places_[place]);
    }
    if (!accumulates) {
      fail(ErrorCode::unsupported, "{}: {}: a reachability reward that accumulates nothing is not supported", file_,
           places_[place]);
    }
    return "F " + predicate(e["reach"], place);
  }
  if (step || time) {
    if (step && time) {
      fail(ErrorCode::unsupported, "{}: {}: both a step and a time instant", file_, places_[place]);
    }
    if (step && type_ == ModelType::ctmc) {
      fail(ErrorCode::unsupported, "{}: {}: a step instant in a ctmc", file_, places_[place]);
    }
    const std::string instant = predicate(e[step ? "step-instant" : "time-instant"], place);
    return (accumulates ? "C<=" : "I=") + instant;
  }
  if (accumulates) return "C";
  fail(ErrorCode::unsupported, "{}: {}: an expectation with neither \"reach\", an instant nor \"accumulate\"", file_,
       places_[place]);
}

std::string PropertyTranslator::bounds(const Json& b, uint32_t place, bool steps) {
  if (!b.is_object()) fail(ErrorCode::parse, "{}: {}: bounds must be an object", file_, places_[place]);
  const bool lower = b.contains("lower");
  const bool upper = b.contains("upper");
  const bool lower_exclusive = b.value("lower-exclusive", false);
  const bool upper_exclusive = b.value("upper-exclusive", false);
  if (!lower && !upper) return "";
  if (lower && upper) {
    if (lower_exclusive || upper_exclusive) {
      if (steps) {
        fail(ErrorCode::unsupported, "{}: {}: exclusive step bounds on both sides are not supported", file_,
             places_[place]);
      }
      // Time: an interval's end points have probability 0 of mattering.
    }
    return fmt::format("[{},{}]", predicate(b["lower"], place), predicate(b["upper"], place));
  }
  if (upper) return fmt::format("{}{}", upper_exclusive ? "<" : "<=", predicate(b["upper"], place));
  return fmt::format("{}{}", lower_exclusive ? ">" : ">=", predicate(b["lower"], place));
}

// Storm's reward bound, `^{rew{"r"}>=B}`: one bound, of one side, on the
// reward collected per step (pmc's reward bounds are a DTMC's or MDP's).
std::string PropertyTranslator::reward_bound(const Json& list, uint32_t place) {
  if (!list.is_array() || list.size() != 1) {
    fail(ErrorCode::unsupported, "{}: {}: pmc takes one reward bound per path formula, this one has {}", file_,
         places_[place], list.is_array() ? list.size() : 0);
  }
  const Json& b = list[0];
  if (type_ == ModelType::ctmc) {
    fail(ErrorCode::unsupported, "{}: {}: reward bounds on a ctmc are not supported (pmc's are a dtmc's or mdp's)",
         file_, places_[place]);
  }
  if (!b.is_object() || !b.contains("exp") || !b.contains("bounds")) {
    fail(ErrorCode::parse, "{}: {}: a reward bound needs \"exp\" and \"bounds\"", file_, places_[place]);
  }
  if (b.contains("accumulate")) {
    const Json& a = b["accumulate"];
    const bool per_step = a.is_array() && (std::find(a.begin(), a.end(), Json("steps")) != a.end() ||
                                           std::find(a.begin(), a.end(), Json("exit")) != a.end());
    if (!per_step) {
      fail(ErrorCode::unsupported, "{}: {}: a reward bound accumulated other than per step is not supported", file_,
           places_[place]);
    }
  }
  const Json& range = b["bounds"];
  if (!range.is_object() || range.contains("lower") == range.contains("upper")) {
    fail(ErrorCode::unsupported, "{}: {}: a reward bound must have one side, a lower or an upper bound", file_,
         places_[place]);
  }
  const std::string name = reward_name(b["exp"], place);
  if (range.contains("upper")) {
    return fmt::format("^{{rew{{\"{}\"}}{}{}}}", name, range.value("upper-exclusive", false) ? "<" : "<=",
                       predicate(range["upper"], place));
  }
  return fmt::format("^{{rew{{\"{}\"}}{}{}}}", name, range.value("lower-exclusive", false) ? ">" : ">=",
                     predicate(range["lower"], place));
}

std::string PropertyTranslator::path(const Json& e, uint32_t place) {
  if (!e.is_object() || !e.contains("op") || !e["op"].is_string()) {
    fail(ErrorCode::parse, "{}: {}: expected a path formula (U, W, F, G)", file_, places_[place]);
  }
  const std::string op = e["op"].get<std::string>();
  std::string bound;
  const int kinds = static_cast<int>(e.contains("step-bounds")) + static_cast<int>(e.contains("time-bounds")) +
                    static_cast<int>(e.contains("reward-bounds"));
  if (kinds > 1) {
    fail(ErrorCode::unsupported, "{}: {}: a path formula with bounds of several kinds (steps, time, rewards) is not "
         "supported", file_, places_[place]);
  }
  if (e.contains("step-bounds")) bound = bounds(e["step-bounds"], place, true);
  if (e.contains("time-bounds")) bound = bounds(e["time-bounds"], place, false);
  if (e.contains("reward-bounds")) bound = reward_bound(e["reward-bounds"], place);
  auto operand = [&](const char* key) {
    if (!e.contains(key)) fail(ErrorCode::parse, "{}: {}: \"{}\" needs \"{}\"", file_, places_[place], op, key);
    return predicate(e[key], place);
  };
  if (op == "U") return fmt::format("{} U{} {}", operand("left"), bound, operand("right"));
  if (op == "W") return fmt::format("{} W{} {}", operand("left"), bound, operand("right"));
  if (op == "F") return fmt::format("F{} {}", bound, operand("exp"));
  if (op == "G") return fmt::format("G{} {}", bound, operand("exp"));
  fail(ErrorCode::unsupported, "{}: {}: path operator {} is not supported", file_, places_[place],
       quote_for_message(op));
}

}  // namespace pmc::jani
