// Reachability without levels: the final numbering sorts the states
// (explorer.cpp), so the order in which they are found does not matter, and
// the threads share a pool of chunks of unexpanded states instead of
// meeting at a barrier after every BFS level. Deep, narrow models (brp
// N256: ~2000 levels; cluster: hundreds) spent half their time in those
// barriers on a busy 2-core machine (perf: 50% in libgomp's spin-wait).
//
// The StateSet cannot grow while threads insert, so a thread that finds it
// full (or nearly full before taking a chunk) asks for a pause: the others
// finish their current chunk and wait, one thread grows the table, and all
// go on; the thread that found it full then retries the same insert.
//
// Each state is expanded once: its rows are recorded right away against
// the discovery ids insert() returns (rows.hpp), in per-thread blocks of
// a few thousand states, and renumbered into PRISM's order afterwards
// (explorer.cpp). A chunk is a list of (packed key, id) records.
#include "formats/prism_language/state_discovery.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "formats/prism_language/exploration_pool.hpp"
#include "formats/prism_language/successors.hpp"
#include "common/cancellation.hpp"

namespace pmc::prism_language {
namespace {

// States per chunk: enough to make the pool's lock rare, few enough that
// narrow levels still spread over the threads.
constexpr size_t k_chunk_states = 256;
// States per row block: its vectors' allocations stay few per state.
constexpr size_t k_row_block_states = 4096;

}  // namespace

// Code model rather than out_of_memory: the limit is the user's (or the
// model store's 32-bit indices), not an allocation that failed.
void too_many_states(const std::string& file, uint64_t limit, bool user_limit) {
  if (user_limit) {
    fail(ErrorCode::model,
         "{}: exploration stopped: the model has more than {} reachable states, the state limit set; raise it "
         "({}), or give 0 for no limit",
         file, limit, setting_name(Setting::max_states));
  }
  fail(ErrorCode::model,
       "{}: exploration stopped: the model has more than {} reachable states, pmc's limit (32-bit state indices)",
       file, limit);
}

std::vector<RowBlock> reach_states(const PrismModel& program, const StateLayout& layout,
                                   const std::vector<uint64_t>& initial, StateSet& set,
                                   const std::vector<uint32_t>& transition_structures, uint64_t max_states,
                                   unsigned threads, uint64_t memory_limit, const std::atomic<bool>* cancel,
                                   const std::function<void(uint64_t, double)>& progress,
                                   const GpuHandOver& hand_over) {
  const uint32_t words = layout.words();
  std::atomic<bool> asked_gpu{hand_over.states == 0};
  const uint32_t stride = words + 1;  // a chunk's record: the key, then its id
  // Progress: one worker at a time (try_lock), at most every 0.2 s.
  const auto start = std::chrono::steady_clock::now();
  std::mutex progress_mutex;
  auto last_report = start;
  auto report_progress = [&] {
    if (!progress || !progress_mutex.try_lock()) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report >= std::chrono::milliseconds(200)) {
      last_report = now;
      progress(set.size(), std::chrono::duration<double>(now - start).count());
    }
    progress_mutex.unlock();
  };
  const bool user_limit = max_states != 0;
  const uint64_t limit = user_limit ? std::min(max_states, k_max_states) : k_max_states;
  std::atomic<uint64_t> block_bytes{0};  // the rows kept so far (RowBlock::bytes)
  ExplorationPool pool(set, block_bytes, threads, memory_limit, program.file);
  {
    std::vector<uint64_t> first;
    for (size_t i = 0; i < initial.size(); i += words) {
      if (!set.has_room_for(1)) {
        require_room(set, 1, 0, memory_limit, program.file);
        set.grow(1);
      }
      const StateSet::Found found = set.insert(&initial[i]);
      if (found.result == StateSet::Insert::inserted) {
        first.insert(first.end(), initial.begin() + static_cast<int64_t>(i),
                     initial.begin() + static_cast<int64_t>(i + words));
        first.push_back(found.id);
      }
      if (first.size() >= k_chunk_states * stride) {
        pool.push(std::move(first));
        first.clear();
      }
    }
    if (!first.empty()) pool.push(std::move(first));
  }
  if (set.size() > limit) too_many_states(program.file, limit, user_limit);

  std::mutex blocks_mutex;
  std::vector<RowBlock> blocks;
  auto keep = [&](RowBlock& block) {
    block.finish();
    block_bytes.fetch_add(block.bytes(), std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(blocks_mutex);
    blocks.push_back(std::move(block));
    block = RowBlock{};
  };
  auto new_block = [&] {
    RowBlock block;
    block.transition_rewards.resize(transition_structures.size());
    return block;
  };
  auto worker = [&]() {
    try {
      SuccessorGenerator generator(program, layout);
      RowBuilder builder(program, words, transition_structures);
      RowBlock block = new_block();
      std::vector<int32_t> values(program.variables.size());
      std::vector<uint32_t> target_ids;
      std::vector<uint64_t> found;
      bool active = false;
      double branches_per_state = 8;
      while (true) {
        std::vector<uint64_t> chunk = pool.pop(active);
        active = !chunk.empty();
        if (!active) break;
        throw_if_cancelled(cancel);
        report_progress();
        if (set.size() > hand_over.states && !asked_gpu.load(std::memory_order_relaxed) &&
            !asked_gpu.exchange(true) && hand_over.to_gpu()) {
          throw HandedOver{};
        }
        const size_t states = chunk.size() / stride;
        // Room for this chunk's targets before starting it, so `full`
        // below stays rare.
        const auto expected = static_cast<uint64_t>(static_cast<double>(states) * branches_per_state) + 1;
        if (!set.has_room_for(expected * 2)) pool.grow(expected * 2 * threads);
        uint64_t branches = 0;
        for (size_t s = 0; s < states; ++s) {
          const uint64_t* key = &chunk[s * stride];
          layout.unpack(key, values);
          generator.expand(values, key);
          const size_t n = generator.num_branches();
          branches += n;
          target_ids.resize(n);
          for (size_t b = 0; b < n; ++b) set.prefetch(generator.target(b));
          for (size_t b = 0; b < n; ++b) {
            StateSet::Found result = set.insert(generator.target(b));
            while (result.result == StateSet::Insert::full) {
              pool.grow(expected * 2 * threads);
              result = set.insert(generator.target(b));
            }
            target_ids[b] = result.id;
            if (result.result != StateSet::Insert::inserted) continue;
            found.insert(found.end(), generator.target(b), generator.target(b) + words);
            found.push_back(result.id);
            if (set.size() > limit) too_many_states(program.file, limit, user_limit);
            if (found.size() >= k_chunk_states * stride) {
              pool.push(std::move(found));
              found.clear();
            }
          }
          builder.add_state(static_cast<uint32_t>(key[words]), values, generator, target_ids, block);
        }
        branches_per_state = std::max(1.0, static_cast<double>(branches) / static_cast<double>(states));
        if (block.states.size() >= k_row_block_states) {
          keep(block);
          block = new_block();
        }
        pool.require_rows_room(block.bytes());
        if (!found.empty()) {
          pool.push(std::move(found));
          found.clear();
        }
      }
      if (!block.states.empty()) keep(block);
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

}  // namespace pmc::prism_language
