// Model checking (docs/design.md §3–4): a property on a model → values per state.
// lib/check/ turns the property into numerical problems (lib/solver/) and
// knows nothing about devices.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bitset.hpp"
#include "model/model.hpp"
#include "model/parameter_point.hpp"
#include "property/definitions.hpp"
#include "solver/problem.hpp"

namespace pmc {

struct CheckOptions {
  std::string solver = "auto";  // "auto", "cpu", "gpu" or a registered name (cpu.jacobi, ...)
  SolverSettings settings;
  // A parametric CTMC is checked as the CTMC at this point:
  // every parameter needs a value in its range; given for a model without
  // parameters it is an error (instantiate_parameters says which).
  ParameterPoint parameters;
  // What the property's names mean beyond the model: constants (a
  // properties file's, values given with --const or
  // pmc_options_set_constants), a properties file's formulas and labels.
  // Put into the property before it is checked (property/definitions.hpp);
  // the model's own constants need no entry.
  property::Definitions definitions;
  // --exact: the value as a rational (solver cpu.exact-pi, GMP), from the
  // numbers as the model's source defines them; for unbounded reachability
  // and expected reachability rewards at the top of the property
  // (check/exact_check.hpp). Other properties are an Error(unsupported).
  bool exact = false;
};

// Where a check's time went (the per-phase timings of docs/design.md §4),
// in seconds.
// The phases do not overlap; `other` is what none of them covers (parsing
// the property, labels and state formulas, assembling the results), so
// total() = load + CheckResult::seconds.
struct PhaseTimings {
  double load = 0;         // loading the model, when the caller timed it (pmc check: on the first property)
  double gpu_startup = 0;  // waiting for the CUDA context (zero once it exists)
  double precompute = 0;   // graph algorithms: prob0/prob1, Prob0A/E, 1A/E, SCCs, BSCCs, transposing
  double build = 0;        // equation systems and iteration matrices, on the host or the device
  double transfer = 0;     // host <-> device copies
  double solve = 0;        // the solvers' iteration loops (GPU: CUDA events)
  double other = 0;        // everything else
  double total() const { return load + gpu_startup + precompute + build + transfer + solve + other; }
};

// A property that is a filter (PRISM's filter(op, φ, states), e.g.
// filter(max, R=? [ F "stable" ], "init")): what it reduced and what it
// names, beside the value CheckResult reports.
struct FilterSummary {
  std::string op;               // as written: "max", "argmin", or PRISM's shorthand "+", "&", "|"
  std::string states = "true";  // the filter's states formula, as pmc prints it ("true" when left out)
  uint64_t num_states = 0;      // how many states it holds in
  bool operand_boolean = false; // φ is a truth value (count, forall, exists; first, state, print over one)
  // count, forall, exists, and print/printall over a truth value: in how
  // many of the states φ holds.
  uint64_t satisfied = 0;
  // How the certified bounds of the value follow from φ's certified
  // bounds in the states ("the least lower bound and the least upper
  // bound" for min; for argmin/argmax which states are named); empty when
  // not certified, and for the operators whose value is exact or one state's.
  std::string bounds_rule;
  // min, max, argmin, argmax and range: φ's least and greatest value over
  // the states, each with its certified bounds (NaN when not certified).
  double low = std::numeric_limits<double>::quiet_NaN(), high = std::numeric_limits<double>::quiet_NaN();
  double low_lower = std::numeric_limits<double>::quiet_NaN(), low_upper = std::numeric_limits<double>::quiet_NaN();
  double high_lower = std::numeric_limits<double>::quiet_NaN(), high_upper = std::numeric_limits<double>::quiet_NaN();
  // print and printall: the states they print; argmin and argmax: the
  // states that may attain the extreme; first and state: the state whose
  // value it is. Ascending, with φ's value in each and its certified bounds
  // (empty when not certified).
  std::vector<uint64_t> listed;
  std::vector<double> listed_values, listed_lower, listed_upper;
};

struct CheckResult {
  std::string property;         // canonical text
  std::vector<double> values;   // per state; 1/0 for a boolean property
  bool is_boolean = false;      // a bound (P>=0.9 [...]) or state formula
  Bitset satisfying;            // boolean properties: the states that satisfy it
  double initial_value = 0;     // in the first initial state
  double min_initial = 0, max_initial = 0;
  uint64_t num_initial = 0;
  std::vector<std::string> solvers;  // every solver used, in order
  std::string solver_reason;         // why they were chosen
  uint64_t iterations = 0;           // summed over every solve
  bool converged = true;             // false: an iteration limit was hit
  double seconds = 0;                // whole check, precomputation included, load excluded
  PhaseTimings timings;              // seconds by phase (timings.load set by whoever loaded the model)
  double solve_seconds = 0;          // the solvers' iteration loops alone (GPU: CUDA events)
  double bytes_per_iteration = 0;    // of the largest solve: matrix and vectors streamed
  std::string kernel;                // GPU: the kernel variant of the largest solve
  std::vector<std::string> notes;
  // MDPs, unbounded reachability and reachability rewards: an optimal
  // memoryless deterministic scheduler, the choice (0-based within the
  // state's choices) per state; -1 where any choice is optimal. Empty when
  // the property has none.
  std::vector<int64_t> scheduler;
  // Certified bounds: when `sound`, lower[s] ≤ exact value ≤
  // upper[s] in every state (up to floating-point rounding) and `values`
  // holds their midpoint (sound solvers: within ε of the exact value once
  // converged). Bounded and time-bounded properties are sound by
  // construction (uniformisation: upper adds Fox–Glynn's truncation bound);
  // steady-state and properties solved by an unsound solver are not:
  // sound = false and lower/upper empty.
  bool sound = false;
  std::vector<double> lower, upper;
  double initial_lower = 0, initial_upper = 0;  // the bounds in the first initial state
  // A bound on the outermost operator (P>=0.9 [...]): the operator's value
  // per state that the verdict rests on, and its certified bounds (empty
  // when not sound); the same in the first initial state (NaN without).
  std::vector<double> operator_values, operator_lower, operator_upper;
  double initial_operator_value = std::numeric_limits<double>::quiet_NaN();
  double initial_operator_lower = std::numeric_limits<double>::quiet_NaN();
  double initial_operator_upper = std::numeric_limits<double>::quiet_NaN();

