// Explicit-state exploration of a checked PrismModel, in three
// passes that keep memory per state close to the packed vector plus the CSR:
//
//  1. reachability (state_discovery.cpp): the threads expand states from a
//     shared pool and insert their targets into one concurrent set of
//     packed states (state_set.hpp);
//  2. numbering: the reached keys sorted — packed order is PRISM's state
//     order (state_packing.hpp), so state i here is row i of PRISM's `.sta`
//     and `.tra` — and each key's index stored beside it in the set;
//  3. rows: the states expanded again, block by block in parallel, into
//     rows (rows.hpp), labels, rewards and valuations.
//
// Expanding twice costs time but no memory: keeping the transitions of
// pass 1 would need every entry's target key until the numbering exists.
#include <algorithm>
#include <array>
#include <cstring>
#include <cmath>
#include <exception>
#include <mutex>
#include <numeric>

#include <omp.h>
#include <parallel/algorithm>

#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "common/cancellation.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "formats/prism_language/state_discovery.hpp"
#include "formats/prism_language/rows.hpp"
#include "formats/prism_language/state_packing.hpp"
#include "formats/prism_language/state_set.hpp"
#include "formats/prism_language/successors.hpp"
#include "model/model_memory.hpp"

namespace pmc::prism_language {
namespace {

// `init ... endinit` is evaluated on every valuation of the variables, as
// PRISM does; past this many valuations that would take minutes, so the
// explorer refuses with a message instead of appearing to hang.
constexpr uint64_t k_max_initial_valuations = uint64_t{1} << 26;
// States per block of pass 3: a multiple of 64, so blocks set disjoint
// words of the label bitsets.
constexpr uint64_t k_block_states = 2048;

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
  std::exception_ptr error;
  std::mutex error_mutex;
  bool failed = false;
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk)
  for (int64_t i = 0; i < n; ++i) {
    bool stop;
#pragma omp atomic read
    stop = failed;
    if (stop) continue;
    try {
      body(i, omp_get_thread_num());
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
#pragma omp atomic write
      failed = true;
    }
  }
  if (error) std::rethrow_exception(error);
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
  double valuations = 1;
  for (const Variable& v : program.variables) valuations *= static_cast<double>(v.upper) - v.lower + 1;
  if (valuations > static_cast<double>(k_max_initial_valuations)) {
    fail(ErrorCode::model,
         "{}: `init ... endinit` must be evaluated on every valuation of the variables, and their ranges give "
         "{:.4g} (2^{:.1f}), more than pmc's limit of 2^26; give the variables `init` values instead",
         init.location().to_string(), valuations, std::log2(valuations));
  }
  const auto total = static_cast<int64_t>(valuations);
  std::vector<std::vector<uint64_t>> found(threads);
  std::vector<std::vector<int32_t>> scratch(threads, std::vector<int32_t>(num_vars));
  parallel_for(total, threads, 4096, [&](int64_t index, int thread) {
    std::vector<int32_t>& values = scratch[static_cast<size_t>(thread)];
    auto rest = static_cast<uint64_t>(index);
    for (size_t i = num_vars; i-- > 0;) {
      const Variable& v = program.variables[i];
      const uint64_t size = static_cast<uint64_t>(static_cast<int64_t>(v.upper) - v.lower) + 1;
      values[i] = static_cast<int32_t>(v.lower + static_cast<int64_t>(rest % size));
      rest /= size;
    }
    if (!init.evaluate_bool(values)) return;
    std::vector<uint64_t>& out = found[static_cast<size_t>(thread)];
    out.resize(out.size() + words);
    layout.pack(values, &out[out.size() - words]);
  });
  std::vector<uint64_t> keys;
  for (const auto& part : found) keys.insert(keys.end(), part.begin(), part.end());
  if (keys.empty()) fail(ErrorCode::model, "{}: no state satisfies `init ... endinit`", init.location().to_string());
  return keys;
}

// Pass 2: the reached keys in state order. libstdc++'s parallel mode
// sorts on the OpenMP threads (std::sort took 0.5 s of leader_async N7's
// 7 s build on 2 cores); keys of 2–4 words are sorted as arrays rather than
// through a permutation, which costs a random access per comparison.
template <size_t W>
void sort_words(std::vector<uint64_t>& keys, unsigned threads) {
  std::vector<std::array<uint64_t, W>> rows(keys.size() / W);
  std::memcpy(rows.data(), keys.data(), keys.size() * sizeof(uint64_t));
  __gnu_parallel::sort(rows.begin(), rows.end(), __gnu_parallel::default_parallel_tag(threads));
  std::memcpy(keys.data(), rows.data(), keys.size() * sizeof(uint64_t));
}

