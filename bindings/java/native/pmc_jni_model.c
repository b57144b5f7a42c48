/* org.pmc.Native: loading, building, labels, rewards, queries, saving (see pmc_jni.h). */
#include <stdio.h>
#include <stdlib.h>

#include "pmc_jni.h"

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

JNIEXPORT jlong JNICALL Java_org_pmc_Native_modelLoad(JNIEnv* env, jclass cls, jobjectArray paths, jbyteArray format,
                                                      jlong options_handle) {
  (void)cls;
  if (paths == NULL) {
    throw_new(env, g_null_pointer, "paths");
    return 0;
  }
  const jsize count = (*env)->GetArrayLength(env, paths);
  char** files = calloc(count > 0 ? (size_t)count : 1, sizeof(char*));
  if (files == NULL) {
    throw_out_of_memory(env, "the path list");
    return 0;
  }
  char* format_text = NULL;
  pmc_model* model = NULL;
  int ready = c_string(env, format, 0, "format", &format_text);
  for (jsize i = 0; ready && i < count; ++i) {
    jbyteArray path = (jbyteArray)(*env)->GetObjectArrayElement(env, paths, i);
    if ((*env)->ExceptionCheck(env)) {
      ready = 0;
      break;
    }
    ready = c_string(env, path, 1, "path", &files[i]);
    (*env)->DeleteLocalRef(env, path);
  }
  if (ready) {
    ok(env, pmc_model_load_files((const char* const*)files, (uint64_t)count, format_text,
                                 (const pmc_options*)(intptr_t)options_handle, &model));
  }
  for (jsize i = 0; i < count; ++i) free(files[i]);
  free(files);
  free(format_text);
  return to_handle(model);
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_modelBuildPrism(JNIEnv* env, jclass cls, jbyteArray path,
                                                            jbyteArray constants, jlong options_handle) {
  (void)cls;
  char* path_text = NULL;
  char* constants_text = NULL;
  pmc_model* model = NULL;
  if (c_string(env, path, 1, "path", &path_text) && c_string(env, constants, 0, "constants", &constants_text)) {
    ok(env, pmc_model_build_prism(path_text, constants_text, (const pmc_options*)(intptr_t)options_handle, &model));
  }
  free(path_text);
  free(constants_text);
  return to_handle(model);
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_modelBuildCsr(JNIEnv* env, jclass cls, jint type, jlong num_states,
                                                          jlongArray row_groups, jlongArray row_offsets,
                                                          jlongArray columns, jdoubleArray values,
                                                          jlong options_handle) {
  (void)cls;
  if (row_offsets == NULL || columns == NULL || values == NULL) {
    throw_new(env, g_null_pointer, "rowOffsets, columns and values are required");
    return 0;
  }
  if (num_states <= 0) {
    throw_new(env, g_illegal_argument, "numStates must be positive");
    return 0;
  }
  uint64_t* groups = NULL;
  uint64_t* offsets = NULL;
  uint64_t* targets = NULL;
  double* probabilities = NULL;
  pmc_model* model = NULL;
  jsize num_groups = 0, num_offsets = 0, num_targets = 0, num_values = 0;
  char message[256];

  if (row_groups != NULL) {
    groups = copy_longs(env, row_groups, &num_groups, "rowGroups");
    if (groups == NULL) goto done;
    if ((jlong)num_groups - 1 != num_states) {
      snprintf(message, sizeof message, "rowGroups has %d entries; %lld states need %lld", (int)num_groups,
               (long long)num_states, (long long)num_states + 1);
      throw_new(env, g_illegal_argument, message);
      goto done;
    }
  }
  offsets = copy_longs(env, row_offsets, &num_offsets, "rowOffsets");
  if (offsets == NULL) goto done;
  if (num_offsets < 1) {
    throw_new(env, g_illegal_argument, "rowOffsets must have numRows + 1 entries (got none)");
    goto done;
  }
  targets = copy_longs(env, columns, &num_targets, "columns");
  if (targets == NULL) goto done;
  probabilities = copy_doubles(env, values, &num_values, "values");
  if (probabilities == NULL) goto done;
  /* pmc reads row_offsets[num_rows] entries of columns and values. */
  if (offsets[num_offsets - 1] != (uint64_t)num_targets || offsets[num_offsets - 1] != (uint64_t)num_values) {
    snprintf(message, sizeof message,
             "the last row offset (%lld) must equal the lengths of columns (%d) and values (%d)",
             (long long)offsets[num_offsets - 1], (int)num_targets, (int)num_values);
    throw_new(env, g_illegal_argument, message);
    goto done;
  }
  ok(env, pmc_model_build_csr((pmc_model_kind)type, (uint64_t)num_states, (uint64_t)num_offsets - 1, groups,
                              offsets, targets, probabilities, (const pmc_options*)(intptr_t)options_handle,
                              &model));
done:
  free(groups);
  free(offsets);
  free(targets);
  free(probabilities);
  return to_handle(model);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_modelAddLabel(JNIEnv* env, jclass cls, jlong handle, jbyteArray name,
                                                         jlongArray states) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, )
  if (states == NULL) {
    throw_new(env, g_null_pointer, "states");
    return;
  }
  char* label = NULL;
  if (!c_string(env, name, 1, "label name", &label)) return;
  jsize count = 0;
  uint64_t* indices = copy_longs(env, states, &count, "states");
  if (indices != NULL) ok(env, pmc_model_add_label(model, label, indices, (uint64_t)count));
  free(indices);
  free(label);
}

/* Copies an optional rewards array after checking it has `expected` entries. */
static int reward_array(JNIEnv* env, jdoubleArray array, uint64_t expected, const char* what, double** out) {
  *out = NULL;
  if (array == NULL) return 1;
  const jsize length = (*env)->GetArrayLength(env, array);
  if ((uint64_t)length != expected) {
    char message[200];
    snprintf(message, sizeof message, "%s has %d entries; the model needs %llu", what, (int)length,
             (unsigned long long)expected);
    throw_new(env, g_illegal_argument, message);
    return 0;
  }
  *out = copy_doubles(env, array, NULL, what);
  return *out != NULL;
}

JNIEXPORT void JNICALL Java_org_pmc_Native_modelAddRewards(JNIEnv* env, jclass cls, jlong handle, jbyteArray name,
                                                           jdoubleArray state_rewards, jdoubleArray choice_rewards,
                                                           jdoubleArray transition_rewards) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, )
  uint64_t num_states = 0, num_choices = 0, num_transitions = 0;
  if (!ok(env, pmc_model_num_states(model, &num_states)) || !ok(env, pmc_model_num_choices(model, &num_choices)) ||
      !ok(env, pmc_model_num_transitions(model, &num_transitions))) {
    return;
  }
  char* reward_name = NULL;
  double *per_state = NULL, *per_choice = NULL, *per_transition = NULL;
  if (c_string(env, name, 1, "reward name", &reward_name) &&
      reward_array(env, state_rewards, num_states, "stateRewards", &per_state) &&
      reward_array(env, choice_rewards, num_choices, "choiceRewards", &per_choice) &&
      reward_array(env, transition_rewards, num_transitions, "transitionRewards", &per_transition)) {
    ok(env, pmc_model_add_rewards(model, reward_name, per_state, per_choice, per_transition));
  }
  free(per_transition);
  free(per_choice);
  free(per_state);
  free(reward_name);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_modelSave(JNIEnv* env, jclass cls, jlong handle, jbyteArray path,
                                                     jbyteArray format) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, )
  char* file = NULL;
  char* format_text = NULL;
  if (c_string(env, path, 1, "path", &file) && c_string(env, format, 0, "format", &format_text)) {
    ok(env, pmc_model_save(model, file, format_text));
  }
  free(format_text);
  free(file);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_modelFree(JNIEnv* env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  pmc_model_free((pmc_model*)(intptr_t)handle);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_modelReleaseDevice(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, )
  ok(env, pmc_model_release_device(model));
}

