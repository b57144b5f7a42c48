// Copies an expression's compiled code into a shared array of
// FlatInstruction (flat_code.hpp): how the GPU explorer carries a
// program's guards, weights and updates to the device.
#pragma once

#include <vector>

#include "expression/expression.hpp"
#include "expression/flat_code.hpp"

namespace pmc::expression {

// Appends `e`'s code to `code`. Jump targets stay relative to the
// expression's first instruction, as in Expression's own code.
FlatExpression flatten(const Expression& e, std::vector<FlatInstruction>& code);

// Whether the flat code of `e` evaluates on the GPU exactly as on the CPU:
// false when it uses pow or log of reals (CUDA's differ from the C
// library's in the last bit).
bool flat_code_is_exact_on_gpu(const Expression& e);

// The deepest the code's value stack gets.
uint32_t flat_code_stack_size(const Expression& e);

}  // namespace pmc::expression
