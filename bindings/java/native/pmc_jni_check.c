/* org.pmc.Native: pmc_check, progress callbacks and results (see pmc_jni.h). */
#include <stdlib.h>

#include "pmc_jni.h"

/* The check running on this thread: pmc calls the progress callback on the
 * thread that called pmc_check, so a thread-local carries the JNIEnv and the
 * listener (a local reference, valid for the whole native call) from
 * Native.check to the callback. No global reference is needed, so a
 * listener that refers to its Options cannot keep them from being collected. */
typedef struct check_call {
  JNIEnv* env;
  jobject listener;
} check_call;

static _Thread_local check_call* tls_check_call;

void progress_trampoline(const char* solver, uint64_t iteration, double residual, double seconds,
                         void* user_data) {
  (void)user_data;
  check_call* call = tls_check_call;
  if (call == NULL || call->listener == NULL) return; /* not a Java check, or a thread pmc did not promise */
  JNIEnv* env = call->env;
  if ((*env)->ExceptionCheck(env)) return; /* the listener threw earlier in this check: skip the rest */
  jbyteArray name = new_bytes(env, solver);
  if (name == NULL) return; /* exception pending: check() rethrows it */
  (*env)->CallStaticVoidMethod(env, g_native, g_native_progress, call->listener, name, (jlong)iteration,
                               (jdouble)residual, (jdouble)seconds);
  (*env)->DeleteLocalRef(env, name); /* allowed with an exception pending */
}

/* ------------------------------------------------------------------------ */
/* Checking and results                                                      */
/* ------------------------------------------------------------------------ */

JNIEXPORT jlong JNICALL Java_org_pmc_Native_check(JNIEnv* env, jclass cls, jlong model_handle, jbyteArray property,
                                                  jlong options_handle, jobject listener,
                                                  jobjectArray not_converged) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, model_handle, 0)
  if (not_converged == NULL || (*env)->GetArrayLength(env, not_converged) < 1) {
    throw_new(env, g_illegal_argument, "pmc JNI: check needs a one-element message array");
    return 0;
  }
  char* text = NULL;
  if (!c_string(env, property, 1, "property", &text)) return 0;

  check_call call = {env, listener};
  check_call* outer = tls_check_call; /* NULL: Java refuses pmc calls from a listener */
  tls_check_call = &call;
  pmc_result* result = NULL;
  const pmc_status status = pmc_check(model, text, (const pmc_options*)(intptr_t)options_handle, &result);
  tls_check_call = outer;
  free(text);

  if ((*env)->ExceptionCheck(env)) { /* the listener threw: that exception wins */
    pmc_result_free(result);
    return 0;
  }
  if (status == PMC_OK) return to_handle(result);
  if (status == PMC_ERROR_NOT_CONVERGED && result != NULL) {
    /* pmc hands over the unconverged result; Java wraps it in a
     * NotConvergedException with this message. */
    jbyteArray message = new_bytes(env, pmc_last_error());
    if (message != NULL) (*env)->SetObjectArrayElement(env, not_converged, 0, message);
    if (message == NULL || (*env)->ExceptionCheck(env)) {
      if (message != NULL) (*env)->DeleteLocalRef(env, message);
      pmc_result_free(result);
      return 0;
    }
    (*env)->DeleteLocalRef(env, message);
    return to_handle(result);
  }
  pmc_result_free(result); /* NULL after a failure (out-parameters are left unchanged) */
  throw_status(env, status);
  return 0;
}

JNIEXPORT void JNICALL Java_org_pmc_Native_resultFree(JNIEnv* env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  pmc_result_free((pmc_result*)(intptr_t)handle);
}

JNIEXPORT jdouble JNICALL Java_org_pmc_Native_resultInitialValue(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, 0.0)
  double value = 0.0;
  if (!ok(env, pmc_result_initial_value(result, &value))) return 0.0;
  return value;
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_resultInitialRange(JNIEnv* env, jclass cls, jlong handle,
                                                               jdoubleArray min_max) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, 0)
  if (min_max == NULL || (*env)->GetArrayLength(env, min_max) < 2) {
    throw_new(env, g_illegal_argument, "pmc JNI: initialRange needs a two-element array");
    return 0;
  }
  double range[2] = {0.0, 0.0};
  uint64_t count = 0;
  if (!ok(env, pmc_result_initial_range(result, &range[0], &range[1], &count))) return 0;
  (*env)->SetDoubleArrayRegion(env, min_max, 0, 2, range);
  if ((*env)->ExceptionCheck(env)) return 0;
  return (jlong)count;
}

