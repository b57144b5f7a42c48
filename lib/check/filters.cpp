// The filter operators over a formula's values (PRISM's
// StateModelChecker.checkExpressionFilter is the reference for what each
// gives). Certified bounds carry over: the exact reduction of the exact
// values lies between the reductions of the lower and of the upper bounds,
// because min, max and sum are monotone in every argument.
#include "check/filters.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "common/error.hpp"
#include "graph/bitset_ops.hpp"

namespace pmc {

namespace {

namespace bits = graph::bits;
using property::Filter;
using property::FilterOp;
using property::ValueKind;

constexpr double k_inf = std::numeric_limits<double>::infinity();

// φ's kind against the operator's, where the parser could not tell (an
// expression over state variables: `x` is a number or a truth value).
void require_operand_kind(const Filter& filter, const StateValues& operand) {
  const ValueKind needed = property::operand_kind_needed(filter.op);
  const std::string text = quote_for_message(property::to_string(*filter.operand), 60);
  if (needed == ValueKind::number && operand.boolean) {
    fail(ErrorCode::property,
         "column {}: filter({}, ...) needs a number in each state, such as P=? [ ... ] or R=? [ ... ], but {} is a "
         "truth value (count, forall and exists take truth values)",
         filter.operand_column, filter.written, text);
  }
  if (needed == ValueKind::boolean && !operand.boolean) {
    fail(ErrorCode::property,
         "column {}: filter({}, ...) needs a truth value in each state, such as \"a\" or P>=0.5 [ ... ], but {} is a "
         "number (min, max, sum, avg, range, argmin and argmax take numbers)",
         filter.operand_column, filter.written, text);
  }
}

class FilterApplication {
 public:
  FilterApplication(const Filter& filter, const StateValues& operand, const Bitset& states)
      : filter_(filter), operand_(operand), states_(states), bounded_(!operand.lower.empty()) {
    FilterSummary& s = out_.summary;
    s.op = filter.written;
    s.states = filter.states ? property::to_string(*filter.states) : "true";
    s.num_states = states.count();
    s.operand_boolean = operand.boolean;
    if (s.num_states == 0) {
      fail(ErrorCode::property, "column {}: the filter's states {} hold in no state",
           filter.states ? filter.states_column : filter.column,
           quote_for_message(s.states, 60));
    }
  }

  FilterValue apply(double tolerance) {
    FilterSummary& summary = out_.summary;
    switch (filter_.op) {
      case FilterOp::min:
      case FilterOp::max: {
        const Extremes e = extremes();
        const bool max = filter_.op == FilterOp::max;
        constant_number(max ? e.high : e.low, max ? e.high_lower : e.low_lower, max ? e.high_upper : e.low_upper);
        if (bounded_) {
          summary.bounds_rule = max ? "the greatest lower bound and the greatest upper bound"
                                    : "the least lower bound and the least upper bound";
        }
        break;
      }
      case FilterOp::argmin:
      case FilterOp::argmax: {
        const Extremes e = extremes();
        const bool max = filter_.op == FilterOp::argmax;
        if (bounded_) {
          summary.bounds_rule = max ? "every state whose upper bound reaches the greatest lower bound"
                                    : "every state whose lower bound reaches down to the least upper bound";
        }
        // Every state whose exact value may be the extreme: its interval
        // reaches past the bound that the extreme is certainly beyond.
        Bitset attaining(size());
        bits::for_each_set(states_, [&](uint64_t s) {
          const bool close = bounded_ ? (max ? operand_.upper[s] >= e.high_lower : operand_.lower[s] <= e.low_upper)
                                      : (max ? values()[s] >= e.high - tolerance : values()[s] <= e.low + tolerance);
          if (close) attaining.set(s);
        });
        bits::for_each_set(attaining, [&](uint64_t s) { list(s); });
        truth_values(attaining);
        break;
      }
      case FilterOp::count: {
        const auto count = static_cast<double>(satisfied());
        constant_number(count, count, count);
        break;
      }
      case FilterOp::sum:
      case FilterOp::avg: {
        double sum = 0, lower = 0, upper = 0;
        bits::for_each_set(states_, [&](uint64_t s) {
          sum += values()[s];
          lower += lower_of(s);
          upper += upper_of(s);
        });
        if (filter_.op == FilterOp::avg) {
          const auto n = static_cast<double>(summary.num_states);
          sum /= n;
          lower /= n;
          upper /= n;
        }
        constant_number(sum, lower, upper);
        if (bounded_) {
          summary.bounds_rule = filter_.op == FilterOp::sum
                                    ? "the sum of the lower bounds and the sum of the upper bounds"
                                    : "the average of the lower bounds and the average of the upper bounds";
        }
        break;
      }
      case FilterOp::state:
        if (summary.num_states != 1) {
          fail(ErrorCode::property, "column {}: filter({}, ...) needs its states to hold in exactly one state, but {} "
               "holds in {}",
               filter_.states ? filter_.states_column : filter_.column, filter_.written,
               quote_for_message(summary.states, 60), summary.num_states);
        }
        [[fallthrough]];
      case FilterOp::first: {
        const uint64_t s = states_.find_next(0);
        list(s);
        if (operand_.boolean) {
          summary.satisfied = values()[s] != 0 ? 1 : 0;
          Bitset set(size());
          if (values()[s] != 0) set = bits::full(size());
          truth_values(set);
        } else {
          constant_number(values()[s], lower_of(s), upper_of(s));
        }
        break;
      }
      case FilterOp::range: {
        extremes();
        if (bounded_) {
          summary.bounds_rule = "each end's: the least (greatest) lower bound and the least (greatest) upper bound";
        }
        out_.values = operand_;
        break;
      }
      case FilterOp::forall:
      case FilterOp::exists: {
        const uint64_t holds = satisfied();
        const bool value = filter_.op == FilterOp::forall ? holds == summary.num_states : holds > 0;
        truth_values(value ? bits::full(size()) : Bitset(size()));
        break;
      }
      case FilterOp::print:
      case FilterOp::printall: {
        // As PRISM: a truth value lists the states where it holds; a number
        // its non-zero values (print) or every value (printall).
        const bool every = filter_.op == FilterOp::printall && !operand_.boolean;
        bits::for_each_set(states_, [&](uint64_t s) {
          if (every || values()[s] != 0) list(s);
        });
        if (operand_.boolean) summary.satisfied = summary.listed.size();
        out_.values = operand_;
        break;
      }
    }
    return std::move(out_);
  }

