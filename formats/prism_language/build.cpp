// .pm/.sm/.nm/.prism files → Model: what every loader (CLI, shell, C ABI)
// calls for a PRISM-language source.
#include "formats/prism_language/exact_values.hpp"
#include "formats/prism_language/prism_model.hpp"

namespace pmc::prism_language {

ModelPtr build_model_from_source(const std::string& path, const std::vector<ConstantAssignment>& constants,
                                 const ExploreOptions& options) {
  auto program = std::make_shared<const PrismModel>(load_program(path, constants));
  ModelParts parts = explore(*program, options);
  // The program stays with the model for --exact, which reads its
  // expressions again (small beside the model).
  parts.exact_source = exact_value_source(std::move(program));
  return Model::create(std::move(parts), options.model);
}

}  // namespace pmc::prism_language
