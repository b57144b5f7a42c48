// The PRISM-language parser and checker: every reference model's source parses
// with its manifest constants into the variables and modules it declares;
// expressions evaluate as PRISM evaluates them (answers worked out by hand);
// every file of the malformed corpus gives its error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "support/manifest.hpp"

namespace pmc::prism_language {
namespace {

namespace fs = std::filesystem;

// ---- the shared models ----

std::string source_of(const std::string& directory) {
  for (const char* ext : {"pm", "sm", "nm", "prism"}) {
    const std::string path = directory + "/model." + ext;
    if (fs::exists(path)) return path;
  }
  return {};
}

struct Shape {
  size_t modules, variables;
};

// Hand-read from the sources (module and variable declarations).
const std::map<std::string, Shape> k_expected_shapes = {
    {"consensus/N2_K2", {2, 5}},  // global counter + 2 processes × (pc, coin)
    {"consensus/N4_K4", {4, 9}},
    {"consensus/N6_K2", {6, 13}},
    {"herman/N7", {7, 7}},
    {"herman/N13", {13, 13}},
    {"leader_sync/3_2", {4, 13}},  // counter (c) + 3 processes × (s, u, v, p)
    {"tandem/C15", {2, 3}},
};

TEST(PrismLanguageParser, EverySharedModelParses) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  size_t parsed = 0, with_source = 0;
  for (const testing::ManifestRow& row : testing::manifest_instances(~uint64_t{0})) {
    const std::string path = source_of(row.directory());
    if (path.empty()) continue;  // a carried subset may hold the explicit files only
    ++with_source;
    SCOPED_TRACE(row.name() + " " + row.constants);
    PrismModel p;
    try {
      p = load_program(path, parse_constant_assignments(row.constants));
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    ++parsed;
    EXPECT_EQ(pmc::to_string(p.type), row.type);
    EXPECT_FALSE(p.modules.empty());
    EXPECT_FALSE(p.variables.empty());
    EXPECT_EQ(p.actions.at(0), "");
    for (const Variable& v : p.variables) {
      EXPECT_LE(v.lower, v.initial) << v.name;
      EXPECT_LE(v.initial, v.upper) << v.name;
      if (v.type == ValueType::boolean) EXPECT_EQ(v.upper, 1) << v.name;
    }
    // Globals first, then each module's variables in module order.
    uint32_t next = 0;
    while (next < p.variables.size() && p.variables[next].module < 0) ++next;
    for (size_t m = 0; m < p.modules.size(); ++m) {
      EXPECT_FALSE(p.modules[m].commands.empty()) << p.modules[m].name;
      for (uint32_t v : p.modules[m].variables) {
        EXPECT_EQ(v, next++);
        EXPECT_EQ(p.variables[v].module, static_cast<int32_t>(m));
      }
      EXPECT_TRUE(std::is_sorted(p.modules[m].alphabet.begin(), p.modules[m].alphabet.end()));
      for (const Command& c : p.modules[m].commands) {
        EXPECT_EQ(c.guard.type(), ValueType::boolean);
        EXPECT_FALSE(c.updates.empty());
        for (const Update& u : c.updates) EXPECT_NE(u.weight.type(), ValueType::boolean);
      }
    }
    EXPECT_EQ(next, p.variables.size());
    if (auto shape = k_expected_shapes.find(row.name()); shape != k_expected_shapes.end()) {
      EXPECT_EQ(p.modules.size(), shape->second.modules);
      EXPECT_EQ(p.variables.size(), shape->second.variables);
    }
  }
  if (with_source == 0) GTEST_SKIP() << testing::models_root() << " holds no model.{pm,sm,nm} sources";
  EXPECT_EQ(parsed, with_source);
}

TEST(PrismLanguageParser, ParametricCtmcSourcesParseAtAPoint) {
  if (testing::models_root().empty()) GTEST_SKIP() << testing::missing_models_message();
  const std::string dir = testing::models_root() + "/pctmc";
  std::map<std::string, std::string> points = {
      {"sir_100.sm", "ki=0.01,kr=0.05"}, {"sir_200.sm", "ki=0.01,kr=0.05"}, {"am_10_4.sm", "k1=1,k2=2,k3=3"}};
  for (const auto& [file, constants] : points) {
    if (!fs::exists(dir + "/" + file)) continue;
    SCOPED_TRACE(file);
    try {
      const PrismModel p = load_program(dir + "/" + file, parse_constant_assignments(constants));
      EXPECT_EQ(p.type, ModelType::ctmc);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// ---- expressions, evaluated at x=2, b=true (answers by hand) ----

const char* k_frame = R"(dtmc
const int N = 3;
const double p = 0.25;
module m
  x : [0..10] init 2;
  b : bool init true;
  [] true -> true;
endmodule
)";

const std::vector<int32_t> k_state = {2, 1};

// A numeric expression (as a reward value) or a boolean one (as a label).
Expression numeric(const std::string& text) {
  return parse_program(std::string(k_frame) + "rewards \"r\" true : " + text + "; endrewards\n", "e.pm", {})
      .rewards.at(0)
      .state_items.at(0)
      .value;
}
Expression condition(const std::string& text) {
  return parse_program(std::string(k_frame) + "label \"l\" = " + text + ";\n", "e.pm", {}).labels.at(0).condition;
}
int64_t int_of(const std::string& text) {
  const Expression e = numeric(text);
  EXPECT_EQ(e.type(), ValueType::integer) << text;
  return e.evaluate_int(k_state);
}
double real_of(const std::string& text) {
  const Expression e = numeric(text);
  EXPECT_EQ(e.type(), ValueType::real) << text;
  return e.evaluate_real(k_state);
}
bool bool_of(const std::string& text) { return condition(text).evaluate_bool(k_state); }

TEST(PrismLanguageExpressions, ArithmeticPrecedence) {
  EXPECT_EQ(int_of("1+2*3"), 7);
  EXPECT_EQ(int_of("(1+2)*3"), 9);
  EXPECT_EQ(int_of("-2*3"), -6);
  EXPECT_EQ(int_of("10-4-3"), 3);  // left-associative
  EXPECT_EQ(int_of("x*N-1"), 5);
  EXPECT_EQ(int_of("- -x"), 2);
  EXPECT_DOUBLE_EQ(real_of("7/2"), 3.5);  // `/` is always real division in PRISM
  EXPECT_DOUBLE_EQ(real_of("2*3/4"), 1.5);
  EXPECT_DOUBLE_EQ(real_of("x/4*2"), 1.0);
  EXPECT_DOUBLE_EQ(real_of("N*p"), 0.75);
  EXPECT_DOUBLE_EQ(real_of("1e-3 + .5"), 0.501);
  EXPECT_DOUBLE_EQ(real_of("x + 0.5"), 2.5);
}

TEST(PrismLanguageExpressions, BooleanPrecedence) {
  EXPECT_TRUE(bool_of("1+2=3"));
  EXPECT_TRUE(bool_of("!true=false"));  // ! binds looser than =: !(true=false)
  EXPECT_TRUE(bool_of("true | false & false"));
  EXPECT_FALSE(bool_of("(true | false) & false"));
  EXPECT_FALSE(bool_of("true => false"));
  EXPECT_TRUE(bool_of("false => x>100"));
  EXPECT_TRUE(bool_of("false <=> x=3"));
  EXPECT_TRUE(bool_of("x>1 & b"));
  EXPECT_TRUE(bool_of("x<=2 & x>=2 & x!=3 & !(x<2)"));
  EXPECT_TRUE(bool_of("b = true"));
  EXPECT_TRUE(bool_of("x = 2.0"));  // int compared with real
  EXPECT_TRUE(bool_of("x > 1.5"));
}

TEST(PrismLanguageExpressions, Conditional) {
  EXPECT_EQ(int_of("x>1 ? 10 : 20"), 10);
  EXPECT_EQ(int_of("false ? 1 : true ? 2 : 3"), 2);  // right-associative
  EXPECT_DOUBLE_EQ(real_of("b ? 1 : 0.5"), 1.0);    // int branch promoted
  EXPECT_DOUBLE_EQ(real_of("x=0 ? 1 : 0.5"), 0.5);
  EXPECT_TRUE(bool_of("x=2 ? b : false"));
}

TEST(PrismLanguageExpressions, Functions) {
  EXPECT_EQ(int_of("min(3, x, 5)"), 2);
  EXPECT_EQ(int_of("max(3, x, 5)"), 5);
  EXPECT_DOUBLE_EQ(real_of("max(1, 2.5)"), 2.5);
  EXPECT_EQ(int_of("floor(2.7)"), 2);
  EXPECT_EQ(int_of("floor(-2.5)"), -3);
  EXPECT_EQ(int_of("ceil(2.1)"), 3);
  EXPECT_EQ(int_of("round(2.5)"), 3);
  EXPECT_EQ(int_of("round(-2.5)"), -2);  // Java's Math.round: floor(x + 1/2)
  EXPECT_EQ(int_of("pow(2, 10)"), 1024);
  EXPECT_EQ(int_of("pow(x, 3)"), 8);
  EXPECT_DOUBLE_EQ(real_of("pow(4, 0.5)"), 2.0);
  EXPECT_EQ(int_of("mod(7, 3)"), 1);
  EXPECT_EQ(int_of("mod(-7, 3)"), 2);  // PRISM's mod is non-negative for a positive divisor
  EXPECT_EQ(int_of("mod(x+5, N)"), 1);
  EXPECT_DOUBLE_EQ(real_of("log(8, 2)"), 3.0);
  EXPECT_EQ(int_of("func(min, 4, x)"), 2);
  EXPECT_EQ(int_of("func(mod, 9, 4)"), 1);
  EXPECT_EQ(int_of("floor(x/N*10)"), 6);
}

TEST(PrismLanguageExpressions, RuntimeErrorsAndShortCircuit) {
  try {
    numeric("mod(x, x-2)").evaluate_int(k_state);
    FAIL() << "mod by zero evaluated";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::model);
    EXPECT_NE(std::string(e.what()).find("e.pm:9:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("modulo zero"), std::string::npos) << e.what();
  }
  EXPECT_THROW(numeric("pow(2, x-3)").evaluate_int(k_state), Error);
  EXPECT_THROW(numeric("x * 2147483647 * 2147483647 * 4").evaluate_int(k_state), Error);
  // PRISM's evaluation short-circuits, so the erroneous operand is never reached.
  EXPECT_TRUE(bool_of("x=2 | mod(1, x-2)=0"));
  EXPECT_FALSE(bool_of("x=3 & mod(1, x-2)=0"));
  EXPECT_EQ(int_of("x=2 ? 1 : mod(1, x-2)"), 1);
  // A constant subexpression that fails is left to the states that reach it.
  EXPECT_EQ(int_of("x=2 ? 1 : mod(1, 0)"), 1);
}

TEST(PrismLanguageExpressions, ConstantnessTextAndBuilders) {
  EXPECT_TRUE(numeric("N+1").is_constant());
  EXPECT_EQ(numeric("N+1").evaluate_int({}), 4);
  EXPECT_FALSE(numeric("x+1").is_constant());
  EXPECT_EQ(numeric("(x + 1) * 2").to_string(), "(x + 1) * 2");
  EXPECT_EQ(numeric("x - (1 - x)").to_string(), "x - (1 - x)");
  EXPECT_EQ(condition("!(b & x=2)").to_string(), "!(b & x = 2)");
  EXPECT_EQ(numeric("x").location().to_string(), "e.pm:9:20");
  EXPECT_EQ(Expression::integer(5).evaluate_int({}), 5);
  EXPECT_DOUBLE_EQ(Expression::integer(5).evaluate_real({}), 5.0);
  EXPECT_DOUBLE_EQ(Expression::real(0.25).evaluate_real({}), 0.25);
  EXPECT_TRUE(Expression().evaluate_bool({}));
  EXPECT_FALSE(Expression::boolean(false).evaluate_bool({}));
  const std::vector<int32_t> state = {7, 0, 1};
  EXPECT_TRUE(Expression::variable(2, ValueType::boolean, "c").evaluate_bool(state));
  EXPECT_EQ(Expression::variable(0, ValueType::integer, "y").evaluate_int(state), 7);
  EXPECT_FALSE(Expression::variable(0, ValueType::integer, "y").is_constant());
  Expression a = numeric("x*x");
  Expression copy = a;
  Expression moved = std::move(a);
  EXPECT_EQ(copy.evaluate_int(k_state), 4);
  EXPECT_EQ(moved.evaluate_int(k_state), 4);
  EXPECT_EQ((SourceLocation{"f.pm", 3, 0, nullptr}).to_string(), "f.pm:3");
}

// ---- program structure ----

TEST(PrismLanguageParser, ProgramStructure) {
  const PrismModel p = parse_program(R"(// no model type: PRISM takes an mdp
const N;          // an int
const double r = N / 2;
formula done = s = N;
global g : [0..1];
module a
  s : [0..N] init 1;
  [go] !done -> 0.5 : (s'=s+1) + 0.5 : (s'=s-1) & (g'=1);
  [] done -> true;
  [stop] done -> (s'=0);
endmodule
module b = a [ s=t, go=go2 ] endmodule
label "half" = s = floor(r);
rewards "steps"
  true : 1;
  [go] s>0 : r;
endrewards
rewards
  done : 2;
endrewards
)",
                                  "s.nm", parse_constant_assignments("N=4"));
  EXPECT_EQ(p.type, ModelType::mdp);
  EXPECT_EQ(p.warnings.size(), 1u);
  ASSERT_EQ(p.variables.size(), 3u);
  EXPECT_EQ(p.variables[0].name, "g");
  EXPECT_EQ(p.variables[0].module, -1);
  EXPECT_EQ(p.variables[1].name, "s");
  EXPECT_EQ(p.variables[2].name, "t");
  EXPECT_EQ(p.variables[2].upper, 4);
  EXPECT_EQ(p.variables[2].initial, 1);
  EXPECT_EQ(p.variables[2].module, 1);
  ASSERT_EQ(p.modules.size(), 2u);
  EXPECT_EQ(p.modules[1].name, "b");
  EXPECT_EQ(p.actions, (std::vector<std::string>{"", "go", "stop", "go2"}));
  EXPECT_EQ(p.modules[0].alphabet, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(p.modules[1].alphabet, (std::vector<uint32_t>{2, 3}));
  const Command& go2 = p.modules[1].commands[0];
  EXPECT_EQ(go2.action, 3u);
  ASSERT_EQ(go2.updates.size(), 2u);
  EXPECT_DOUBLE_EQ(go2.updates[0].weight.evaluate_real({}), 0.5);
  ASSERT_EQ(go2.updates[1].assignments.size(), 2u);
  EXPECT_EQ(go2.updates[1].assignments[0].variable, 2u);  // t, renamed from s
  EXPECT_EQ(go2.updates[1].assignments[1].variable, 0u);  // the global
  // The formula is expanded before renaming: in b, `done` reads t.
  EXPECT_TRUE(go2.guard.evaluate_bool(std::vector<int32_t>{0, 4, 1}));
  EXPECT_FALSE(go2.guard.evaluate_bool(std::vector<int32_t>{0, 1, 4}));
  // `true` is no assignment; a missing probability is the literal 1.
  const Update& idle = p.modules[0].commands[1].updates.at(0);
  EXPECT_TRUE(idle.assignments.empty());
  EXPECT_TRUE(idle.weight.is_constant());
  EXPECT_DOUBLE_EQ(idle.weight.evaluate_real({}), 1.0);
  EXPECT_EQ(p.constants, (std::vector<std::pair<std::string, std::string>>{{"N", "4"}, {"r", "2.0"}}));
  ASSERT_EQ(p.labels.size(), 1u);
  EXPECT_TRUE(p.labels[0].condition.evaluate_bool(std::vector<int32_t>{0, 2, 0}));
  ASSERT_EQ(p.rewards.size(), 2u);
  EXPECT_EQ(p.rewards[0].name, "steps");
  EXPECT_EQ(p.rewards[0].state_items.size(), 1u);
  ASSERT_EQ(p.rewards[0].transition_items.size(), 1u);
  EXPECT_EQ(p.rewards[0].transition_items[0].action, 1u);
  EXPECT_DOUBLE_EQ(p.rewards[0].transition_items[0].value.evaluate_real({}), 2.0);
  EXPECT_EQ(p.rewards[1].name, "");
  EXPECT_FALSE(p.initial_states.has_value());
}

TEST(PrismLanguageParser, InitBlockAndSynonyms) {
  const PrismModel p = parse_program(R"(probabilistic
rate mu = 1;
module m
  x : [0..3];
  b : bool;
  [] x<3 -> (x'=x+1);
endmodule
init x=0 | x=2 endinit
)",
                                  "i.pm", {});
  EXPECT_EQ(p.type, ModelType::dtmc);
  ASSERT_TRUE(p.initial_states.has_value());
  EXPECT_TRUE(p.initial_states->evaluate_bool(std::vector<int32_t>{2, 0}));
  EXPECT_FALSE(p.initial_states->evaluate_bool(std::vector<int32_t>{1, 0}));
  EXPECT_EQ(p.variables[1].initial, 0);
  EXPECT_TRUE(p.warnings.empty());
}

TEST(PrismLanguageParser, ConstantAssignments) {
  const auto a = parse_constant_assignments(" N=4, p = 0.5 ,flag=true");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[1].name, "p");
  EXPECT_EQ(a[1].value, "0.5");
  EXPECT_TRUE(parse_constant_assignments("").empty());
  for (const char* bad : {"N", "N=", "=4", "N=4,,K=2", "N=4,N=5", "3N=1", "K=1:1:4"}) {
    try {
      parse_constant_assignments(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << bad;
    }
  }
}

// ---- the malformed corpus ----

struct BadSource {
  std::string file, status, constants, message;
};

std::vector<BadSource> bad_sources() {
  std::vector<BadSource> out;
  std::ifstream in(std::string(PMC_TEST_DATA_DIR) + "/bad/prism_language/expected.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> c;
    std::stringstream fields(line);
    for (std::string f; std::getline(fields, f, '\t');) c.push_back(f);
    if (c.size() != 4) throw std::runtime_error("expected.tsv: bad line: " + line);
    out.push_back({c[0], c[1], c[2] == "-" ? "" : c[2], c[3]});
  }
  return out;
}

const std::map<std::string, ErrorCode> k_codes = {{"parse", ErrorCode::parse},
                                                  {"invalid_argument", ErrorCode::invalid_argument},
                                                  {"model", ErrorCode::model},
                                                  {"io", ErrorCode::io}};

TEST(PrismLanguageParser, MalformedCorpus) {
  const auto cases = bad_sources();
  EXPECT_GE(cases.size(), 40u);
  const std::string dir = std::string(PMC_TEST_DATA_DIR) + "/bad/prism_language/";
  std::set<std::string> listed;
  for (const BadSource& c : cases) {
    SCOPED_TRACE(c.file);
    listed.insert(c.file);
    try {
      load_program(dir + c.file, parse_constant_assignments(c.constants));
      ADD_FAILURE() << c.file << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), k_codes.at(c.status)) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
          << "message: " << e.what() << "\nexpected to contain: " << c.message;
    }
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name != "expected.tsv") EXPECT_TRUE(listed.count(name)) << name << " has no line in expected.tsv";
  }
}

TEST(PrismLanguageParser, MissingFileIsAnIoError) {
  try {
    load_program("/nonexistent/model.pm", {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io);
    EXPECT_STREQ(e.what(), "/nonexistent/model.pm: cannot open the file");
  }
}

}  // namespace
}  // namespace pmc::prism_language