 private:
  const Filter& filter_;
  const StateValues& operand_;
  const Bitset& states_;
  const bool bounded_;
  FilterValue out_;

  uint64_t size() const { return operand_.values.size(); }
  const std::vector<double>& values() const { return operand_.values; }
  double lower_of(uint64_t s) const { return bounded_ ? operand_.lower[s] : operand_.values[s]; }
  double upper_of(uint64_t s) const { return bounded_ ? operand_.upper[s] : operand_.values[s]; }

  // The least and greatest value over the states, and the same of the
  // bounds (NaN values, which no comparison selects, are passed over).
  struct Extremes {
    double low = k_inf, high = -k_inf;
    double low_lower = k_inf, low_upper = k_inf, high_lower = -k_inf, high_upper = -k_inf;
  };
  // Also recorded in the summary (its low and high).
  Extremes extremes() {
    Extremes e;
    bits::for_each_set(states_, [&](uint64_t s) {
      e.low = std::min(e.low, values()[s]);
      e.high = std::max(e.high, values()[s]);
      e.low_lower = std::min(e.low_lower, lower_of(s));
      e.low_upper = std::min(e.low_upper, upper_of(s));
      e.high_lower = std::max(e.high_lower, lower_of(s));
      e.high_upper = std::max(e.high_upper, upper_of(s));
    });
    FilterSummary& summary = out_.summary;
    summary.low = e.low;
    summary.high = e.high;
    if (bounded_) {
      summary.low_lower = e.low_lower;
      summary.low_upper = e.low_upper;
      summary.high_lower = e.high_lower;
      summary.high_upper = e.high_upper;
    }
    return e;
  }

  // States of the filter where the truth value φ holds.
  uint64_t satisfied() {
    uint64_t count = 0;
    bits::for_each_set(states_, [&](uint64_t s) { count += values()[s] != 0 ? 1 : 0; });
    out_.summary.satisfied = count;
    return count;
  }

  void list(uint64_t s) {
    FilterSummary& summary = out_.summary;
    summary.listed.push_back(s);
    summary.listed_values.push_back(values()[s]);
    if (bounded_) {
      summary.listed_lower.push_back(operand_.lower[s]);
      summary.listed_upper.push_back(operand_.upper[s]);
    }
  }

  // The same number in every state, as PRISM's filters give it.
  void constant_number(double value, double lower, double upper) {
    StateValues& v = out_.values;
    v.boolean = false;
    v.values.assign(size(), value);
    if (bounded_) {
      v.lower.assign(size(), lower);
      v.upper.assign(size(), upper);
    }
  }

  void truth_values(const Bitset& set) {
    StateValues& v = out_.values;
    v.boolean = true;
    v.values.assign(size(), 0.0);
    bits::for_each_set(set, [&](uint64_t s) { v.values[s] = 1.0; });
    if (bounded_) {
      v.lower = v.values;
      v.upper = v.values;
    }
  }
};

}  // namespace

FilterValue apply_filter(const Filter& filter, const StateValues& operand, const Bitset& states, double tolerance) {
  require_operand_kind(filter, operand);
  return FilterApplication(filter, operand, states).apply(tolerance);
}

}  // namespace pmc
