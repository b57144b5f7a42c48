#include "formats/prism_language/gpu_exploration.hpp"

#include <chrono>
#include <unordered_map>

#include "common/cancellation.hpp"
#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "model/model_memory.hpp"
#include "cuda/gpu_explorer.hpp"
#include "expression/flatten.hpp"
#include "formats/prism_language/row_block.hpp"
#include "formats/prism_language/rows.hpp"
#include "formats/prism_language/state_discovery.hpp"
#include "formats/prism_language/successors.hpp"
#include "cuda/devices.hpp"

namespace pmc::prism_language {
namespace {

static_assert(cuda::ExploredModel::k_deadlock == RowBlock::k_deadlock &&
              cuda::ExploredModel::k_nondeterministic == RowBlock::k_nondeterministic);

// The GPUs, asked once per process. The cached, background discovery the
// solvers use is above formats/ (lib/solver/device/); asking CUDA here as
// well costs one more query (~0.1 s) when --build gpu is given.
const DeviceList& usable_devices() {
  static const DeviceList devices = detail::discover_uncached();
  return devices;
}

// Every expression the device must evaluate: guards, weights, assignments
// and transition reward items (labels and state rewards too where it can,
// state_expressions_on_device; else the host evaluates them).
template <typename Visit>
void for_each_device_expression(const PrismModel& program, Visit visit) {
  for (const Module& module : program.modules) {
    for (const Command& command : module.commands) {
      visit(command.guard);
      for (const Update& update : command.updates) {
        visit(update.weight);
        for (const Assignment& assignment : update.assignments) visit(assignment.value);
      }
    }
  }
  for (const RewardDefinition& rewards : program.rewards) {
    for (const TransitionRewardItem& item : rewards.transition_items) {
      visit(item.guard);
      visit(item.value);
    }
  }
}

// Whether the device evaluates every label and state reward as the CPU
// does (explorer.cpp's evaluate_state); else the host evaluates them.
bool state_expressions_on_device(const PrismModel& program) {
  auto fits = [](const Expression& e) {
    return expression::flat_code_is_exact_on_gpu(e) && expression::flat_code_stack_size(e) <= cuda::k_explore_max_stack;
  };
  for (const LabelDefinition& label : program.labels) {
    if (!fits(label.condition)) return false;
  }
  for (const RewardDefinition& rewards : program.rewards) {
    for (const StateRewardItem& item : rewards.state_items) {
      if (!fits(item.guard) || !fits(item.value)) return false;
    }
  }
  return true;
}

cuda::ExploreProgram flatten_program(const PrismModel& program, const StateLayout& layout,
                                     const std::vector<uint32_t>& transition_structures) {
  cuda::ExploreProgram out;
  out.model_type = program.type == ModelType::dtmc ? 0 : (program.type == ModelType::ctmc ? 1 : 2);
  out.words = layout.words();
  for (size_t i = 0; i < program.variables.size(); ++i) {
    const StateLayout::Field& f = layout.field(i);
    out.fields.push_back({f.word, f.shift, f.mask, f.lower, program.variables[i].upper});
  }
  auto flat = [&](const Expression& e) { return expression::flatten(e, out.code); };
  std::unordered_map<const Command*, uint32_t> index;
  for (const Module& module : program.modules) {
    for (const Command& command : module.commands) {
      index[&command] = static_cast<uint32_t>(out.commands.size());
      cuda::ExploreCommand c;
      c.guard = flat(command.guard);
      c.first_update = static_cast<uint32_t>(out.updates.size());
      c.num_updates = static_cast<uint32_t>(command.updates.size());
      out.commands.push_back(c);
      for (const Update& update : command.updates) {
        cuda::ExploreUpdate u;
        u.weight = flat(update.weight);
        u.first_assignment = static_cast<uint32_t>(out.assignments.size());
        u.num_assignments = static_cast<uint32_t>(update.assignments.size());
        out.updates.push_back(u);
        for (const Assignment& assignment : update.assignments) {
          out.assignments.push_back({assignment.variable, flat(assignment.value)});
        }
      }
    }
  }
  // As SuccessorGenerator: the unlabelled commands module by module, and
  // for each action the modules whose alphabet holds it, in module order.
  for (const Module& module : program.modules) {
    for (const Command& command : module.commands) {
      if (command.action == 0) out.local_commands.push_back(index.at(&command));
    }
  }
  const size_t actions = program.actions.size();
  std::vector<std::vector<cuda::ExploreParticipant>> by_action(actions);
  std::vector<std::vector<std::vector<uint32_t>>> commands_by_action(actions);
  for (const Module& module : program.modules) {
    for (uint32_t action : module.alphabet) {
      if (action == 0 || action >= actions) continue;  // SuccessorGenerator rejects these
      std::vector<uint32_t> labelled;
      for (const Command& command : module.commands) {
        if (command.action == action) labelled.push_back(index.at(&command));
      }
      commands_by_action[action].push_back(std::move(labelled));
    }
  }
  out.action_participants.assign(actions + 1, 0);
  for (size_t a = 0; a < actions; ++a) {
    out.action_participants[a] = static_cast<uint32_t>(out.participants.size());
    for (const std::vector<uint32_t>& labelled : commands_by_action[a]) {
      out.participants.push_back(
          {static_cast<uint32_t>(out.participant_commands.size()), static_cast<uint32_t>(labelled.size())});
      out.participant_commands.insert(out.participant_commands.end(), labelled.begin(), labelled.end());
    }
  }
  out.action_participants[actions] = static_cast<uint32_t>(out.participants.size());
  for (uint32_t r : transition_structures) {
    out.structure_items.push_back(static_cast<uint32_t>(out.reward_items.size()));
    for (const TransitionRewardItem& item : program.rewards[r].transition_items) {
      cuda::ExploreRewardItem flat_item;
      flat_item.action = item.action;
      flat_item.guard = flat(item.guard);
      flat_item.value = flat(item.value);
      out.reward_items.push_back(flat_item);
    }
  }
  out.structure_items.push_back(static_cast<uint32_t>(out.reward_items.size()));
  out.state_expressions = state_expressions_on_device(program);
  if (out.state_expressions) {
    for (const LabelDefinition& label : program.labels) out.labels.push_back(flat(label.condition));
    for (const RewardDefinition& rewards : program.rewards) {
      if (rewards.state_items.empty()) continue;
      out.state_structure_items.push_back(static_cast<uint32_t>(out.state_reward_items.size()));
      for (const StateRewardItem& item : rewards.state_items) {
        out.state_reward_items.push_back({flat(item.guard), flat(item.value)});
      }
    }
    out.state_structure_items.push_back(static_cast<uint32_t>(out.state_reward_items.size()));
  }
  return out;
}

// The device found that expanding the state `key` fails: expanding it on
// the CPU throws the CPU explorer's message.
[[noreturn]] void fail_as_the_cpu_does(const PrismModel& program, const StateLayout& layout,
                                      const std::vector<uint32_t>& transition_structures,
                                      const std::vector<uint64_t>& key) {
  std::vector<int32_t> values(program.variables.size());
  layout.unpack(key.data(), values);
  SuccessorGenerator generator(program, layout);
  generator.expand(values);
  RowBuilder builder(program, layout.words(), transition_structures);
  RowBlock scratch;
  scratch.transition_rewards.resize(transition_structures.size());
  const std::vector<uint32_t> targets(generator.num_branches(), 0);
  builder.add_state(0, values, generator, targets, scratch);
  fail(ErrorCode::internal, "{}: the GPU explorer found an error in state {} that the CPU explorer does not; "
       "explore with {} to work around it", program.file, describe_state(program, values),
       setting_usage(Setting::build, "cpu"));
}

}  // namespace

std::string gpu_exploration_obstacle(const PrismModel& program, const StateLayout& layout) {
  if (program.variables.size() > cuda::k_explore_max_variables) {
    return fmt::format("it has {} variables, more than the GPU explorer's {}", program.variables.size(),
                       cuda::k_explore_max_variables);
  }
  if (layout.words() > cuda::k_explore_max_words) {
    return fmt::format("its states take {} bits, more than the GPU explorer's {}", layout.total_bits(),
                       64 * cuda::k_explore_max_words);
  }
  if (has_command_rewards(program)) {
    return "command rewards (a JANI edge's transient assignments) are computed on the CPU only";
  }
  std::string obstacle;
  for_each_device_expression(program, [&](const Expression& e) {
    if (!obstacle.empty()) return;
    if (!expression::flat_code_is_exact_on_gpu(e)) {
      obstacle = fmt::format("{} uses pow or log of reals, which the GPU computes differently in the last bit",
                             e.location().to_string());
    } else if (expression::flat_code_stack_size(e) > cuda::k_explore_max_stack) {
      obstacle = fmt::format("the expression at {} is nested deeper than the GPU explorer evaluates",
                             e.location().to_string());
    }
  });
  return obstacle;
}

bool use_gpu_explorer(const PrismModel& program, const StateLayout& layout, const ExploreOptions& options,
                      std::vector<std::string>& warnings) {
  if (options.build == BuildDevice::cpu) return false;
  if (options.build == BuildDevice::gpu) {
    const DeviceList& devices = usable_devices();
    if (devices.devices.empty()) {
      fail(ErrorCode::no_device, "{}: {} needs a GPU, but {}", program.file, setting_usage(Setting::build, "gpu"),
           devices.problem);
    }
    if (const std::string obstacle = gpu_exploration_obstacle(program, layout); !obstacle.empty()) {
      warnings.push_back(fmt::format("explored on the CPU: {}", obstacle));
      return false;
    }
    return true;
  }
  // automatic: the CPU starts, and hands large models over
  // (gpu_explorer_runs, explorer.cpp).
  return false;
}

bool gpu_explorer_runs(const PrismModel& program, const StateLayout& layout) {
  return !usable_devices().devices.empty() && gpu_exploration_obstacle(program, layout).empty();
}

std::optional<cuda::ExploredModel> explore_model_on_gpu(const PrismModel& program, const StateLayout& layout,
                                                        const std::vector<uint64_t>& initial,
                                                        const std::vector<uint32_t>& transition_structures,
                                                        const ExploreOptions& options,
                                                        std::vector<std::string>& warnings) {
  const DeviceList& devices = usable_devices();
  if (devices.devices.empty()) {
    warnings.push_back(fmt::format("explored on the CPU: {}", devices.problem));
    return std::nullopt;
  }
  const cuda::ExploreProgram flat = flatten_program(program, layout, transition_structures);
  const bool user_limit = options.max_states != 0;
  const uint64_t limit = user_limit ? std::min(options.max_states, k_max_states) : k_max_states;
  const uint32_t words = layout.words();

  cuda::ExploreLimits limits;
  limits.max_states = limit;
  bool over_host_memory = false;
  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  limits.after_chunk = [&](uint64_t states) {
    throw_if_cancelled(options.cancel);
    const auto now = std::chrono::steady_clock::now();
    if (options.progress && now - last_progress >= std::chrono::milliseconds(200)) {
      last_progress = now;
      options.progress(states, std::chrono::duration<double>(now - start).count());
    }
  };
  // The host's copy: the keys (the valuations), the model's arrays, the
  // labels and rewards explorer.cpp adds.
  limits.before_assembly = [&](uint64_t n, uint64_t rows, uint64_t entries) {
    throw_if_cancelled(options.cancel);
    const uint64_t keys = n * words * sizeof(uint64_t);
    const uint64_t model = model_bytes_for(program.type, n, rows, entries) + n +
                           (program.actions.size() > 1 ? entries * sizeof(uint32_t) : 0) +
                           (program.labels.size() + 2) * (n / 8 + 8) +
                           program.rewards.size() * sizeof(double) * std::max(n, entries);
    over_host_memory = true;
    require_memory(keys + model, options.model.memory_limit,
                   fmt::format("{}: building the model of {} states and {} transitions", program.file, n, entries),
                   fmt::format("valuations {}, model {}", format_bytes(keys), format_bytes(model)));
    over_host_memory = false;
  };

  cuda::GpuExploration result;
  try {
    result = cuda::explore_on_gpu(flat, initial, limits, devices.devices.front().ordinal);
  } catch (const Error& error) {
    if (error.code() != ErrorCode::out_of_memory || over_host_memory) throw;
    warnings.push_back(fmt::format("explored on the CPU: the GPU's memory ran out during the exploration ({})",
                                   error.what()));
    return std::nullopt;
  }
  switch (result.stop) {
    case cuda::GpuExploration::Stop::done: break;
    case cuda::GpuExploration::Stop::state_failed:
      fail_as_the_cpu_does(program, layout, transition_structures, result.failed_key);
    case cuda::GpuExploration::Stop::too_many_states: too_many_states(program.file, limit, user_limit);
    case cuda::GpuExploration::Stop::beyond_device:
      warnings.push_back(fmt::format("explored on the CPU: {}", result.reason));
      return std::nullopt;
  }
  return std::move(result.model);
}

}  // namespace pmc::prism_language
