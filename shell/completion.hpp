// Tab completion for the REPL: command names, file names, model names,
// settings and their values, and inside `check` the current model's label
// ("...) and reward ({"...) names.
#pragma once

#include <string>

#include "repl_input.hpp"
#include "session.hpp"

namespace pmc::shell {

Completion complete_line(const Session& session, const std::string& line_before_cursor);

}  // namespace pmc::shell
