// The compiled form behind Expression (private to lib/expression/):
// postfix instructions over a stack of untyped 8-byte values. The compiler
// (compiler.cpp) resolves every type statically, so each
// instruction knows whether its operands are integers (booleans as 0/1) or
// doubles, and conversions are explicit `to_real` instructions.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "expression/expression.hpp"
#include "expression/flat_code.hpp"
#include "expression/syntax_tree.hpp"

namespace pmc::expression {

union Value {
  int64_t i;  // integers and booleans (0/1)
  double d;
};



struct Instruction {
  Op op = Op::push;
  uint32_t arg = 0;
  Value value{0};
};

// Forms the evaluator runs without the interpreter loop: most guards and
// updates of real models are one of these.
enum class Shape : uint8_t {
  general,        // run the code
  ranges,         // a boolean that is exactly its necessary ranges (`x=1 & y>=2 & b`)
  ranges_then_fast,  // a boolean: its necessary ranges, and then `fast`, the rest of its
                     // conjuncts (those the ranges do not already decide), in source order
  load,           // an integer or boolean variable: state[variable]
  load_plus,      // an integer variable plus a constant: state[variable] + offset
};

struct Expression::Representation {
  std::vector<Instruction> code;  // the whole expression, base instructions only (the GPU's flat form)
  // What the CPU runs: `code` (or, for ranges_then_fast, the conjuncts the
  // ranges leave) with the fused instructions of flat_code.hpp.
  std::vector<Instruction> fast;
  uint32_t fast_stack_size = 1;
  ValueType type = ValueType::boolean;
  bool constant = true;
  uint32_t stack_size = 1;  // the deepest the code's stack gets
  uint32_t state_size = 0;  // 1 + the largest variable index loaded
  SourceLocation location;
  std::string text;  // PRISM syntax, for messages
  std::vector<VariableRange> necessary;  // Expression::necessary_ranges
  Shape shape = Shape::general;
  uint32_t variable = 0;  // load, load_plus
  int64_t offset = 0;     // load_plus
  // The checked tree it was compiled from, before folding: what --exact
  // evaluates in rationals (exact_evaluator.hpp). Shared by copies.
  std::shared_ptr<const Node> tree;
};

// Runs `code` on `state` with `stack` (at least its stack size in values);
// the result is typed as the code's. Errors name `r` (its location and text).
Value run_code(const Expression::Representation& r, const std::vector<Instruction>& code,
               std::span<const int32_t> state, Value* stack);

// `code` with the fused instructions: the compiler's peephole pass.
std::vector<Instruction> fuse_instructions(const std::vector<Instruction>& code);

}  // namespace pmc::expression
