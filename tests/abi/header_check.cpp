// pmc.h must compile as C++ too, with C linkage for every function.
#include <pmc/pmc.h>

#include <type_traits>

static_assert(std::is_same_v<decltype(&pmc_model_load), pmc_status (*)(const char*, const char*, pmc_model**)>);
extern "C" int pmc_header_check_c(void);

int main() { return pmc_header_check_c() == PMC_VERSION_MAJOR ? 0 : 1; }
