// The GPU explorer (gpu_explorer.hpp). Discovery ids are dense and given
// in insertion order, so the frontier is always the ids [done, count): a
// chunk of it is
//
//  1. counted: one thread per state expands it (the device VM runs the flat
//     code) and counts its branches and alternatives, flagging run-time
//     errors (the host then re-expands that state on the CPU, which throws
//     the CPU's own message);
//  2. written: the same expansion stores each branch's packed target,
//     weight and alternative, and each alternative's action and transition
//     rewards, at offsets scanned from the counts;
//  3. inserted: one thread per branch finds or inserts its target in the
//     hash set (open addressing over slot words holding ids; a slot is
//     locked while its new state's key is written), which hands new states
//     the next ids — the next frontier;
//  4. turned into rows: one thread per state sorts its branches by target
//     key and merges equal targets exactly as RowBuilder (rows.cpp) does;
//  5. compacted onto the rows of the chunks before, by discovery id.
//
// Once the frontier is empty the states are numbered (a radix sort of the
// packed keys, word by word from the last: packed order is PRISM's state
// order) and the model is assembled in that order, its columns renumbered
// (explorer.cpp's passes 2 and 3); the host receives each array once.
//
// Floating point follows the CPU bit for bit: sums and products in the
// same order, with explicitly rounded operations (no fused multiply-add).
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>

#include "common/large_arrays.hpp"
#include "cuda/check.cuh"
#include "cuda/device_buffer.hpp"
#include "cuda/device_scan.cuh"
#include "cuda/gpu_explorer.hpp"
#include "cuda/resident_chain.hpp"

