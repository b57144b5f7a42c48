// Command rewards (Command::rewards: JANI's transient assignments on an
// edge), which the JANI translator adds to the PRISM-language syntax: a
// source parsed from PRISM text is given them programmatically, checked and
// explored. Where per-action items `[a] true : v` say the same (an action
// labels one command), the reward vectors must equal the items' bit for
// bit; where they cannot (two commands of one action, unlabelled commands,
// both sides of a synchronisation) the values are known by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "formats/prism_language/exact_values.hpp"
#include "formats/prism_language/gpu_exploration.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "formats/prism_language/state_packing.hpp"
#include "formats/prism_language/syntax.hpp"

namespace pmc::prism_language {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const std::string k_file = "test.nm";

// `text` parsed as an expression (the value of a formula).
Node expression_node(const std::string& text) {
  const SyntaxProgram p = parse_syntax("dtmc\nformula f = " + text + ";\nmodule m x : [0..1]; endmodule\n", k_file);
  return p.formulas.at(0).value;
}

SyntaxCommand& command_of(SyntaxProgram& p, size_t module, size_t command) {
  return p.modules.at(module).commands.at(command);
}

void add_reward(SyntaxCommand& command, const std::string& structure, const std::string& value) {
  command.rewards.push_back({structure, expression_node(value), command.position});
}

ModelParts explore_syntax(SyntaxProgram syntax, ExploreOptions options = {}) {
  options.build = BuildDevice::cpu;
  return explore(check_program(std::move(syntax), k_file, {}), options);
}

// `source` with each transition item `[a] true : v` moved onto the first
// command (in module order) labelled a, as a command reward of its
// structure. Equivalent wherever that command is the only one of its
// action in its module.
SyntaxProgram items_as_command_rewards(const std::string& source) {
  SyntaxProgram p = parse_syntax(source, k_file);
  for (SyntaxRewards& structure : p.rewards) {
    std::vector<SyntaxRewardItem> kept;
    for (SyntaxRewardItem& item : structure.items) {
      if (!item.transition) {
        kept.push_back(std::move(item));
        continue;
      }
      EXPECT_TRUE(item.guard.kind == NodeKind::boolean && item.guard.int_value == 1) << "items must have guard true";
      SyntaxCommand* first = nullptr;
      for (SyntaxModule& module : p.modules) {
        for (SyntaxCommand& command : module.commands) {
          if (first == nullptr && command.action == item.action) first = &command;
        }
      }
      EXPECT_NE(first, nullptr) << "no command labelled [" << item.action << "]";
      if (first != nullptr) first->rewards.push_back({structure.name, std::move(item.value), item.position});
    }
    structure.items = std::move(kept);
  }
  return p;
}

// Explores `source` as written and with its items as command rewards:
// the same model, the same rewards to the bit.
void expect_same_as_items(const std::string& source) {
  const ModelParts items = explore_syntax(parse_syntax(source, k_file));
  const ModelParts commands = explore_syntax(items_as_command_rewards(source));
  EXPECT_EQ(commands.num_states, items.num_states);
  EXPECT_EQ(commands.row_groups, items.row_groups);
  EXPECT_EQ(commands.columns, items.columns);
  EXPECT_EQ(commands.values, items.values);
  EXPECT_EQ(commands.entry_actions, items.entry_actions);
  ASSERT_EQ(commands.rewards.size(), items.rewards.size());
  for (size_t r = 0; r < items.rewards.size(); ++r) {
    EXPECT_EQ(commands.rewards[r].name, items.rewards[r].name);
    EXPECT_EQ(commands.rewards[r].state_rewards, items.rewards[r].state_rewards) << items.rewards[r].name;
    ASSERT_FALSE(items.rewards[r].transition_rewards.empty()) << items.rewards[r].name;
    EXPECT_EQ(commands.rewards[r].transition_rewards, items.rewards[r].transition_rewards) << items.rewards[r].name;
  }
}

TEST(PrismLanguageCommandRewards, MdpEqualsActionItems) {
  expect_same_as_items(R"(mdp
module m
  x : [0..3];
  [a] x<3 -> 0.5 : (x'=x+1) + 0.5 : (x'=0);
  [b] x<2 -> (x'=x+2);
  [c] x=3 -> 1/3 : (x'=0) + 2/3 : (x'=1);
endmodule
rewards "time"
  [a] true : x+1;
  [b] true : 2.5;
  x=3 : 1;
endrewards
rewards "cost"
  [c] true : 0.1*x;
endrewards
)");
}

TEST(PrismLanguageCommandRewards, DtmcAndCtmcEqualActionItemsWhereAlternativesMerge) {
  for (const char* type : {"dtmc", "ctmc"}) {
    SCOPED_TRACE(type);
    expect_same_as_items(std::string(type) + R"(
module m
  x : [0..2];
  [a] x=0 -> 0.25 : (x'=1) + 0.75 : (x'=2);
  [b] x=0 -> (x'=1);
  [c] x>0 -> (x'=x-1);
endmodule
rewards "r"
  [a] true : 1/3;
  [b] true : 7;
  [c] true : x*x;
endrewards
)");
  }
}

TEST(PrismLanguageCommandRewards, SynchronisedEqualsActionItems) {
  // The item on [s] moves to module a's command; module b's carries none.
  expect_same_as_items(R"(mdp
module a
  x : [0..2];
  [s] x<2 -> 0.5 : (x'=x+1) + 0.5 : true;
  [t] x=2 -> (x'=0);
endmodule
module b
  y : [0..1];
  [s] true -> (y'=1-y);
  [t] true -> (y'=0);
endmodule
rewards "r"
  [s] true : x+2*y;
  [t] true : 0.5;
endrewards
)");
}

TEST(PrismLanguageCommandRewards, CommandsOfOneActionEarnTheirOwn) {
  // Two [go] commands enabled in x=0: two choices, each with its command's
  // reward on top of the item's (which items alone cannot tell apart).
  SyntaxProgram p = parse_syntax(R"(mdp
module m
  x : [0..2];
  [go] x=0 -> (x'=1);
  [go] x=0 -> 0.5 : (x'=2) + 0.5 : (x'=1);
  [] x>0 -> true;
endmodule
rewards "r"
  [go] true : 100;
endrewards
)", k_file);
  add_reward(command_of(p, 0, 0), "r", "1");
  add_reward(command_of(p, 0, 1), "r", "2+x");
  const ModelParts parts = explore_syntax(std::move(p));
  // State 0's choices in source order: to 1; to 1 and 2. States 1, 2: self-loops.
  EXPECT_EQ(parts.row_groups, (std::vector<uint64_t>{0, 2, 3, 4}));
  EXPECT_EQ(parts.columns, (std::vector<uint32_t>{1, 1, 2, 1, 2}));
  ASSERT_EQ(parts.rewards.size(), 1u);
  EXPECT_EQ(parts.rewards[0].transition_rewards, (std::vector<double>{101, 102, 102, 0, 0}));
}

TEST(PrismLanguageCommandRewards, SynchronisedCommandsAddTheirRewards) {
  // a's [s] with b's two [s] commands: two choices, a's reward plus each
  // of b's; "only_b" is earned by b's first command alone.
  SyntaxProgram p = parse_syntax(R"(mdp
module a
  x : [0..1];
  [s] x=0 -> (x'=1);
endmodule
module b
  y : [0..2];
  [s] y=0 -> (y'=1);
  [s] y=0 -> (y'=2);
endmodule
rewards "both"
endrewards
rewards "only_b"
endrewards
)", k_file);
  add_reward(command_of(p, 0, 0), "both", "1.5");
  add_reward(command_of(p, 1, 0), "both", "0.25");
  add_reward(command_of(p, 1, 1), "both", "0.125");
  add_reward(command_of(p, 1, 0), "only_b", "3");
  const ModelParts parts = explore_syntax(std::move(p));
  // States (0,0), (1,1), (1,2); the two last deadlock (self-loops).
  EXPECT_EQ(parts.row_groups, (std::vector<uint64_t>{0, 2, 3, 4}));
  ASSERT_EQ(parts.rewards.size(), 2u);
  EXPECT_EQ(parts.rewards[0].transition_rewards, (std::vector<double>{1.75, 1.625, 0, 0}));
  EXPECT_EQ(parts.rewards[1].transition_rewards, (std::vector<double>{3, 0, 0, 0}));
  EXPECT_TRUE(parts.rewards[0].state_rewards.empty());
}

TEST(PrismLanguageCommandRewards, DtmcEntryMergedFromAlternativesIsWeighted) {
  // Two unlabelled commands in x=0, each taken with 1/2: to 1 with
  // 1/2 + 1/4 (rewards 10 and 20), to 2 with 1/4 (reward 20).
  SyntaxProgram p = parse_syntax(R"(dtmc
module m
  x : [0..2];
  [] x=0 -> (x'=1);
  [] x=0 -> 0.5 : (x'=1) + 0.5 : (x'=2);
  [] x>0 -> true;
endmodule
rewards "r"
endrewards
)", k_file);
  add_reward(command_of(p, 0, 0), "r", "10");
  add_reward(command_of(p, 0, 1), "r", "20");
  const ModelParts parts = explore_syntax(std::move(p));
  ASSERT_EQ(parts.columns, (std::vector<uint32_t>{1, 2, 1, 2}));
  EXPECT_EQ(parts.values, (std::vector<double>{0.75, 0.25, 1, 1}));
  ASSERT_EQ(parts.rewards.size(), 1u);
  const std::vector<double>& r = parts.rewards[0].transition_rewards;
  ASSERT_EQ(r.size(), 4u);
  EXPECT_DOUBLE_EQ(r[0], (0.5 * 10 + 0.25 * 20) / 0.75);
  EXPECT_EQ(r[1], 20);
  EXPECT_EQ(r[2], 0);
  EXPECT_EQ(r[3], 0);
}

TEST(PrismLanguageCommandRewards, RenamedModuleKeepsThemRenamed) {
  SyntaxProgram p = parse_syntax(R"(mdp
module a
  x : [0..1];
  [go] x=0 -> (x'=1);
endmodule
module b = a [x=y, go=come] endmodule
rewards "r"
endrewards
)", k_file);
  add_reward(command_of(p, 0, 0), "r", "5+x");
  const PrismModel program = check_program(p, k_file, {});
  ASSERT_EQ(program.modules.size(), 2u);
  ASSERT_EQ(program.modules[1].commands.size(), 1u);
  ASSERT_EQ(program.modules[1].commands[0].rewards.size(), 1u);
  EXPECT_EQ(program.modules[1].commands[0].rewards[0].structure, 0u);
  EXPECT_EQ(program.modules[1].commands[0].rewards[0].value.to_string(), "5 + y");
  const ModelParts parts = explore_syntax(std::move(p));
  // (0,0) → [go] (1,0), [come] (0,1); each earns 5 read in (0,0).
  EXPECT_EQ(parts.rewards[0].transition_rewards[0], 5);
  EXPECT_EQ(parts.rewards[0].transition_rewards[1], 5);
}

TEST(PrismLanguageCommandRewards, StructuresAreIndexedByName) {
  SyntaxProgram p = parse_syntax(R"(mdp
module m
  x : [0..1];
  [] x=0 -> (x'=1);
endmodule
rewards "first"
  x=1 : 1;
endrewards
rewards "second"
endrewards
)", k_file);
  add_reward(command_of(p, 0, 0), "second", "4");
  const PrismModel program = check_program(p, k_file, {});
  ASSERT_EQ(program.modules[0].commands[0].rewards.size(), 1u);
  EXPECT_EQ(program.modules[0].commands[0].rewards[0].structure, 1u);
  const ModelParts parts = explore_syntax(std::move(p));
  // "first" has state rewards only, "second" transition rewards only.
  EXPECT_EQ(parts.rewards[0].state_rewards, (std::vector<double>{0, 1}));
  EXPECT_TRUE(parts.rewards[0].transition_rewards.empty());
  EXPECT_TRUE(parts.rewards[1].state_rewards.empty());
  EXPECT_EQ(parts.rewards[1].transition_rewards, (std::vector<double>{4, 0}));
}

// The message of the parse error checking `p` throws.
std::string check_error(const SyntaxProgram& p) {
  try {
    check_program(p, k_file, {});
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::parse) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(PrismLanguageCommandRewards, UnknownStructureIsAnErrorAtItsPlace) {
  SyntaxProgram p = parse_syntax(R"(mdp
module m
  x : [0..1];
  [] x=0 -> (x'=1);
endmodule
rewards "time"
endrewards
)", k_file);
  command_of(p, 0, 0).rewards.push_back({"energy", expression_node("1"), Position{4, 7}});
  EXPECT_THAT(check_error(p), AllOf(HasSubstr("test.nm:4:7"), HasSubstr("\"energy\""), HasSubstr("\"time\"")));
}

TEST(PrismLanguageCommandRewards, NonNumericValueIsATypeError) {
  SyntaxProgram p = parse_syntax(R"(mdp
module m
  x : [0..1];
  [] x=0 -> (x'=1);
endmodule
rewards "time"
endrewards
)", k_file);
  add_reward(command_of(p, 0, 0), "time", "x=0");
  EXPECT_THAT(check_error(p), AllOf(HasSubstr("type error"), HasSubstr("reward"), HasSubstr("a number")));
}

TEST(PrismLanguageCommandRewards, GpuExplorerLeavesThemToTheCpu) {
  SyntaxProgram p = parse_syntax(R"(mdp
module m
  x : [0..1];
  [] x=0 -> (x'=1);
endmodule
rewards "time"
endrewards
)", k_file);
  const PrismModel plain = check_program(p, k_file, {});
  EXPECT_EQ(gpu_exploration_obstacle(plain, StateLayout(plain.variables)), "");
  add_reward(command_of(p, 0, 0), "time", "1");
  const PrismModel program = check_program(p, k_file, {});
  EXPECT_THAT(gpu_exploration_obstacle(program, StateLayout(program.variables)), HasSubstr("command rewards"));
}

#ifdef PMC_HAVE_GMP
TEST(PrismLanguageCommandRewards, ExactValuesIncludeThem) {
  SyntaxProgram p = parse_syntax(R"(dtmc
module m
  x : [0..2];
  [a] x=0 -> (x'=1);
  [] x=0 -> 1/2 : (x'=1) + 1/2 : (x'=2);
  [] x>0 -> true;
endmodule
rewards "r"
  [a] true : 1/5;
endrewards
)", k_file);
  add_reward(command_of(p, 0, 0), "r", "1/3");
  add_reward(command_of(p, 0, 1), "r", "1/7");
  auto program = std::make_shared<const PrismModel>(check_program(p, k_file, {}));
  ExploreOptions options;
  options.build = BuildDevice::cpu;
  ModelParts parts = explore(*program, options);
  parts.exact_source = exact_value_source(program);
  const ModelPtr model = Model::create(std::move(parts), options.model);
  const std::optional<ExactRewards> exact = model->exact_source()->rewards(*model, 0);
  ASSERT_TRUE(exact.has_value());
  // To 1: 1/2 by [a] (1/5 + 1/3) and 1/4 by the other (1/7); to 2: 1/4 (1/7).
  const mpq_class a = mpq_class(1, 5) + mpq_class(1, 3), other(1, 7);
  const mpq_class to_1 = (mpq_class(1, 2) * a + mpq_class(1, 4) * other) / mpq_class(3, 4);
  ASSERT_EQ(exact->transition_rewards.size(), 4u);
  EXPECT_EQ(exact->transition_rewards[0], to_1);
  EXPECT_EQ(exact->transition_rewards[1], other);
  EXPECT_DOUBLE_EQ(model->rewards()[0].transition_rewards[0], to_1.get_d());
}
#endif

}  // namespace
}  // namespace pmc::prism_language