std::vector<uint64_t> sorted_keys(const StateSet& set, unsigned threads) {
  std::vector<uint64_t> keys = set.keys();
  const uint32_t words = set.words();
  switch (words) {
    case 1: __gnu_parallel::sort(keys.begin(), keys.end(), __gnu_parallel::default_parallel_tag(threads)); return keys;
    case 2: sort_words<2>(keys, threads); return keys;
    case 3: sort_words<3>(keys, threads); return keys;
    case 4: sort_words<4>(keys, threads); return keys;
    default: break;
  }
  const uint64_t n = keys.size() / words;
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t{0});
  std::sort(order.begin(), order.end(),
            [&](uint64_t a, uint64_t b) { return packed_less(&keys[a * words], &keys[b * words], words); });
  std::vector<uint64_t> sorted(keys.size());
  for (uint64_t i = 0; i < n; ++i) std::copy_n(&keys[order[i] * words], words, &sorted[i * words]);
  return sorted;
}

// The memory limit: passes 2 and 3 beside the state store — the sorted keys (and
// the sort's copy), the indices, the valuations, and the rows twice (the
// blocks, then the model's arrays), about one entry per branch of pass 1 —
// must fit the memory limit before they start.
void require_build_memory(const PrismModel& program, const StateSet& set, uint64_t branches, uint64_t memory_limit) {
  const uint64_t n = set.size();
  const uint64_t keys = 2 * n * set.words() * sizeof(uint64_t) + set.capacity() * sizeof(uint32_t);
  const uint64_t valuations = n * program.variables.size() * sizeof(int32_t);
  const uint64_t rows = 2 * model_bytes_for(program.type, n, n, branches) +
                        (program.labels.size() + 2) * (n / 8 + 8) + program.rewards.size() * 8 * n;
  require_memory(set.bytes() + keys + valuations + rows, memory_limit,
                 fmt::format("{}: building the model of {} states and ~{} transitions", program.file, n, branches),
                 fmt::format("state store {}, numbering {}, valuations {}, rows {}", format_bytes(set.bytes()),
                             format_bytes(keys), format_bytes(valuations), format_bytes(rows)));
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
  constexpr uint64_t k_initial_states = 1 << 16;
  require_memory(StateSet::bytes_for(words, k_initial_states), options.model.memory_limit,
                 fmt::format("{}: exploration's first state store", program.file));
  StateSet set(words, k_initial_states);
  const uint64_t branches =
      reach_states(program, layout, initial, set, options.max_states, threads, options.model.memory_limit, options.cancel,
                   options.progress);
  throw_if_cancelled(options.cancel);
  require_build_memory(program, set, branches, options.model.memory_limit);
  const std::vector<uint64_t> keys = sorted_keys(set, threads);
  const uint64_t n = keys.size() / words;
  set.number(keys, threads);

  ModelParts parts;
  parts.type = program.type;
  parts.num_states = n;
  parts.warnings = program.warnings;
  parts.action_names = program.actions;
  if (parts.action_names.empty()) parts.action_names.emplace_back();

  // Labels: "init" and "deadlock" first, as PRISM's `.lab`, then the program's.
  parts.labels.push_back({"init", Bitset(n)});
  for (size_t i = 0; i < initial.size(); i += words) parts.labels[0].states.set(set.index_of(&initial[i]));
  parts.labels.push_back({"deadlock", Bitset(n)});
  for (const LabelDefinition& label : program.labels) parts.labels.push_back({label.name, Bitset(n)});

  std::vector<uint32_t> transition_structures;
  for (uint32_t r = 0; r < program.rewards.size(); ++r) {
    RewardStructure structure{program.rewards[r].name, {}, {}};
    if (!program.rewards[r].state_items.empty()) structure.state_rewards.assign(n, 0.0);
    if (!program.rewards[r].transition_items.empty()) transition_structures.push_back(r);
    parts.rewards.push_back(std::move(structure));
  }

  parts.valuations.variables.reserve(num_vars);
  for (const Variable& v : program.variables) {
    parts.valuations.variables.push_back(v.name);
    parts.valuations.is_bool.push_back(v.type == ValueType::boolean ? 1 : 0);
  }
  parts.valuations.values.resize(n * num_vars);
  parts.definitions = {program.constants, program.formulas};

  // Pass 3.
  throw_if_cancelled(options.cancel);
  const auto num_blocks = static_cast<int64_t>((n + k_block_states - 1) / k_block_states);
  std::vector<RowBlock> blocks(static_cast<size_t>(num_blocks));
  std::vector<SuccessorGenerator> generators;
  std::vector<RowBuilder> builders;
  for (unsigned t = 0; t < threads; ++t) {
    generators.emplace_back(program, layout);
    builders.emplace_back(program, set, transition_structures);
  }
  std::vector<std::vector<int32_t>> scratch(threads, std::vector<int32_t>(num_vars));
  parallel_for(num_blocks, threads, 1, [&](int64_t b, int thread) {
    const auto t = static_cast<size_t>(thread);
    RowBlock& block = blocks[static_cast<size_t>(b)];
    block.transition_rewards.resize(transition_structures.size());
    const uint64_t first = static_cast<uint64_t>(b) * k_block_states;
    const uint64_t last = std::min(n, first + k_block_states);
    std::vector<int32_t>& values = scratch[t];
    for (uint64_t s = first; s < last; ++s) {
      layout.unpack(&keys[s * words], values);
      std::copy(values.begin(), values.end(), parts.valuations.values.begin() + static_cast<int64_t>(s * num_vars));
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
      generators[t].expand(values);
      if (generators[t].num_alternatives() == 0) {
        parts.labels[1].states.set(s);
        if (options.model.strict) {
          fail(ErrorCode::model, "{}: state {} {} has no outgoing transitions (a deadlock); strict loading rejects "
               "deadlocks", program.file, s, describe_state(program, values));
        }
      }
      builders[t].add_state(s, values, generators[t], block);
    }
  });
  // Row/entry offsets of each block, then one copy into the model's arrays.
  std::vector<uint64_t> block_rows(static_cast<size_t>(num_blocks) + 1, 0), block_entries(block_rows.size(), 0);
  uint64_t deadlocks = 0, first_deadlock = 0, nondeterministic = 0, first_nondeterministic = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    block_rows[b + 1] = block_rows[b] + blocks[b].entries_per_row.size();
    block_entries[b + 1] = block_entries[b] + blocks[b].columns.size();
    if (blocks[b].deadlocks > 0 && deadlocks == 0) first_deadlock = blocks[b].first_deadlock;
    deadlocks += blocks[b].deadlocks;
    if (blocks[b].nondeterministic > 0 && nondeterministic == 0) first_nondeterministic = blocks[b].first_nondeterministic;
    nondeterministic += blocks[b].nondeterministic;
  }
  const uint64_t rows = block_rows.back(), entries = block_entries.back();
  parts.row_offsets.resize(rows + 1);
  parts.columns.resize(entries);
  parts.values.resize(entries);
  const bool with_actions = parts.action_names.size() > 1;
  if (with_actions) parts.entry_actions.resize(entries);
  if (program.type == ModelType::mdp) parts.row_groups.resize(n + 1);
  for (uint32_t r : transition_structures) parts.rewards[r].transition_rewards.resize(entries);
  parallel_for(num_blocks, threads, 1, [&](int64_t bi, int) {
    const auto b = static_cast<size_t>(bi);
    RowBlock& block = blocks[b];
    uint64_t row = block_rows[b], offset = block_entries[b];
    if (program.type == ModelType::mdp) {
      uint64_t state = static_cast<uint64_t>(bi) * k_block_states, group_row = row;
      for (uint32_t c : block.choices_per_state) {
        parts.row_groups[state++] = group_row;
        group_row += c;
      }
    }
    for (uint32_t e : block.entries_per_row) {
      parts.row_offsets[row++] = offset;
      offset += e;
    }
    std::copy(block.columns.begin(), block.columns.end(), parts.columns.begin() + static_cast<int64_t>(block_entries[b]));
    std::copy(block.values.begin(), block.values.end(), parts.values.begin() + static_cast<int64_t>(block_entries[b]));
    if (with_actions) {
      std::copy(block.actions.begin(), block.actions.end(),
                parts.entry_actions.begin() + static_cast<int64_t>(block_entries[b]));
    }
    for (size_t r = 0; r < transition_structures.size(); ++r) {
      std::copy(block.transition_rewards[r].begin(), block.transition_rewards[r].end(),
                parts.rewards[transition_structures[r]].transition_rewards.begin() +
                    static_cast<int64_t>(block_entries[b]));
    }
    block = RowBlock{};
  });
  parts.row_offsets[rows] = entries;
  if (program.type == ModelType::mdp) parts.row_groups[n] = rows;

  if (deadlocks > 0) {
    std::vector<int32_t> values(num_vars);
    layout.unpack(&keys[first_deadlock * words], values);
    parts.warnings.push_back(fmt::format(
        "{} deadlock state(s) (first: state {} {}) got a self-loop, as PRISM does; the label \"deadlock\" "
        "holds them; load strictly to reject them", deadlocks, first_deadlock, describe_state(program, values)));
  }
  if (nondeterministic > 0) {
    std::vector<int32_t> values(num_vars);
    layout.unpack(&keys[first_nondeterministic * words], values);
    parts.warnings.push_back(fmt::format(
        "the DTMC is nondeterministic in {} state(s) (first: state {} {}): several commands are enabled, and "
        "each is taken with equal probability, as PRISM does", nondeterministic, first_nondeterministic,
        describe_state(program, values)));
  }
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
