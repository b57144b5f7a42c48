/*
 * A tour of pmc's C API: load a model from a file and query it, check a
 * property and read the value of every state, check the properties of a
 * properties file, see how an error is reported, build an MDP from arrays
 * and read its optimal scheduler, and list GPUs.
 *
 *   pmc_c_example [MODEL]       default: examples/die/die.tra
 *
 * Every call's status is checked; on failure the example prints pmc's
 * message (pmc_last_error) and exits non-zero.
 */
#include <stdio.h>
#include <stdlib.h>

#include <pmc/pmc.h>

/* Prints the error of a failed call. pmc_last_error() is per thread and
 * valid until the next failing call, so it is read right away. */
static int check(pmc_status status, const char* what) {
  if (status != PMC_OK) {
    fprintf(stderr, "%s failed: %s: %s\n", what, pmc_status_string(status), pmc_last_error());
    return 0;
  }
  return 1;
}

/* Type, sizes, labels and reward structures of a loaded model. */
static int describe(const char* path, const pmc_model* model) {
  static const char* const kind_names[] = {"dtmc", "ctmc", "mdp", "pctmc"};
  pmc_model_kind kind;
  uint64_t states = 0, transitions = 0, labels = 0, rewards = 0, i;
  int ok = check(pmc_model_type(model, &kind), "pmc_model_type") &&
           check(pmc_model_num_states(model, &states), "pmc_model_num_states") &&
           check(pmc_model_num_transitions(model, &transitions), "pmc_model_num_transitions") &&
           check(pmc_model_num_labels(model, &labels), "pmc_model_num_labels") &&
           check(pmc_model_num_rewards(model, &rewards), "pmc_model_num_rewards");
  if (ok) {
    printf("%s: %s, %llu states, %llu transitions\n", path, (unsigned)kind < 4 ? kind_names[kind] : "?",
           (unsigned long long)states, (unsigned long long)transitions);
  }
  for (i = 0; ok && i < labels; ++i) {
    const char* name = NULL; /* owned by the model */
    uint64_t count = 0;
    /* Capacity 0: only count the label's states. */
    ok = check(pmc_model_label_name(model, i, &name), "pmc_model_label_name") &&
         check(pmc_model_label_states(model, name, NULL, 0, &count), "pmc_model_label_states");
    if (ok) printf("  label \"%s\": %llu states\n", name, (unsigned long long)count);
  }
  for (i = 0; ok && i < rewards; ++i) {
    const char* name = NULL;
    ok = check(pmc_model_reward_name(model, i, &name), "pmc_model_reward_name");
    if (ok) printf("  rewards \"%s\"\n", name);
  }
  return ok;
}

/* Every state's value: ask for the count (capacity 0), then copy. */
static int print_values(const pmc_result* result) {
  uint64_t count = 0, i;
  double* values;
  int ok;
  if (!check(pmc_result_values(result, NULL, 0, &count), "pmc_result_values")) return 0;
  values = malloc(count > 0 ? count * sizeof *values : 1);
  if (values == NULL) {
    fprintf(stderr, "out of memory for %llu values\n", (unsigned long long)count);
    return 0;
  }
  ok = check(pmc_result_values(result, values, count, &count), "pmc_result_values");
  if (ok) {
    printf("  values:");
    for (i = 0; i < count; ++i) printf(" %.6g", values[i]);
    printf("\n");
  }
  free(values);
  return ok;
}

/* Checks a property with the default (sound) solver and tight convergence;
 * a sound result carries certified bounds around the value. */
static int check_property(const pmc_model* model, const char* property) {
  pmc_options* options = NULL;
  pmc_result* result = NULL;
  double value = 0, seconds = 0, solve = 0, lower = 0, upper = 0;
  uint64_t iterations = 0;
  int sound = 0;
  const char* solver = NULL; /* owned by the result */
  int ok = check(pmc_options_create(&options), "pmc_options_create") &&
           check(pmc_options_set_epsilon(options, 1e-10), "pmc_options_set_epsilon") &&
           check(pmc_check(model, property, options, &result), "pmc_check") &&
           check(pmc_result_initial_value(result, &value), "pmc_result_initial_value") &&
           check(pmc_result_iterations(result, &iterations), "pmc_result_iterations") &&
           check(pmc_result_solver(result, &solver), "pmc_result_solver") &&
           check(pmc_result_seconds(result, &seconds), "pmc_result_seconds") &&
           check(pmc_result_phase_seconds(result, PMC_PHASE_SOLVE, &solve), "pmc_result_phase_seconds") &&
           check(pmc_result_sound(result, &sound), "pmc_result_sound") &&
           /* pmc_result_bounds fails with PMC_ERROR_UNSUPPORTED on unsound results */
           (!sound || check(pmc_result_bounds(result, &lower, &upper), "pmc_result_bounds"));
  if (ok) {
    printf("%s = %.10g (%s, %llu iterations, %.4f s, %.4f s of it solving)\n", property, value, solver,
           (unsigned long long)iterations, seconds, solve);
    if (sound) {
      printf("  certified: the exact value lies in [%.12g, %.12g]\n", lower, upper);
    } else {
      printf("  not certified (no error bound)\n");
    }
    ok = print_values(result);
  }
  /* pmc_check also sets a result when it returns PMC_ERROR_NOT_CONVERGED;
   * freeing NULL is a no-op, so free unconditionally. */
  pmc_result_free(result);
  pmc_options_free(options);
  return ok;
}

/* A properties file's properties, read by the library (from text here;
 * pmc_properties_read takes a path) and each checked on the model. */
