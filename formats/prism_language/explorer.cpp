// Explicit-state exploration of a checked PrismModel, in three
// passes that keep memory per state close to the packed vector plus the CSR:
//
//  1. reachability (state_discovery.cpp): the threads expand states from a
//     shared pool, insert their targets into one concurrent set of packed
//     states (state_set.hpp), which gives each a discovery id, and record
//     each state's rows against those ids (rows.hpp);
//  2. numbering: the reached keys sorted with their ids — packed order is
//     PRISM's state order (state_packing.hpp), so state i here is row i of
//     PRISM's `.sta` and `.tra` — giving each id its final index; the set
//     is freed;
//  3. assembly: the rows copied into the model in final order, block by
//     block in parallel, their columns renumbered, beside the labels,
//     state rewards and valuations evaluated from the sorted keys.
//
// Every state is expanded once (expression evaluation is most of the
// time); the price is the rows held twice during pass 3, as before when
// pass 3 expanded again into blocks. The GPU explorer
// (gpu_exploration.hpp) runs all three passes on the device and hands over
// the model's arrays in state order, with the labels and state rewards
// where the device computes them as the CPU does (else they are evaluated
// here, as for the CPU's model).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>

#include <omp.h>
#include <parallel/algorithm>

#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "common/huge_pages.hpp"
#include "common/memory_limit.hpp"
#include "common/cancellation.hpp"
#include "common/first_failure.hpp"
#include "formats/prism_language/gpu_exploration.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "formats/prism_language/state_discovery.hpp"
#include "formats/prism_language/rows.hpp"
#include "formats/prism_language/state_packing.hpp"
#include "formats/prism_language/state_set.hpp"
#include "formats/prism_language/successors.hpp"
#include "model/model_memory.hpp"

