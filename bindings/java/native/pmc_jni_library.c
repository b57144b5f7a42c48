/* org.pmc.Native: version, solvers, devices and options (see pmc_jni.h). */
#include <stdlib.h>

#include "pmc_jni.h"

/* ------------------------------------------------------------------------ */
/* Library                                                                   */
/* ------------------------------------------------------------------------ */

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_version(JNIEnv* env, jclass cls) {
  (void)cls;
  return new_bytes(env, pmc_version());
}

JNIEXPORT jint JNICALL Java_org_pmc_Native_versionNumber(JNIEnv* env, jclass cls) {
  (void)env;
  (void)cls;
  return (jint)pmc_version_number();
}

JNIEXPORT jint JNICALL Java_org_pmc_Native_headerVersionNumber(JNIEnv* env, jclass cls) {
  (void)env;
  (void)cls;
  return (jint)PMC_VERSION_NUMBER;
}

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_statusString(JNIEnv* env, jclass cls, jint status) {
  (void)cls;
  return new_bytes(env, pmc_status_string((pmc_status)status));
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_solverCount(JNIEnv* env, jclass cls) {
  (void)cls;
  uint64_t count = 0;
  if (!ok(env, pmc_solver_count(&count))) return 0;
  return (jlong)count;
}

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_solverName(JNIEnv* env, jclass cls, jlong index) {
  (void)cls;
  const char* name = NULL;
  if (!non_negative(env, index, "solver index") || !ok(env, pmc_solver_name((uint64_t)index, &name))) return NULL;
  return new_bytes(env, name);
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_deviceCount(JNIEnv* env, jclass cls) {
  (void)cls;
  uint64_t count = 0;
  const pmc_status status = pmc_device_count(&count);
  if (status == PMC_ERROR_NO_DEVICE) return 0; /* documented: no usable GPU is not an error here */
  if (!ok(env, status)) return 0;
  return (jlong)count;
}

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_deviceName(JNIEnv* env, jclass cls, jlong index) {
  (void)cls;
  const char* name = NULL;
  if (!non_negative(env, index, "device index") || !ok(env, pmc_device_name((uint64_t)index, &name))) return NULL;
  return new_bytes(env, name);
}

JNIEXPORT jlongArray JNICALL Java_org_pmc_Native_deviceMemory(JNIEnv* env, jclass cls, jlong index) {
  (void)cls;
  uint64_t free_bytes = 0, total_bytes = 0;
  if (!non_negative(env, index, "device index") ||
      !ok(env, pmc_device_memory((uint64_t)index, &free_bytes, &total_bytes))) {
    return NULL;
  }
  const jlong memory[2] = {(jlong)free_bytes, (jlong)total_bytes};
  jlongArray array = (*env)->NewLongArray(env, 2);
  if (array == NULL) return NULL;
  (*env)->SetLongArrayRegion(env, array, 0, 2, memory);
  return (*env)->ExceptionCheck(env) ? NULL : array;
}

JNIEXPORT jintArray JNICALL Java_org_pmc_Native_deviceComputeCapability(JNIEnv* env, jclass cls, jlong index) {
  (void)cls;
  int major = 0, minor = 0;
  if (!non_negative(env, index, "device index") ||
      !ok(env, pmc_device_compute_capability((uint64_t)index, &major, &minor))) {
    return NULL;
  }
  const jint capability[2] = {major, minor};
  jintArray array = (*env)->NewIntArray(env, 2);
  if (array == NULL) return NULL;
  (*env)->SetIntArrayRegion(env, array, 0, 2, capability);
  return (*env)->ExceptionCheck(env) ? NULL : array;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

JNIEXPORT jlong JNICALL Java_org_pmc_Native_optionsCreate(JNIEnv* env, jclass cls) {
  (void)cls;
  pmc_options* options = NULL;
  if (!ok(env, pmc_options_create(&options))) return 0;
  return to_handle(options);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsFree(JNIEnv* env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  pmc_options_free((pmc_options*)(intptr_t)handle);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetStrict(JNIEnv* env, jclass cls, jlong handle, jboolean strict) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_set_strict(options, strict ? 1 : 0));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetRowSumTolerance(JNIEnv* env, jclass cls, jlong handle,
                                                                    jdouble tolerance) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_set_row_sum_tolerance(options, tolerance));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetSolver(JNIEnv* env, jclass cls, jlong handle, jbyteArray name) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  char* solver = NULL;
  if (!c_string(env, name, 1, "solver", &solver)) return;
  ok(env, pmc_options_set_solver(options, solver));
  free(solver);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetBuild(JNIEnv* env, jclass cls, jlong handle, jbyteArray build) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  char* text = NULL;
  if (!c_string(env, build, 1, "build", &text)) return;
  ok(env, pmc_options_set_build(options, text));
  free(text);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetEpsilon(JNIEnv* env, jclass cls, jlong handle, jdouble epsilon) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_set_epsilon(options, epsilon));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetRelative(JNIEnv* env, jclass cls, jlong handle,
                                                             jboolean relative) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_set_relative(options, relative ? 1 : 0));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetSound(JNIEnv* env, jclass cls, jlong handle, jboolean sound) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_set_sound(options, sound ? 1 : 0));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetExact(JNIEnv* env, jclass cls, jlong handle, jboolean exact) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_set_exact(options, exact ? 1 : 0));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetMaxIterations(JNIEnv* env, jclass cls, jlong handle,
                                                                  jlong max_iterations) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  if (!non_negative(env, max_iterations, "maxIterations")) return;
  ok(env, pmc_options_set_max_iterations(options, (uint64_t)max_iterations));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetThreads(JNIEnv* env, jclass cls, jlong handle, jlong threads) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  if (!non_negative(env, threads, "threads")) return;
  ok(env, pmc_options_set_threads(options, (uint64_t)threads));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetMaxStates(JNIEnv* env, jclass cls, jlong handle,
                                                               jlong max_states) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  if (!non_negative(env, max_states, "maxStates")) return;
  ok(env, pmc_options_set_max_states(options, (uint64_t)max_states));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetDevice(JNIEnv* env, jclass cls, jlong handle, jlong device) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  if (!non_negative(env, device, "device")) return;
  ok(env, pmc_options_set_device(options, (uint64_t)device));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetGpuMemoryLimit(JNIEnv* env, jclass cls, jlong handle,
                                                                   jlong bytes) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  if (!non_negative(env, bytes, "gpuMemoryLimit")) return;
  ok(env, pmc_options_set_gpu_memory_limit(options, (uint64_t)bytes));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetMemoryLimit(JNIEnv* env, jclass cls, jlong handle, jlong bytes) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  if (!non_negative(env, bytes, "memoryLimit")) return;
  ok(env, pmc_options_set_memory_limit(options, (uint64_t)bytes));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetDevices(JNIEnv* env, jclass cls, jlong handle, jlongArray devices) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  if (devices == NULL) {
    throw_new(env, g_null_pointer, "devices is null");
    return;
  }
  jsize count = 0;
  uint64_t* list = copy_longs(env, devices, &count, "devices");
  if (list == NULL) return;
  for (jsize i = 0; i < count; ++i) {
    if ((jlong)list[i] < 0) {
      free(list);
      throw_new(env, g_illegal_argument, "devices: a device index is negative");
      return;
    }
  }
  ok(env, pmc_options_set_devices(options, list, (uint64_t)count));
  free(list);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetAllDevices(JNIEnv* env, jclass cls, jlong handle, jboolean all) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_set_all_devices(options, all ? 1 : 0));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetParameter(JNIEnv* env, jclass cls, jlong handle, jbyteArray name,
                                                               jdouble value) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  char* parameter = NULL;
  if (!c_string(env, name, 1, "parameter name", &parameter)) return;
  ok(env, pmc_options_set_parameter(options, parameter, value));
  free(parameter);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetConstants(JNIEnv* env, jclass cls, jlong handle,
                                                               jbyteArray constants) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  char* text = NULL;
  if (!c_string(env, constants, 1, "constants", &text)) return;
  ok(env, pmc_options_set_constants(options, text));
  free(text);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsClearParameters(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_clear_parameters(options));
}

/* pmc_options_request_cancel/reset_cancel fail only for NULL (excluded
 * above) and report nothing through pmc_last_error, hence no throw_status. */
JNIEXPORT void JNICALL Java_org_pmc_Native_optionsRequestCancel(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  (void)pmc_options_request_cancel(options);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsResetCancel(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  (void)pmc_options_reset_cancel(options);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_optionsSetProgress(JNIEnv* env, jclass cls, jlong handle,
                                                             jboolean enabled) {
  (void)cls;
  REQUIRE_HANDLE(pmc_options, options, handle, )
  ok(env, pmc_options_set_progress(options, enabled ? progress_trampoline : NULL, NULL));
}
