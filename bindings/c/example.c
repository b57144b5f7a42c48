/*
 * A tour of pmc's C API: load a model (or build one from arrays), query it,
 * check a property, and list GPUs.
 *
 *   pmc_c_example [MODEL]       default: examples/die/die.tra
 *
 * Exits non-zero with pmc's message on any error.
 */
#include <stdio.h>
#include <stdlib.h>

#include <pmc/pmc.h>

static int check(pmc_status status, const char* what) {
  if (status != PMC_OK) {
    fprintf(stderr, "%s failed: %s: %s\n", what, pmc_status_string(status), pmc_last_error());
    return 0;
  }
  return 1;
}

/* A two-state DTMC built from CSR arrays: state 0 moves to 1 with 0.25. */
static int build_from_arrays(void) {
  const uint64_t row_offsets[] = {0, 2, 3};
  const uint64_t columns[] = {0, 1, 1};
  const double values[] = {0.75, 0.25, 1.0};
  const uint64_t initial[] = {0};
  pmc_model* model = NULL;
  uint64_t transitions = 0;
  if (!check(pmc_model_build_csr(PMC_MODEL_DTMC, 2, 2, NULL, row_offsets, columns, values, NULL, &model),
             "pmc_model_build_csr"))
    return 0;
  int ok = check(pmc_model_add_label(model, "init", initial, 1), "pmc_model_add_label") &&
           check(pmc_model_num_transitions(model, &transitions), "pmc_model_num_transitions");
  if (ok) printf("built a DTMC from arrays: 2 states, %llu transitions\n", (unsigned long long)transitions);
  pmc_model_free(model);
  return ok;
}

static int describe(const char* path) {
  pmc_model* model = NULL;
  pmc_model_kind kind;
  uint64_t states = 0, transitions = 0, labels = 0, rewards = 0, i;
  static const char* const kind_names[] = {"dtmc", "ctmc", "mdp", "pctmc"};
  if (!check(pmc_model_load(path, NULL, &model), "pmc_model_load")) return 0;
  int ok = check(pmc_model_type(model, &kind), "pmc_model_type") &&
           check(pmc_model_num_states(model, &states), "pmc_model_num_states") &&
           check(pmc_model_num_transitions(model, &transitions), "pmc_model_num_transitions") &&
           check(pmc_model_num_labels(model, &labels), "pmc_model_num_labels") &&
           check(pmc_model_num_rewards(model, &rewards), "pmc_model_num_rewards");
  if (ok) {
    printf("%s: %s, %llu states, %llu transitions\n", path, kind_names[kind], (unsigned long long)states,
           (unsigned long long)transitions);
  }
  for (i = 0; ok && i < labels; ++i) {
    const char* name = NULL;
    uint64_t count = 0;
    ok = check(pmc_model_label_name(model, i, &name), "pmc_model_label_name") &&
         check(pmc_model_label_states(model, name, NULL, 0, &count), "pmc_model_label_states");
    if (ok) printf("  label \"%s\": %llu states\n", name, (unsigned long long)count);
  }
  for (i = 0; ok && i < rewards; ++i) {
    const char* name = NULL;
    ok = check(pmc_model_reward_name(model, i, &name), "pmc_model_reward_name");
    if (ok) printf("  rewards \"%s\"\n", name);
  }
  pmc_model_free(model);
  return ok;
}

/* Checks a property with a chosen solver and tight convergence. */
static int check_property(const char* path, const char* property) {
  pmc_model* model = NULL;
  pmc_options* options = NULL;
  pmc_result* result = NULL;
  double value = 0, seconds = 0;
  uint64_t iterations = 0;
  const char* solver = NULL;
  int ok = check(pmc_model_load(path, NULL, &model), "pmc_model_load") &&
           check(pmc_options_create(&options), "pmc_options_create") &&
           check(pmc_options_set_solver(options, "cpu.gauss-seidel"), "pmc_options_set_solver") &&
           check(pmc_options_set_epsilon(options, 1e-10), "pmc_options_set_epsilon") &&
           check(pmc_check(model, property, options, &result), "pmc_check") &&
           check(pmc_result_initial_value(result, &value), "pmc_result_initial_value") &&
           check(pmc_result_iterations(result, &iterations), "pmc_result_iterations") &&
           check(pmc_result_solver(result, &solver), "pmc_result_solver") &&
           check(pmc_result_seconds(result, &seconds), "pmc_result_seconds");
  if (ok) {
    printf("%s = %.10g (%s, %llu iterations, %.4f s)\n", property, value, solver, (unsigned long long)iterations,
           seconds);
  }
  pmc_result_free(result);
  pmc_options_free(options);
  pmc_model_free(model);
  return ok;
}

static void list_devices(void) {
  uint64_t count = 0, i;
  if (pmc_device_count(&count) != PMC_OK) {
    printf("no GPU: %s\n", pmc_last_error());
    return;
  }
  for (i = 0; i < count; ++i) {
    const char* name = NULL;
    uint64_t free_bytes = 0, total_bytes = 0;
    if (pmc_device_name(i, &name) == PMC_OK && pmc_device_memory(i, &free_bytes, &total_bytes) == PMC_OK)
      printf("GPU %llu: %s, %llu MiB free\n", (unsigned long long)i, name, (unsigned long long)(free_bytes >> 20));
  }
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "examples/die/die.tra";
  printf("pmc %s\n", pmc_version());
  if (!describe(path) || !build_from_arrays()) return EXIT_FAILURE;
  if (argc <= 1 && !check_property(path, "P=? [ F \"six\" ]")) return EXIT_FAILURE;
  list_devices();
  return EXIT_SUCCESS;
}
