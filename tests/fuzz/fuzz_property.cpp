// The property parser (lib/property/parser.cpp) and, for what it accepts,
// the checker (lib/check) on three tiny models. Contract (beyond
// fuzz_support.hpp's): a parsed property prints (to_string) as text that
// parses to the same canonical text, and a converged P or S query gives
// values in [0, 1] (R, T and filters any number).
#include <cmath>

#include "check/check.hpp"
#include "fuzz_support.hpp"
#include "property/parser.hpp"

namespace {

using pmc::ModelParts;
using pmc::ModelType;

// Four states over the labels "a", "b", "init" and reward structures "r"
// and "cost", so that most label and reward names the dictionary suggests
// exist; the matrix has a cycle and two absorbing states. State variables
// x (int, the state's index) and b (bool, odd states) for expressions.
ModelParts tiny_parts(ModelType type) {
  ModelParts p;
  p.type = type;
  p.num_states = 4;
  const bool mdp = type == ModelType::mdp;
  const double scale = pmc::has_probability_rows(type) ? 1.0 : 3.0;  // rates for the CTMC
  if (mdp) {
    // state 0: choice 0 → 1/2 to 1, 1/2 to 2; choice 1 → 3
    p.row_groups = {0, 2, 3, 4, 5};
    p.row_offsets = {0, 2, 3, 4, 6, 7};
    p.columns = {1, 2, 3, 1, 0, 3, 3};
    p.values = {0.5, 0.5, 1.0, 1.0, 0.5, 0.5, 1.0};
  } else {
    p.row_offsets = {0, 2, 3, 5, 6};
    p.columns = {1, 2, 1, 0, 3, 3};
    p.values = {0.5 * scale, 0.5 * scale, 1.0 * scale, 0.5 * scale, 0.5 * scale, 1.0 * scale};
  }
  auto label = [&](const char* name, std::initializer_list<uint64_t> states) {
    pmc::Bitset set(p.num_states);
    for (uint64_t s : states) set.set(s);
    p.labels.push_back({name, set});
  };
  label("init", {0});
  label("a", {1, 2});
  label("b", {3});
  p.rewards.push_back({"r", {1.0, 2.0, 0.0, 0.5}, {}});
  std::vector<double> per_entry(p.columns.size(), 1.0);
  p.rewards.push_back({"cost", {}, per_entry});
  p.valuations = pmc::StateValuations{{"x", "b"}, {0, 1}, {0, 0, 1, 1, 2, 0, 3, 1}};
  // As a model built from a source has them: constants and formulas properties may name.
  p.definitions.constants = {{"N", "3"}, {"h", "0.5"}, {"on", "true"}};
  p.definitions.formulas = {{"top", "x=N"}, {"score", "b ? x : 0"}, {"half", "x*h"}, {"odd", "mod(x, x-1)=1"}};
  return p;
}

const std::vector<pmc::ModelPtr>& tiny_models() {
  static const std::vector<pmc::ModelPtr> models = {pmc::Model::create(tiny_parts(ModelType::dtmc)),
                                                    pmc::Model::create(tiny_parts(ModelType::ctmc)),
                                                    pmc::Model::create(tiny_parts(ModelType::mdp))};
  return models;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  pmc::property::Property parsed;
  if (!pmc::fuzz::clean_or_finding("parse_property", [&] { parsed = pmc::property::parse_property(text); })) return 0;

  const std::string canonical = pmc::property::to_string(parsed);
  pmc::fuzz::clean_or_finding("parse_property(to_string(p))", [&] {
    const std::string again = pmc::property::to_string(pmc::property::parse_property(canonical));
    if (again != canonical) {
      pmc::fuzz::finding(fmt::format("canonical text does not round-trip: {} reparses as {}", canonical, again));
    }
  });

  pmc::CheckOptions options;
  options.settings.threads = 1;
  // Bounds the work of any one check: time-bounded properties' step counts
  // come from the text, and a hang is a finding.
  options.settings.max_iterations = 100000;
  const pmc::property::Operator* top = parsed.top_operator();
  const bool probability = top && top->is_query() && top->kind != pmc::property::OperatorKind::reward &&
                           top->kind != pmc::property::OperatorKind::time;
  // P[ F a || F b ] is undefined (NaN) where the condition has probability 0.
  const bool conditional = top && top->condition;
  for (const pmc::ModelPtr& model : tiny_models()) {
    pmc::fuzz::clean_or_finding(fmt::format("check on the tiny {}", pmc::to_string(model->type())), [&] {
      const pmc::CheckResult result = pmc::check(*model, text, options);
      if (result.values.size() != model->num_states()) pmc::fuzz::finding("a result without one value per state");
      if (!result.converged) return;
      for (double v : result.values) {
        if (std::isnan(v)) {
          if (conditional) continue;
          pmc::fuzz::finding(fmt::format("{} on the tiny {} gives NaN", canonical, pmc::to_string(model->type())));
        }
        if (probability && !(v >= -1e-6 && v <= 1 + 1e-6)) {
          pmc::fuzz::finding(fmt::format("{} on the tiny {} gives the probability {}", canonical,
                                         pmc::to_string(model->type()), v));
        }
      }
    });
  }
  return 0;
}
