// Exploring a caller's generator (generator.hpp), in the PRISM-language
// explorer's three passes and with its parts (formats/prism_language/):
//
//  1. reachability: threads take chunks of unexpanded states from a shared
//     pool (exploration_pool.hpp), call the generator's callback on each,
//     insert the targets into one concurrent StateSet of packed keys
//     (state_key.hpp), which gives each a discovery id, and record the
//     state's rows against those ids — with one thread when the callback
//     is not thread-safe (then on the caller's own thread);
//  2. numbering: the keys sorted (memcmp order of the bytes), or a
//     breadth-first search over the recorded rows from the initial states
//     in the order given, which is the order a one-threaded search finds
//     them in whatever the threads did;
//  3. assembly: the rows copied into the model in that order, columns
//     renumbered and each row sorted by column, with the labels, state
//     rewards and each state's bytes.
#include "formats/generator/generator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <thread>

#include <omp.h>

#include "common/cancellation.hpp"
#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "formats/generator/expansion.hpp"
#include "formats/generator/state_key.hpp"
#include "formats/prism_language/exploration_pool.hpp"
#include "formats/prism_language/row_block.hpp"
#include "formats/prism_language/state_discovery.hpp"
#include "formats/prism_language/state_packing.hpp"
#include "formats/prism_language/state_set.hpp"
#include "model/model_memory.hpp"

namespace pmc::generator {
namespace {

using prism_language::ExplorationPool;
using prism_language::RowBlock;
using prism_language::StateSet;

// What messages call the source of the model.
const std::string k_where = "model generator";
// States per chunk of the pool, and per block of recorded rows.
constexpr size_t k_chunk_states = 256;
constexpr size_t k_block_states = 4096;
// States per piece of the assembly: a multiple of 64, so that pieces set
// disjoint words of the label bitsets.
constexpr int k_assembly_states = 2048;
constexpr uint32_t k_unnumbered = UINT32_MAX;

// The rows of the states one thread expanded (columns as discovery ids),
// with their labels and state rewards.
struct GeneratedBlock {
  RowBlock rows;
  std::vector<uint64_t> labels;       // per state: the label words
  std::vector<double> state_rewards;  // per state: one per reward structure
  uint64_t bytes() const {
    return rows.bytes() + labels.capacity() * sizeof(uint64_t) + state_rewards.capacity() * sizeof(double);
  }
};

// A callback's non-zero return: its own interrupt or allocation failure
// keeps its code; anything else (1 and -1 are common "failed" values) is
// an error in the model it describes.
ErrorCode error_code_of(int status) {
  if (status == static_cast<int>(ErrorCode::cancelled)) return ErrorCode::cancelled;
  if (status == static_cast<int>(ErrorCode::out_of_memory)) return ErrorCode::out_of_memory;
  return ErrorCode::model;
}

// Turns one state's expansion into rows, as rows.hpp does for the PRISM
// language: an MDP choice is a row; a DTMC's choices are taken with equal
// probability and a CTMC's rates added, into one row; branches to the same
// target are one entry. A merged entry's transition reward is the branches'
// rewards weighted by their share of its value (exactly the reward when
// they agree), its action that of the first branch.
class RowRecorder {
 public:
  RowRecorder(const GeneratorSpec& spec, const GeneratorOptions& options, const StateKey& key)
      : spec_(spec), options_(options), key_(key), by_bytes_(spec.order == StateOrder::bytes),
        num_rewards_(spec.rewards.size()),
        label_words_((spec.labels.size() + 63) / 64) {}

  // Throws Error(model) naming the state for a choice that breaks the rules.
  void validate(const uint64_t* state_key, const Expansion& e) const {
    for (size_t c = 0; c < e.num_choices(); ++c) {
      const size_t first = e.first_branch(c), last = e.last_branch(c);
      if (first == last) fail_in(state_key, fmt::format("choice {} has no transitions", c));
      if (!has_probability_rows(spec_.type)) continue;
      double sum = 0;
      for (size_t b = first; b < last; ++b) sum += e.value(b);
      if (!(std::fabs(sum - 1) <= options_.model.row_sum_tolerance)) {
        fail_in(state_key, fmt::format("the probabilities of choice {} sum to {}, not 1 (tolerance {})", c, sum,
                                       options_.model.row_sum_tolerance));
      }
    }
  }

