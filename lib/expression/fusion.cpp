// The peephole pass behind the CPU's fast code (code.hpp): the commonest
// guard atoms, a variable compared with a constant or with another
// variable, become one instruction instead of three, so the interpreter
// dispatches a third as often on guards such as `x=3 & y<z`.
#include <optional>

#include "expression/code.hpp"

namespace pmc::expression {
namespace {

bool is_jump(Op op) { return op == Op::jump || op == Op::jump_if_false || op == Op::and_jump || op == Op::or_jump; }

// The fused form of `load a; (push k | load b); compare`, for integer comparisons only.
std::optional<Op> fused(Op compare, bool with_constant) {
  switch (compare) {
    case Op::less_integer: return with_constant ? Op::less_variable_constant : Op::less_variable_variable;
    case Op::less_equal_integer:
      return with_constant ? Op::less_equal_variable_constant : Op::less_equal_variable_variable;
    case Op::greater_integer: return with_constant ? Op::greater_variable_constant : Op::greater_variable_variable;
    case Op::greater_equal_integer:
      return with_constant ? Op::greater_equal_variable_constant : Op::greater_equal_variable_variable;
    case Op::equal_integer: return with_constant ? Op::equal_variable_constant : Op::equal_variable_variable;
    case Op::not_equal_integer:
      return with_constant ? Op::not_equal_variable_constant : Op::not_equal_variable_variable;
    default: return std::nullopt;
  }
}

}  // namespace

std::vector<Instruction> fuse_instructions(const std::vector<Instruction>& code) {
  // A jump may land on the first instruction of a fused triple, never inside one.
  std::vector<bool> landed_on(code.size() + 1, false);
  for (const Instruction& in : code) {
    if (is_jump(in.op)) landed_on[in.arg] = true;
  }
  std::vector<uint32_t> moved_to(code.size() + 1);
  std::vector<Instruction> out;
  out.reserve(code.size());
  for (size_t pc = 0; pc < code.size();) {
    moved_to[pc] = static_cast<uint32_t>(out.size());
    if (pc + 2 < code.size() && code[pc].op == Op::load && !landed_on[pc + 1] && !landed_on[pc + 2] &&
        (code[pc + 1].op == Op::push || code[pc + 1].op == Op::load)) {
      const bool with_constant = code[pc + 1].op == Op::push;
      if (const std::optional<Op> op = fused(code[pc + 2].op, with_constant)) {
        Instruction in;
        in.op = *op;
        in.arg = code[pc].arg;
        in.value.i = with_constant ? code[pc + 1].value.i : int64_t{code[pc + 1].arg};
        out.push_back(in);
        moved_to[pc + 1] = moved_to[pc + 2] = moved_to[pc];
        pc += 3;
        continue;
      }
    }
    out.push_back(code[pc]);
    ++pc;
  }
  moved_to[code.size()] = static_cast<uint32_t>(out.size());
  for (Instruction& in : out) {
    if (is_jump(in.op)) in.arg = moved_to[in.arg];
  }
  return out;
}

}  // namespace pmc::expression
