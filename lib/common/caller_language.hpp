// The words a message uses for a setting, in the language of whoever called
// pmc: `--max-states` on the command line, `set max-states` in the shell,
// pmc_options_set_max_states from C, `max_states=` from Python, and so on.
// The library's code names a Setting; the front end says once, at start,
// which language it speaks (the `pmc` executable, the shell, each binding
// through pmc_set_caller_language). The default is C: the ABI's own names.
#pragma once

#include <string>
#include <string_view>

namespace pmc {

enum class CallerLanguage { c, command_line, shell, python, rust, java };

// A setting a message may tell the caller to change.
enum class Setting {
  constants,         // a PRISM-language source's undefined constants
  max_states,        // the exploration's state limit
  build,             // which explorer builds a source's state space (auto, cpu, gpu)
  memory_limit,      // host memory
  gpu_memory_limit,  // device memory
  max_iterations,    // iterations of one solve
  epsilon,           // the convergence threshold
  parameters,        // a parametric CTMC's point
  exact,             // exact (rational) results
};

// Process-wide; safe to call from any thread (the last call wins).
void set_caller_language(CallerLanguage language);

// How the caller sets `setting` to `value`, ready for "set it with ...":
// "--max-states 1000000", "pmc_options_set_max_states(options, 1000000)",
// "max_states=1000000", ... (`value` is "K=..." for constants).
std::string setting_usage(Setting setting, std::string_view value);
// The same with a placeholder for the value ("--memory-limit BYTES").
std::string setting_name(Setting setting);

// A caller-language name as the C ABI takes it ("c", "python", "rust",
// "java", "command-line", "shell"); false for an unknown name.
bool parse_caller_language(const std::string& name, CallerLanguage& language);

}  // namespace pmc