  [[noreturn]] void fail_in(const uint64_t* state_key, const std::string& what) const {
    fail(ErrorCode::model, "{}: in state {}: {}", k_where, describe(state_key), what);
  }

  std::string describe(const uint64_t* state_key) const {
    std::vector<uint8_t> bytes(key_.size_of(state_key));
    key_.unpack(state_key, bytes.data());
    return describe_state_bytes(bytes);
  }

  void add_state(uint32_t id, const Expansion& e, std::span<const uint32_t> target_ids, GeneratedBlock& block) {
    RowBlock& rows = block.rows;
    rows.states.push_back(id);
    rows.flags.push_back(0);
    rows.state_rows.push_back(static_cast<uint32_t>(rows.row_entries.size()));
    block.labels.insert(block.labels.end(), e.label_words().begin(), e.label_words().end());
    block.labels.resize(block.labels.size() + label_words_ - e.label_words().size(), 0);
    block.state_rewards.insert(block.state_rewards.end(), e.state_rewards().begin(), e.state_rewards().end());

    bool any = false;
    for (size_t b = 0; b < e.num_branches() && !any; ++b) any = e.value(b) > 0;
    if (!any) {  // a deadlock: a self-loop, as PRISM
      rows.flags.back() |= RowBlock::k_deadlock;
      start_row(rows);
      push_entry(rows, id, 1.0, 0);
      for (size_t r = 0; r < num_rewards_; ++r) rows.transition_rewards[r].push_back(0.0);
      return;
    }
    choice_of_.resize(e.num_branches());
    for (size_t c = 0; c < e.num_choices(); ++c) {
      for (size_t b = e.first_branch(c); b < e.last_branch(c); ++b) choice_of_[b] = static_cast<uint32_t>(c);
    }
    if (spec_.type == ModelType::mdp) {
      for (size_t c = 0; c < e.num_choices(); ++c) add_row(e, target_ids, e.first_branch(c), e.last_branch(c), 1.0, rows);
      return;
    }
    if (spec_.type == ModelType::dtmc && e.num_choices() > 1) rows.flags.back() |= RowBlock::k_nondeterministic;
    const double scale = spec_.type == ModelType::dtmc ? 1.0 / static_cast<double>(e.num_choices()) : 1.0;
    add_row(e, target_ids, 0, e.num_branches(), scale, rows);
  }

 private:
  static void start_row(RowBlock& rows) { rows.row_entries.push_back(static_cast<uint32_t>(rows.columns.size())); }
  static void push_entry(RowBlock& rows, uint32_t column, double value, uint32_t action) {
    rows.columns.push_back(column);
    rows.values.push_back(value);
    rows.actions.push_back(action);
  }