namespace pmc::cuda {
namespace {

using expression::Op;

constexpr uint32_t k_empty_slot = 0xFFFFFFFFu;
constexpr uint32_t k_locked_slot = 0xFFFFFFFEu;
// Discovery ids stay below the slot markers.
constexpr uint64_t k_max_device_states = 0xFFFFFFF0u;
constexpr uint64_t k_max_chunk_states = uint64_t{1} << 20;
constexpr uint64_t k_max_chunk_branches = uint64_t{1} << 25;
constexpr int k_expand_threads = 128;
// Past this many milliseconds, an exploration whose chunks average fewer
// states than this is handed to the CPU (Explorer::run).
constexpr uint64_t k_narrow_chunk_states = 1024;
constexpr int k_narrow_patience_ms = 500;
// PRISM's default "sum round-off" (successors.cpp).
constexpr double k_probability_sum_tolerance = 1e-5;

enum Status : int { k_ok = 0, k_runtime_error = 1, k_beyond_capacity = 2 };

// std::nan("")'s bits, which the CPU's min and max return.
__device__ double nan_value() { return __longlong_as_double(0x7FF8000000000000LL); }

union Value {
  int64_t i;
  double d;
};

// The program in device memory.
struct Program {
  uint8_t model_type;  // 0 DTMC, 1 CTMC, 2 MDP
  uint32_t words, num_variables, num_actions, num_structures, num_local;
  const ExploreField* fields;
  const FlatInstruction* code;
  const ExploreCommand* commands;
  const ExploreUpdate* updates;
  const ExploreAssignment* assignments;
  const uint32_t* local_commands;
  const uint32_t* action_participants;
  const ExploreParticipant* participants;
  const uint32_t* participant_commands;
  const uint32_t* structure_items;
  const ExploreRewardItem* reward_items;
};

// ---------------------------------------------------------------------------
// The VM: evaluator.cpp's run_code, with a status instead of exceptions.

__device__ bool add_overflows(int64_t a, int64_t b, int64_t& r) {
  r = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  return ((a ^ r) & (b ^ r)) < 0;
}
__device__ bool subtract_overflows(int64_t a, int64_t b, int64_t& r) {
  r = static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  return ((a ^ b) & (a ^ r)) < 0;
}
__device__ bool multiply_overflows(int64_t a, int64_t b, int64_t& r) {
  r = static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  const int64_t high = __mul64hi(a, b);
  return high != (r >> 63);
}
__device__ bool to_integer(double value, int64_t& out) {
  if (!(value >= -9223372036854775808.0 && value < 9223372036854775808.0)) return false;
  out = static_cast<int64_t>(value);
  return true;
}

__device__ bool run(const Program& p, const FlatExpression& e, const int32_t* vars, Value& result) {
  Value stack[k_explore_max_stack];
  int top = -1;
  const FlatInstruction* code = p.code + e.first;
  for (uint32_t pc = 0; pc < e.size; ++pc) {
    const FlatInstruction in = code[pc];
    switch (static_cast<Op>(in.op)) {
      case Op::push: stack[++top].i = in.value.i; break;
      case Op::load: stack[++top].i = vars[in.arg]; break;
      case Op::to_real: stack[top].d = __ll2double_rn(stack[top].i); break;
      case Op::negate_integer:
        if (stack[top].i == INT64_MIN) return false;
        stack[top].i = -stack[top].i;
        break;
      case Op::negate_real: stack[top].d = -stack[top].d; break;
      case Op::logical_not: stack[top].i = stack[top].i == 0; break;
#define PMC_BINARY(OP, FIELD, ...)   \
  case Op::OP: {                     \
    const auto b = stack[top].FIELD; \
    --top;                           \
    const auto a = stack[top].FIELD; \
    Value& out = stack[top];         \
    __VA_ARGS__;                     \
    break;                           \
  }
      PMC_BINARY(add_integer, i, if (add_overflows(a, b, out.i)) return false)
      PMC_BINARY(subtract_integer, i, if (subtract_overflows(a, b, out.i)) return false)
      PMC_BINARY(multiply_integer, i, if (multiply_overflows(a, b, out.i)) return false)
      PMC_BINARY(add_real, d, out.d = __dadd_rn(a, b))
      PMC_BINARY(subtract_real, d, out.d = __dsub_rn(a, b))
      PMC_BINARY(multiply_real, d, out.d = __dmul_rn(a, b))
      PMC_BINARY(divide_real, d, out.d = __ddiv_rn(a, b))
#define PMC_COMPARE(NAME, OPERATOR)                   \
  PMC_BINARY(NAME##_integer, i, out.i = a OPERATOR b) \
  PMC_BINARY(NAME##_real, d, out.i = a OPERATOR b)
      PMC_COMPARE(less, <)
      PMC_COMPARE(less_equal, <=)
      PMC_COMPARE(greater, >)
      PMC_COMPARE(greater_equal, >=)
      PMC_COMPARE(equal, ==)
      PMC_COMPARE(not_equal, !=)
      PMC_BINARY(min_integer, i, out.i = b < a ? b : a)
      PMC_BINARY(max_integer, i, out.i = b > a ? b : a)
      PMC_BINARY(min_real, d, out.d = isnan(a) || isnan(b) ? nan_value() : (b < a ? b : a))
      PMC_BINARY(max_real, d, out.d = isnan(a) || isnan(b) ? nan_value() : (b > a ? b : a))
      PMC_BINARY(power_integer, i, {
        if (b < 0) return false;
        int64_t base = a, exponent = b, power = 1;
        while (exponent > 0) {
          if ((exponent & 1) != 0 && multiply_overflows(power, base, power)) return false;
          exponent >>= 1;
          if (exponent > 0 && multiply_overflows(base, base, base)) return false;
        }
        out.i = power;
      })
      PMC_BINARY(modulo_integer, i, {
        if (b == 0) return false;
        const int64_t rem = b == -1 ? 0 : a % b;
        out.i = rem < 0 ? rem + b : rem;
      })
#undef PMC_COMPARE
#undef PMC_BINARY
      case Op::floor:
        if (!to_integer(floor(stack[top].d), stack[top].i)) return false;
        break;
      case Op::ceil:
        if (!to_integer(ceil(stack[top].d), stack[top].i)) return false;
        break;
      case Op::round:
        if (!to_integer(floor(__dadd_rn(stack[top].d, 0.5)), stack[top].i)) return false;
        break;
      case Op::jump: pc = in.arg - 1; break;
      case Op::jump_if_false: {
        const bool condition = stack[top].i != 0;
        --top;
        if (!condition) pc = in.arg - 1;
        break;
      }
      case Op::and_jump:
        if (stack[top].i == 0) pc = in.arg - 1; else --top;
        break;
      case Op::or_jump:
        if (stack[top].i != 0) pc = in.arg - 1; else --top;
        break;
      default:  // pow and log of reals: the host never sends them (flatten.hpp)
        return false;
    }
  }
  result = stack[0];
  return true;
}

__device__ bool evaluate_real(const Program& p, const FlatExpression& e, const int32_t* vars, double& out) {
  Value v;
  if (!run(p, e, vars, v)) return false;
  out = e.type == 2 ? v.d : __ll2double_rn(v.i);
  return true;
}

// ---------------------------------------------------------------------------
// Expansion: successors.cpp's SuccessorGenerator::expand, one state per thread.

struct Enabled {
  uint32_t command, first_weight;
};

// What one expansion produces; Write adds the stores.
struct Expansion {
  uint32_t branches = 0, alternatives = 0;
  // Write only: where this state's branches and alternatives go.
  uint64_t* branch_keys = nullptr;
  double* branch_weights = nullptr;
  uint32_t* branch_alternatives = nullptr;
  uint32_t* alternative_actions = nullptr;
  uint32_t* alternative_first = nullptr;
  double* alternative_rewards = nullptr;
};

template <bool Write>
struct Expander {
  const Program& p;
  const uint64_t* source;
  const int32_t* vars;
  Expansion& out;
  double weights[k_explore_max_weights];
  uint32_t num_weights = 0;
  Enabled enabled[k_explore_max_enabled];
  uint32_t module_first[k_explore_max_enabled], module_count[k_explore_max_enabled];
  uint32_t combination[k_explore_max_enabled], choice[k_explore_max_enabled];
  Enabled chosen[k_explore_max_enabled];

  __device__ Expander(const Program& program, const uint64_t* s, const int32_t* v, Expansion& o)
      : p(program), source(s), vars(v), out(o) {}

  // SuccessorGenerator::enable.
  __device__ int enable(uint32_t c, bool& is_enabled) {
    const ExploreCommand& command = p.commands[c];
    Value guard;
    if (!run(p, command.guard, vars, guard)) return k_runtime_error;
    is_enabled = guard.i != 0;
    if (!is_enabled) return k_ok;
    const bool rates = p.model_type == 1;
    double sum = 0;
    for (uint32_t u = 0; u < command.num_updates; ++u) {
      double w;
      if (!evaluate_real(p, p.updates[command.first_update + u].weight, vars, w)) return k_runtime_error;
      if (!isfinite(w) || w < 0) return k_runtime_error;
      sum = __dadd_rn(sum, w);
      if (num_weights == k_explore_max_weights) return k_beyond_capacity;
      weights[num_weights++] = w;
    }
    if (!rates && fabs(__dsub_rn(sum, 1.0)) > k_probability_sum_tolerance) return k_runtime_error;
    return k_ok;
  }

  // SuccessorGenerator::add_branch.
  __device__ int add_branch(double weight, const Enabled* commands, uint32_t k) {
    uint64_t target[k_explore_max_words];
    for (uint32_t w = 0; w < p.words; ++w) target[w] = source[w];
    for (uint32_t j = 0; j < k; ++j) {
      const ExploreUpdate& update = p.updates[p.commands[commands[j].command].first_update + choice[j]];
      for (uint32_t a = 0; a < update.num_assignments; ++a) {
        const ExploreAssignment& assignment = p.assignments[update.first_assignment + a];
        Value value;
        if (!run(p, assignment.value, vars, value)) return k_runtime_error;
        const ExploreField& f = p.fields[assignment.variable];
        if (value.i < f.lower || value.i > f.upper) return k_runtime_error;
        const uint64_t offset = static_cast<uint64_t>(value.i - f.lower);
        target[f.word] = (target[f.word] & ~(f.mask << f.shift)) | ((offset & f.mask) << f.shift);
      }
    }
    if constexpr (Write) {
      const uint32_t b = out.branches;
      for (uint32_t w = 0; w < p.words; ++w) out.branch_keys[static_cast<uint64_t>(b) * p.words + w] = target[w];
      out.branch_weights[b] = weight;
      out.branch_alternatives[b] = out.alternatives;
    }
    ++out.branches;
    return k_ok;
  }

  // SuccessorGenerator::add_alternative, then the alternative's transition
  // rewards (RowBuilder::transition_reward).
  __device__ int add_alternative(uint32_t action, const Enabled* commands, uint32_t k) {
    const uint32_t first = out.branches;
    for (uint32_t j = 0; j < k; ++j) choice[j] = 0;
    while (true) {
      double weight = 1;
      for (uint32_t j = 0; j < k; ++j) weight = __dmul_rn(weight, weights[commands[j].first_weight + choice[j]]);
      if (weight != 0) {
        const int status = add_branch(weight, commands, k);
        if (status != k_ok) return status;
      }
      uint32_t j = 0;
      while (j < k && ++choice[j] == p.commands[commands[j].command].num_updates) choice[j++] = 0;
      if (j == k) break;
    }
    if (out.branches == first) return k_ok;
    if constexpr (Write) {
      const uint32_t a = out.alternatives;
      out.alternative_actions[a] = action;
      out.alternative_first[a] = first;
      for (uint32_t r = 0; r < p.num_structures; ++r) {
        double sum = 0;
        for (uint32_t i = p.structure_items[r]; i < p.structure_items[r + 1]; ++i) {
          const ExploreRewardItem& item = p.reward_items[i];
          if (item.action != action) continue;
          Value guard;
          if (!run(p, item.guard, vars, guard)) return k_runtime_error;
          if (guard.i == 0) continue;
          double value;
          if (!evaluate_real(p, item.value, vars, value)) return k_runtime_error;
          sum = __dadd_rn(sum, value);
        }
        out.alternative_rewards[static_cast<uint64_t>(a) * p.num_structures + r] = sum;
      }
    }
    ++out.alternatives;
    return k_ok;
  }

  __device__ int expand() {
    for (uint32_t l = 0; l < p.num_local; ++l) {
      num_weights = 0;
      const uint32_t c = p.local_commands[l];
      bool on = false;
      int status = enable(c, on);
      if (status != k_ok) return status;
      if (!on) continue;
      const Enabled one{c, 0};
      status = add_alternative(0, &one, 1);
      if (status != k_ok) return status;
    }
    for (uint32_t action = 1; action < p.num_actions; ++action) {
      const uint32_t first_participant = p.action_participants[action];
      const uint32_t k = p.action_participants[action + 1] - first_participant;
      if (k == 0) continue;
      if (k > k_explore_max_enabled) return k_beyond_capacity;
      num_weights = 0;
      uint32_t num_enabled = 0;
      bool blocked = false;
      for (uint32_t m = 0; m < k; ++m) {
        const ExploreParticipant& participant = p.participants[first_participant + m];
        const uint32_t first = num_enabled;
        for (uint32_t i = 0; i < participant.count; ++i) {
          const uint32_t c = p.participant_commands[participant.first + i];
          const uint32_t first_weight = num_weights;
          bool on = false;
          const int status = enable(c, on);
          if (status != k_ok) return status;
          if (!on) continue;
          if (num_enabled == k_explore_max_enabled) return k_beyond_capacity;
          enabled[num_enabled++] = {c, first_weight};
        }
        if (num_enabled == first) {
          blocked = true;
          break;
        }
        module_first[m] = first;
        module_count[m] = num_enabled - first;
      }
      if (blocked) continue;
      for (uint32_t m = 0; m < k; ++m) combination[m] = 0;
      while (true) {
        for (uint32_t m = 0; m < k; ++m) chosen[m] = enabled[module_first[m] + combination[m]];
        const int status = add_alternative(action, chosen, k);
        if (status != k_ok) return status;
        uint32_t m = 0;
        while (m < k && ++combination[m] == module_count[m]) combination[m++] = 0;
        if (m == k) break;
      }
    }
    return k_ok;
  }
};

// State `id`'s packed key into `source` and its variables' values into `vars`.
__device__ void load_state(const Program& p, const uint64_t* keys, uint64_t id, uint64_t* source, int32_t* vars) {
  for (uint32_t w = 0; w < p.words; ++w) source[w] = keys[id * p.words + w];
  for (uint32_t i = 0; i < p.num_variables; ++i) {
    const ExploreField& f = p.fields[i];
    vars[i] = static_cast<int32_t>(static_cast<int64_t>((source[f.word] >> f.shift) & f.mask) + f.lower);
  }
}

struct Flags {
  unsigned long long failed_state;  // the smallest id whose expansion failed; ~0: none
  unsigned int beyond_capacity;
};

__device__ void report(Flags* flags, int status, uint64_t id) {
  if (status == k_runtime_error) atomicMin(&flags->failed_state, static_cast<unsigned long long>(id));
  if (status == k_beyond_capacity) atomicExch(&flags->beyond_capacity, 1u);
}

__global__ void __launch_bounds__(k_expand_threads) count_kernel(Program p, const uint64_t* keys, uint64_t first,
                                                                 uint64_t count, uint64_t* branch_counts,
                                                                 uint64_t* alternative_counts, Flags* flags) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  uint64_t source[k_explore_max_words];
  int32_t vars[k_explore_max_variables];
  load_state(p, keys, first + i, source, vars);
  Expansion out;
  Expander<false> expander(p, source, vars, out);
  const int status = expander.expand();
  if (status != k_ok) report(flags, status, first + i);
  branch_counts[i] = out.branches;
  alternative_counts[i] = out.alternatives;
}

struct BranchArrays {
  uint64_t* keys;
  double* weights;
  uint32_t* alternatives;
  uint32_t* alternative_actions;
  uint32_t* alternative_first;
  double* alternative_rewards;
};

__global__ void __launch_bounds__(k_expand_threads) write_kernel(Program p, const uint64_t* keys, uint64_t first,
                                                                 uint64_t count, const uint64_t* branch_offsets,
                                                                 const uint64_t* alternative_offsets,
                                                                 BranchArrays arrays, Flags* flags) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  uint64_t source[k_explore_max_words];
  int32_t vars[k_explore_max_variables];
  load_state(p, keys, first + i, source, vars);
  const uint64_t bo = branch_offsets[i], ao = alternative_offsets[i];
  Expansion out;
  out.branch_keys = arrays.keys + bo * p.words;
  out.branch_weights = arrays.weights + bo;
  out.branch_alternatives = arrays.alternatives + bo;
  out.alternative_actions = arrays.alternative_actions + ao;
  out.alternative_first = arrays.alternative_first + ao;
  out.alternative_rewards = arrays.alternative_rewards + ao * p.num_structures;
  Expander<true> expander(p, source, vars, out);
  const int status = expander.expand();
  if (status != k_ok) report(flags, status, first + i);
}

// ---------------------------------------------------------------------------
// The hash set.

struct HashSet {
  uint32_t* slots;
  uint64_t mask;
  uint64_t* keys;  // by id
  unsigned long long* count;
  uint32_t words;
};

__device__ uint64_t hash_key(const uint64_t* key, uint32_t words) {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  for (uint32_t w = 0; w < words; ++w) {
    h ^= key[w];
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 29);
}

__device__ uint32_t load_slot(const uint32_t* slot) { return *reinterpret_cast<const volatile uint32_t*>(slot); }

__device__ bool key_equals(const uint64_t* stored, const uint64_t* key, uint32_t words) {
  for (uint32_t w = 0; w < words; ++w) {
    if (__ldcg(stored + w) != key[w]) return false;
  }
  return true;
}

__device__ uint32_t find_or_insert(const HashSet& set, const uint64_t* key) {
  uint64_t h = hash_key(key, set.words) & set.mask;
  while (true) {
    uint32_t s = load_slot(set.slots + h);
    if (s == k_empty_slot) {
      s = atomicCAS(set.slots + h, k_empty_slot, k_locked_slot);
      if (s == k_empty_slot) {
        const uint64_t id = atomicAdd(set.count, 1ull);
        for (uint32_t w = 0; w < set.words; ++w) __stcg(set.keys + id * set.words + w, key[w]);
        __threadfence();
        atomicExch(set.slots + h, static_cast<uint32_t>(id));
        return static_cast<uint32_t>(id);
      }
    }
    while (s == k_locked_slot) s = load_slot(set.slots + h);
    if (key_equals(set.keys + static_cast<uint64_t>(s) * set.words, key, set.words)) return s;
    h = (h + 1) & set.mask;
  }
}

__global__ void insert_kernel(HashSet set, const uint64_t* keys, uint64_t count, uint32_t* ids) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  uint64_t key[k_explore_max_words];
  for (uint32_t w = 0; w < set.words; ++w) key[w] = keys[i * set.words + w];
  ids[i] = find_or_insert(set, key);
}

// Every stored key into a fresh (larger) table: ids known, keys distinct.
__global__ void rehash_kernel(HashSet set, uint64_t count) {
  const uint64_t id = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (id >= count) return;
  uint64_t h = hash_key(set.keys + id * set.words, set.words) & set.mask;
  while (atomicCAS(set.slots + h, k_empty_slot, static_cast<uint32_t>(id)) != k_empty_slot) h = (h + 1) & set.mask;
}

// ---------------------------------------------------------------------------
// Rows: RowBuilder::add_state over the branches, one state per thread.

struct RowArrays {
  // Inputs.
  const uint64_t* branch_offsets;
  const uint64_t* alternative_offsets;
  const uint64_t* branch_keys;
  const double* branch_weights;
  const uint32_t* branch_alternatives;
  const uint32_t* branch_targets;  // discovery ids
  const uint32_t* alternative_actions;
  const uint32_t* alternative_first;
  const double* alternative_rewards;
  uint32_t* order;  // scratch, one per branch
  // Outputs, uncompacted: a state's entries at branch_offset + i (room for
  // branches + 1), its rows at alternative_offset + i (alternatives + 1).
  uint32_t* columns;
  double* values;
  uint32_t* actions;
  double* rewards;  // structure r at r * entry_room
  uint64_t entry_room;
  uint32_t* row_entries;  // relative to the state's first entry
  uint64_t* entry_counts;
  uint64_t* row_counts;
  uint8_t* flags;
};

__device__ bool branch_less(const uint64_t* keys, uint32_t words, uint32_t a, uint32_t b) {
  for (uint32_t w = 0; w < words; ++w) {
    const uint64_t x = keys[static_cast<uint64_t>(a) * words + w], y = keys[static_cast<uint64_t>(b) * words + w];
    if (x != y) return x < y;
  }
  return a < b;
}

// Insertion sort of order[0, n) (branch indices) by (target key, index).
__device__ void sort_branches(uint32_t* order, uint32_t n, const uint64_t* keys, uint32_t words) {
  for (uint32_t i = 1; i < n; ++i) {
    const uint32_t x = order[i];
    uint32_t j = i;
    while (j > 0 && branch_less(keys, words, x, order[j - 1])) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = x;
  }
}

__global__ void rows_kernel(Program p, RowArrays r, uint64_t first, uint64_t count) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const uint64_t bo = r.branch_offsets[i], ao = r.alternative_offsets[i];
  const auto branches = static_cast<uint32_t>(r.branch_offsets[i + 1] - bo);
  const auto alternatives = static_cast<uint32_t>(r.alternative_offsets[i + 1] - ao);
  const uint32_t S = p.num_structures;
  const uint64_t eb = bo + i, rb = ao + i;  // this state's room
  const uint64_t* keys = r.branch_keys + bo * p.words;
  const double* weights = r.branch_weights + bo;
  const uint32_t* targets = r.branch_targets + bo;
  const uint32_t* alternative_of = r.branch_alternatives + bo;
  const double* alternative_rewards = r.alternative_rewards + ao * S;
  uint32_t* order = r.order + bo;
  uint32_t entries = 0, rows = 0;
  auto push_entry = [&](uint32_t column, double value, uint32_t action) {
    r.columns[eb + entries] = column;
    r.values[eb + entries] = value;
    r.actions[eb + entries] = action;
    ++entries;
  };
  if (alternatives == 0) {
    r.flags[i] = ExploredModel::k_deadlock;
    r.row_entries[rb + rows++] = 0;
    for (uint32_t s = 0; s < S; ++s) r.rewards[s * r.entry_room + eb] = 0.0;
    push_entry(static_cast<uint32_t>(first + i), 1.0, 0);
  } else if (p.model_type == 2) {
    r.flags[i] = 0;
    for (uint32_t a = 0; a < alternatives; ++a) {
      r.row_entries[rb + rows++] = entries;
      const uint32_t from = r.alternative_first[ao + a];
      const uint32_t to = a + 1 < alternatives ? r.alternative_first[ao + a + 1] : branches;
      for (uint32_t b = from; b < to; ++b) order[b - from] = b;
      sort_branches(order, to - from, keys, p.words);
      const uint32_t action = r.alternative_actions[ao + a];
      for (uint32_t x = 0; x < to - from;) {
        const uint32_t target = targets[order[x]];
        double sum = 0;
        uint32_t y = x;
        for (; y < to - from && targets[order[y]] == target; ++y) sum = __dadd_rn(sum, weights[order[y]]);
        for (uint32_t s = 0; s < S; ++s) r.rewards[s * r.entry_room + eb + entries] = alternative_rewards[a * S + s];
        push_entry(target, sum, action);
        x = y;
      }
    }
  } else {
    r.flags[i] = p.model_type == 0 && alternatives > 1 ? ExploredModel::k_nondeterministic : 0;
    r.row_entries[rb + rows++] = 0;
    const double scale = p.model_type == 0 ? __ddiv_rn(1.0, static_cast<double>(alternatives)) : 1.0;
    for (uint32_t b = 0; b < branches; ++b) order[b] = b;
    sort_branches(order, branches, keys, p.words);
    for (uint32_t x = 0; x < branches;) {
      const uint32_t target = targets[order[x]];
      const uint32_t first_alternative = alternative_of[order[x]];
      double value = 0;
      bool single = true;
      uint32_t y = x;
      for (; y < branches && targets[order[y]] == target; ++y) {
        value = __dadd_rn(value, __dmul_rn(weights[order[y]], scale));
        single = single && alternative_of[order[y]] == first_alternative;
      }
      for (uint32_t s = 0; s < S; ++s) {
        double reward;
        if (single) {
          reward = alternative_rewards[first_alternative * S + s];
        } else {
          double weighted = 0;
          for (uint32_t z = x; z < y; ++z) {
            const double share = __dmul_rn(weights[order[z]], scale);
            weighted = __dadd_rn(weighted, __dmul_rn(share, alternative_rewards[alternative_of[order[z]] * S + s]));
          }
          reward = __ddiv_rn(weighted, value);
        }
        r.rewards[s * r.entry_room + eb + entries] = reward;
      }
      push_entry(target, value, r.alternative_actions[ao + first_alternative]);
      x = y;
    }
  }
  r.entry_counts[i] = entries;
  r.row_counts[i] = rows;
}

