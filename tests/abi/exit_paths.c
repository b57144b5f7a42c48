/* The library's ways out, as a host program takes them: pmc_check at the
 * defaults (auto may start CUDA), then the process ends at once with the
 * model still loaded ("keep": exit handlers run while pmc holds device
 * memory), after pmc_model_free ("free"), or after dlclose of libpmc
 * ("dlclose": the library's static destructors and the CUDA runtime's
 * teardown run at unload). None may hang or die by a signal; pmc starts no
 * background CUDA work in a library caller's process (docs/decisions.md).
 *
 *   exit_paths LIBPMC MODEL PROPERTY keep|free|dlclose
 *
 * Exit status 0 with the value printed, 1 on a pmc error. The test suite
 * runs each mode on the die; bench/gpu_run.sh stress runs it many times on
 * the device, where CUDA does start. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pmc/pmc.h"

typedef pmc_status (*model_load_fn)(const char*, const char*, pmc_model**);
typedef pmc_status (*check_fn)(const pmc_model*, const char*, const pmc_options*, pmc_result**);
typedef pmc_status (*value_fn)(const pmc_result*, double*);
typedef void (*result_free_fn)(pmc_result*);
typedef void (*model_free_fn)(pmc_model*);
typedef const char* (*last_error_fn)(void);

static void resolve(void* library, const char* name, void* function, size_t size) {
  void* symbol = dlsym(library, name);
  if (symbol != NULL && size == sizeof symbol) memcpy(function, &symbol, size);
}

int main(int argc, char** argv) {
  if (argc != 5 || (strcmp(argv[4], "keep") != 0 && strcmp(argv[4], "free") != 0 && strcmp(argv[4], "dlclose") != 0)) {
    fprintf(stderr, "usage: exit_paths LIBPMC MODEL PROPERTY keep|free|dlclose\n");
    return 2;
  }
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "exit_paths: %s\n", dlerror());
    return 2;
  }
  /* dlsym's object pointers become function pointers by copying their
   * bytes, as POSIX allows (C99 has no conversion between the two). */
  model_load_fn model_load = NULL;
  check_fn check = NULL;
  value_fn initial_value = NULL;
  result_free_fn result_free = NULL;
  model_free_fn model_free = NULL;
  last_error_fn last_error = NULL;
  resolve(library, "pmc_model_load", &model_load, sizeof model_load);
  resolve(library, "pmc_check", &check, sizeof check);
  resolve(library, "pmc_result_initial_value", &initial_value, sizeof initial_value);
  resolve(library, "pmc_result_free", &result_free, sizeof result_free);
  resolve(library, "pmc_model_free", &model_free, sizeof model_free);
  resolve(library, "pmc_last_error", &last_error, sizeof last_error);
  if (!model_load || !check || !initial_value || !result_free || !model_free || !last_error) {
    fprintf(stderr, "exit_paths: a pmc function is missing from %s\n", argv[1]);
    return 2;
  }
  pmc_model* model = NULL;
  pmc_result* result = NULL;
  double value = 0;
  if (model_load(argv[2], NULL, &model) != PMC_OK || check(model, argv[3], NULL, &result) != PMC_OK ||
      initial_value(result, &value) != PMC_OK) {
    fprintf(stderr, "exit_paths: %s\n", last_error());
    return 1;
  }
  printf("%.17g\n", value);
  fflush(stdout);
  result_free(result);
  if (strcmp(argv[4], "keep") == 0) return 0; /* exit handlers run with the model (and its GPU copy) alive */
  model_free(model);
  if (strcmp(argv[4], "dlclose") == 0 && dlclose(library) != 0) {
    fprintf(stderr, "exit_paths: dlclose: %s\n", dlerror());
    return 1;
  }
  return 0;
}