  // One row of branches [first, last), each value times `scale`, merged by
  // target. Entries by target bytes when states are numbered by their
  // bytes (the row is then in column order already), else in the order of
  // their first branch (the breadth-first numbering reads them so).
  void add_row(const Expansion& e, std::span<const uint32_t> target_ids, size_t first, size_t last, double scale,
               RowBlock& rows) {
    order_.clear();
    for (size_t b = first; b < last; ++b) {
      if (e.value(b) > 0) order_.push_back(b);
    }
    if (by_bytes_) {
      const uint32_t words = key_.words();
      std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
        if (target_ids[a] == target_ids[b]) return a < b;
        return prism_language::packed_less(e.target(a), e.target(b), words);
      });
    } else {
      std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
        return target_ids[a] != target_ids[b] ? target_ids[a] < target_ids[b] : a < b;
      });
    }
    merged_.clear();
    for (size_t i = 0; i < order_.size();) {
      size_t j = i;
      double value = 0;
      for (; j < order_.size() && target_ids[order_[j]] == target_ids[order_[i]]; ++j) value += e.value(order_[j]) * scale;
      merged_.push_back({i, j, value});
      i = j;
    }
    if (!by_bytes_) {
      std::sort(merged_.begin(), merged_.end(), [&](const Merged& a, const Merged& b) { return order_[a.begin] < order_[b.begin]; });
    }
    start_row(rows);
    for (const Merged& m : merged_) {
      const size_t head = order_[m.begin];
      push_entry(rows, target_ids[head], m.value, e.choice_action(choice_of_[head]));
      for (size_t r = 0; r < num_rewards_; ++r) {
        const double reward = e.branch_reward(head, choice_of_[head], r);
        bool same = true;
        double weighted = 0;
        for (size_t k = m.begin; k < m.end; ++k) {
          const double other = e.branch_reward(order_[k], choice_of_[order_[k]], r);
          same = same && other == reward;
          weighted += e.value(order_[k]) * scale * other;
        }
        rows.transition_rewards[r].push_back(same ? reward : weighted / m.value);
      }
    }
  }

  struct Merged {
    size_t begin, end;  // into order_
    double value;
  };

  const GeneratorSpec& spec_;
  const GeneratorOptions& options_;
  const StateKey& key_;
  const bool by_bytes_;
  const size_t num_rewards_;
  const size_t label_words_;
  std::vector<uint32_t> choice_of_;
  std::vector<size_t> order_;
  std::vector<Merged> merged_;
};

unsigned thread_count(const GeneratorSpec& spec, unsigned requested) {
  if (!spec.thread_safe) return 1;
  if (requested != 0) return requested;
  return static_cast<unsigned>(std::max(1, omp_get_max_threads()));
}