namespace pmc::prism_language {
namespace {

// `init ... endinit` is evaluated on every valuation of the variables (as
// PRISM does) that its leading conjuncts leave open; past this many
// valuations that would take minutes, so the explorer refuses with a
// message instead of appearing to hang.
constexpr uint64_t k_max_initial_valuations = uint64_t{1} << 26;
// States per block of pass 3: a multiple of 64, so blocks set disjoint
// words of the label bitsets.
constexpr uint64_t k_block_states = 2048;
// `auto` builds: the CPU explores models up to this many states (in about
// half a second on 16 cores), the GPU larger ones, the CPU's start
// discarded. Measured on an H200 with 16 cores (bench/RESULTS.md, "The GPU
// explorer"): consensus N=6 (1.26M states) took 0.64 s on the CPU, 0.96 s
// handed over at 2^20 states.
constexpr uint64_t k_gpu_hand_over_states = uint64_t{1} << 21;

// 0: OpenMP's default, as the solvers use — the cores this process may run
// on (its affinity mask), or OMP_NUM_THREADS.
unsigned thread_count(unsigned requested) {
  if (requested != 0) return requested;
  return static_cast<unsigned>(std::max(1, omp_get_max_threads()));
}

// Runs body(i) for i in [0, n) on `threads` threads; the first exception
// thrown is rethrown here once every thread has stopped.
template <typename Body>
void parallel_for(int64_t n, unsigned threads, int64_t chunk, Body body) {
  // Small loops (most BFS levels of a deep, narrow model such as brp) run
  // here: a parallel region costs a few microseconds on an idle machine but
  // milliseconds when the cores are busy, and brp N256 has ~2000 levels.
  threads = static_cast<unsigned>(std::clamp<int64_t>(n / (4 * chunk), 1, threads));
  if (threads == 1) {
    for (int64_t i = 0; i < n; ++i) body(i, 0);
    return;
  }
  FirstFailure failure;
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk)
  for (int64_t i = 0; i < n; ++i) {
    if (failure.failed()) continue;
    failure.run([&] { body(i, omp_get_thread_num()); });
  }
  failure.rethrow_if_failed();
}

// Running sums of `values` in place, on `threads` threads: each sums its
// part, then adds the parts before it while rewriting its own (a serial
// scan of 61M states held up 15 threads).
void inclusive_scan_in_place(std::vector<uint64_t>& values, unsigned threads) {
  const size_t n = values.size();
  const size_t parts = std::clamp<size_t>(n / (1 << 16), 1, threads);
  if (parts == 1) {
    std::partial_sum(values.begin(), values.end(), values.begin());
    return;
  }
  std::vector<uint64_t> totals(parts + 1, 0);
  auto part_begin = [&](size_t p) { return n * p / parts; };
#pragma omp parallel num_threads(static_cast<int>(parts))
  {
    const auto p = static_cast<size_t>(omp_get_thread_num());
    const auto first = static_cast<int64_t>(part_begin(p)), last = static_cast<int64_t>(part_begin(p + 1));
    totals[p + 1] = std::accumulate(values.begin() + first, values.begin() + last, uint64_t{0});
#pragma omp barrier
#pragma omp single
    std::partial_sum(totals.begin(), totals.end(), totals.begin());
    uint64_t sum = totals[p];
    for (int64_t i = first; i < last; ++i) values[static_cast<size_t>(i)] = sum += values[static_cast<size_t>(i)];
  }
}

void check_variables(const PrismModel& program) {
  for (const Variable& v : program.variables) {
    if (v.lower > v.upper) {
      fail(ErrorCode::model, "{}: variable {} has the empty range [{}..{}]", v.location.to_string(), v.name, v.lower,
           v.upper);
    }
    if (!program.initial_states && (v.initial < v.lower || v.initial > v.upper)) {
      fail(ErrorCode::model, "{}: the initial value {} of {} is outside its range [{}..{}]", v.location.to_string(),
           v.initial, v.name, v.lower, v.upper);
    }
  }
}

// Packed initial states, in state order.
std::vector<uint64_t> initial_states(const PrismModel& program, const StateLayout& layout, unsigned threads) {
  const uint32_t words = layout.words();
  const size_t num_vars = program.variables.size();
  if (!program.initial_states) {
    std::vector<int32_t> values(num_vars);
    for (size_t i = 0; i < num_vars; ++i) values[i] = program.variables[i].initial;
    std::vector<uint64_t> key(words);
    layout.pack(values, key.data());
    return key;
  }
  const Expression& init = *program.initial_states;
  // Each variable's values to try: its range, narrowed to what init's
  // leading conjuncts (`x=0 & y>=2 & ...`) require (necessary_ranges).
  // Outside those init is false, and evaluating it there could not have
  // failed, so leaving such valuations out changes neither the states
  // found nor the errors; a JANI model's init fixing most of many
  // variables then takes as many evaluations as it has initial states.
  std::vector<int64_t> lower(num_vars), size(num_vars);
  {
    std::vector<int64_t> upper(num_vars);
    for (size_t i = 0; i < num_vars; ++i) {
      lower[i] = program.variables[i].lower;
      upper[i] = program.variables[i].upper;
    }
    for (const expression::VariableRange& r : init.necessary_ranges()) {
      if (r.variable >= num_vars) continue;
      lower[r.variable] = std::max(lower[r.variable], r.lower);
      upper[r.variable] = std::min(upper[r.variable], r.upper);
    }
    for (size_t i = 0; i < num_vars; ++i) size[i] = std::max<int64_t>(0, upper[i] - lower[i] + 1);
  }
  double valuations = 1;
  for (int64_t s : size) valuations *= static_cast<double>(s);
  if (valuations > static_cast<double>(k_max_initial_valuations)) {
    fail(ErrorCode::model,
         "{}: `init ... endinit` must be evaluated on every valuation of the variables that its leading "
         "conjuncts (`x=0 & y>=2 & ...`) leave open, and their ranges give {:.4g} (2^{:.1f}), more than pmc's "
         "limit of 2^26; fix more variables by such conjuncts, or give the variables `init` values instead",
         init.location().to_string(), valuations, std::log2(valuations));
  }
  const auto total = static_cast<int64_t>(valuations);
  auto valuation = [&](int64_t index, std::vector<int32_t>& values) {  // the first variable most significant
    auto rest = static_cast<uint64_t>(index);
    for (size_t i = num_vars; i-- > 0;) {
      const auto n = static_cast<uint64_t>(size[i]);
      values[i] = static_cast<int32_t>(lower[i] + static_cast<int64_t>(rest % n));
      rest /= n;
    }
  };
  // The satisfying valuations' indices: sorted, they are in state order
  // (the threads find them in chunks, in no order).
  std::vector<std::vector<int64_t>> found(threads);
  std::vector<std::vector<int32_t>> scratch(threads, std::vector<int32_t>(num_vars));
  parallel_for(total, threads, 4096, [&](int64_t index, int thread) {
    std::vector<int32_t>& values = scratch[static_cast<size_t>(thread)];
    valuation(index, values);
    if (init.evaluate_bool(values)) found[static_cast<size_t>(thread)].push_back(index);
  });
  std::vector<int64_t> indices;
  for (const auto& part : found) indices.insert(indices.end(), part.begin(), part.end());
  if (indices.empty()) fail(ErrorCode::model, "{}: no state satisfies `init ... endinit`", init.location().to_string());
  std::sort(indices.begin(), indices.end());
  std::vector<uint64_t> keys(indices.size() * words);
  std::vector<int32_t>& values = scratch[0];
  for (size_t k = 0; k < indices.size(); ++k) {
    valuation(indices[k], values);
    layout.pack(values, &keys[k * words]);
  }
  return keys;
}

// `n` keys of `words` words, `from_stride` words apart, copied into a new
// array `to_stride` words apart (the words between left zero), on `threads`.
std::vector<uint64_t> copy_keys(const uint64_t* from, uint32_t from_stride, uint64_t n, uint32_t to_stride,
                                uint32_t words, unsigned threads) {
  std::vector<uint64_t> to;
  reserve_with_huge_pages(to, n * to_stride);
  to.resize(n * to_stride);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
    const auto k = static_cast<uint64_t>(i);
    std::copy_n(from + k * from_stride, words, &to[k * to_stride]);
  }
  return to;
}

