/* Exceptions, strings, arrays and JNI_OnLoad for the pmc JNI glue (see pmc_jni.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc_jni.h"

JavaVM* g_vm;
jclass g_pmc_exception;
jmethodID g_pmc_exception_factory;
jclass g_native;
jmethodID g_native_progress;
jmethodID g_native_expand;
jmethodID g_native_expand_failed;
jclass g_illegal_argument;
jclass g_illegal_state;
jclass g_null_pointer;
jclass g_out_of_memory;

/* ------------------------------------------------------------------------ */
/* Exceptions                                                                */
/* ------------------------------------------------------------------------ */

void throw_new(JNIEnv* env, jclass cls, const char* message) {
  /* If ThrowNew itself fails it leaves its own exception (an OutOfMemoryError) pending. */
  (void)(*env)->ThrowNew(env, cls, message);
}

void throw_out_of_memory(JNIEnv* env, const char* what) {
  char message[160];
  snprintf(message, sizeof message, "pmc JNI: cannot allocate %s", what);
  throw_new(env, g_out_of_memory, message);
}

int fits_java_array(JNIEnv* env, uint64_t count, const char* what) {
  /* Java arrays are indexed by int (and the VM reserves a few elements). */
  if (count <= (uint64_t)(INT32_MAX - 8)) return 1;
  char message[200];
  snprintf(message, sizeof message, "%s: %llu elements exceed the size of a Java array", what,
           (unsigned long long)count);
  throw_new(env, g_out_of_memory, message);
  return 0;
}

jbyteArray new_bytes(JNIEnv* env, const char* text) {
  const size_t length = text ? strlen(text) : 0;
  if (length > (size_t)INT32_MAX) {
    throw_new(env, g_illegal_state, "pmc JNI: string longer than a Java array");
    return NULL;
  }
  jbyteArray array = (*env)->NewByteArray(env, (jsize)length);
  if (array == NULL) return NULL;
  if (length > 0) {
    (*env)->SetByteArrayRegion(env, array, 0, (jsize)length, (const jbyte*)text);
    if ((*env)->ExceptionCheck(env)) {
      (*env)->DeleteLocalRef(env, array);
      return NULL;
    }
  }
  return array;
}

void throw_status(JNIEnv* env, pmc_status status) {
  jbyteArray message = new_bytes(env, pmc_last_error());
  if (message == NULL) return;
  jbyteArray name = new_bytes(env, pmc_status_string(status));
  if (name == NULL) {
    (*env)->DeleteLocalRef(env, message);
    return;
  }
  jobject exception =
      (*env)->CallStaticObjectMethod(env, g_pmc_exception, g_pmc_exception_factory, (jint)status, name, message);
  (*env)->DeleteLocalRef(env, name);
  (*env)->DeleteLocalRef(env, message);
  if ((*env)->ExceptionCheck(env)) {
    if (exception != NULL) (*env)->DeleteLocalRef(env, exception);
    return;
  }
  if (exception == NULL) {
    throw_new(env, g_illegal_state, "pmc JNI: PmcException.fromNative returned null");
    return;
  }
  if ((*env)->Throw(env, (jthrowable)exception) != 0 && !(*env)->ExceptionCheck(env)) {
    throw_new(env, g_illegal_state, "pmc JNI: cannot throw a PmcException");
  }
  (*env)->DeleteLocalRef(env, exception);
}