// Pass 1. Returns the blocks of rows; `initial_ids` gets the initial
// states' discovery ids in the order given (repeats dropped).
std::vector<GeneratedBlock> reach_states(const GeneratorSpec& spec, const GeneratorOptions& options,
                                         const StateKey& key, StateSet& set, ActionTable& actions,
                                         std::vector<uint32_t>& initial_ids, unsigned threads) {
  const uint32_t words = key.words();
  const uint32_t stride = words + 1;  // a chunk's record: the key, then its id
  const bool user_limit = options.max_states != 0;
  const uint64_t limit = user_limit ? std::min(options.max_states, k_max_states) : k_max_states;
  const uint64_t memory_limit = options.model.memory_limit;
  std::atomic<uint64_t> block_bytes{0};
  ExplorationPool pool(set, block_bytes, threads, memory_limit, k_where);
  {
    std::vector<uint64_t> first, packed(words);
    for (const std::vector<uint8_t>& state : spec.initial_states) {
      key.pack(state, packed.data());
      if (!set.has_room_for(1)) {
        prism_language::require_room(set, 1, 0, memory_limit, k_where);
        set.grow(1);
      }
      const StateSet::Found found = set.insert(packed.data());
      if (found.result != StateSet::Insert::inserted) continue;
      initial_ids.push_back(found.id);
      first.insert(first.end(), packed.begin(), packed.end());
      first.push_back(found.id);
    }
    if (set.size() > limit) prism_language::too_many_states(k_where, limit, user_limit);
    pool.push(std::move(first));
  }

  std::mutex blocks_mutex;
  std::vector<GeneratedBlock> blocks;
  auto new_block = [&] {
    GeneratedBlock block;
    block.rows.transition_rewards.resize(spec.rewards.size());
    return block;
  };
  auto keep = [&](GeneratedBlock& block) {
    block.rows.finish();
    block_bytes.fetch_add(block.bytes(), std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(blocks_mutex);
    blocks.push_back(std::move(block));
    block = new_block();
  };

  auto worker = [&]() {
    try {
      Expansion expansion(spec, key, actions);
      RowRecorder recorder(spec, options, key);
      GeneratedBlock block = new_block();
      std::vector<uint8_t> bytes(key.max_size());
      std::vector<uint32_t> target_ids;
      std::vector<uint64_t> found;
      bool active = false;
      double branches_per_state = 8;
      while (true) {
        std::vector<uint64_t> chunk = pool.pop(active);
        active = !chunk.empty();
        if (!active) break;
        throw_if_cancelled(options.cancel);
        const size_t states = chunk.size() / stride;
        const auto expected = static_cast<uint64_t>(static_cast<double>(states) * branches_per_state) + 1;
        if (!set.has_room_for(expected * 2)) pool.grow(expected * 2 * threads);
        uint64_t branches = 0;
        for (size_t s = 0; s < states; ++s) {
          const uint64_t* state_key = &chunk[s * stride];
          const uint32_t size = key.size_of(state_key);
          key.unpack(state_key, bytes.data());
          expansion.reset();
          const int status = spec.expand({bytes.data(), size}, expansion);
          if (expansion.first_error()) recorder.fail_in(state_key, *expansion.first_error());
          if (status != 0) {
            fail(error_code_of(status), "{}: expanding state {} failed: {}", k_where, recorder.describe(state_key),
                 expansion.failure().empty() ? fmt::format("the callback returned {}", status) : expansion.failure());
          }
          recorder.validate(state_key, expansion);
          const size_t n = expansion.num_branches();
          branches += n;
          target_ids.resize(n);
          for (size_t b = 0; b < n; ++b) set.prefetch(expansion.target(b));
          for (size_t b = 0; b < n; ++b) {
            // A transition of value 0 is dropped: its target is not reached through it.
            if (expansion.value(b) == 0) {
              target_ids[b] = k_unnumbered;
              continue;
            }
            StateSet::Found result = set.insert(expansion.target(b));
            while (result.result == StateSet::Insert::full) {
              pool.grow(expected * 2 * threads);
              result = set.insert(expansion.target(b));
            }
            target_ids[b] = result.id;
            if (result.result != StateSet::Insert::inserted) continue;
            found.insert(found.end(), expansion.target(b), expansion.target(b) + words);
            found.push_back(result.id);
            if (set.size() > limit) prism_language::too_many_states(k_where, limit, user_limit);
            if (found.size() >= k_chunk_states * stride) {
              pool.push(std::move(found));
              found.clear();
            }
          }
          recorder.add_state(static_cast<uint32_t>(state_key[words]), expansion, target_ids, block);
        }
        branches_per_state = std::max(1.0, static_cast<double>(branches) / static_cast<double>(states));
        if (block.rows.states.size() >= k_block_states) keep(block);
        pool.require_rows_room(block.bytes());
        if (!found.empty()) {
          pool.push(std::move(found));
          found.clear();
        }
      }
      if (!block.rows.states.empty()) keep(block);
    } catch (...) {
      pool.fail(std::current_exception());
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(threads);
  for (unsigned t = 1; t < threads; ++t) workers.emplace_back(worker);
  worker();
  for (std::thread& w : workers) w.join();
  pool.rethrow();
  return blocks;
}

// Pass 2 for PMC_STATE_ORDER_BFS: the final index of each discovery id, in
// the order a one-threaded breadth-first search finds the states.
std::vector<uint32_t> breadth_first_numbering(const std::vector<GeneratedBlock>& blocks,
                                              const std::vector<uint64_t>& where, const std::vector<uint32_t>& initial_ids) {
  const uint64_t n = where.size();
  std::vector<uint32_t> final_of(n, k_unnumbered), queue;
  queue.reserve(n);
  for (uint32_t id : initial_ids) {
    if (final_of[id] == k_unnumbered) {
      final_of[id] = static_cast<uint32_t>(queue.size());
      queue.push_back(id);
    }
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint64_t at = where[queue[head]];
    const RowBlock& rows = blocks[at >> 32].rows;
    const auto k = static_cast<uint32_t>(at);
    const uint32_t from = rows.row_entries[rows.state_rows[k]], to = rows.row_entries[rows.state_rows[k + 1]];
    for (uint32_t e = from; e < to; ++e) {
      const uint32_t target = rows.columns[e];
      if (final_of[target] != k_unnumbered) continue;
      final_of[target] = static_cast<uint32_t>(queue.size());
      queue.push_back(target);
    }
  }
  return final_of;
}

// Flagged states (deadlocks, a DTMC's several choices): how many, and the
// first in state order.
struct Flagged {
  uint64_t count = 0, first = UINT64_MAX;
};

// Renumbers parts.entry_actions (indices into `names`, 0 for none) so that
// actions are numbered by their first entry, and fills parts.action_names.
void number_actions_by_first_use(const std::vector<std::string>& names, unsigned threads, ModelParts& parts) {
  std::vector<uint64_t> first(names.size(), UINT64_MAX);
  std::vector<uint32_t>& entries = parts.entry_actions;
#pragma omp parallel num_threads(threads)
  {
    std::vector<uint64_t> mine(names.size(), UINT64_MAX);
#pragma omp for schedule(static)
    for (int64_t e = 0; e < static_cast<int64_t>(entries.size()); ++e) {
      uint64_t& at = mine[entries[static_cast<size_t>(e)]];
      at = std::min(at, static_cast<uint64_t>(e));
    }
#pragma omp critical
    for (size_t a = 0; a < names.size(); ++a) first[a] = std::min(first[a], mine[a]);
  }
  std::vector<uint32_t> order;
  for (uint32_t a = 1; a < names.size(); ++a) {
    if (first[a] != UINT64_MAX) order.push_back(a);
  }
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return first[a] < first[b]; });
  std::vector<uint32_t> renamed(names.size(), 0);
  for (uint32_t a : order) {
    renamed[a] = static_cast<uint32_t>(parts.action_names.size());
    parts.action_names.push_back(names[a]);
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t e = 0; e < static_cast<int64_t>(entries.size()); ++e) {
    entries[static_cast<size_t>(e)] = renamed[entries[static_cast<size_t>(e)]];
  }
}

}  // namespace