JNIEXPORT jdoubleArray JNICALL Java_org_pmc_Native_resultValues(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, NULL)
  uint64_t count = 0, written = 0;
  if (!ok(env, pmc_result_values(result, NULL, 0, &count)) || !fits_java_array(env, count, "values")) return NULL;
  jdoubleArray array = (*env)->NewDoubleArray(env, (jsize)count);
  if (array == NULL || count == 0) return array;
  /* A critical section is fine here: pmc_result_values only copies. No JNI
   * call may happen until it is released. */
  double* target = (*env)->GetPrimitiveArrayCritical(env, array, NULL);
  if (target == NULL) {
    if (!(*env)->ExceptionCheck(env)) throw_out_of_memory(env, "result values");
    (*env)->DeleteLocalRef(env, array);
    return NULL;
  }
  const pmc_status status = pmc_result_values(result, target, count, &written);
  (*env)->ReleasePrimitiveArrayCritical(env, array, target, 0);
  if (!ok(env, status)) {
    (*env)->DeleteLocalRef(env, array);
    return NULL;
  }
  return array;
}

JNIEXPORT jboolean JNICALL Java_org_pmc_Native_resultIsBoolean(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, JNI_FALSE)
  int is_boolean = 0;
  if (!ok(env, pmc_result_is_boolean(result, &is_boolean))) return JNI_FALSE;
  return is_boolean ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_resultIterations(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, 0)
  uint64_t iterations = 0;
  if (!ok(env, pmc_result_iterations(result, &iterations))) return 0;
  return (jlong)iterations;
}

JNIEXPORT jboolean JNICALL Java_org_pmc_Native_resultConverged(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, JNI_FALSE)
  int converged = 0;
  if (!ok(env, pmc_result_converged(result, &converged))) return JNI_FALSE;
  return converged ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_resultSolver(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, NULL)
  const char* name = NULL;
  if (!ok(env, pmc_result_solver(result, &name))) return NULL;
  return new_bytes(env, name);
}

/* The rational of an exact result, or null for a result not computed exactly. */
JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_resultExact(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, NULL)
  const char* text = NULL;
  if (pmc_result_exact(result, &text) != PMC_OK) return NULL;
  return new_bytes(env, text);
}

JNIEXPORT jlongArray JNICALL Java_org_pmc_Native_resultScheduler(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, NULL)
  uint64_t count = 0, written = 0;
  if (!ok(env, pmc_result_scheduler(result, NULL, 0, &count)) || !fits_java_array(env, count, "scheduler"))
    return NULL;
  jlongArray array = (*env)->NewLongArray(env, (jsize)count);
  if (array == NULL || count == 0) return array;
  int64_t* target = (*env)->GetPrimitiveArrayCritical(env, array, NULL);
  if (target == NULL) {
    if (!(*env)->ExceptionCheck(env)) throw_out_of_memory(env, "the scheduler");
    (*env)->DeleteLocalRef(env, array);
    return NULL;
  }
  const pmc_status status = pmc_result_scheduler(result, target, count, &written);
  (*env)->ReleasePrimitiveArrayCritical(env, array, target, 0);
  if (!ok(env, status)) {
    (*env)->DeleteLocalRef(env, array);
    return NULL;
  }
  return array;
}

JNIEXPORT jboolean JNICALL Java_org_pmc_Native_resultSound(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, JNI_FALSE)
  int sound = 0;
  if (!ok(env, pmc_result_sound(result, &sound))) return JNI_FALSE;
  return sound ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jdoubleArray JNICALL Java_org_pmc_Native_resultBounds(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, NULL)
  double bounds[2] = {0.0, 0.0};
  const pmc_status status = pmc_result_bounds(result, &bounds[0], &bounds[1]);
  if (status == PMC_ERROR_UNSUPPORTED) return NULL; /* documented: the result is not sound */
  if (!ok(env, status)) return NULL;
  jdoubleArray array = (*env)->NewDoubleArray(env, 2);
  if (array == NULL) return NULL;
  (*env)->SetDoubleArrayRegion(env, array, 0, 2, bounds);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->DeleteLocalRef(env, array);
    return NULL;
  }
  return array;
}

