/* pmc.h must compile as strict C99 (-std=c99 -pedantic -Wall -Wextra
 * -Werror) on its own: this file is built with exactly those flags. */
#include <pmc/pmc.h>

int pmc_header_check_c(void);
int pmc_header_check_c(void) { return PMC_OK + PMC_VERSION_MAJOR; }