std::string describe_state_bytes(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return "(0 bytes)";
  constexpr size_t k_shown = 32;
  std::string text = "0x";
  for (size_t i = 0; i < std::min(bytes.size(), k_shown); ++i) text += fmt::format("{:02x}", bytes[i]);
  if (bytes.size() > k_shown) text += fmt::format("… ({} bytes)", bytes.size());
  return text;
}

ModelParts explore_generator(const GeneratorSpec& spec, const GeneratorOptions& options) {
  if (spec.initial_states.empty()) {
    fail(ErrorCode::invalid_argument, "{}: no initial state: add one to the generator before exploring it", k_where);
  }
  const unsigned threads = thread_count(spec, options.threads);
  // PMC_EXPLORE_TIMES=1: each pass's seconds on stderr (bench/NOTES.md).
  const bool print_times = std::getenv("PMC_EXPLORE_TIMES") != nullptr;
  const auto pass_start = std::chrono::steady_clock::now();
  auto mark = [&](const char* what) {
    if (!print_times) return;
    std::fprintf(stderr, "generator: %s by %.3f s\n", what,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - pass_start).count());
  };
  const StateKey key(spec.max_state_size, spec.fixed_size);
  const uint32_t words = key.words();
  const uint32_t stride = words + 1;
  ActionTable actions;
  std::vector<uint32_t> initial_ids;
  std::vector<GeneratedBlock> blocks;
  std::vector<uint64_t> records;
  uint64_t n = 0;
  {
    constexpr uint64_t k_first_states = 1 << 12;
    require_memory(StateSet::bytes_for(words, k_first_states), options.model.memory_limit,
                   fmt::format("{}: exploration's first state store", k_where));
    StateSet set(words, k_first_states);
    blocks = reach_states(spec, options, key, set, actions, initial_ids, threads);
    mark("pass 1 (reachability)");
    throw_if_cancelled(options.cancel);
    n = set.size();
    uint64_t block_bytes = 0, entries = 0, rows = 0;
    for (const GeneratedBlock& block : blocks) {
      block_bytes += block.bytes();
      entries += block.rows.columns.size();
      rows += block.rows.row_entries.size() - 1;
    }
    const uint64_t numbering = set.bytes() + 2 * n * stride * sizeof(uint64_t) + n * (4 + 8);
    const uint64_t model = model_bytes_for(spec.type, n, rows, entries) +
                           spec.labels.size() * (n / 8 + 8) + spec.rewards.size() * 8 * (n + entries) +
                           n * key.max_size();
    require_memory(block_bytes + numbering + model, options.model.memory_limit,
                   fmt::format("{}: building the model of {} states and {} transitions", k_where, n, entries),
                   fmt::format("rows found {}, numbering {}, model {}", format_bytes(block_bytes),
                               format_bytes(numbering), format_bytes(model)));
    records = spec.order == StateOrder::bytes ? prism_language::sorted_records(set, threads)
                                              : set.keys_with_ids(threads);
  }
  mark("pass 2 (records sorted)");
  throw_if_cancelled(options.cancel);

  // where[id]: the block (high 32 bits) and place in it of a discovery id's
  // rows; final_of[id]: its index in state order.
  std::vector<uint64_t> where(n);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
  for (int64_t i = 0; i < static_cast<int64_t>(blocks.size()); ++i) {
    const auto b = static_cast<size_t>(i);
    const std::vector<uint32_t>& states = blocks[b].rows.states;
    for (size_t k = 0; k < states.size(); ++k) where[states[k]] = static_cast<uint64_t>(b) << 32 | k;
  }
  std::vector<uint32_t> final_of;
  if (spec.order == StateOrder::bfs) {
    final_of = breadth_first_numbering(blocks, where, initial_ids);
  } else {
    final_of.resize(n);
    for (uint64_t i = 0; i < n; ++i) final_of[records[i * stride + words]] = static_cast<uint32_t>(i);
  }
  std::vector<uint64_t> source(n);  // where[] in state order
  std::vector<uint8_t> state_data(n * key.max_size());
  std::vector<uint32_t> state_sizes(key.fixed() ? 0 : n);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
    const uint64_t* record = &records[static_cast<uint64_t>(i) * stride];
    const uint32_t s = final_of[record[words]];
    source[s] = where[record[words]];
    key.unpack(record, &state_data[uint64_t{s} * key.max_size()]);
    if (!key.fixed()) state_sizes[s] = key.size_of(record);
  }
  records = {};
  where = {};
  mark("numbered");

  ModelParts parts;
  parts.type = spec.type;
  parts.num_states = n;
  parts.labels.push_back({"init", Bitset(n)});
  parts.labels.push_back({"deadlock", Bitset(n)});
  for (const std::string& label : spec.labels) parts.labels.push_back({label, Bitset(n)});
  for (uint32_t id : initial_ids) parts.labels[0].states.set(final_of[id]);

  // Pass 3: where each state's rows and entries start, then the copies.
  const bool mdp = spec.type == ModelType::mdp;
  std::vector<uint64_t> state_entries(n + 1, 0);
  if (mdp) parts.row_groups.assign(n + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
    const auto s = static_cast<uint64_t>(i);
    const RowBlock& rows = blocks[source[s] >> 32].rows;
    const auto k = static_cast<uint32_t>(source[s]);
    state_entries[s + 1] = rows.row_entries[rows.state_rows[k + 1]] - rows.row_entries[rows.state_rows[k]];
    if (mdp) parts.row_groups[s + 1] = rows.state_rows[k + 1] - rows.state_rows[k];
  }
  std::partial_sum(state_entries.begin(), state_entries.end(), state_entries.begin());
  if (mdp) std::partial_sum(parts.row_groups.begin(), parts.row_groups.end(), parts.row_groups.begin());
  mark("rows counted");
  const uint64_t entries = state_entries[n];
  const uint64_t num_rows = mdp ? parts.row_groups[n] : n;
  parts.row_offsets.resize(num_rows + 1);
  parts.columns.resize(entries);
  parts.values.resize(entries);
  // Actions are kept only when the generator named one.
  const std::vector<std::string> action_names = actions.names();
  const bool with_actions = action_names.size() > 1;
  if (with_actions) parts.entry_actions.resize(entries);
  const size_t num_rewards = spec.rewards.size();
  const size_t label_words = (spec.labels.size() + 63) / 64;
  for (const std::string& name : spec.rewards) {
    parts.rewards.push_back({name, std::vector<double>(n, 0.0), std::vector<double>(entries, 0.0)});
  }
  Flagged deadlocks, several;
