#include "commands.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "common/error.hpp"
#include "check_commands.hpp"
#include "synth_command.hpp"
#include "model_commands.hpp"

namespace pmc::shell {

namespace {

const std::vector<OptionSpec> k_load_options = {
    {"model", true, true}, {"format", true, false}, {"strict", false, false}, {"const", true, false},
    {"max-states", true, false}};

std::vector<OptionSpec> with_load_options(std::vector<OptionSpec> more) {
  more.insert(more.end(), k_load_options.begin(), k_load_options.end());
  return more;
}

}  // namespace

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = {
      {"check",
       "--model FILE... [--const N=V,...] [--max-states N] (--property P... | --property-file F) [--solver NAME] [--epsilon E] [--relative|--absolute] "
       "[--sound|--unsound] [--max-iterations N] [--threads N] [--device I] [--devices auto|all|I,J] [--gpu-memory-limit BYTES] "
       "[--gpu-layout L] [--reorder bfs] "
       "[--scheduler FILE] [--json] [--stats]",
       "check PRISM-syntax properties (P=? [ F \"goal\" ], R{\"r\"}=? [ C<=10 ], S=? [ \"up\" ], ...), given "
       "with --property or read from a .props/.pctl file (one per line or ;-separated, // comments, const, "
       "\"name\": P=? [...]); --stats adds each result's seconds by phase",
       with_load_options({{"property", true, true},
                          {"property-file", true, false},
                          {"solver", true, false},
                          {"epsilon", true, false},
                          {"relative", false, false},
                          {"absolute", false, false},
                          {"sound", false, false},
                          {"unsound", false, false},
                          {"max-iterations", true, false},
                          {"threads", true, false},
                          {"device", true, false},
                          {"devices", true, false},
                          {"gpu-memory-limit", true, false},
                          {"gpu-layout", true, false},
                          {"reorder", true, false},
                          {"scheduler", true, false},
                          {"json", false, false},
                          {"stats", false, false}}),
       run_check},
      {"synth",
       "--model FILE --property P --param K=LO:HI... (--threshold '>=0.9' | --max | --min) [--epsilon E] "
       "[--solver NAME] [--threads N] [--device I] [--gpu-memory-limit BYTES] [--gpu-layout auto|thread|ell] "
       "[--max-regions N] [--batch N] [--json] [--plot FILE.svg]",
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
       run_synth},
      {"solvers", "[--json]", "list the solvers and the problems they solve", {{"json", false, false}}, run_solvers},
      {"info", "--model FILE... [--format F] [--const N=V,...] [--max-states N] [--strict] [--json]",
       "print a model's type, sizes, labels and reward structures", with_load_options({{"json", false, false}}),
       run_info},
      {"convert", "IN... OUT [--from F] [--to F] [--const N=V,...] [--max-states N] [--strict]",
       "convert a model between PRISM explicit (.tra), DRN (.drn) and pmc binary (.pmcb); a PRISM-language "
       "source (.pm/.sm/.nm/.prism) is built and written in any of them",
       {{"from", true, false},
        {"to", true, false},
        {"strict", false, false},
        {"const", true, false},
        {"max-states", true, false}},
       run_convert},
      {"devices", "[--json]", "list the CUDA GPUs pmc can use", {{"json", false, false}}, run_devices},
      {"version", "", "print pmc's version", {},
       [](const Arguments&, std::ostream& out) {
         fmt::print(out, "pmc {}\n", PMC_PROJECT_VERSION);
         return 0;
       }},
      {"help", "", "list the commands", {},
       [](const Arguments&, std::ostream& out) {
         print_help(out);
         return 0;
       }},
  };
  return table;
}

void print_help(std::ostream& out) {
  fmt::print(out, "pmc {}: probabilistic model checking on CPUs and NVIDIA GPUs\n\nCommands:\n", PMC_PROJECT_VERSION);
  for (const Command& c : command_table()) fmt::print(out, "  pmc {} {}\n      {}\n", c.name, c.usage, c.summary);
  fmt::print(out, "  pmc [-f SCRIPT] [--json] [-k|--continue]\n      the shell: interactive on a terminal "
                  "(`help` there lists its commands), else runs a script\n");
  fmt::print(out,
             "\nFormats (--format/--from/--to): prism, prism-dtmc, prism-ctmc, prism-mdp, drn, pmcb, prism-language;\n"
             "by default chosen by extension. A .tra finds its .lab/.srew/.trew/.sta siblings.\n"
             "PRISM-language sources (.pm, .sm, .nm, .prism; read only) are built by exploring their\n"
             "reachable states: --const N=4,K=2 sets the constants they leave undefined, --max-states N\n"
             "stops the exploration with an error above N states (0: no limit).\n");
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
  try {
    Arguments args({words.begin() + 1, words.end()}, command->options);
    return command->run(args, out);
  } catch (const Error& e) {
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
