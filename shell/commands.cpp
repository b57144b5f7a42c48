#include "commands.hpp"

#include <algorithm>
#include <ostream>
#include <span>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "common/error.hpp"
#include "check_commands.hpp"
#include "interrupt.hpp"
#include "synth_command.hpp"
#include "model_commands.hpp"
#include "settings.hpp"

namespace pmc::shell {

namespace {

const std::vector<OptionSpec> k_load_options = {
    {"model", true, true}, {"format", true, false}, {"strict", false, false}, {"const", true, false},
    {"max-states", true, false}, {"build", true, false}, {"memory-limit", true, false}};

std::vector<OptionSpec> with_load_options(std::vector<OptionSpec> more) {
  more.insert(more.end(), k_load_options.begin(), k_load_options.end());
  return more;
}

}  // namespace

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = {
      {"check",
       "--model FILE... [--const N=V,...] [--max-states N] [--build auto|cpu|gpu] (--property P... | --property-file F) [--solver NAME] [--epsilon E] [--relative|--absolute] "
       "[--sound|--unsound] [--exact] [--max-iterations N] [--threads N] [--device I] [--devices auto|all|I,J] [--memory-limit BYTES] [--gpu-memory-limit BYTES] "
       "[--gpu-layout L] [--reorder bfs] [--param K=V...] [--format F] [--strict] "
       "[--scheduler FILE] [--export-vector FILE] [--export-results FILE] [--export-format tsv|csv|qvbs] [--progress] [--json] [--stats]",
       "check PRISM-syntax properties (P=? [ F \"goal\" ], R{\"r\"}=? [ C<=10 ], S=? [ \"up\" ], ...), given "
       "with --property or read from a .props/.pctl file (one per line or ;-separated, // comments, const, formula, "
       "label, \"name\": P=? [...]) or, with no --property, a JANI model's own properties; bounds and thresholds may be expressions over constants (F<=T/2, P>=p); "
       "--const T=1:1:10 runs a property once per value; --stats adds each result's seconds by phase. Ctrl-C (or SIGTERM) cancels: the results "
       "printed so far stay, exit 130 (143)",
       with_load_options({{"property", true, true},
                          {"property-file", true, false},
                          {"solver", true, false},
                          {"epsilon", true, false},
                          {"relative", false, false},
                          {"absolute", false, false},
                          {"sound", false, false},
                          {"unsound", false, false},
                          {"exact", false, false},
                          {"max-iterations", true, false},
                          {"threads", true, false},
                          {"device", true, false},
                          {"devices", true, false},
                          {"gpu-memory-limit", true, false},
                          {"gpu-layout", true, false},
                          {"reorder", true, false},
                          {"param", true, true},
                          {"scheduler", true, false},
                          {"export-vector", true, false},
                          {"export-results", true, false},
                          {"export-format", true, false},
                          {"progress", false, false},
                          {"json", false, false},
                          {"stats", false, false}}),
       "pmc check --model examples/die/die.tra --property 'P=? [ F \"six\" ]'", run_check},
      {"synth",
       "--model FILE --property P --param K=LO:HI... (--threshold '>=0.9' | --max | --min) [--epsilon E] "
       "[--solver NAME] [--threads N] [--device I] [--memory-limit BYTES] [--gpu-memory-limit BYTES] [--gpu-layout auto|thread|ell] "
       "[--max-regions N] [--batch N] [--format F] [--strict] [--const N=V,...] [--max-states N] [--build auto|cpu|gpu] [--json] [--plot FILE.svg]",
       "parameter synthesis on a parametric CTMC: regions where a time-bounded property meets a threshold, "
       "or that hold its min/max",
       with_load_options({{"property", true, false},
                          {"param", true, true},
                          {"threshold", true, false},
                          {"max", false, false},
                          {"min", false, false},
                          {"epsilon", true, false},
                          {"solver", true, false},
                          {"threads", true, false},
                          {"device", true, false},
                          {"gpu-memory-limit", true, false},
                          {"gpu-layout", true, false},
                          {"max-regions", true, false},
                          {"batch", true, false},
                          {"json", false, false},
                          {"plot", true, false}}),
       "pmc synth --model sir_100.drn --param ki=0.005:0.3 --param kr=0.005:0.2 --max --property 'P=? [ \"infected\" U[100,120] \"extinct\" ]'", run_synth},
      {"solvers", "[--json]", "list the solvers and the problems they solve", {{"json", false, false}}, "pmc solvers --json", run_solvers},
      {"info", "--model FILE... [--format F] [--const N=V,...] [--max-states N] [--build auto|cpu|gpu] [--memory-limit BYTES] [--strict] [--json]",
       "print a model's type, sizes, labels and reward structures", with_load_options({{"json", false, false}}),
       "pmc info --model examples/die/die.tra", run_info},
      {"convert", "IN... OUT [--from F] [--to F] [--const N=V,...] [--max-states N] [--build auto|cpu|gpu] [--threads N] [--memory-limit BYTES] [--strict]",
       "convert a model between PRISM explicit (.tra), DRN (.drn), pmc binary (.pmcb) and UMB (.umb); a PRISM-language "
       "source (.pm/.sm/.nm/.prism) is built and written in any of them",
       {{"from", true, false},
        {"to", true, false},
        {"strict", false, false},
        {"const", true, false},
        {"max-states", true, false},
        {"build", true, false},
        {"threads", true, false},
        {"memory-limit", true, false}},
       "pmc convert examples/die/die.tra die.pmcb", run_convert},
      {"devices", "[--json]", "list the CUDA GPUs pmc can use", {{"json", false, false}}, "pmc devices --json", run_devices},
      {"version", "", "print pmc's version (also pmc --version)", {}, "pmc version",
       [](const Arguments&, std::ostream& out) {
         fmt::print(out, "pmc {}\n", PMC_PROJECT_VERSION);
         return 0;
       }},
      {"help", "[COMMAND]", "list the commands, or explain one (as pmc COMMAND --help)", {}, "pmc help check",
       [](const Arguments& args, std::ostream& out) {
         if (args.positional().empty()) {
           print_help(out);
           return 0;
         }
         const auto& all = command_table();
         const std::string& name = args.positional().front();
         auto c = std::find_if(all.begin(), all.end(), [&](const Command& x) { return x.name == name; });
         if (c == all.end()) fail(ErrorCode::invalid_argument, "no command {} (try `pmc help`)", quote_for_message(name));
         print_command_help(*c, out);
         return 0;
       }},
  };
  return table;
}