#pragma omp parallel num_threads(threads)
  {
    Flagged my_deadlocks, my_several;
    std::vector<uint32_t> order;
#pragma omp for schedule(static, k_assembly_states)
    for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
      const auto s = static_cast<uint64_t>(i);
      const GeneratedBlock& block = blocks[source[s] >> 32];
      const RowBlock& rows = block.rows;
      const auto k = static_cast<uint32_t>(source[s]);
      if ((rows.flags[k] & RowBlock::k_deadlock) != 0) {
        parts.labels[1].states.set(s);
        if (my_deadlocks.count++ == 0) my_deadlocks.first = s;
      }
      if ((rows.flags[k] & RowBlock::k_nondeterministic) != 0 && my_several.count++ == 0) my_several.first = s;
      for (size_t l = 0; l < spec.labels.size(); ++l) {
        if ((block.labels[k * label_words + l / 64] >> (l % 64) & 1) != 0) parts.labels[2 + l].states.set(s);
      }
      for (size_t r = 0; r < num_rewards; ++r) parts.rewards[r].state_rewards[s] = block.state_rewards[k * num_rewards + r];
      const uint32_t first_row = rows.state_rows[k], last_row = rows.state_rows[k + 1];
      const uint64_t row0 = mdp ? parts.row_groups[s] : s;
      uint64_t out = state_entries[s];
      for (uint32_t r = first_row; r < last_row; ++r) {
        parts.row_offsets[row0 + (r - first_row)] = out;
        const uint32_t from = rows.row_entries[r], to = rows.row_entries[r + 1];
        order.resize(to - from);
        std::iota(order.begin(), order.end(), from);
        if (spec.order == StateOrder::bfs) {  // numbered by bytes, rows are in column order already
          std::sort(order.begin(), order.end(),
                    [&](uint32_t a, uint32_t b) { return final_of[rows.columns[a]] < final_of[rows.columns[b]]; });
        }
        for (uint32_t e : order) {
          parts.columns[out] = final_of[rows.columns[e]];
          parts.values[out] = rows.values[e];
          if (with_actions) parts.entry_actions[out] = rows.actions[e];
          for (size_t t = 0; t < num_rewards; ++t) parts.rewards[t].transition_rewards[out] = rows.transition_rewards[t][e];
          ++out;
        }
      }
    }