// The state valuations: the keys in state order, packed as they are
// (model/state_valuations.hpp shares the layout).
StateValuations valuations_from(const PrismModel& program, const StateLayout& layout, std::vector<uint64_t> keys) {
  if (program.variables.empty()) return {};
  std::vector<std::string> names;
  std::vector<uint8_t> is_bool;
  for (const Variable& v : program.variables) {
    names.push_back(v.name);
    is_bool.push_back(v.type == ValueType::boolean ? 1 : 0);
  }
  return StateValuations(std::move(names), std::move(is_bool), layout.fields(), layout.words(), std::move(keys));
}

// What both explorers fill alike: the labels ("init" and "deadlock" first,
// as PRISM's `.lab`, then the program's) and reward structures, still
// empty, the actions, the warnings and the source's definitions.
// `sized`: the program's labels and state rewards sized to n states (else
// the caller moves them in).
ModelParts empty_parts(const PrismModel& program, uint64_t n, const std::vector<std::string>& explorer_notes,
                       bool sized = true) {
  ModelParts parts;
  parts.type = program.type;
  parts.num_states = n;
  parts.warnings = program.warnings;
  parts.warnings.insert(parts.warnings.end(), explorer_notes.begin(), explorer_notes.end());
  parts.action_names = program.actions;
  if (parts.action_names.empty()) parts.action_names.emplace_back();
  parts.labels.push_back({"init", Bitset(n)});
  parts.labels.push_back({"deadlock", Bitset(n)});
  for (const LabelDefinition& label : program.labels) parts.labels.push_back({label.name, sized ? Bitset(n) : Bitset()});
  for (uint32_t r = 0; r < program.rewards.size(); ++r) {
    RewardStructure structure{program.rewards[r].name, {}, {}};
    if (sized && !program.rewards[r].state_items.empty()) structure.state_rewards.assign(n, 0.0);
    parts.rewards.push_back(std::move(structure));
  }
  parts.definitions = {program.constants, program.formulas};
  return parts;
}