int ok(JNIEnv* env, pmc_status status) {
  if (status == PMC_OK) return 1;
  throw_status(env, status);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Arguments                                                                 */
/* ------------------------------------------------------------------------ */

int c_string(JNIEnv* env, jbyteArray bytes, int required, const char* what, char** out) {
  *out = NULL;
  if (bytes == NULL) {
    if (!required) return 1;
    throw_new(env, g_null_pointer, what);
    return 0;
  }
  const jsize length = (*env)->GetArrayLength(env, bytes);
  char* text = malloc((size_t)length + 1);
  if (text == NULL) {
    throw_out_of_memory(env, what);
    return 0;
  }
  (*env)->GetByteArrayRegion(env, bytes, 0, length, (jbyte*)text);
  if ((*env)->ExceptionCheck(env)) {
    free(text);
    return 0;
  }
  text[length] = '\0';
  if (memchr(text, '\0', (size_t)length) != NULL) {
    free(text);
    char message[160];
    snprintf(message, sizeof message, "%s contains a NUL character", what);
    throw_new(env, g_illegal_argument, message);
    return 0;
  }
  *out = text;
  return 1;
}

uint64_t* copy_longs(JNIEnv* env, jlongArray array, jsize* out_length, const char* what) {
  const jsize length = (*env)->GetArrayLength(env, array);
  /* At least one byte, so that an empty array gives a non-NULL pointer. */
  uint64_t* copy = malloc(length > 0 ? (size_t)length * sizeof(uint64_t) : 1);
  if (copy == NULL) {
    throw_out_of_memory(env, what);
    return NULL;
  }
  /* jlong and uint64_t are the signed and unsigned forms of one 64-bit type. */
  (*env)->GetLongArrayRegion(env, array, 0, length, (jlong*)copy);
  if ((*env)->ExceptionCheck(env)) {
    free(copy);
    return NULL;
  }
  if (out_length) *out_length = length;
  return copy;
}

double* copy_doubles(JNIEnv* env, jdoubleArray array, jsize* out_length, const char* what) {
  const jsize length = (*env)->GetArrayLength(env, array);
  double* copy = malloc(length > 0 ? (size_t)length * sizeof(double) : 1);
  if (copy == NULL) {
    throw_out_of_memory(env, what);
    return NULL;
  }
  (*env)->GetDoubleArrayRegion(env, array, 0, length, copy);
  if ((*env)->ExceptionCheck(env)) {
    free(copy);
    return NULL;
  }
  if (out_length) *out_length = length;
  return copy;
}

int non_negative(JNIEnv* env, jlong value, const char* what) {
  if (value >= 0) return 1;
  char message[160];
  snprintf(message, sizeof message, "%s must not be negative (got %lld)", what, (long long)value);
  throw_new(env, g_illegal_argument, message);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

static jclass global_class(JNIEnv* env, const char* name) {
  jclass local = (*env)->FindClass(env, name);
  if (local == NULL) return NULL;
  jclass global = (jclass)(*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  if (global == NULL && !(*env)->ExceptionCheck(env)) throw_out_of_memory(env, "a global reference");
  return global;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  JNIEnv* env = NULL;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
  if (!(g_illegal_argument = global_class(env, "java/lang/IllegalArgumentException")) ||
      !(g_illegal_state = global_class(env, "java/lang/IllegalStateException")) ||
      !(g_null_pointer = global_class(env, "java/lang/NullPointerException")) ||
      !(g_out_of_memory = global_class(env, "java/lang/OutOfMemoryError")) ||
      !(g_pmc_exception = global_class(env, "org/pmc/PmcException")) ||
      !(g_native = global_class(env, "org/pmc/Native"))) {
    return JNI_ERR;
  }
  g_pmc_exception_factory =
      (*env)->GetStaticMethodID(env, g_pmc_exception, "fromNative", "(I[B[B)Lorg/pmc/PmcException;");
  if (g_pmc_exception_factory == NULL) return JNI_ERR;
  g_native_progress =
      (*env)->GetStaticMethodID(env, g_native, "progress", "(Lorg/pmc/ProgressListener;[BJDD)V");
  if (g_native_progress == NULL) return JNI_ERR;
  g_native_expand = (*env)->GetStaticMethodID(env, g_native, "expand", "(Lorg/pmc/Generator$Exploration;[BJ)I");
  if (g_native_expand == NULL) return JNI_ERR;
  g_native_expand_failed = (*env)->GetStaticMethodID(env, g_native, "expandFailed",
                                                     "(Lorg/pmc/Generator$Exploration;Ljava/lang/Throwable;J)V");
  if (g_native_expand_failed == NULL) return JNI_ERR;
  g_vm = vm;
  if (!generator_on_load()) return JNI_ERR;
  /* Messages name settings as Java callers set them (Options.maxStates). */
  pmc_set_caller_language("java");
  return JNI_VERSION_1_8;
}