#pragma omp critical
    {
      deadlocks.count += my_deadlocks.count;
      deadlocks.first = std::min(deadlocks.first, my_deadlocks.first);
      several.count += my_several.count;
      several.first = std::min(several.first, my_several.first);
    }
  }
  parts.row_offsets[num_rows] = entries;
  mark("pass 3 (assembled)");
  blocks = {};
  parts.state_bytes = StateBytes(key.max_size(), std::move(state_data), std::move(state_sizes));

  // Action names numbered by first use in state order, so the model does
  // not depend on which thread met a name first; none named: no actions.
  parts.action_names = {""};
  if (with_actions) number_actions_by_first_use(action_names, threads, parts);
  mark("actions numbered");

  if (deadlocks.count > 0) {
    const std::string state = describe_state_bytes(parts.state_bytes.of(deadlocks.first));
    if (options.model.strict) {
      fail(ErrorCode::model,
           "{}: state {} ({}) has no outgoing transitions (a deadlock); strict loading rejects deadlocks", k_where,
           deadlocks.first, state);
    }
    parts.warnings.push_back(fmt::format(
        "{} deadlock state(s) (first: state {}, {}) got a self-loop, as PRISM does; the label \"deadlock\" holds "
        "them; load strictly to reject them", deadlocks.count, deadlocks.first, state));
  }
  if (several.count > 0) {
    parts.warnings.push_back(fmt::format(
        "the DTMC is nondeterministic in {} state(s) (first: state {}, {}): the generator gave several choices, "
        "each taken with equal probability, as PRISM does", several.count, several.first,
        describe_state_bytes(parts.state_bytes.of(several.first))));
  }
  return parts;
}

}  // namespace pmc::generator
