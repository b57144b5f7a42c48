// The self-contained reference set (tests/reference/, so that a new user can
// check pmc without the team's models): every property of
// tests/reference/manifest.tsv, on its model built from the PRISM-language
// source and loaded from the explicit files pmc wrote from it, checked with
// the default solver and with every CPU solver that solves one of its
// problems, against the exact value that tests/reference/exact_values.py
// computed in rational arithmetic.
//
// The verification tolerance (docs/design.md §7):
// |v − exact| ≤ tol·max(|exact|, 1e-9), tol = 1e-6 (1e-5 for CTMC time
// bounds); a sound result's bounds must hold the exact value as well (up to
// the rounding of the exact value to a double and of the solvers'
// arithmetic). Needs nothing outside the repository, so it runs in every
// clone, in the default suite.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "solver/registry.hpp"

namespace pmc {
namespace {

const std::string k_reference = PMC_REFERENCE_DIR;

struct Row {
  std::string source, constants, explicit_stem, type;
  uint64_t states = 0, transitions = 0, choices = 0;
  std::string property;
  double value = 0;
  std::string exact, method;
};

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(line);
  while (std::getline(in, part, '\t')) parts.push_back(part);
  if (!line.empty() && line.back() == '\t') parts.emplace_back();
  return parts;
}

const std::vector<Row>& rows() {
  static const std::vector<Row> out = [] {
    std::vector<Row> rows;
    std::ifstream in(k_reference + "/manifest.tsv");
    if (!in) throw std::runtime_error(k_reference + "/manifest.tsv: cannot read");
    std::string line;
    bool header = true;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      if (header) {  // the column names
        header = false;
        continue;
      }
      const auto c = split_tabs(line);
      if (c.size() != 11) throw std::runtime_error("manifest.tsv: expected 11 columns: " + line);
      Row r;
      r.source = c[0];
      r.constants = c[1];
      r.explicit_stem = c[2];
      r.type = c[3];
      r.states = std::stoull(c[4]);
      r.transitions = std::stoull(c[5]);
      r.choices = c[6].empty() ? 0 : std::stoull(c[6]);
      r.property = c[7];
      r.value = c[8] == "Infinity" ? std::numeric_limits<double>::infinity() : std::stod(c[8]);
      r.exact = c[9];
      r.method = c[10];
      rows.push_back(std::move(r));
    }
    return rows;
  }();
  return out;
}

enum class Form { source, explicit_files };

struct Case {
  size_t row;
  Form form;
};