JNIEXPORT jint JNICALL Java_org_pmc_Native_modelType(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, -1)
  pmc_model_kind kind = PMC_MODEL_DTMC;
  if (!ok(env, pmc_model_type(model, &kind))) return -1;
  return (jint)kind;
}

/* The COUNT_* selectors come from Native.java through the generated header. */

JNIEXPORT jlong JNICALL Java_org_pmc_Native_modelCount(JNIEnv* env, jclass cls, jlong handle, jint what) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, 0)
  uint64_t count = 0;
  pmc_status status;
  switch (what) {
    case org_pmc_Native_COUNT_STATES: status = pmc_model_num_states(model, &count); break;
    case org_pmc_Native_COUNT_CHOICES: status = pmc_model_num_choices(model, &count); break;
    case org_pmc_Native_COUNT_TRANSITIONS: status = pmc_model_num_transitions(model, &count); break;
    case org_pmc_Native_COUNT_LABELS: status = pmc_model_num_labels(model, &count); break;
    case org_pmc_Native_COUNT_REWARDS: status = pmc_model_num_rewards(model, &count); break;
    case org_pmc_Native_COUNT_PARAMETERS: status = pmc_model_num_parameters(model, &count); break;
    case org_pmc_Native_COUNT_WARNINGS: status = pmc_model_num_warnings(model, &count); break;
    default: throw_new(env, g_illegal_argument, "pmc JNI: unknown count selector"); return 0;
  }
  if (!ok(env, status)) return 0;
  return (jlong)count;
}

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_modelName(JNIEnv* env, jclass cls, jlong handle, jint what,
                                                           jlong index) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, NULL)
  if (!non_negative(env, index, "index")) return NULL;
  const char* name = NULL;
  pmc_status status;
  switch (what) {
    case org_pmc_Native_COUNT_LABELS: status = pmc_model_label_name(model, (uint64_t)index, &name); break;
    case org_pmc_Native_COUNT_REWARDS: status = pmc_model_reward_name(model, (uint64_t)index, &name); break;
    case org_pmc_Native_COUNT_PARAMETERS: status = pmc_model_parameter_name(model, (uint64_t)index, &name); break;
    case org_pmc_Native_COUNT_WARNINGS: status = pmc_model_warning(model, (uint64_t)index, &name); break;
    default: throw_new(env, g_illegal_argument, "pmc JNI: unknown name selector"); return NULL;
  }
  if (!ok(env, status)) return NULL;
  return new_bytes(env, name);
}