void print_help(std::ostream& out) {
  fmt::print(out, "pmc {}: probabilistic model checking on CPUs and NVIDIA GPUs\n\n"
                  "usage: pmc COMMAND [OPTIONS]   (pmc COMMAND --help explains one)\n\nCommands:\n", PMC_PROJECT_VERSION);
  for (const Command& c : command_table()) fmt::print(out, "  pmc {} {}\n      {}\n", c.name, c.usage, c.summary);
  fmt::print(out, "  pmc [-f SCRIPT] [--json] [-k|--continue]\n      the shell: interactive on a terminal "
                  "(`help` there lists its commands), else runs a script\n");
  fmt::print(out, "\n`pmc COMMAND --help` (or -h) explains a command's options; `pmc --version` prints the version.\n");
  fmt::print(out,
             "\nFormats (--format/--from/--to): prism, prism-dtmc, prism-ctmc, prism-mdp, storm-explicit, drn, pmcb,\n"
             "umb, prism-language, jani; by default chosen by extension, and a .tra by its first line (Storm's dialect starts\n"
             "with dtmc, ctmc or mdp). A .tra finds its .lab/.srew/.trew/.sta siblings (Storm: .lab, .state.rew,\n"
             ".trans.rew).\n"
             "PRISM-language sources (.pm, .sm, .nm, .prism) and JANI models (.jani, types dtmc, ctmc, mdp;\n"
             "both read only) are built by exploring their\n"
             "reachable states: --const N=4,K=2 sets the constants they leave undefined, --max-states N\n"
             "stops the exploration with an error above N states (0: no limit).\n");
}

