// PRISM-language sources (formats/prism_language: lexer, parser, checker,
// explorer): parsed from memory, explored with at most k_max_states states
// on one thread, and the model built, validated and round-tripped through
// .pmcb. A first line `// const TEXT` gives TEXT as --const assignments,
// so the fuzzer reaches constants that the source leaves undefined. See
// fuzz_support.hpp for the contract.
#include "formats/prism_language/prism_model.hpp"
#include "fuzz_support.hpp"

namespace {

// Exploration is bounded by states, not by input size: a few bytes can
// describe a huge state space, and the limit's error is the clean answer.
// Transitions are not bounded, though: herman N13 (8192 states, 1.6M
// transitions) takes 11 s here, so the limit stays below such models.
constexpr uint64_t k_max_states = 2000;

constexpr std::string_view k_constants_prefix = "// const ";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  std::string constants_text;
  if (source.starts_with(k_constants_prefix)) {
    const size_t end = source.find('\n');
    constants_text = source.substr(k_constants_prefix.size(),
                                   end == std::string_view::npos ? std::string_view::npos : end - k_constants_prefix.size());
  }
  pmc::ModelPtr model;
  const bool built = pmc::fuzz::clean_or_finding("prism_language build", [&] {
    const auto constants = pmc::prism_language::parse_constant_assignments(constants_text);
    const pmc::prism_language::PrismModel program = pmc::prism_language::parse_program(source, "fuzz.pm", constants);
    pmc::prism_language::ExploreOptions options;
    options.max_states = k_max_states;
    options.threads = 1;
    model = pmc::Model::create(pmc::prism_language::explore(program, options), options.model);
  });
  if (built) pmc::fuzz::check_pmcb_round_trip(*model);
  return 0;
}