/* Fills two new arrays of `count` doubles with the bounds of every state;
 * 1 on success, else 0 with an exception pending. */
static int copy_bound_values(JNIEnv* env, const pmc_result* result, jdoubleArray lower, jdoubleArray upper,
                             uint64_t count) {
  if (count == 0) return 1;
  /* Nested critical sections are allowed, and pmc_result_bound_values only
   * copies: no JNI call happens until both are released. */
  double* low = (*env)->GetPrimitiveArrayCritical(env, lower, NULL);
  double* up = low == NULL ? NULL : (*env)->GetPrimitiveArrayCritical(env, upper, NULL);
  if (up == NULL) {
    if (low != NULL) (*env)->ReleasePrimitiveArrayCritical(env, lower, low, JNI_ABORT);
    if (!(*env)->ExceptionCheck(env)) throw_out_of_memory(env, "result bound values");
    return 0;
  }
  uint64_t written = 0;
  const pmc_status status = pmc_result_bound_values(result, low, up, count, &written);
  (*env)->ReleasePrimitiveArrayCritical(env, upper, up, 0);
  (*env)->ReleasePrimitiveArrayCritical(env, lower, low, 0);
  return ok(env, status);
}

JNIEXPORT jobjectArray JNICALL Java_org_pmc_Native_resultBoundValues(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, NULL)
  uint64_t count = 0;
  const pmc_status status = pmc_result_bound_values(result, NULL, NULL, 0, &count);
  if (status == PMC_ERROR_UNSUPPORTED) return NULL; /* documented: the result is not sound */
  if (!ok(env, status) || !fits_java_array(env, count, "bound values")) return NULL;
  jdoubleArray lower = (*env)->NewDoubleArray(env, (jsize)count);
  jdoubleArray upper = lower == NULL ? NULL : (*env)->NewDoubleArray(env, (jsize)count);
  jclass double_array = upper == NULL ? NULL : (*env)->GetObjectClass(env, lower);
  jobjectArray pair = double_array == NULL ? NULL : (*env)->NewObjectArray(env, 2, double_array, NULL);
  if (pair != NULL && copy_bound_values(env, result, lower, upper, count)) {
    (*env)->SetObjectArrayElement(env, pair, 0, lower);
    if (!(*env)->ExceptionCheck(env)) (*env)->SetObjectArrayElement(env, pair, 1, upper);
  }
  /* Cleanup only from here (allowed with an exception pending). */
  if (double_array != NULL) (*env)->DeleteLocalRef(env, double_array);
  if (upper != NULL) (*env)->DeleteLocalRef(env, upper);
  if (lower != NULL) (*env)->DeleteLocalRef(env, lower);
  if ((*env)->ExceptionCheck(env)) {
    if (pair != NULL) (*env)->DeleteLocalRef(env, pair);
    return NULL;
  }
  return pair;
}

JNIEXPORT jdouble JNICALL Java_org_pmc_Native_resultSeconds(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, 0.0)
  double seconds = 0.0;
  if (!ok(env, pmc_result_seconds(result, &seconds))) return 0.0;
  return seconds;
}

JNIEXPORT jdoubleArray JNICALL Java_org_pmc_Native_resultTimings(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_result, result, handle, NULL)
  /* Indexed by pmc_phase: PMC_PHASE_LOAD (0) to PMC_PHASE_TOTAL (7). */
  double seconds[PMC_PHASE_TOTAL + 1];
  for (int phase = PMC_PHASE_LOAD; phase <= PMC_PHASE_TOTAL; ++phase) {
    if (!ok(env, pmc_result_phase_seconds(result, (pmc_phase)phase, &seconds[phase]))) return NULL;
  }
  jdoubleArray array = (*env)->NewDoubleArray(env, PMC_PHASE_TOTAL + 1);
  if (array == NULL) return NULL;
  (*env)->SetDoubleArrayRegion(env, array, 0, PMC_PHASE_TOTAL + 1, seconds);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->DeleteLocalRef(env, array);
    return NULL;
  }
  return array;
}
