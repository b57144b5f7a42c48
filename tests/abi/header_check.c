/* pmc.h must compile as strict C99 (-std=c99 -pedantic -Wall -Wextra
 * -Werror) on its own: this file is built with exactly those flags. */
#include <pmc/pmc.h>

int pmc_header_check_c(void);
/* The generated version header comes with pmc.h: its number and parts agree. */
typedef char pmc_version_number_matches_parts[PMC_VERSION_NUMBER == PMC_VERSION_MAJOR * 10000 + PMC_VERSION_MINOR * 100 + PMC_VERSION_PATCH ? 1 : -1];
int pmc_header_check_c(void) { return PMC_OK + PMC_VERSION_MAJOR; }
