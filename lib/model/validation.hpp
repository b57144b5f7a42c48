// Checks shared by Model::create and the readers: a reader calls them while
// it still knows the file and line, Model::create calls them again for
// models built from arrays. Each returns an empty string when all is well,
// otherwise what is wrong.
#pragma once

#include <string>
#include <string_view>

#include "model/model.hpp"

namespace pmc {

// A single matrix value (probability or rate) for a non-parametric model.
std::string entry_value_problem(ModelType type, double value);
// The sum of a DTMC/MDP row.
std::string row_sum_problem(double sum, double tolerance);
// Label and reward names are written back between double quotes, action
// names as a bare token: `what` is "label", "reward structure" or "action".
std::string name_problem(std::string_view name, std::string_view what, bool allow_empty);

// Rejects a declared count that would make a reader allocate far more memory
// than the bytes it has read justify (a lying header must not make pmc
// allocate terabytes): memory stays within a constant factor of the input.
void check_declared_count(uint64_t declared, uint64_t bytes_read, std::string_view what,
                          std::string_view where);

}  // namespace pmc
