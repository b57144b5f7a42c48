// The instruction set of compiled expressions, and a flat form of them
// for code that cannot hold Expression objects: the GPU explorer copies
// every guard, weight and update of a program into one array of
// FlatInstruction and interprets it on the device. Plain data and no
// standard library beyond <cstdint>, so that device code includes it too.
#pragma once

#include <cstdint>

namespace pmc::expression {

// Postfix instructions over a stack of untyped 8-byte values (code.hpp).
enum class Op : uint8_t {
  push,  // value
  load,  // state[arg]
  to_real,
  negate_integer,
  negate_real,
  logical_not,
  add_integer,
  subtract_integer,
  multiply_integer,
  add_real,
  subtract_real,
  multiply_real,
  divide_real,
  less_integer,
  less_equal_integer,
  greater_integer,
  greater_equal_integer,
  equal_integer,
  not_equal_integer,
  less_real,
  less_equal_real,
  greater_real,
  greater_equal_real,
  equal_real,
  not_equal_real,
  min_integer,
  max_integer,
  min_real,
  max_real,
  power_integer,
  power_real,
  modulo_integer,
  log_real,
  floor,  // real → integer
  ceil,
  round,
  jump,           // to arg
  jump_if_false,  // pops the condition
  and_jump,       // top false: jump keeping it; else pop
  or_jump,        // top true: jump keeping it; else pop
  // Fused forms the compiler writes only into the CPU's fast code
  // (code.hpp, Representation::fast), never into `code`, which the GPU's
  // flat form copies: `load a; push k; compare` and `load a; load b;
  // compare` on integers, in one instruction (arg: a; value.i: k or b).
  less_variable_constant,
  less_equal_variable_constant,
  greater_variable_constant,
  greater_equal_variable_constant,
  equal_variable_constant,
  not_equal_variable_constant,
  less_variable_variable,
  less_equal_variable_variable,
  greater_variable_variable,
  greater_equal_variable_variable,
  equal_variable_variable,
  not_equal_variable_variable,
};

// One instruction, as code.hpp's Instruction, without its C++ niceties.
struct FlatInstruction {
  uint8_t op = 0;  // an Op
  uint32_t arg = 0;
  union {
    int64_t i;
    double d;
  } value{0};
};

// An expression's code: instructions [first, first + size) of the array;
// type 0 boolean, 1 integer, 2 real (ValueType); the code's stack depth.
struct FlatExpression {
  uint32_t first = 0, size = 0;
  uint8_t type = 0;
  uint32_t stack_size = 1;
};

}  // namespace pmc::expression