bool has_state_expressions(const PrismModel& program) {
  return !program.labels.empty() || std::any_of(program.rewards.begin(), program.rewards.end(),
                                                [](const RewardDefinition& r) { return !r.state_items.empty(); });
}

// State s's labels and state rewards, from its variables' values. Blocks
// of k_block_states states set disjoint words of the label bitsets.
void evaluate_state(const PrismModel& program, const std::vector<int32_t>& values, uint64_t s, ModelParts& parts) {
  for (size_t l = 0; l < program.labels.size(); ++l) {
    if (program.labels[l].condition.evaluate_bool(values)) parts.labels[l + 2].states.set(s);
  }
  for (size_t r = 0; r < program.rewards.size(); ++r) {
    if (program.rewards[r].state_items.empty()) continue;
    double sum = 0;
    for (const StateRewardItem& item : program.rewards[r].state_items) {
      if (item.guard.evaluate_bool(values)) sum += item.value.evaluate_real(values);
    }
    parts.rewards[r].state_rewards[s] = sum;
  }
}

// States flagged while their rows were built, block by block: how many,
// and the first.
struct Flagged {
  uint64_t count = 0, first = 0;
  void add(uint64_t s) {
    if (count++ == 0) first = s;
  }
};

Flagged total(const std::vector<Flagged>& blocks) {
  Flagged all;
  for (const Flagged& f : blocks) {
    if (f.count > 0 && all.count == 0) all.first = f.first;
    all.count += f.count;
  }
  return all;
}

// Deadlocks (an error when loading strictly) and a DTMC's nondeterministic
// states as warnings naming the first; `keys`: the packed states in state
// order, `stride` words apart.
void report_flagged(const PrismModel& program, const StateLayout& layout, const uint64_t* keys, uint32_t stride,
                    const Flagged& deadlock, const Flagged& several, const ExploreOptions& options,
                    ModelParts& parts) {
  std::vector<int32_t> values(program.variables.size());
  if (deadlock.count > 0) {
    layout.unpack(keys + deadlock.first * stride, values);
    if (options.model.strict) {
      fail(ErrorCode::model, "{}: state {} {} has no outgoing transitions (a deadlock); strict loading rejects "
           "deadlocks", program.file, deadlock.first, describe_state(program, values));
    }
    parts.warnings.push_back(fmt::format(
        "{} deadlock state(s) (first: state {} {}) got a self-loop, as PRISM does; the label \"deadlock\" "
        "holds them; load strictly to reject them", deadlock.count, deadlock.first, describe_state(program, values)));
  }
  if (several.count > 0) {
    layout.unpack(keys + several.first * stride, values);
    parts.warnings.push_back(fmt::format(
        "the DTMC is nondeterministic in {} state(s) (first: state {} {}): several commands are enabled, and "
        "each is taken with equal probability, as PRISM does", several.count, several.first,
        describe_state(program, values)));
  }
}