namespace {

struct OptionText {
  const char* name;
  const char* value;  // the value's placeholder; "" for a flag
  const char* text;
};

// What each option does; "command:name" entries win over "name" ones. The
// check settings (settings.cpp) describe themselves.
const OptionText k_option_texts[] = {
    {"model", "FILE...", "the model: a .tra (PRISM's or Storm's explicit dialect; .lab and reward siblings found by "
                         "stem), a list of explicit files, a .drn, a .pmcb, a .umb, a PRISM-language source (.pm/.sm/.nm/.prism) or a "
                         "JANI model (.jani, whose properties pmc check checks unless --property is given)"},
    {"format", "F", "the model's format: prism, prism-dtmc, prism-ctmc, prism-mdp, storm-explicit, drn, pmcb, umb, "
                    "prism-language, jani (default: by extension, and a .tra by its first line)"},
    {"strict", "", "reject states without outgoing transitions instead of adding a self-loop"},
    {"max-states", "N", "stop a PRISM-language source's or JANI model's exploration with an error above N states (0: no limit)"},
    {"build", "auto|cpu|gpu", "which explorer builds a PRISM-language source or JANI model: the CPU's threads or the first GPU's "
                              "(both give the same model, bit for bit; a model the GPU cannot run or hold is built on "
                              "the CPU, with a warning); auto: the CPU's, handing a model of more than 2^21 states to a GPU "
                              "that can run it"},
    {"convert:threads", "N", "threads exploring a PRISM-language source (default: every core)"},
    {"check:const", "N=V,...",
     "values of the undefined constants of the model (a PRISM-language source or JANI model) and of the properties file alike; a "
     "properties file's constant may take a range, T=1:1:10 (lo:step:hi, or lo:hi with step 1), which checks each "
     "property that uses it once per value (a table; in JSON a record each, with its \"constants\")"},
    {"const", "N=V,...", "values of the constants a PRISM-language source or JANI model leaves undefined"},
    {"check:property", "P...",
     "PRISM-syntax properties, e.g. 'P=? [ F \"goal\" ]'; with --property-file, a property's name selects it and N "
     "its N-th (PRISM's -prop), and only the selected ones run"},
    {"property", "P...", "PRISM-syntax properties, e.g. 'P=? [ F \"goal\" ]'"},
    {"property-file", "F", "read properties from a PRISM .props/.pctl file (every one runs unless --property selects); "
                            "a file named *.props, *.prop, *.pctl, *.prctl or *.csl beside the model needs no flag"},
    {"check:param", "K=V...", "check a parametric CTMC at this point: a value for every parameter (K=V, repeated or "
                              "comma-separated), within the parameter's range"},
    {"synth:param", "K=LO:HI...", "a parameter and its interval; the box to partition"},
    {"synth:property", "P", "a time-bounded property: P[ a U[t1,t2] b ], P[ F<=t b ] or R[ C<=t ]"},
    {"synth:epsilon", "E", "stop refining a region once its bounds are within E"},
    {"scheduler", "FILE", "MDPs: write the optimal scheduler, one line per state with its variables (several "
                          "properties: one file each, FILE.NAME.ext or FILE.2.ext, for those that have one)"},
    {"export-vector", "FILE", "write every state's value and bounds (a tab-separated table with the variables; "
                              "several properties: one file each, as --scheduler)"},
    {"export-results", "FILE", "write every property's result: a table (value, bounds, verdict, solver, iterations, "
                               "seconds, error, constants) or a QVBS results file (--export-format)"},
    {"export-format", "tsv|csv|qvbs", "--export-results' format: tab- or comma-separated table, or QVBS's results JSON "
                                      "(tool, system, command, time, memory, state space, each property's value and "
                                      "time); default: by FILE's extension, .csv csv, .json qvbs, else tsv"},
    {"progress", "", "off a terminal, a progress line on stderr every second of a long solve or exploration "
                     "(without it: every 10 s; on a terminal a line rewritten in place, always)"},
    {"json", "", "print JSON (one object per result) instead of text"},
    {"stats", "", "print each result's seconds by phase"},
    {"threshold", "'>=P'", "threshold synthesis: the regions where the probability meets the bound"},
    {"max", "", "synthesise the regions that may hold the maximum"},
    {"min", "", "synthesise the regions that may hold the minimum"},
    {"max-regions", "N", "stop refining after N regions"},
    {"batch", "N", "regions bounded per solver call"},
    {"plot", "FILE.svg", "draw the regions (two parameters)"},
    {"from", "F", "the input's format (as --format)"},
    {"to", "F", "the output's format: prism, storm-explicit, drn, pmcb or umb (default: by the output's extension)"},
};

// The defaults that are not check settings; "command:name" entries win.
const OptionText k_option_defaults[] = {
    {"check:max-states", "0", "0 (no limit)"},
    {"build", "auto", "auto"},
};

// The entry of `table` for `option` of `command`: its "command:name" entry
// if there is one, else its "name" entry; nullptr when there is neither.
const OptionText* find_option_text(std::span<const OptionText> table, const std::string& command,
                                   const OptionSpec& option) {
  for (const std::string& key : {command + ":" + option.name, option.name}) {
    for (const OptionText& t : table) {
      if (key == t.name) return &t;
    }
  }
  return nullptr;
}

// The check setting that --NAME sets; nullptr when NAME is no setting.
const SettingSpec* find_setting(const std::string& name) {
  for (const SettingSpec& spec : setting_specs()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string option_value_placeholder(const std::string& command, const OptionSpec& option) {
  if (const OptionText* t = find_option_text(k_option_texts, command, option)) return t->value;
  if (const SettingSpec* spec = find_setting(option.name)) return spec->values;
  return option.takes_value ? "VALUE" : "";
}

// What --NAME is when not given, for help ("" where there is nothing to say:
// flags that are off, the model, the output). check's settings take theirs
// from fresh CheckOptions, so a new setting shows its default by itself.
std::string option_default(const std::string& command, const OptionSpec& option) {
  if (const OptionText* t = find_option_text(k_option_defaults, command, option)) return t->text;
  if (command == "check" && find_setting(option.name) != nullptr) return setting_value(CheckOptions{}, option.name);
  return "";
}

// run_command's statuses; 3 only where a result can stop short.
void print_exit_statuses(const Command& command, std::ostream& out) {
  fmt::print(out, "\nexit status:\n  0    success\n");
  if (command.name == "check") {
    fmt::print(out, "  1    an error: the model does not load, or a property fails (the other properties are "
                    "still checked and printed)\n");
  } else {
    fmt::print(out, "  1    an error (the message on stderr says which)\n");
  }
  fmt::print(out, "  2    a usage error: an unknown or missing option, a bad value\n");
  if (command.name == "check") {
    fmt::print(out, "  3    a result did not converge within --max-iterations (it is printed all the same)\n");
  } else if (command.name == "synth") {
    fmt::print(out, "  3    --max-regions stopped the refinement before --epsilon (the regions are printed)\n");
  }
  fmt::print(out, "  130  cancelled by Ctrl-C (SIGINT); 143 by SIGTERM\n");
}

}  // namespace

std::string option_help(const std::string& command, const OptionSpec& option) {
  if (const OptionText* t = find_option_text(k_option_texts, command, option)) return t->text;
  if (const SettingSpec* spec = find_setting(option.name)) return spec->summary;
  return "";
}

void print_command_help(const Command& command, std::ostream& out) {
  fmt::print(out, "usage: pmc {}{}{}\n\n{}\n", command.name, command.usage.empty() ? "" : " ", command.usage,
             command.summary);
  fmt::print(out, "\noptions:\n");
  for (const OptionSpec& option : command.options) {
    const std::string value = option_value_placeholder(command.name, option);
    const std::string left = fmt::format("--{}{}{}", option.name, value.empty() ? "" : " ", value);
    const std::string fallback = option_default(command.name, option);
    const std::string text = option_help(command.name, option) + (fallback.empty() ? "" : " (default: " + fallback + ")");
    if (left.size() < 24) fmt::print(out, "  {:<24} {}\n", left, text);
    else fmt::print(out, "  {}\n  {:<24} {}\n", left, "", text);
  }
  fmt::print(out, "  {:<24} {}\n", "-h, --help", "print this help and exit");
  if (!command.options.empty()) print_exit_statuses(command, out);
  if (!command.example.empty()) fmt::print(out, "\nexample:\n  {}\n", command.example);
}

int run_command(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
  if (words.empty()) {
    print_help(out);
    return 0;
  }
  const auto& table = command_table();
  auto command = std::find_if(table.begin(), table.end(), [&](const Command& c) { return c.name == words[0]; });
  if (command == table.end()) {
    fmt::print(err, "pmc: error: unknown command {} (try `pmc help`)\n", quote_for_message(words[0]));
    return 2;
  }
  // --help anywhere among the arguments wins: usage, and nothing else runs.
  if (std::any_of(words.begin() + 1, words.end(), [](const std::string& w) { return w == "--help" || w == "-h"; })) {
    print_command_help(*command, out);
    return 0;
  }
  try {
    Arguments args({words.begin() + 1, words.end()}, command->options);
    return command->run(args, out);
  } catch (const Error& e) {
    if (e.code() == ErrorCode::cancelled) {
      out.flush();
      fmt::print(err, "pmc {}: cancelled\n", command->name);
      return command_signal_status() != 0 ? command_signal_status() : k_cancelled_status;
    }
    fmt::print(err, "pmc {}: error: {}\n", command->name, e.what());
    return e.code() == ErrorCode::invalid_argument ? 2 : 1;
  } catch (const std::bad_alloc&) {
    fmt::print(err, "pmc {}: error: out of memory\n", command->name);
    return 1;
  } catch (const std::exception& e) {
    fmt::print(err, "pmc {}: internal error: {}\n", command->name, e.what());
    return 1;
  }
}

}  // namespace pmc::shell