JNIEXPORT jlongArray JNICALL Java_org_pmc_Native_modelLabelStates(JNIEnv* env, jclass cls, jlong handle,
                                                                  jbyteArray name) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, NULL)
  char* label = NULL;
  if (!c_string(env, name, 1, "label name", &label)) return NULL;
  jlongArray array = NULL;
  uint64_t count = 0, written = 0;
  uint64_t* states = NULL;
  /* Two phases (size, then contents); the model cannot change in between,
   * because the Java side holds its shared lock. */
  if (!ok(env, pmc_model_label_states(model, label, NULL, 0, &count)) || !fits_java_array(env, count, "label"))
    goto done;
  states = malloc(count > 0 ? (size_t)count * sizeof(uint64_t) : 1);
  if (states == NULL) {
    throw_out_of_memory(env, "label states");
    goto done;
  }
  if (!ok(env, pmc_model_label_states(model, label, states, count, &written))) goto done;
  if (written != count) {
    throw_new(env, g_illegal_state, "pmc JNI: a label changed size while being read");
    goto done;
  }
  array = (*env)->NewLongArray(env, (jsize)count);
  if (array == NULL) goto done;
  (*env)->SetLongArrayRegion(env, array, 0, (jsize)count, (const jlong*)states);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->DeleteLocalRef(env, array);
    array = NULL;
  }
done:
  free(states);
  free(label);
  return array;
}