// The GPU explorer's model (in state order already) as ModelParts, with
// the labels and state rewards evaluated here where the device did not.
ModelParts parts_from_gpu(const PrismModel& program, const StateLayout& layout, cuda::ExploredModel model,
                          const std::vector<uint32_t>& transition_structures, const ExploreOptions& options,
                          const std::vector<std::string>& explorer_notes, unsigned threads) {
  const uint64_t n = model.num_states;
  const uint32_t words = layout.words();
  ModelParts parts = empty_parts(program, n, explorer_notes, !model.states_evaluated);
  if (model.states_evaluated) {
    for (size_t l = 0; l < program.labels.size(); ++l) {
      parts.labels[l + 2].states = Bitset(n, std::move(model.label_words[l]));
    }
    size_t k = 0;
    for (size_t r = 0; r < program.rewards.size(); ++r) {
      if (!program.rewards[r].state_items.empty()) parts.rewards[r].state_rewards = std::move(model.state_rewards[k++]);
    }
  }
  for (uint32_t s : model.initial_states) parts.labels[0].states.set(s);
  if (program.type == ModelType::mdp) parts.row_groups = std::move(model.row_groups);
  parts.row_offsets = std::move(model.row_offsets);
  parts.columns = std::move(model.columns);
  parts.values = std::move(model.values);
  if (parts.action_names.size() > 1) parts.entry_actions = std::move(model.actions);
  for (size_t r = 0; r < transition_structures.size(); ++r) {
    parts.rewards[transition_structures[r]].transition_rewards = std::move(model.transition_rewards[r]);
  }
  if (model.resident != nullptr) {
    // The explorer ran on the first usable GPU: index 0 among the devices
    // the solvers number the same way.
    parts.device_rows = std::move(model.resident);
    parts.device_rows_key = device_chain_key(0);
  }
  const auto num_blocks = static_cast<int64_t>((n + k_block_states - 1) / k_block_states);
  std::vector<Flagged> deadlocks(static_cast<size_t>(num_blocks)), nondeterministic(deadlocks.size());
  std::vector<std::vector<int32_t>> scratch(threads, std::vector<int32_t>(program.variables.size()));
  const bool per_state = !model.states_evaluated && has_state_expressions(program);
  parallel_for(num_blocks, threads, 1, [&](int64_t b, int thread) {
    std::vector<int32_t>& values = scratch[static_cast<size_t>(thread)];
    const uint64_t first = static_cast<uint64_t>(b) * k_block_states;
    const uint64_t last = std::min(n, first + k_block_states);
    for (uint64_t s = first; s < last; ++s) {
      if (per_state) {
        layout.unpack(&model.keys[s * words], values);
        evaluate_state(program, values, s, parts);
      }
      const uint8_t flags = model.flags[s];
      if ((flags & cuda::ExploredModel::k_deadlock) != 0) {
        parts.labels[1].states.set(s);
        deadlocks[static_cast<size_t>(b)].add(s);
      }
      if ((flags & cuda::ExploredModel::k_nondeterministic) != 0) nondeterministic[static_cast<size_t>(b)].add(s);
    }
  });
  report_flagged(program, layout, model.keys.data(), words, total(deadlocks), total(nondeterministic), options, parts);
  parts.valuations = valuations_from(program, layout, std::move(model.keys));
  return parts;
}

// The memory limit: numbering and assembly beside the rows of pass 1 — the
// sorted records (and the sort's copy, while the set still exists), the
// renumbering maps, the valuations and the model's arrays — must fit the
// memory limit before they start.
// `store_bytes`: the reached states as pass 1 left them (the set).
void require_build_memory(const PrismModel& program, uint64_t n, uint32_t words, uint64_t store_bytes,
                          uint64_t block_bytes, uint64_t rows, uint64_t entries, uint64_t memory_limit) {
  const uint64_t records = n * (words + 1) * sizeof(uint64_t);
  const uint64_t numbering = std::max(store_bytes + 2 * records, records + n * (4 + 8 + 8));
  const uint64_t valuations = program.variables.empty() ? 0 : n * words * sizeof(uint64_t);
  const uint64_t model = model_bytes_for(program.type, n, rows, entries) + (program.labels.size() + 2) * (n / 8 + 8) +
                         program.rewards.size() * 8 * std::max(n, entries);
  require_memory(block_bytes + numbering + valuations + model, memory_limit,
                 fmt::format("{}: building the model of {} states and {} transitions", program.file, n, entries),
                 fmt::format("rows found {}, numbering {}, valuations {}, model {}", format_bytes(block_bytes),
                             format_bytes(numbering), format_bytes(valuations), format_bytes(model)));
}