// A chunk's rows appended to the explored rows (by discovery id).
struct CompactArrays {
  const uint64_t* branch_offsets;
  const uint64_t* alternative_offsets;
  const uint64_t* entry_offsets;  // scanned entry counts
  const uint64_t* row_offsets;    // scanned row counts
  const uint32_t* columns_in;
  const double* values_in;
  const uint32_t* actions_in;
  const double* rewards_in;
  uint64_t entry_room;
  const uint32_t* row_entries_in;
  uint64_t entry_base, row_base;  // the chunks' before
  uint32_t* columns;
  double* values;
  uint32_t* actions;  // null when the program names no actions
  double* rewards;    // entry-major: structure s of entry e at e * structures + s
  uint64_t* row_entries;
  uint64_t* state_rows;  // the chunk's first state's
};

__global__ void compact_kernel(CompactArrays c, uint32_t structures, uint64_t count) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const uint64_t eb = c.branch_offsets[i] + i, rb = c.alternative_offsets[i] + i;
  const uint64_t eo = c.entry_base + c.entry_offsets[i], ro = c.row_base + c.row_offsets[i];
  const uint64_t entries = c.entry_offsets[i + 1] - c.entry_offsets[i], rows = c.row_offsets[i + 1] - c.row_offsets[i];
  for (uint64_t e = 0; e < entries; ++e) {
    c.columns[eo + e] = c.columns_in[eb + e];
    c.values[eo + e] = c.values_in[eb + e];
    if (c.actions != nullptr) c.actions[eo + e] = c.actions_in[eb + e];
    for (uint32_t s = 0; s < structures; ++s) c.rewards[(eo + e) * structures + s] = c.rewards_in[s * c.entry_room + eb + e];
  }
  for (uint64_t k = 0; k < rows; ++k) c.row_entries[ro + k] = eo + c.row_entries_in[rb + k];
  c.state_rows[i] = ro;
}