static int check_properties_file(const pmc_model* model) {
  static const char* const text = "const int K = 3;\n\"six\": P=? [ F \"six\" ]\nP=? [ F<=K \"done\" ]\n";
  pmc_properties* properties = NULL;
  uint64_t count = 0, i;
  int ok = check(pmc_properties_parse(text, "die.props", NULL, &properties), "pmc_properties_parse") &&
           check(pmc_properties_count(properties, &count), "pmc_properties_count");
  for (i = 0; ok && i < count; ++i) {
    const char* name = NULL;
    const char* property = NULL;
    pmc_result* result = NULL;
    double value = 0;
    ok = check(pmc_properties_name(properties, i, &name), "pmc_properties_name") &&
         check(pmc_properties_text(properties, i, &property), "pmc_properties_text") &&
         check(pmc_check(model, property, NULL, &result), "pmc_check") &&
         check(pmc_result_initial_value(result, &value), "pmc_result_initial_value");
    if (ok) printf("%s%s%s: %g\n", name, name[0] != '\0' ? ": " : "", property, value);
    pmc_result_free(result);
  }
  pmc_properties_free(properties); /* the strings it handed out go with it */
  return ok;
}

/* Errors are ordinary return values: a malformed property gives
 * PMC_ERROR_PROPERTY and a message pointing at the column. */
static int show_error(const pmc_model* model) {
  pmc_result* result = NULL;
  pmc_status status = pmc_check(model, "P=? [ F \"goal\" ", NULL, &result);
  if (status == PMC_OK || result != NULL) {
    fprintf(stderr, "a malformed property was accepted\n");
    pmc_result_free(result);
    return 0;
  }
  printf("expected error, %s:\n%s\n", pmc_status_string(status), pmc_last_error());
  return status == PMC_ERROR_PROPERTY;
}

/* An MDP from CSR arrays. State 0 has two choices: choice 0 reaches "goal"
 * (state 1) with probability 0.5, choice 1 with 0.9; otherwise the process
 * ends in state 2. States 1 and 2 loop. Pmax picks choice 1. */
static int build_mdp_and_schedule(void) {
  const uint64_t row_groups[] = {0, 2, 3, 4};     /* first row (choice) of each state */
  const uint64_t row_offsets[] = {0, 2, 4, 5, 6}; /* first entry of each row */
  const uint64_t columns[] = {1, 2, 1, 2, 1, 2};
  const double values[] = {0.5, 0.5, 0.9, 0.1, 1.0, 1.0};
  const uint64_t initial[] = {0}, goal[] = {1};
  int64_t choices[3];
  pmc_model* model = NULL;
  pmc_result* result = NULL;
  double value = 0;
  uint64_t count = 0, s;
  int ok = check(pmc_model_build_csr(PMC_MODEL_MDP, 3, 4, row_groups, row_offsets, columns, values, NULL, &model),
                 "pmc_model_build_csr") &&
           check(pmc_model_add_label(model, "init", initial, 1), "pmc_model_add_label") &&
           check(pmc_model_add_label(model, "goal", goal, 1), "pmc_model_add_label") &&
           check(pmc_check(model, "Pmax=? [ F \"goal\" ]", NULL, &result), "pmc_check") &&
           check(pmc_result_initial_value(result, &value), "pmc_result_initial_value") &&
           check(pmc_result_scheduler(result, choices, 3, &count), "pmc_result_scheduler");
  if (ok) {
    printf("MDP built from arrays: Pmax=? [ F \"goal\" ] = %g\n", value);
    for (s = 0; s < count && s < 3; ++s) {
      if (choices[s] < 0)
        printf("  state %llu: any choice\n", (unsigned long long)s);
      else
        printf("  state %llu: choice %lld\n", (unsigned long long)s, (long long)choices[s]);
    }
    ok = print_values(result);
  }
  pmc_result_free(result);
  pmc_model_free(model);
  return ok;
}

/* No GPU is not an error for this example: pmc says why there is none. */
static void list_devices(void) {
  uint64_t count = 0, i;
  if (pmc_device_count(&count) != PMC_OK) {
    printf("no GPU: %s\n", pmc_last_error());
    return;
  }
  for (i = 0; i < count; ++i) {
    const char* name = NULL;
    uint64_t free_bytes = 0, total_bytes = 0;
    if (check(pmc_device_name(i, &name), "pmc_device_name") &&
        check(pmc_device_memory(i, &free_bytes, &total_bytes), "pmc_device_memory"))
      printf("GPU %llu: %s, %llu MiB free\n", (unsigned long long)i, name, (unsigned long long)(free_bytes >> 20));
  }
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "examples/die/die.tra";
  pmc_model* model = NULL;
  int ok;
  /* The loaded library must serve the header this program was compiled
   * with: the same major version, and not older. */
  if (pmc_version_number() / 10000 != PMC_VERSION_MAJOR || pmc_version_number() < PMC_VERSION_NUMBER) {
    fprintf(stderr, "libpmc %s is not compatible with pmc.h %s\n", pmc_version(), PMC_VERSION_STRING);
    return EXIT_FAILURE;
  }
  printf("pmc %s\n", pmc_version());
  if (!check(pmc_model_load(path, NULL, &model), "pmc_model_load")) return EXIT_FAILURE;
  ok = describe(path, model) && (argc > 1 || check_property(model, "P=? [ F \"six\" ]")) &&
       (argc > 1 || check_properties_file(model)) && show_error(model) && build_mdp_and_schedule();
  pmc_model_free(model);
  if (ok) list_devices();
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