  // A filter at the root of the property: what it reduced. `values` hold
  // the filter's value in every state, as PRISM's: the same in all for min,
  // max, count, sum, avg, first, state, forall and exists (so the reported
  // value is the filter's, whichever the initial state); 1/0 for the states
  // argmin/argmax name (a boolean result); φ's own values for print,
  // printall and range (range's ends are in `filter`).
  std::optional<FilterSummary> filter;
  // --exact: the value in the first initial state as a rational, "7/10"
  // ("Infinity" for an infinite reward); empty otherwise. `values` then hold
  // the nearest doubles and lower/upper the doubles around the rational.
  std::string exact;

  std::string solver_names() const;  // "cpu.jacobi" or "cpu.steps+cpu.jacobi"

  // The number to report in the first initial state: the operator's value
  // behind a bound's verdict, else initial_value; with its bounds when
  // certified.
  struct Reported {
    double value, lower, upper;
    bool certified;
  };
  Reported reported_initial() const;
};

// Parses, binds options.definitions and the model's constants
// (bind_definitions), and checks. Throws Error(property) for a malformed
// property or one that does not fit the model (unknown label or reward
// structure, real time bound on a DTMC, a constant without a value, ...), Error(unsupported) for a valid property pmc cannot
// check yet, Error(invalid_argument) for an unknown solver. Non-convergence
// is not thrown: the result has converged = false.
CheckResult check(const Model& model, std::string_view property_text, const CheckOptions& options = {});

}  // namespace pmc