// ---------------------------------------------------------------------------
// Numbering and assembly.

__global__ void iota_kernel(uint32_t* out, uint64_t n) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = static_cast<uint32_t>(i);
}

// out[i] = word w of the key of state order[i].
__global__ void gather_word_kernel(const uint64_t* keys, uint32_t words, uint32_t w, const uint32_t* order,
                                   uint64_t* out, uint64_t n) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = keys[static_cast<uint64_t>(order[i]) * words + w];
}

// final_of[order[i]] = i, and the keys in state order.
__global__ void number_kernel(const uint32_t* order, const uint64_t* keys, uint32_t words, uint32_t* final_of,
                              uint64_t* sorted_keys, uint64_t n) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const uint32_t id = order[i];
  final_of[id] = static_cast<uint32_t>(i);
  for (uint32_t w = 0; w < words; ++w) sorted_keys[i * words + w] = keys[static_cast<uint64_t>(id) * words + w];
}

__global__ void renumber_kernel(const uint32_t* final_of, uint32_t* ids, uint64_t n) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) ids[i] = final_of[ids[i]];
}

// Rows and entries of state i (state order); counts[n] stay 0 for the scans.
__global__ void sizes_kernel(const uint32_t* order, const uint64_t* state_rows, const uint64_t* row_entries,
                             uint64_t* row_counts, uint64_t* entry_counts, uint64_t n) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const uint32_t id = order[i];
  const uint64_t first = state_rows[id], last = state_rows[id + 1];
  row_counts[i] = last - first;
  entry_counts[i] = row_entries[last] - row_entries[first];
}

struct AssembleArrays {
  const uint32_t* order;     // state order -> discovery id
  const uint32_t* final_of;  // discovery id -> state order
  const uint64_t* state_rows;
  const uint64_t* row_entries;
  const uint32_t* columns_in;
  const double* values_in;
  const uint32_t* actions_in;
  const double* rewards_in;  // entry-major
  const uint8_t* flags_in;
  const uint64_t* row_starts;    // scanned, state order
  const uint64_t* entry_starts;  // scanned, state order
  uint64_t* row_offsets;
  uint32_t* columns;
  double* values;
  uint32_t* actions;  // null when the program names no actions
  double* rewards;    // structure s at s * entries
  uint64_t entries;
  uint8_t* flags;
};

__global__ void assemble_kernel(AssembleArrays a, uint32_t structures, uint64_t n) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const uint32_t id = a.order[i];
  const uint64_t first_row = a.state_rows[id], last_row = a.state_rows[id + 1];
  const uint64_t from = a.row_entries[first_row], to = a.row_entries[last_row];
  const uint64_t row = a.row_starts[i], offset = a.entry_starts[i];
  for (uint64_t r = first_row; r < last_row; ++r) a.row_offsets[row + (r - first_row)] = offset + (a.row_entries[r] - from);
  for (uint64_t e = from; e < to; ++e) {
    const uint64_t out = offset + (e - from);
    a.columns[out] = a.final_of[a.columns_in[e]];
    a.values[out] = a.values_in[e];
    if (a.actions != nullptr) a.actions[out] = a.actions_in[e];
    for (uint32_t s = 0; s < structures; ++s) a.rewards[s * a.entries + out] = a.rewards_in[e * structures + s];
  }
  a.flags[i] = a.flags_in[id];
}

// The labels and state rewards (ExploreProgram::state_expressions).
struct StateExpressions {
  const FlatExpression* labels;
  uint32_t num_labels;
  const uint32_t* structure_items;  // num_structures + 1
  uint32_t num_structures;
  const ExploreStateRewardItem* items;
  uint32_t* label_halves;  // label l's states at l * halves: 32-bit halves of Bitset words
  uint64_t halves;
  double* rewards;  // structure k at k * n
  unsigned int* failed;
};

