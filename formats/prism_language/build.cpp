// .pm/.sm/.nm/.prism files → Model: what every loader (CLI, shell, C ABI)
// calls for a PRISM-language source.
#include "formats/prism_language/prism_model.hpp"

namespace pmc::prism_language {

ModelPtr build_model_from_source(const std::string& path, const std::vector<ConstantAssignment>& constants,
                                 const ExploreOptions& options) {
  const PrismModel program = load_program(path, constants);
  return Model::create(explore(program, options), options.model);
}

}  // namespace pmc::prism_language
