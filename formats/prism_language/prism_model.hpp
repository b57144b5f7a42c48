// A PRISM-language model after parsing and checking: constants and
// formulas substituted, renamed modules expanded, every identifier bound to
// a variable index and every expression typed (lib/expression). The parser
// (parser.cpp, source_validator.cpp) produces it; the explorer
// (explorer.cpp) turns it into ModelParts. Nothing here refers to source
// text any more except through SourceLocation, which errors found while
// exploring (an update leaving a range, probabilities not summing to one)
// report.
#pragma once

#include <atomic>
#include <functional>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "expression/constant_assignments.hpp"
#include "expression/expression.hpp"
#include "formats/build_device.hpp"
#include "model/model.hpp"

namespace pmc::prism_language {

// Expressions of a checked source are the shared expression layer's.
using expression::Expression;
using expression::SourceLocation;
using expression::ValueType;

struct Variable {
  std::string name;
  ValueType type = ValueType::integer;  // boolean or integer
  int32_t lower = 0, upper = 1;         // booleans: 0..1
  int32_t initial = 0;                  // `init`, else `lower` (PRISM's default)
  int32_t module = -1;                  // index into PrismModel::modules; -1: global
  SourceLocation location;
};

struct Assignment {
  uint32_t variable = 0;  // index into PrismModel::variables
  Expression value;       // integer or boolean, as the variable
  SourceLocation location;
};

// One branch `p : (x'=e)&(y'=f)` of a command; `weight` is a probability
// (DTMC/MDP) or a rate (CTMC), the literal 1 when the source omits it.
struct Update {
  Expression weight;
  std::vector<Assignment> assignments;  // empty for `true`
  SourceLocation location;
};

// A reward the command earns in every transition it takes part in,
// evaluated in the source state: a JANI edge's transient assignments to a
// reward variable. A transition combining several commands (synchronised
// modules) earns the sum of theirs. PRISM-language sources have none: their
// transition rewards are per action (TransitionRewardItem).
struct CommandReward {
  uint32_t structure = 0;  // index into PrismModel::rewards
  Expression value;        // a number
  SourceLocation location;
};

struct Command {
  // Index into PrismModel::actions; 0 is the unlabelled action `[]`.
  uint32_t action = 0;
  Expression guard;
  std::vector<Update> updates;
  std::vector<CommandReward> rewards;
  SourceLocation location;
};

struct Module {
  std::string name;
  std::vector<uint32_t> variables;  // its local variables (indices)
  std::vector<Command> commands;
  // Actions of its commands (sorted, without 0): the module takes part in
  // every transition labelled with one of them (PRISM's synchronisation).
  std::vector<uint32_t> alphabet;
  SourceLocation location;
};

struct LabelDefinition {
  std::string name;
  Expression condition;
  SourceLocation location;
};

struct StateRewardItem {
  Expression guard, value;
  SourceLocation location;
};

// `[a] guard : value;` — earned by transitions labelled a (0 = `[]`) leaving
// a state that satisfies guard.
struct TransitionRewardItem {
  uint32_t action = 0;
  Expression guard, value;
  SourceLocation location;
};

// A reward structure. Its transition rewards are its transition items
// plus the command rewards (Command::rewards) that name it: it has
// transition rewards when either is there (has_transition_rewards).
struct RewardDefinition {
  std::string name;  // empty for an unnamed `rewards ... endrewards`
  std::vector<StateRewardItem> state_items;
  std::vector<TransitionRewardItem> transition_items;
  SourceLocation location;
};

struct PrismModel {
  ModelType type = ModelType::dtmc;  // dtmc, ctmc or mdp
  std::string file;
  // Globals first, then each module's variables in module order: PRISM's
  // order, which is also the order of `.sta` columns and of state sorting.
  std::vector<Variable> variables;
  std::vector<Module> modules;
  std::vector<std::string> actions;  // index 0 is "" (unlabelled)
  // `init ... endinit`; when absent the single state of the variables' inits.
  std::optional<Expression> initial_states;
  std::vector<LabelDefinition> labels;
  // A structure's transition rewards are its items and the command rewards
  // naming it (RewardDefinition).
  std::vector<RewardDefinition> rewards;
  // Constants' final values, for messages and `pmc info` ("N=4, K=2").
  std::vector<std::pair<std::string, std::string>> constants;
  // Each formula's expression as PRISM writes it, for properties that name it.
  std::vector<std::pair<std::string, std::string>> formulas;
  std::vector<std::string> warnings;
};

// `--const N=4,K=2,p=0.5,flag=true`: name=value pairs, values kept as text
// (typed when the program's declaration is known). Throws pmc::Error
// (invalid_argument) on malformed text, naming the offending pair.
using expression::ConstantAssignment;
using expression::parse_constant_assignments;

// Parses and checks a source. Errors (pmc::Error, code parse) name
// file:line:column; constants the source leaves undefined and `constants`
// does not give are listed together with how to set them. A constant given
// but not declared is an error too.
PrismModel parse_program(std::string_view source, const std::string& file_name,
                         const std::vector<ConstantAssignment>& constants);
// Reads `path` (errors: code io) and parses it.
PrismModel load_program(const std::string& path, const std::vector<ConstantAssignment>& constants);

// The constants the source at `path` declares, in order, and whether it
// defines them (the others are what --const must give). Reads and parses
// it (errors as load_program's syntax errors); nothing is bound or checked.
struct DeclaredConstant {
  std::string name;
  expression::ValueType type;
  bool defined = false;
};
std::vector<DeclaredConstant> declared_constants(const std::string& path);

struct ExploreOptions {
  uint64_t max_states = 0;  // 0: no limit; above it exploration stops with an error
  unsigned threads = 0;     // 0: the hardware's
  BuildDevice build = BuildDevice::automatic;
  ModelOptions model;       // strict: deadlocks are errors instead of self-loops
  // Polled between chunks of states and between the passes: once set, the
  // exploration stops with Error(cancelled) and nothing is built.
  const std::atomic<bool>* cancel = nullptr;
  // Called now and then during the exploration (at most every 0.2 s, from
  // one thread at a time) with the states found so far and the seconds
  // since it began. Must return quickly; may be empty.
  std::function<void(uint64_t states, double seconds)> progress;
};

// Reachable state space of `program` as PRISM's explicit engine builds it:
// states sorted by valuation (variables in PrismModel order), so state
// indices, counts and matrices equal PRISM's `-exportmodel` files. Adds the labels
// "init" and "deadlock", the reward structures, action names and the state
// valuations.
ModelParts explore(const PrismModel& program, const ExploreOptions& options);

// load_program + explore + Model::create: what every loader calls for
// .pm/.sm/.nm/.prism files.
ModelPtr build_model_from_source(const std::string& path, const std::vector<ConstantAssignment>& constants,
                                 const ExploreOptions& options);

}  // namespace pmc::prism_language
