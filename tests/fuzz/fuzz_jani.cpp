// JANI models (formats/jani: the JSON document, the translation into the
// PRISM-language front end, its checks and explorer): the bytes are a .jani
// file (.jani.gz when gzip's signature starts them). Its constants are read
// and every one it leaves open gets a small value (int 2, real 0.5, bool
// true), so that models like consensus (K open) get explored; the model is
// built with at most k_max_states states on one thread, validated and
// round-tripped through .pmcb; the file's properties are translated, and the
// text of each that translates is parsed as a property. Every step either
// succeeds or fails with a clean pmc::Error (fuzz_support.hpp's contract).
#include <fmt/format.h>

#include "formats/jani/jani.hpp"
#include "fuzz_support.hpp"
#include "property/parser.hpp"

namespace {

// As fuzz_prism_language: a few bytes can describe a huge state space, and
// the limit's error is the clean answer.
constexpr uint64_t k_max_states = 2000;

// A value for each constant the file leaves open (given as assignments,
// not as --const text: a JANI name may hold ',' or '=').
std::vector<pmc::prism_language::ConstantAssignment> open_constants(
    const std::vector<pmc::prism_language::DeclaredConstant>& declared) {
  std::vector<pmc::prism_language::ConstantAssignment> out;
  for (const auto& c : declared) {
    if (c.defined) continue;
    const char* value = c.type == pmc::expression::ValueType::boolean ? "true"
                        : c.type == pmc::expression::ValueType::real  ? "0.5"
                                                                      : "2";
    out.push_back({c.name, value});
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const std::string path = pmc::fuzz::write_file(pmc::fuzz::looks_gzipped(bytes) ? "in.jani.gz" : "in.jani", bytes);
  std::vector<pmc::prism_language::ConstantAssignment> constants;
  if (!pmc::fuzz::clean_or_finding("jani constants",
                                   [&] { constants = open_constants(pmc::jani::declared_constants(path)); })) {
    return 0;  // not JSON, or not a JANI model: the build would say the same
  }
  pmc::ModelPtr model;
  const bool built = pmc::fuzz::clean_or_finding("jani build", [&] {
    pmc::prism_language::ExploreOptions options;
    options.max_states = k_max_states;
    options.threads = 1;
    model = pmc::jani::build_model(path, constants, options);
  });
  if (built) pmc::fuzz::check_pmcb_round_trip(*model);
  std::vector<pmc::jani::Property> properties;
  pmc::fuzz::clean_or_finding("jani properties", [&] { properties = pmc::jani::read_properties(path).properties; });
  for (const pmc::jani::Property& p : properties) {
    if (!p.error.empty()) {
      // An untranslatable property says why, with a clean code.
      if (p.error_code != pmc::ErrorCode::parse && p.error_code != pmc::ErrorCode::unsupported) {
        pmc::fuzz::finding(fmt::format("property {:?} has error code {}: {}", p.name, static_cast<int>(p.error_code),
                                       p.error));
      }
      continue;
    }
    pmc::fuzz::clean_or_finding("jani property text", [&] { (void)pmc::property::parse_property(p.text); });
  }
  return 0;
}
