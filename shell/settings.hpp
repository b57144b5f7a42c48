// The check settings a user can change by name. The command line's flags
// (`pmc check --epsilon 1e-8`) and the REPL's `set epsilon 1e-8` both go
// through apply_setting, so they accept and reject the same values with the
// same messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "check/check.hpp"

namespace pmc::shell {

struct SettingSpec {
  std::string name;     // as in `set NAME VALUE` and `--NAME VALUE`
  std::string values;   // what VALUE may be, for `help set`; "" for a flag
  std::string summary;  // one line
};

// solver, epsilon, relative, absolute, max-iterations, threads, device, gpu-memory-limit, memory-limit, ...,
// param.
const std::vector<SettingSpec>& setting_specs();

// Sets `name` to `value` (ignored for the flags `relative` and `absolute`);
// `param` adds NAME=VALUE[,...] to the point (`none` clears it).
// Throws Error(invalid_argument) naming the setting and the bad value.
void apply_setting(CheckOptions& options, std::string_view name, std::string_view value);

// The current value of a setting, as `show settings` prints it.
std::string setting_value(const CheckOptions& options, std::string_view name);

// "4096", "64K", "512M", "1.5G" (powers of 1024) -> bytes; throws naming `what`.
uint64_t parse_byte_size(std::string_view what, std::string_view text);

// --max-states: a whole number in [0, 1e12] (0 = no limit); throws naming `what`.
uint64_t parse_max_states(std::string_view what, std::string_view text);

}  // namespace pmc::shell