ModelParts explore_program(const PrismModel& program, const ExploreOptions& options) {
  if (program.type != ModelType::dtmc && program.type != ModelType::ctmc && program.type != ModelType::mdp) {
    fail(ErrorCode::unsupported, "{}: PRISM-language models are DTMCs, CTMCs or MDPs, not {}", program.file,
         to_string(program.type));
  }
  check_variables(program);
  const unsigned threads = thread_count(options.threads);
  const StateLayout layout(program.variables);
  const uint32_t words = layout.words();
  const size_t num_vars = program.variables.size();

  const std::vector<uint64_t> initial = initial_states(program, layout, threads);
  const std::vector<uint32_t> transition_structures = transition_reward_structures(program);

  // PMC_EXPLORE_TIMES=1: each pass's seconds on stderr (bench/NOTES.md).
  const bool print_times = std::getenv("PMC_EXPLORE_TIMES") != nullptr;
  const auto pass_start = std::chrono::steady_clock::now();
  auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - pass_start).count(); };
  // All three passes on the GPU, or pass 1 on the CPU and pass 2's sorted
  // records.
  std::vector<std::string> explorer_notes;
  auto on_gpu = [&]() -> std::optional<ModelParts> {
    std::optional<cuda::ExploredModel> model =
        explore_model_on_gpu(program, layout, initial, transition_structures, options, explorer_notes);
    if (!model) return std::nullopt;
    if (print_times) std::fprintf(stderr, "explore: numbered and assembled on the gpu by %.3f s\n", since_start());
    ModelParts parts =
        parts_from_gpu(program, layout, std::move(*model), transition_structures, options, explorer_notes, threads);
    if (print_times) std::fprintf(stderr, "explore: labels and state rewards by %.3f s\n", since_start());
    return parts;
  };
  if (use_gpu_explorer(program, layout, options, explorer_notes)) {
    if (std::optional<ModelParts> parts = on_gpu()) return std::move(*parts);
  }
  // auto: a model larger than small ones is handed to the GPU, if there is
  // one that runs the program (bench/RESULTS.md, "The GPU explorer").
  GpuHandOver hand_over;
  if (options.build == BuildDevice::automatic) {
    hand_over.states = k_gpu_hand_over_states;
    hand_over.to_gpu = [&] { return gpu_explorer_runs(program, layout); };
  }
  std::vector<RowBlock> blocks;
  std::vector<uint32_t> initial_ids;
  std::vector<uint64_t> records;
  uint64_t n = 0;
  auto count_rows = [&](uint64_t& block_bytes, uint64_t& rows, uint64_t& entries) {
    block_bytes = rows = entries = 0;
    for (const RowBlock& block : blocks) {
      block_bytes += block.bytes();
      rows += block.row_entries.size() - 1;
      entries += block.columns.size();
    }
  };
  uint64_t block_bytes = 0, rows = 0, entries = 0;
  {
    constexpr uint64_t k_initial_states = 1 << 16;
    require_memory(StateSet::bytes_for(words, k_initial_states), options.model.memory_limit,
                   fmt::format("{}: exploration's first state store", program.file));
    std::optional<StateSet> set(std::in_place, words, k_initial_states);
    try {
      blocks = reach_states(program, layout, initial, *set, transition_structures, options.max_states, threads,
                            options.model.memory_limit, options.cancel, options.progress, hand_over);
    } catch (const HandedOver&) {
      set.reset();
      if (print_times) std::fprintf(stderr, "explore: handed over to the gpu at %.3f s\n", since_start());
      if (std::optional<ModelParts> parts = on_gpu()) return std::move(*parts);
      set.emplace(words, k_initial_states);  // the GPU could not: the CPU explores it all
      blocks = reach_states(program, layout, initial, *set, transition_structures, options.max_states, threads,
                            options.model.memory_limit, options.cancel, options.progress);
    }
    throw_if_cancelled(options.cancel);
    count_rows(block_bytes, rows, entries);
    n = set->size();
    require_build_memory(program, n, words, set->bytes(), block_bytes, rows, entries, options.model.memory_limit);
    for (size_t i = 0; i < initial.size(); i += words) initial_ids.push_back(set->id_of(&initial[i]));
    if (print_times) std::fprintf(stderr, "explore: pass 1 (cpu) %.3f s\n", since_start());
    records = sorted_records(*set, threads);
  }
  if (print_times) std::fprintf(stderr, "explore: pass 2 sorted by %.3f s\n", since_start());
  throw_if_cancelled(options.cancel);
  const uint32_t stride = words + 1;
  // final_of: a discovery id's index in state order; source: where state
  // i's rows are, its block (high 32 bits) and place in it. Indexed by
  // state, source is read in order by the copies below, which can then
  // fetch the next states' rows many states ahead.
  std::vector<uint32_t> final_of;
  std::vector<uint64_t> source;
  reserve_with_huge_pages(final_of, n);
  final_of.resize(n);
  reserve_with_huge_pages(source, n);
  source.resize(n);
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
      final_of[records[static_cast<uint64_t>(i) * stride + words]] = static_cast<uint32_t>(i);
    }
