#include "expression/flatten.hpp"

#include "expression/code.hpp"

namespace pmc::expression {

FlatExpression flatten(const Expression& e, std::vector<FlatInstruction>& code) {
  const Expression::Representation& r = e.representation();
  FlatExpression flat;
  flat.first = static_cast<uint32_t>(code.size());
  flat.size = static_cast<uint32_t>(r.code.size());
  flat.type = static_cast<uint8_t>(r.type);
  flat.stack_size = r.stack_size;
  for (const Instruction& in : r.code) {
    FlatInstruction out;
    out.op = static_cast<uint8_t>(in.op);
    out.arg = in.arg;  // jumps are already relative to the expression's start
    out.value.i = in.value.i;
    code.push_back(out);
  }
  return flat;
}

bool flat_code_is_exact_on_gpu(const Expression& e) {
  for (const Instruction& in : e.representation().code) {
    if (in.op == Op::power_real || in.op == Op::log_real) return false;
  }
  return true;
}

uint32_t flat_code_stack_size(const Expression& e) { return e.representation().stack_size; }

}  // namespace pmc::expression