void PrintTo(const Case& c, std::ostream* out) {
  const Row& r = rows()[c.row];
  *out << r.source << " " << r.constants << " " << r.property << (c.form == Form::source ? " (source)" : " (explicit)");
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (size_t i = 0; i < rows().size(); ++i) {
    out.push_back({i, Form::source});
    if (!rows()[i].explicit_stem.empty()) out.push_back({i, Form::explicit_files});
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const Row& r = rows()[info.param.row];
  std::string stem = r.explicit_stem.empty() ? r.source : r.explicit_stem;
  stem = stem.substr(stem.rfind('/') + 1);
  stem = stem.substr(0, stem.find('.'));
  std::string name = stem + "_" + std::to_string(info.param.row) +
                     (info.param.form == Form::source ? "_source" : "_explicit");
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

// Models are loaded once per file and constants.
const Model& model(const Row& r, Form form) {
  static std::map<std::string, ModelPtr> cache;
  const std::string key = form == Form::source ? r.source + "|" + r.constants : r.explicit_stem;
  auto it = cache.find(key);
  if (it == cache.end()) {
    LoadOptions options;
    std::string path;
    if (form == Form::source) {
      options.constants = r.constants;
      path = k_reference + "/" + r.source;
    } else {
      path = k_reference + "/" + r.explicit_stem + ".tra";
    }
    it = cache.emplace(key, load_model({path}, "", options)).first;
  }
  return *it->second;
}

bool ctmc_time_bounded(const Row& r) {
  return r.type == "ctmc" && (r.property.find("<=") != std::string::npos || r.property.find("F[") != std::string::npos);
}

class ExactReference : public ::testing::TestWithParam<Case> {};

TEST_P(ExactReference, AgreesWithTheExactValue) {
  const Row& r = rows()[GetParam().row];
  const Model& m = model(r, GetParam().form);
  // The model is the one exact_values.py built.
  EXPECT_EQ(m.num_states(), r.states);
  EXPECT_EQ(m.num_entries(), r.transitions);
  if (r.type == "mdp") EXPECT_EQ(m.num_rows(), r.choices);
  EXPECT_EQ(to_string(m.type()), r.type);

  std::vector<std::string> solvers = {"auto"};
  for (const SolverEntry& s : solver_registry()) {
    if (s.device == DeviceKind::cpu) solvers.push_back(std::string(s.name));
  }
  const double exact = r.value;
  const double tol = ctmc_time_bounded(r) ? 1e-5 : 1e-6;
  // The exact value rounded to a double, and the bounds' own rounding.
  const double slack = 1e-12 * std::max(std::fabs(exact), 1e-9);
  int named_ran = 0;
  for (const std::string& solver : solvers) {
    SCOPED_TRACE(solver);
    CheckOptions options;
    options.solver = solver;
    options.settings.epsilon = 1e-10;
    CheckResult result;
    try {
      result = check(m, r.property, options);
    } catch (const Error& e) {
      // A named solver for none of the property's problems (cpu.power on a
      // step bound): not this solver's property.
      const std::string what = e.what();
      if (solver != "auto" && e.code() == ErrorCode::invalid_argument &&
          what.find("does not solve this property's problems") != std::string::npos) {
        continue;
      }
      ADD_FAILURE() << "error: " << what;
      continue;
    }
    if (solver != "auto") ++named_ran;
    EXPECT_TRUE(result.converged) << (result.notes.empty() ? "" : result.notes.back());
    if (std::isinf(exact)) {
      EXPECT_EQ(result.initial_value, exact) << result.solver_names();
      continue;
    }
    EXPECT_LE(std::fabs(result.initial_value - exact), tol * std::max(std::fabs(exact), 1e-9))
        << "value " << result.initial_value << ", exact " << r.exact << " (" << r.method << "), solver "
        << result.solver_names();
    if (result.sound) {
      EXPECT_LE(result.initial_lower, exact + slack) << "lower bound above the exact value " << r.exact;
      EXPECT_GE(result.initial_upper, exact - slack) << "upper bound below the exact value " << r.exact;
    }
  }
  EXPECT_GE(named_ran, 1) << "no CPU solver solves " << r.property;
}

INSTANTIATE_TEST_SUITE_P(Manifest, ExactReference, ::testing::ValuesIn(cases()), case_name);

// --exact computes unbounded reachability and reachability rewards: the
// rows whose value exact_values.py found by a linear system or policy
// iteration, or found infinite.
bool exact_mode_computes(const Row& r) {
  return r.method == "linear system, exact" || r.method == "embedded chain, linear system, exact" ||
         r.method.starts_with("exact policy iteration") || r.exact == "Infinity";
}

// From the source, --exact gives the very rational exact_values.py
// computed. From explicit files (doubles, written as their shortest
// decimals) it gives the same where those decimals are the numbers
// (halves, tenths), and refuses rows that no longer sum to exactly 1 (a
// third written as 0.3333333333333333) with an error saying so.
TEST_P(ExactReference, ExactModeGivesTheRational) {
  const Row& r = rows()[GetParam().row];
#ifndef PMC_HAVE_GMP
  GTEST_SKIP() << "built without GMP";
#endif
  const Model& m = model(r, GetParam().form);
  CheckOptions options;
  options.exact = true;
  if (!exact_mode_computes(r)) {
    try {
      check(m, r.property, options);
      ADD_FAILURE() << "--exact computed " << r.property << ", which it does not claim to";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::unsupported) << e.what();
      EXPECT_NE(std::string(e.what()).find("pmc_options_set_exact(options, 1) computes P=? [ F ψ ]"), std::string::npos) << e.what();
    }
    return;
  }
  CheckResult result;
  try {
    result = check(m, r.property, options);
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(GetParam().form == Form::explicit_files && e.code() == ErrorCode::model &&
                what.find("not exactly 1") != std::string::npos)
        << what;
    return;
  }
  EXPECT_EQ(result.exact, r.exact) << r.method;
  EXPECT_TRUE(result.sound);
  EXPECT_EQ(result.solver_names(), "cpu.exact-pi");
  if (std::isinf(r.value)) {
    EXPECT_EQ(result.initial_value, r.value);
  } else {
    EXPECT_EQ(result.initial_value, r.value) << "the double nearest " << r.exact;
    EXPECT_LE(result.initial_lower, r.value);
    EXPECT_GE(result.initial_upper, r.value);
  }
}

// The set is what it claims: every kind of model and property is there.
TEST(ExactReferenceSet, CoversEachModelType) {
  std::map<std::string, int> types;
  for (const Row& r : rows()) ++types[r.type];
  EXPECT_GE(types["dtmc"], 20);
  EXPECT_GE(types["ctmc"], 10);
  EXPECT_GE(types["mdp"], 20);
}

}  // namespace
}  // namespace pmc