// One thread per state (state order), each warp's label bits gathered by
// a ballot into one half of a Bitset word; threads past n add zeros, so
// the grid covers every half. The state rewards summed in item order as
// evaluate_state (explorer.cpp) sums them.
__global__ void state_expressions_kernel(Program p, StateExpressions x, const uint64_t* keys, uint64_t n) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  const bool inside = i < n;
  uint64_t source[k_explore_max_words];
  int32_t vars[k_explore_max_variables];
  if (inside) load_state(p, keys, i, source, vars);
  bool failed = false;
  for (uint32_t l = 0; l < x.num_labels; ++l) {
    bool holds = false;
    if (inside) {
      Value v;
      if (run(p, x.labels[l], vars, v)) holds = v.i != 0; else failed = true;
    }
    const unsigned bits = __ballot_sync(0xFFFFFFFFu, holds);
    if ((threadIdx.x & 31) == 0 && (i >> 5) < x.halves) x.label_halves[l * x.halves + (i >> 5)] = bits;
  }
  if (inside) {
    for (uint32_t k = 0; k < x.num_structures; ++k) {
      double sum = 0;
      for (uint32_t t = x.structure_items[k]; t < x.structure_items[k + 1]; ++t) {
        Value guard;
        double value = 0;
        if (!run(p, x.items[t].guard, vars, guard) || (guard.i != 0 && !evaluate_real(p, x.items[t].value, vars, value))) {
          failed = true;
        } else if (guard.i != 0) {
          sum = __dadd_rn(sum, value);
        }
      }
      x.rewards[k * n + i] = sum;
    }
  }
  if (failed) atomicExch(x.failed, 1u);
}

// ---------------------------------------------------------------------------
// The host side.

unsigned blocks_for(uint64_t items, int threads) { return static_cast<unsigned>((items + threads - 1) / threads); }

// A device array that grows (keeping its contents) but never shrinks.
template <typename T>
class GrowingBuffer {
 public:
  T* data() { return buffer_.data(); }
  size_t size() const { return buffer_.size(); }
  // At least `count` values; the first `keep` are kept.
  void reserve(size_t count, size_t keep, StreamHandle stream) {
    if (count <= buffer_.size()) return;
    DeviceBuffer<T> bigger(std::max(count, buffer_.size() + buffer_.size() / 2));
    if (keep > 0) copy_on_device(bigger.data(), buffer_.data(), keep * sizeof(T), stream);
    synchronize(stream);
    buffer_ = std::move(bigger);
  }

 private:
  DeviceBuffer<T> buffer_;
};

template <typename T>
DeviceBuffer<T> upload(const std::vector<T>& host, StreamHandle stream) {
  DeviceBuffer<T> buffer;
  if (!host.empty()) buffer.upload(host, stream);
  return buffer;
}

template <typename T>
void download(std::vector<T>& host, const T* device, size_t count, StreamHandle stream) {
  host.resize(count);
  if (count > 0) copy_to_host(host.data(), device, count * sizeof(T), stream);
}

// Exclusive sums of counts[0, n] into offsets[0, n] (counts[n] must be 0,
// so offsets[n] is the total), returned.
uint64_t exclusive_sum_total(DeviceBuffer<unsigned char>& scratch, const uint64_t* counts, uint64_t* offsets,
                             uint64_t n, StreamHandle stream) {
  exclusive_sum(counts, offsets, n + 1, scratch, stream);
  uint64_t total = 0;
  copy_to_host(&total, offsets + n, sizeof(uint64_t), stream);
  return total;
}