#pragma omp for schedule(dynamic, 16)
    for (int64_t b = 0; b < static_cast<int64_t>(blocks.size()); ++b) {
      const std::vector<uint32_t>& states = blocks[static_cast<size_t>(b)].states;
      for (size_t k = 0; k < states.size(); ++k) source[final_of[states[k]]] = static_cast<uint64_t>(b) << 32 | k;
    }
  }

  ModelParts parts = empty_parts(program, n, explorer_notes);
  for (uint32_t id : initial_ids) parts.labels[0].states.set(final_of[id]);
  parts.valuations = valuations_from(program, layout, copy_keys(records.data(), stride, n, words, words, threads));

  // Pass 3: where each state's rows and entries start in the model, then
  // the copies.
  throw_if_cancelled(options.cancel);
  const bool mdp = program.type == ModelType::mdp;
  const bool with_actions = parts.action_names.size() > 1;
  std::vector<uint64_t> state_entries(n + 1, 0);
  if (mdp) parts.row_groups.assign(n + 1, 0);
  parallel_for(static_cast<int64_t>(n), threads, 4096, [&](int64_t i, int) {
    const auto s = static_cast<uint64_t>(i);
    if (s + 16 < n) {
      const uint64_t ahead = source[s + 16];
      __builtin_prefetch(&blocks[ahead >> 32].state_rows[static_cast<uint32_t>(ahead)]);
    }
    const uint64_t at = source[s];
    const RowBlock& block = blocks[at >> 32];
    const uint32_t k = static_cast<uint32_t>(at);
    const uint32_t first_row = block.state_rows[k], last_row = block.state_rows[k + 1];
    state_entries[static_cast<size_t>(i) + 1] = block.row_entries[last_row] - block.row_entries[first_row];
    if (mdp) parts.row_groups[static_cast<size_t>(i) + 1] = last_row - first_row;
  });
  inclusive_scan_in_place(state_entries, threads);
  if (mdp) inclusive_scan_in_place(parts.row_groups, threads);
  // Sized with huge pages: hundreds of MB of new memory fault in 4 KiB
  // pages otherwise, on one thread (common/huge_pages.hpp).
  auto size_array = [](auto& array, uint64_t size) {
    reserve_with_huge_pages(array, size);
    array.resize(size);
  };
  size_array(parts.row_offsets, rows + 1);
  size_array(parts.columns, entries);
  size_array(parts.values, entries);
  if (with_actions) size_array(parts.entry_actions, entries);
  for (uint32_t r : transition_structures) size_array(parts.rewards[r].transition_rewards, entries);

  const auto num_blocks = static_cast<int64_t>((n + k_block_states - 1) / k_block_states);
  std::vector<Flagged> deadlocks(static_cast<size_t>(num_blocks)), nondeterministic(deadlocks.size());
  std::vector<std::vector<int32_t>> scratch(threads, std::vector<int32_t>(num_vars));
  const bool per_state = has_state_expressions(program);
  parallel_for(num_blocks, threads, 1, [&](int64_t b, int thread) {
    std::vector<int32_t>& values = scratch[static_cast<size_t>(thread)];
    const uint64_t first = static_cast<uint64_t>(b) * k_block_states;
    const uint64_t last = std::min(n, first + k_block_states);
    for (uint64_t s = first; s < last; ++s) {
      if (per_state) {
        layout.unpack(&records[s * stride], values);
        evaluate_state(program, values, s, parts);
      }
      // The rows, columns renumbered.
      // Fetched ahead in three steps, each from what the one before loaded:
      // a state's row offsets, its first entry's offset, its entries.
      if (s + 12 < last) {
        const uint64_t ahead = source[s + 12];
        __builtin_prefetch(&blocks[ahead >> 32].state_rows[static_cast<uint32_t>(ahead)]);
      }
      if (s + 6 < last) {
        const uint64_t ahead = source[s + 6];
        const RowBlock& ahead_block = blocks[ahead >> 32];
        __builtin_prefetch(&ahead_block.row_entries[ahead_block.state_rows[static_cast<uint32_t>(ahead)]]);
      }
      if (s + 3 < last) {
        const uint64_t ahead = source[s + 3];
        const RowBlock& ahead_block = blocks[ahead >> 32];
        const uint32_t entry = ahead_block.row_entries[ahead_block.state_rows[static_cast<uint32_t>(ahead)]];
        __builtin_prefetch(&ahead_block.columns[entry]);
        __builtin_prefetch(&ahead_block.values[entry]);
      }
      const uint64_t at = source[s];
      const RowBlock& block = blocks[at >> 32];
      const uint32_t k = static_cast<uint32_t>(at);
      const uint8_t flags = block.flags[k];
      if ((flags & RowBlock::k_deadlock) != 0) {
        parts.labels[1].states.set(s);
        deadlocks[static_cast<size_t>(b)].add(s);
      }
      if ((flags & RowBlock::k_nondeterministic) != 0) nondeterministic[static_cast<size_t>(b)].add(s);
      const uint32_t first_row = block.state_rows[k], last_row = block.state_rows[k + 1];
      const uint64_t row = mdp ? parts.row_groups[s] : s;
      const uint32_t from = block.row_entries[first_row], to = block.row_entries[last_row];
      const uint64_t offset = state_entries[s];
      for (uint32_t r = first_row; r < last_row; ++r) parts.row_offsets[row + (r - first_row)] = offset + (block.row_entries[r] - from);
      // final_of and the next states' blocks are read at random: fetched
      // ahead, a few misses overlap instead of each stalling.
      for (uint32_t e = from; e < to; ++e) {
        if (e + 8 < to) __builtin_prefetch(&final_of[block.columns[e + 8]]);
        parts.columns[offset + (e - from)] = final_of[block.columns[e]];
      }
      std::copy(block.values.begin() + from, block.values.begin() + to, parts.values.begin() + static_cast<int64_t>(offset));
      if (with_actions) {
        std::copy(block.actions.begin() + from, block.actions.begin() + to,
                  parts.entry_actions.begin() + static_cast<int64_t>(offset));
      }
      for (size_t r = 0; r < transition_structures.size(); ++r) {
        std::copy(block.transition_rewards[r].begin() + from, block.transition_rewards[r].begin() + to,
                  parts.rewards[transition_structures[r]].transition_rewards.begin() + static_cast<int64_t>(offset));
      }
    }
  });
  parts.row_offsets[rows] = entries;
  if (print_times) std::fprintf(stderr, "explore: pass 3 assembled by %.3f s\n", since_start());
  blocks.clear();
  blocks.shrink_to_fit();

  report_flagged(program, layout, records.data(), stride, total(deadlocks), total(nondeterministic), options, parts);
  return parts;
}

}  // namespace

ModelParts explore(const PrismModel& program, const ExploreOptions& options) {
  try {
    return explore_program(program, options);
  } catch (const std::bad_alloc&) {
    fail(ErrorCode::out_of_memory,
         "{}: out of memory while exploring the state space; a memory limit ({}) or a state limit ({}) stops "
         "the exploration early with a clear message",
         program.file, setting_name(Setting::memory_limit), setting_name(Setting::max_states));
  }
}

}  // namespace pmc::prism_language
