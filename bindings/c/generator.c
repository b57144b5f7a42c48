/*
 * A model described by a callback instead of a file: Knuth and Yao's die
 * (examples/die/die.pm) as a pmc model generator. The state is two bytes,
 * [s, d]: the coin's node in the tree and the face shown. pmc explores the
 * states the callback reaches, numbers them by their bytes (PRISM's order,
 * since each byte is a variable's value), and builds the same model as the
 * PRISM-language source; the state bytes map results back.
 *
 *   pmc_c_generator          prints P=? [ F "six" ] and each state's value
 *
 * Exit status 0 when the value is 1/6 (to the default precision), else 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmc/pmc.h"

/* The indices pmc gave the labels and the reward structure. */
struct die_ids {
  uint64_t done, six, coin_flips;
};

static int go(pmc_expansion* e, uint8_t s, uint8_t d) {
  const uint8_t target[2] = {s, d};
  return pmc_expansion_add_transition(e, 0.5, target, 2) != PMC_OK;
}

/* Writes one state's transitions, labels and rewards; returns 0, or
 * non-zero to stop the exploration (pmc then reports the state). */
static int expand_die(const void* state, uint64_t size, pmc_expansion* e, void* user_data) {
  const struct die_ids* ids = user_data;
  const uint8_t* v = state;
  const uint8_t s = v[0], d = v[1];
  int failed = 0;
  (void)size; /* always 2: the generator's states have a fixed size */
  if (s < 3) {
    failed |= go(e, (uint8_t)(2 * s + 1), d) | go(e, (uint8_t)(2 * s + 2), d);
  } else if (s == 3 || s == 6) {
    failed |= go(e, s == 3 ? 1 : 2, d) | go(e, 7, s == 3 ? 1 : 6);
  } else if (s == 4 || s == 5) {
    failed |= go(e, 7, (uint8_t)(2 * s - 6)) | go(e, 7, (uint8_t)(2 * s - 5));
  } else if (s == 7) {
    failed |= pmc_expansion_add_transition(e, 1.0, state, 2) != PMC_OK;
    failed |= pmc_expansion_set_label(e, ids->done) != PMC_OK;
    if (d == 6) failed |= pmc_expansion_set_label(e, ids->six) != PMC_OK;
  } else {
    pmc_expansion_fail(e, "the coin is off the tree");
    return 1;
  }
  if (s < 7) failed |= pmc_expansion_set_state_reward(e, ids->coin_flips, 1.0) != PMC_OK;
  return failed;
}

static int fail(const char* what) {
  fprintf(stderr, "%s: %s\n", what, pmc_last_error());
  return 1;
}

int main(void) {
  struct die_ids ids;
  pmc_generator* generator = NULL;
  pmc_model* model = NULL;
  pmc_result* result = NULL;
  const uint8_t initial[2] = {0, 0};
  uint64_t states = 0, s;
  double value = 0, *values;
  int status = 1;

  if (pmc_generator_create(PMC_MODEL_DTMC, 2, expand_die, &ids, &generator) != PMC_OK) return fail("generator");
  if (pmc_generator_set_fixed_size(generator, 1) != PMC_OK ||
      pmc_generator_add_initial_state(generator, initial, 2) != PMC_OK ||
      pmc_generator_add_label(generator, "done", &ids.done) != PMC_OK ||
      pmc_generator_add_label(generator, "six", &ids.six) != PMC_OK ||
      pmc_generator_add_rewards(generator, "coin_flips", &ids.coin_flips) != PMC_OK) {
    status = fail("generator settings");
    goto out;
  }
  if (pmc_model_explore(generator, NULL, &model) != PMC_OK) {
    status = fail("pmc_model_explore");
    goto out;
  }
  pmc_model_num_states(model, &states);
  if (pmc_check(model, "P=? [ F \"six\" ]", NULL, &result) != PMC_OK) {
    status = fail("pmc_check");
    goto out;
  }
  pmc_result_initial_value(result, &value);
  printf("P=? [ F \"six\" ] = %.9f over %llu states\n", value, (unsigned long long)states);

  /* Each state's bytes beside its value. */
  values = malloc(states * sizeof *values);
  if (values == NULL || pmc_result_values(result, values, states, &states) != PMC_OK) {
    free(values);
    status = fail("pmc_result_values");
    goto out;
  }
  for (s = 0; s < states; ++s) {
    uint8_t bytes[2];
    uint64_t size = 0;
    pmc_model_state_bytes(model, s, bytes, sizeof bytes, &size);
    printf("  state %2llu  s=%u d=%u  %.6f\n", (unsigned long long)s, bytes[0], bytes[1], values[s]);
  }
  free(values);
  {
    /* And back: which state is "face 6 shown"? */
    const uint8_t six_shown[2] = {7, 6};
    uint64_t index = 0;
    if (pmc_model_find_state(model, six_shown, 2, &index) != PMC_OK) {
      status = fail("pmc_model_find_state");
      goto out;
    }
    printf("the state [7, 6] is state %llu\n", (unsigned long long)index);
  }
  status = fabs(value - 1.0 / 6) <= 1e-6 ? 0 : 1;
out:
  pmc_result_free(result);
  pmc_model_free(model);
  pmc_generator_free(generator);
  return status;
}