uint64_t next_power_of_two(uint64_t x) {
  uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

// ExploreProgram::model_type's values.
constexpr uint8_t k_ctmc_type = 1, k_mdp_type = 2;

class Explorer {
 public:
  Explorer(const ExploreProgram& program, const ExploreLimits& limits)
      : limits_(limits),
        fields_(upload(program.fields, stream_.get())),
        code_(upload(program.code, stream_.get())),
        commands_(upload(program.commands, stream_.get())),
        updates_(upload(program.updates, stream_.get())),
        assignments_(upload(program.assignments, stream_.get())),
        local_(upload(program.local_commands, stream_.get())),
        action_participants_(upload(program.action_participants, stream_.get())),
        participants_(upload(program.participants, stream_.get())),
        participant_commands_(upload(program.participant_commands, stream_.get())),
        structure_items_(upload(program.structure_items, stream_.get())),
        reward_items_(upload(program.reward_items, stream_.get())),
        state_expressions_(program.state_expressions),
        labels_(upload(program.labels, stream_.get())),
        state_structure_items_(upload(program.state_structure_items, stream_.get())),
        state_reward_items_(upload(program.state_reward_items, stream_.get())),
        flags_(1),
        count_(1) {
    p_.model_type = program.model_type;
    p_.words = program.words;
    p_.num_variables = static_cast<uint32_t>(program.fields.size());
    p_.num_actions = static_cast<uint32_t>(program.action_participants.empty() ? 0 : program.action_participants.size() - 1);
    p_.num_structures = static_cast<uint32_t>(program.structure_items.empty() ? 0 : program.structure_items.size() - 1);
    p_.num_local = static_cast<uint32_t>(program.local_commands.size());
    p_.fields = fields_.data();
    p_.code = code_.data();
    p_.commands = commands_.data();
    p_.updates = updates_.data();
    p_.assignments = assignments_.data();
    p_.local_commands = local_.data();
    p_.action_participants = action_participants_.data();
    p_.participants = participants_.data();
    p_.participant_commands = participant_commands_.data();
    p_.structure_items = structure_items_.data();
    p_.reward_items = reward_items_.data();
    words_ = program.words;
    with_actions_ = p_.num_actions > 1;
    // The sort skips each word's unused low bits (fields fill words from the top).
    low_bits_.assign(words_, 64);
    for (const ExploreField& f : program.fields) low_bits_[f.word] = std::min(low_bits_[f.word], static_cast<int>(f.shift));
    for (int& bit : low_bits_) bit = bit == 64 ? 0 : bit;
    limit_ = std::min<uint64_t>(limits.max_states == 0 ? k_max_device_states : limits.max_states, k_max_device_states);
  }

  GpuExploration run(const std::vector<uint64_t>& initial) {
    GpuExploration result;
    const StreamHandle s = stream_.get();
    const uint64_t num_initial = initial.size() / words_;
    count_.fill_zero(s);
    grow_keys(num_initial, 0);
    grow_slots(num_initial);
    {
      DeviceBuffer<uint64_t> initial_keys(initial, s);
      initial_ids_.allocate(num_initial);
      insert_kernel<<<blocks_for(num_initial, 256), 256, 0, s>>>(set(), initial_keys.data(), num_initial,
                                                                 initial_ids_.data());
      PMC_CUDA_CHECK_LAUNCH("insert_kernel");
      synchronize(s);
    }
    uint64_t count = num_initial, done = 0;
    uint64_t chunk = 4096;
    uint64_t chunks = 0;
    const auto start = std::chrono::steady_clock::now();
    using Clock = std::chrono::steady_clock;
    auto lap = [](Clock::time_point& since, double& total) {
      const auto now = Clock::now();
      total += std::chrono::duration<double>(now - since).count();
      since = now;
    };
    while (done < count) {
      auto stage = Clock::now();
      // A deep, narrow state space (a long chain: one new state per
      // breadth-first level) costs a dozen synchronisations per handful of
      // states here; the CPU explores it far faster.
      if (++chunks % 64 == 0 && done / chunks < k_narrow_chunk_states &&
          std::chrono::steady_clock::now() - start > std::chrono::milliseconds(k_narrow_patience_ms)) {
        result.reason = "the state space is too deep and narrow for the GPU explorer (" + std::to_string(done) +
                        " states in " + std::to_string(chunks) + " breadth-first steps)";
        return finish(result, Stop::beyond_device);
      }
      uint64_t size = std::min(chunk, count - done);
      // 1. Count; halve the chunk while its branches are too many.
      uint64_t branches = 0, alternatives = 0;
      while (true) {
        reserve_chunk(size);
        reset_flags();
        count_kernel<<<blocks_for(size, k_expand_threads), k_expand_threads, 0, s>>>(
            p_, keys_.data(), done, size, branch_counts_.data(), alternative_counts_.data(), flags_.data());
        PMC_CUDA_CHECK_LAUNCH("count_kernel");
        if (Stop stop = check_flags(result); stop != Stop::done) return finish(result, stop);
        fill_last(branch_counts_, size);
        fill_last(alternative_counts_, size);
        branches = exclusive_sum_total(scratch_, branch_counts_.data(), branch_offsets_.data(), size, s);
        alternatives = exclusive_sum_total(scratch_, alternative_counts_.data(), alternative_offsets_.data(), size, s);
        if (branches <= k_max_chunk_branches || size == 1) break;
        size = std::max<uint64_t>(1, size / 2);
      }
      lap(stage, stages_[0]);
      if (branches > k_max_chunk_branches * 4) {
        result.reason = "a state has more than 2^27 transitions";
        return finish(result, Stop::beyond_device);
      }
      // 2. Write the branches.
      reserve_branches(branches, alternatives, size);
      reset_flags();
      BranchArrays arrays{branch_keys_.data(), branch_weights_.data(), branch_alternatives_.data(),
                          alternative_actions_.data(), alternative_first_.data(), alternative_rewards_.data()};
      write_kernel<<<blocks_for(size, k_expand_threads), k_expand_threads, 0, s>>>(
          p_, keys_.data(), done, size, branch_offsets_.data(), alternative_offsets_.data(), arrays, flags_.data());
      PMC_CUDA_CHECK_LAUNCH("write_kernel");
      if (Stop stop = check_flags(result); stop != Stop::done) return finish(result, stop);
      lap(stage, stages_[1]);
      // 3. Insert the targets.
      if (count + branches > k_max_device_states) {
        result.reason = "the model may have more states than the GPU explorer's 32-bit ids number";
        return finish(result, Stop::beyond_device);
      }
      grow_keys(count + branches, count);
      grow_slots(count + branches);
      if (branches > 0) {  // else every state of the chunk is a deadlock
        insert_kernel<<<blocks_for(branches, 256), 256, 0, s>>>(set(), branch_keys_.data(), branches,
                                                               branch_targets_.data());
        PMC_CUDA_CHECK_LAUNCH("insert_kernel");
      }
      unsigned long long found = 0;
      copy_to_host(&found, count_.data(), sizeof(found), s);
      count = found;
      if (count > limit_) return finish(result, Stop::too_many_states);
      lap(stage, stages_[2]);
      // 4. Rows, 5. compacted.
      rows(done, size, branches);
      lap(stage, stages_[3]);
      done += size;
      chunk = std::min(k_max_chunk_states, chunk * 2);
      if (limits_.after_chunk) limits_.after_chunk(count);
    }
    auto stage = Clock::now();
    if (limits_.before_assembly) limits_.before_assembly(count, total_rows_, total_entries_);
    result.model = assemble(count);
    lap(stage, stages_[4]);
    if (std::getenv("PMC_EXPLORE_TIMES") != nullptr) {
      std::fprintf(stderr, "gpu explorer: %llu states, %llu chunks: count %.3f s, write %.3f s, insert %.3f s, "
                   "rows %.3f s, numbering+assembly+copies %.3f s (waiting for the host's arrays %.3f s, copies %.3f s, "
                   "%.2f GB)\n",
                   static_cast<unsigned long long>(count), static_cast<unsigned long long>(chunks), stages_[0],
                   stages_[1], stages_[2], stages_[3], stages_[4], sizing_wait_, copies_,
                   static_cast<double>(copied_bytes_) / 1e9);
    }
    result.stop = Stop::done;
    return result;
  }

 private:
  using Stop = GpuExploration::Stop;

  HashSet set() {
    return HashSet{slots_.data(), slots_.size() - 1, keys_.data(), count_.data(), words_};
  }

  void grow_keys(uint64_t states, uint64_t keep) {
    keys_.reserve(states * words_, keep * words_, stream_.get());
  }

  // Keeps the table at most half full for `states` states.
  void grow_slots(uint64_t states) {
    const StreamHandle s = stream_.get();
    if (2 * states <= slots_.size()) return;
    unsigned long long stored = 0;
    if (slots_.size() > 0) copy_to_host(&stored, count_.data(), sizeof(stored), s);
    slots_.allocate(next_power_of_two(std::max<uint64_t>(4 * states, 1024)));
    slots_.fill_bytes(0xFF, s);
    if (stored > 0) {
      rehash_kernel<<<blocks_for(stored, 256), 256, 0, s>>>(set(), stored);
      PMC_CUDA_CHECK_LAUNCH("rehash_kernel");
    }
  }

  void reset_flags() {
    const Flags clean{~0ull, 0u};
    copy_to_device(flags_.data(), &clean, sizeof(clean), stream_.get());
  }

  Stop check_flags(GpuExploration& result) {
    Flags flags{};
    copy_to_host(&flags, flags_.data(), sizeof(flags), stream_.get());
    if (flags.failed_state != ~0ull) {
      download(result.failed_key, keys_.data() + flags.failed_state * words_, words_, stream_.get());
      return Stop::state_failed;
    }
    if (flags.beyond_capacity != 0) {
      result.reason = "a state enables more commands or branches than the GPU explorer's per-state arrays hold";
      return Stop::beyond_device;
    }
    return Stop::done;
  }

  void fill_last(DeviceBuffer<uint64_t>& counts, uint64_t size) {
    const uint64_t zero = 0;
    copy_to_device(counts.data() + size, &zero, sizeof(zero), stream_.get());
  }

  void reserve_chunk(uint64_t size) {
    if (branch_counts_.size() >= size + 1) return;
    branch_counts_.allocate(size + 1);
    alternative_counts_.allocate(size + 1);
    branch_offsets_.allocate(size + 1);
    alternative_offsets_.allocate(size + 1);
    entry_counts_.allocate(size + 1);
    row_counts_.allocate(size + 1);
    entry_offsets_.allocate(size + 1);
    row_offsets_.allocate(size + 1);
  }

  template <typename T>
  static void at_least(DeviceBuffer<T>& buffer, uint64_t count) {
    if (buffer.size() < count) buffer.allocate(std::max<uint64_t>(count, buffer.size() + buffer.size() / 2));
  }

  void reserve_branches(uint64_t branches, uint64_t alternatives, uint64_t size) {
    const uint64_t S = p_.num_structures;
    at_least(branch_keys_, branches * words_);
    at_least(branch_weights_, branches);
    at_least(branch_alternatives_, branches);
    at_least(branch_targets_, branches);
    at_least(order_, branches);
    at_least(alternative_actions_, alternatives);
    at_least(alternative_first_, alternatives);
    at_least(alternative_rewards_, alternatives * S);
    const uint64_t entry_room = branches + size;
    at_least(columns_in_, entry_room);
    at_least(values_in_, entry_room);
    at_least(actions_in_, entry_room);
    at_least(rewards_in_, entry_room * S);
    at_least(row_entries_in_, alternatives + size);
  }

  // The chunk's rows, appended to the rows of the states before it.
  void rows(uint64_t first, uint64_t size, uint64_t branches) {
    const StreamHandle s = stream_.get();
    const uint64_t S = p_.num_structures;
    const uint64_t entry_room = branches + size;
    all_flags_.reserve(first + size, first, s);
    all_state_rows_.reserve(first + size + 1, first, s);
    RowArrays r{branch_offsets_.data(), alternative_offsets_.data(), branch_keys_.data(), branch_weights_.data(),
                branch_alternatives_.data(), branch_targets_.data(), alternative_actions_.data(),
                alternative_first_.data(), alternative_rewards_.data(), order_.data(), columns_in_.data(),
                values_in_.data(), actions_in_.data(), rewards_in_.data(), entry_room, row_entries_in_.data(),
                entry_counts_.data(), row_counts_.data(), all_flags_.data() + first};
    rows_kernel<<<blocks_for(size, k_expand_threads), k_expand_threads, 0, s>>>(p_, r, first, size);
    PMC_CUDA_CHECK_LAUNCH("rows_kernel");
    fill_last(entry_counts_, size);
    fill_last(row_counts_, size);
    const uint64_t entries = exclusive_sum_total(scratch_, entry_counts_.data(), entry_offsets_.data(), size, s);
    const uint64_t rows = exclusive_sum_total(scratch_, row_counts_.data(), row_offsets_.data(), size, s);
    const uint64_t all_entries = total_entries_ + entries, all_rows = total_rows_ + rows;
    all_columns_.reserve(all_entries, total_entries_, s);
    all_values_.reserve(all_entries, total_entries_, s);
    if (with_actions_) all_actions_.reserve(all_entries, total_entries_, s);
    if (S > 0) all_rewards_.reserve(all_entries * S, total_entries_ * S, s);
    all_row_entries_.reserve(all_rows + 1, total_rows_, s);
    CompactArrays c{branch_offsets_.data(), alternative_offsets_.data(), entry_offsets_.data(), row_offsets_.data(),
                    columns_in_.data(), values_in_.data(), actions_in_.data(), rewards_in_.data(), entry_room,
                    row_entries_in_.data(), total_entries_, total_rows_, all_columns_.data(), all_values_.data(),
                    with_actions_ ? all_actions_.data() : nullptr, all_rewards_.data(), all_row_entries_.data(),
                    all_state_rows_.data() + first};
    compact_kernel<<<blocks_for(size, 256), 256, 0, s>>>(c, static_cast<uint32_t>(S), size);
    PMC_CUDA_CHECK_LAUNCH("compact_kernel");
    total_entries_ = all_entries;
    total_rows_ = all_rows;
  }

  // Numbering and assembly of the n explored states (the file's comment);
  // the exploration's buffers are freed first to make room.
  ExploredModel assemble(uint64_t n) {
    const StreamHandle s = stream_.get();
    const uint64_t S = p_.num_structures;
    const uint64_t rows = total_rows_, entries = total_entries_;
    const uint64_t num_initial = initial_ids_.size();
    // The host's arrays are sized on other threads meanwhile (their zero
    // fills and page faults take longer than the device's work).
    ExploredModel model;
    model.num_states = n;
    model.transition_rewards.resize(S);
    const uint64_t bitset_words = (n + 63) / 64;
    const uint32_t num_labels = state_expressions_ ? static_cast<uint32_t>(labels_.size()) : 0;
    const uint32_t state_structures =
        state_expressions_ ? static_cast<uint32_t>(state_structure_items_.size() - 1) : 0;
    model.label_words.resize(num_labels);
    model.state_rewards.resize(state_structures);
    std::exception_ptr sizing_error;
    std::thread sizer([&] {
      try {
        ArraySizing sizing;
        sizing.add(model.keys, n * words_);
        sizing.add(model.initial_states, num_initial);
        sizing.add(model.flags, n);
        if (p_.model_type == 2) sizing.add(model.row_groups, n + 1);
        sizing.add(model.row_offsets, rows + 1);
        sizing.add(model.columns, entries);
        sizing.add(model.values, entries);
        if (with_actions_) sizing.add(model.actions, entries);
        for (std::vector<double>& rewards : model.transition_rewards) sizing.add(rewards, entries);
        for (std::vector<uint64_t>& words : model.label_words) sizing.add(words, bitset_words);
        for (std::vector<double>& rewards : model.state_rewards) sizing.add(rewards, n);
        sizing.run();
      } catch (...) {
        sizing_error = std::current_exception();
      }
    });
    struct Join {
      std::thread& thread;
      ~Join() {
        if (thread.joinable()) thread.join();
      }
    } join_sizer{sizer};
    release_exploration_buffers();
    // The ends, as RowBlock::finish adds them.
    all_state_rows_.reserve(n + 1, n, s);
    all_row_entries_.reserve(rows + 1, rows, s);
    copy_to_device(all_state_rows_.data() + n, &rows, sizeof(rows), s);
    copy_to_device(all_row_entries_.data() + rows, &entries, sizeof(entries), s);

    // The order: stable radix sorts of one word each, the last word first.
    DeviceBuffer<uint32_t> order(n), order_other(n);
    {
      DeviceBuffer<uint64_t> word(n), word_other(n);
      iota_kernel<<<blocks_for(n, 256), 256, 0, s>>>(order.data(), n);
      PMC_CUDA_CHECK_LAUNCH("iota_kernel");
      for (uint32_t w = words_; w-- > 0;) {
        gather_word_kernel<<<blocks_for(n, 256), 256, 0, s>>>(keys_.data(), words_, w, order.data(), word.data(), n);
        PMC_CUDA_CHECK_LAUNCH("gather_word_kernel");
        cub::DoubleBuffer<uint64_t> sort_keys(word.data(), word_other.data());
        cub::DoubleBuffer<uint32_t> sort_values(order.data(), order_other.data());
        size_t bytes = 0;
        PMC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, sort_keys, sort_values, n, low_bits_[w], 64, s));
        if (bytes > scratch_.size()) scratch_.allocate(bytes);
        PMC_CUDA_CHECK(
            cub::DeviceRadixSort::SortPairs(scratch_.data(), bytes, sort_keys, sort_values, n, low_bits_[w], 64, s));
        if (sort_values.Current() != order.data()) std::swap(order, order_other);
      }
    }
    DeviceBuffer<uint32_t> final_of(n);
    DeviceBuffer<uint64_t> sorted_keys(n * words_);
    number_kernel<<<blocks_for(n, 256), 256, 0, s>>>(order.data(), keys_.data(), words_, final_of.data(),
                                                     sorted_keys.data(), n);
    PMC_CUDA_CHECK_LAUNCH("number_kernel");
    DeviceBuffer<uint32_t> label_halves(uint64_t{num_labels} * 2 * bitset_words);
    DeviceBuffer<double> state_rewards(uint64_t{state_structures} * n);
    DeviceBuffer<unsigned int> states_failed(1);
    states_failed.fill_zero(s);
    if (num_labels + state_structures > 0) {
      StateExpressions x{labels_.data(), num_labels, state_structure_items_.data(), state_structures,
                         state_reward_items_.data(), label_halves.data(), 2 * bitset_words, state_rewards.data(),
                         states_failed.data()};
      state_expressions_kernel<<<blocks_for(64 * bitset_words, 256), 256, 0, s>>>(p_, x, sorted_keys.data(), n);
      PMC_CUDA_CHECK_LAUNCH("state_expressions_kernel");
    }
    renumber_kernel<<<blocks_for(num_initial, 256), 256, 0, s>>>(final_of.data(), initial_ids_.data(), num_initial);
    PMC_CUDA_CHECK_LAUNCH("renumber_kernel");
    order_other.allocate(0);
    keys_ = GrowingBuffer<uint64_t>();

    // Where each state's rows and entries start in the model.
    DeviceBuffer<uint64_t> row_starts(n + 1), entry_starts(n + 1);
    {
      DeviceBuffer<uint64_t> row_counts(n + 1), entry_counts(n + 1);
      sizes_kernel<<<blocks_for(n, 256), 256, 0, s>>>(order.data(), all_state_rows_.data(), all_row_entries_.data(),
                                                      row_counts.data(), entry_counts.data(), n);
      PMC_CUDA_CHECK_LAUNCH("sizes_kernel");
      const uint64_t zero = 0;
      copy_to_device(row_counts.data() + n, &zero, sizeof(zero), s);
      copy_to_device(entry_counts.data() + n, &zero, sizeof(zero), s);
      exclusive_sum(row_counts.data(), row_starts.data(), n + 1, scratch_, s);
      exclusive_sum(entry_counts.data(), entry_starts.data(), n + 1, scratch_, s);
    }
    DeviceBuffer<uint64_t> row_offsets(rows + 1);
    DeviceBuffer<uint32_t> columns(entries), actions(with_actions_ ? entries : 0);
    DeviceBuffer<double> values(entries), rewards(entries * S);
    DeviceBuffer<uint8_t> flags(n);
    AssembleArrays a{order.data(), final_of.data(), all_state_rows_.data(), all_row_entries_.data(),
                     all_columns_.data(), all_values_.data(), all_actions_.data(), all_rewards_.data(),
                     all_flags_.data(), row_starts.data(), entry_starts.data(), row_offsets.data(), columns.data(),
                     values.data(), with_actions_ ? actions.data() : nullptr, rewards.data(), entries, flags.data()};
    assemble_kernel<<<blocks_for(n, 256), 256, 0, s>>>(a, static_cast<uint32_t>(S), n);
    PMC_CUDA_CHECK_LAUNCH("assemble_kernel");
    copy_to_device(row_offsets.data() + rows, &entries, sizeof(entries), s);
    synchronize(s);

    const auto sizing_start = std::chrono::steady_clock::now();
    sizer.join();
    if (sizing_error) std::rethrow_exception(sizing_error);
    const auto copies_start = std::chrono::steady_clock::now();
    sizing_wait_ = std::chrono::duration<double>(copies_start - sizing_start).count();
    download_into(model.keys, sorted_keys.data());
    download_into(model.initial_states, initial_ids_.data());
    download_into(model.flags, flags.data());
    if (p_.model_type == 2) download_into(model.row_groups, row_starts.data());
    download_into(model.row_offsets, row_offsets.data());
    download_into(model.columns, columns.data());
    download_into(model.values, values.data());
    if (with_actions_) download_into(model.actions, actions.data());
    for (uint64_t k = 0; k < S; ++k) download_into(model.transition_rewards[k], rewards.data() + k * entries);
    if (state_expressions_) {
      unsigned int failed = 0;
      copy_to_host(&failed, states_failed.data(), sizeof(failed), s);
      model.states_evaluated = failed == 0;
      if (model.states_evaluated) {
        for (uint32_t l = 0; l < num_labels; ++l) {
          download_into(model.label_words[l],
                        reinterpret_cast<const uint64_t*>(label_halves.data() + uint64_t{l} * 2 * bitset_words));
        }
        for (uint32_t k = 0; k < state_structures; ++k) download_into(model.state_rewards[k], state_rewards.data() + k * n);
      }
    }
    if (!model.states_evaluated) {
      model.label_words.clear();
      model.state_rewards.clear();
    }
    copies_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - copies_start).count();

    // The rows stay on the device for the GPU solvers (the resident copy
    // they would otherwise upload again), once what only the exploration
    // and the assembly used is freed.
    if (p_.model_type != k_ctmc_type) {
      for (DeviceBuffer<uint32_t>* b : {&order, &final_of, &actions}) b->allocate(0);
      for (DeviceBuffer<uint64_t>* b : {&sorted_keys, &entry_starts}) b->allocate(0);
      rewards.allocate(0);
      flags.allocate(0);
      release_rows();
      if (p_.model_type != k_mdp_type) row_starts.allocate(0);
      int ordinal = 0;
      PMC_CUDA_CHECK(cudaGetDevice(&ordinal));
      try {
        model.resident = std::make_shared<ResidentChain>(ordinal, n, std::move(row_starts), std::move(row_offsets),
                                                         std::move(columns), std::move(values));
      } catch (const Error& error) {
        if (error.code() != ErrorCode::out_of_memory) throw;  // no room: the solvers upload their own
      }
    }
    return model;
  }

  // The explored states' rows by discovery id, once assembled.
  void release_rows() {
    all_flags_ = GrowingBuffer<uint8_t>();
    all_state_rows_ = GrowingBuffer<uint64_t>();
    all_row_entries_ = GrowingBuffer<uint64_t>();
    all_columns_ = GrowingBuffer<uint32_t>();
    all_actions_ = GrowingBuffer<uint32_t>();
    all_values_ = GrowingBuffer<double>();
    all_rewards_ = GrowingBuffer<double>();
  }

  // What only the breadth-first search uses.
  void release_exploration_buffers() {
    slots_.allocate(0);
    for (DeviceBuffer<uint64_t>* b : {&branch_counts_, &alternative_counts_, &branch_offsets_, &alternative_offsets_,
                                      &entry_counts_, &row_counts_, &entry_offsets_, &row_offsets_, &branch_keys_}) {
      b->allocate(0);
    }
    for (DeviceBuffer<double>* b : {&branch_weights_, &alternative_rewards_, &values_in_, &rewards_in_}) b->allocate(0);
    for (DeviceBuffer<uint32_t>* b : {&branch_alternatives_, &branch_targets_, &order_, &alternative_actions_,
                                      &alternative_first_, &columns_in_, &actions_in_, &row_entries_in_}) {
      b->allocate(0);
    }
  }

  static GpuExploration& finish(GpuExploration& result, Stop stop) {
    result.stop = stop;
    return result;
  }

  // Device -> `host` (sized already) in pieces through two page-locked
  // staging buffers, each piece's copy over the link overlapping the
  // host's copy of the one before, made on every core: pageable memory
  // goes through the driver's bounce buffer at 1-2 GB/s, and pinning
  // gigabytes takes longer than copying them.
  template <typename T>
  void download_into(std::vector<T>& host, const T* device) {
    const size_t count = host.size();
    if (count == 0) return;
    for (PinnedBuffer<unsigned char>& buffer : staging_) buffer.allocate(k_staging_bytes);
    const size_t piece = k_staging_bytes / sizeof(T);
    const size_t pieces = (count + piece - 1) / piece;
    auto issue = [&](size_t k) {
      const size_t at = k * piece, length = std::min(piece, count - at);
      PMC_CUDA_CHECK(cudaMemcpyAsync(staging_[k % 2].data(), device + at, length * sizeof(T), cudaMemcpyDeviceToHost,
                                     stream_.get()));
      staged_[k % 2].record(stream_.get());
    };
    issue(0);
    for (size_t k = 0; k < pieces; ++k) {
      if (k + 1 < pieces) issue(k + 1);
      staged_[k % 2].synchronize();
      copy_in_parallel(host.data() + k * piece, staging_[k % 2].data(), std::min(piece, count - k * piece) * sizeof(T));
    }
    copied_bytes_ += count * sizeof(T);
  }

  const ExploreLimits& limits_;
  // Seconds (PMC_EXPLORE_TIMES): count, write, insert, rows, numbering and assembly with the copies.
  double stages_[5] = {0, 0, 0, 0, 0};
  double copies_ = 0;       // of stages_[4]: the copies to the host alone
  double sizing_wait_ = 0;  // of stages_[4]: waiting for the host's arrays
  uint64_t copied_bytes_ = 0;
  static constexpr size_t k_staging_bytes = size_t{32} << 20;
  PinnedBuffer<unsigned char> staging_[2];
  Event staged_[2];
  Stream stream_;
  Program p_{};
  uint32_t words_ = 1;
  bool with_actions_ = false;
  std::vector<int> low_bits_;  // per word: the lowest bit a field uses
  uint64_t limit_ = 0;
  DeviceBuffer<ExploreField> fields_;
  DeviceBuffer<FlatInstruction> code_;
  DeviceBuffer<ExploreCommand> commands_;
  DeviceBuffer<ExploreUpdate> updates_;
  DeviceBuffer<ExploreAssignment> assignments_;
  DeviceBuffer<uint32_t> local_, action_participants_;
  DeviceBuffer<ExploreParticipant> participants_;
  DeviceBuffer<uint32_t> participant_commands_, structure_items_;
  DeviceBuffer<ExploreRewardItem> reward_items_;
  bool state_expressions_ = false;
  DeviceBuffer<FlatExpression> labels_;
  DeviceBuffer<uint32_t> state_structure_items_;
  DeviceBuffer<ExploreStateRewardItem> state_reward_items_;
  DeviceBuffer<Flags> flags_;
  DeviceBuffer<unsigned long long> count_;
  GrowingBuffer<uint64_t> keys_;
  DeviceBuffer<uint32_t> slots_;
  DeviceBuffer<unsigned char> scratch_;
  DeviceBuffer<uint64_t> branch_counts_, alternative_counts_, branch_offsets_, alternative_offsets_;
  DeviceBuffer<uint64_t> entry_counts_, row_counts_, entry_offsets_, row_offsets_;
  DeviceBuffer<uint64_t> branch_keys_;
  DeviceBuffer<double> branch_weights_, alternative_rewards_;
  DeviceBuffer<uint32_t> branch_alternatives_, branch_targets_, order_, alternative_actions_, alternative_first_;
  DeviceBuffer<uint32_t> columns_in_, actions_in_, row_entries_in_;
  DeviceBuffer<double> values_in_, rewards_in_;
  DeviceBuffer<uint32_t> initial_ids_;
  // The rows of the states explored so far, by discovery id (rows()).
  uint64_t total_rows_ = 0, total_entries_ = 0;
  GrowingBuffer<uint8_t> all_flags_;
  GrowingBuffer<uint64_t> all_state_rows_, all_row_entries_;
  GrowingBuffer<uint32_t> all_columns_, all_actions_;
  GrowingBuffer<double> all_values_, all_rewards_;
};

}  // namespace

GpuExploration explore_on_gpu(const ExploreProgram& program, const std::vector<uint64_t>& initial,
                              const ExploreLimits& limits, int ordinal) {
  make_device_current(ordinal);
  Explorer explorer(program, limits);
  return explorer.run(initial);
}

}  // namespace pmc::cuda
