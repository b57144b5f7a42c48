#include "filter_report.hpp"

#include <cmath>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "check_commands.hpp"
#include "plural.hpp"
#include "property/ast.hpp"
#include "result_export.hpp"

namespace pmc::shell {

namespace {

using property::FilterOp;

std::string value_text(double value, double lower, double upper, bool certified) {
  std::ostringstream text;
  print_value({value, lower, upper, certified}, text);
  return text.str();
}

// "all 8 states" or "the 3 states satisfying \"init\"".
std::string over_text(const FilterSummary& f) {
  if (f.states == "true") return "all " + plural(f.num_states, "state");
  return fmt::format("the {} satisfying {}", plural(f.num_states, "state"), f.states);
}

// "3" or "3 (x=1,y=0)".
std::string state_text(const Model& model, uint64_t s) {
  const std::string variables = state_valuation(model, s);
  return variables.empty() ? std::to_string(s) : fmt::format("{} ({})", s, variables);
}

std::string listed_value_text(const FilterSummary& f, size_t i) {
  const bool certified = !f.listed_lower.empty();
  return value_text(f.listed_values[i], certified ? f.listed_lower[i] : 0, certified ? f.listed_upper[i] : 0,
                    certified);
}

bool certified_ends(const FilterSummary& f) { return !std::isnan(f.low_lower); }

// Whether the filter's description names the states it lists one by one.
bool lists_states(FilterOp op) {
  return op == FilterOp::print || op == FilterOp::printall || op == FilterOp::argmin || op == FilterOp::argmax;
}

std::string description(const FilterSummary& f, FilterOp op, const Model& model) {
  const std::string over = over_text(f);
  const std::string holds = fmt::format("it holds in {} of {}", f.satisfied, over);
  switch (op) {
    case FilterOp::min: return "the minimum over " + over;
    case FilterOp::max: return "the maximum over " + over;
    case FilterOp::sum: return "the sum over " + over;
    case FilterOp::avg: return "the average over " + over;
    case FilterOp::range: return "the least and the greatest value over " + over;
    case FilterOp::count:
    case FilterOp::forall:
    case FilterOp::exists: return holds;
    case FilterOp::first:
      return fmt::format("the value in state {}, the first of {}", state_text(model, f.listed.front()), over);
    case FilterOp::state:
      return fmt::format("the value in state {}, the one state satisfying {}", state_text(model, f.listed.front()),
                         f.states);
    case FilterOp::argmin:
    case FilterOp::argmax: {
      const bool max = op == FilterOp::argmax;
      const std::string extreme = max ? value_text(f.high, f.high_lower, f.high_upper, certified_ends(f))
                                      : value_text(f.low, f.low_lower, f.low_upper, certified_ends(f));
      return fmt::format("{} of {} {} the {} {}", plural(f.listed.size(), "state"), over,
                         certified_ends(f) ? "may attain" : "attain", max ? "maximum" : "minimum", extreme);
    }
    case FilterOp::print:
      if (f.operand_boolean) return holds;
      return fmt::format("{} of {} with a non-zero value", plural(f.listed.size(), "state"), over);
    case FilterOp::printall:
      if (f.operand_boolean) return holds;
      return "the values in " + over;
  }
  return over;
}

}  // namespace

std::string filter_range_text(const FilterSummary& f) {
  const bool certified = certified_ends(f);
  return fmt::format("[{}, {}]", value_text(f.low, f.low_lower, f.low_upper, certified),
                     value_text(f.high, f.high_lower, f.high_upper, certified));
}

void print_filter_text(const FilterSummary& f, const Model& model, std::ostream& out) {
  const FilterOp op = property::filter_op_from_name(f.op).value_or(FilterOp::first);
  fmt::print(out, "  filter: {}", description(f, op, model));
  if (!f.bounds_rule.empty()) fmt::print(out, "; certified from the states' bounds: {}", f.bounds_rule);
  fmt::print(out, "\n");
  if (!lists_states(op)) return;
  for (size_t i = 0; i < f.listed.size(); ++i) {
    if (f.operand_boolean) {
      fmt::print(out, "    {}\n", state_text(model, f.listed[i]));
    } else {
      fmt::print(out, "    {}: {}\n", state_text(model, f.listed[i]), listed_value_text(f, i));
    }
  }
}

nlohmann::json filter_json(const FilterSummary& f, const Model& model) {
  const FilterOp op = property::filter_op_from_name(f.op).value_or(FilterOp::first);
  nlohmann::json j = {{"operator", f.op}, {"states", f.states}, {"state_count", f.num_states}};
  const bool truth_count = op == FilterOp::count || op == FilterOp::forall || op == FilterOp::exists ||
                           (f.operand_boolean && (op == FilterOp::print || op == FilterOp::printall));
  if (truth_count) j["satisfied_count"] = f.satisfied;
  if (!f.bounds_rule.empty()) j["bounds_rule"] = f.bounds_rule;
  if (!std::isnan(f.low)) {
    j["low"] = json_number(f.low);
    j["high"] = json_number(f.high);
    if (certified_ends(f)) {
      j["low_lower"] = json_number(f.low_lower);
      j["low_upper"] = json_number(f.low_upper);
      j["high_lower"] = json_number(f.high_lower);
      j["high_upper"] = json_number(f.high_upper);
    }
  }
  if (!f.listed.empty()) {
    nlohmann::json listed = nlohmann::json::array();
    const bool variables = !model.valuations().empty();
    for (size_t i = 0; i < f.listed.size(); ++i) {
      nlohmann::json entry = {{"state", f.listed[i]}, {"value", json_number(f.listed_values[i])}};
      if (!f.listed_lower.empty()) {
        entry["lower"] = json_number(f.listed_lower[i]);
        entry["upper"] = json_number(f.listed_upper[i]);
      }
      if (variables) entry["variables"] = state_valuation(model, f.listed[i]);
      listed.push_back(std::move(entry));
    }
    j["listed"] = std::move(listed);
  }
  return j;
}

}  // namespace pmc::shell
