/* org.pmc.Native: model generators, expansions, state bytes (see pmc_jni.h).
 *
 * A Generator's handle points to a jni_generator, which owns the
 * pmc_generator and is its callback's user_data. Generator.explore() calls
 * generatorExplore with a Generator.Exploration (Java serializes the
 * explorations of one generator), which lives in the jni_generator as a
 * global reference while pmc_model_explore runs; the callback hands it,
 * the state's bytes and the pmc_expansion* to Native.expand.
 *
 * pmc may call the callback from threads it creates: a thread that is not
 * attached to the VM is attached (as a daemon, so that it never keeps the
 * VM alive) on its first callback and detached when it exits, through a
 * pthread key's destructor (HotSpot supports DetachCurrentThread there).
 * Attaching once per thread, not once per state, keeps a callback's cost
 * that of a Java call. Each callback runs in its own local frame, since a
 * thread attached here never returns to Java to drop its local references.
 *
 * Nothing thrown in Java crosses back into pmc: Native.expand catches what
 * the expander throws, records it and returns non-zero; should Java throw
 * anyway (an error while recording), the trampoline clears the exception,
 * has Java record it, and stops the exploration. Generator.explore() then
 * puts the recorded exception as the cause of the PmcException. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pmc_jni.h"

typedef struct jni_generator {
  pmc_generator* generator;
  /* Global reference to the Generator.Exploration being explored, NULL between explorations. */
  jobject exploration;
} jni_generator;

/* What the trampoline returns to stop the exploration (pmc reports PMC_ERROR_MODEL). */
enum { EXPAND_FAILED = -1 };

/* Set (to g_vm) on the threads attached here; its destructor detaches them. */
static pthread_key_t g_attached_key;

static void detach_thread(void* vm) {
  JavaVM* java_vm = vm;
  (void)(*java_vm)->DetachCurrentThread(java_vm);
}

int generator_on_load(void) { return pthread_key_create(&g_attached_key, detach_thread) == 0; }

/* The calling thread's JNIEnv, attaching the thread when pmc created it; NULL if that fails. */
static JNIEnv* callback_env(void) {
  JNIEnv* env = NULL;
  const jint found = (*g_vm)->GetEnv(g_vm, (void**)&env, JNI_VERSION_1_8);
  if (found == JNI_OK) return env;
  if (found != JNI_EDETACHED) return NULL;
  static char thread_name[] = "pmc-explore";
  JavaVMAttachArgs args = {JNI_VERSION_1_8, thread_name, NULL};
  if ((*g_vm)->AttachCurrentThreadAsDaemon(g_vm, (void**)&env, &args) != JNI_OK) return NULL;
  if (pthread_setspecific(g_attached_key, g_vm) != 0) {
    (void)(*g_vm)->DetachCurrentThread(g_vm);
    return NULL;
  }
  return env;
}

/* The pmc_expand_fn of every generator made here. */
static int expand_trampoline(const void* state, uint64_t size, pmc_expansion* expansion, void* user_data) {
  const jni_generator* generator = user_data;
  JNIEnv* env = callback_env();
  if (env == NULL) {
    (void)pmc_expansion_fail(expansion, "pmc JNI: cannot attach pmc's thread to the Java VM");
    return EXPAND_FAILED;
  }
  if (generator->exploration == NULL || (*env)->ExceptionCheck(env) || size > (uint64_t)INT32_MAX) {
    (void)pmc_expansion_fail(expansion, "pmc JNI: expand called outside Generator.explore()");
    return EXPAND_FAILED;
  }
  if ((*env)->PushLocalFrame(env, 4) != 0) {
    (*env)->ExceptionClear(env);
    (void)pmc_expansion_fail(expansion, "pmc JNI: no memory for a local frame");
    return PMC_ERROR_OUT_OF_MEMORY;
  }
  jint result = EXPAND_FAILED;
  jbyteArray bytes = (*env)->NewByteArray(env, (jsize)size);
  if (bytes != NULL && size > 0) (*env)->SetByteArrayRegion(env, bytes, 0, (jsize)size, (const jbyte*)state);
  if (!(*env)->ExceptionCheck(env)) {
    result = (*env)->CallStaticIntMethod(env, g_native, g_native_expand, generator->exploration, bytes,
                                         to_handle(expansion));
  }
  jthrowable thrown = (*env)->ExceptionOccurred(env);
  if (thrown != NULL) {
    /* Java did not catch it (or the array could not be made): record it as
     * the expander's failure, which also gives pmc its message. */
    (*env)->ExceptionClear(env);
    (*env)->CallStaticVoidMethod(env, g_native, g_native_expand_failed, generator->exploration, thrown,
                                 to_handle(expansion));
    if ((*env)->ExceptionCheck(env)) {
      (*env)->ExceptionClear(env);
      (void)pmc_expansion_fail(expansion, "pmc JNI: the StateExpander failed, and so did recording why");
    }
    result = EXPAND_FAILED;
  }
  (void)(*env)->PopLocalFrame(env, NULL);
  return (int)result;
}

/* ------------------------------------------------------------------------ */
/* Byte strings                                                              */
/* ------------------------------------------------------------------------ */

/* A byte[]'s contents in `small` when they fit, else in a malloc'd buffer
 * (free it when it is not `small`). NULL leaves an exception pending. */
static unsigned char* copy_bytes(JNIEnv* env, jbyteArray array, unsigned char* small, size_t small_size,
                                 jsize* out_length, const char* what) {
  if (array == NULL) {
    throw_new(env, g_null_pointer, what);
    return NULL;
  }
  const jsize length = (*env)->GetArrayLength(env, array);
  unsigned char* buffer = (size_t)length <= small_size ? small : malloc((size_t)length);
  if (buffer == NULL) {
    throw_out_of_memory(env, what);
    return NULL;
  }
  (*env)->GetByteArrayRegion(env, array, 0, length, (jbyte*)buffer);
  if ((*env)->ExceptionCheck(env)) {
    if (buffer != small) free(buffer);
    return NULL;
  }
  *out_length = length;
  return buffer;
}

/* Most states are short; pmc's are at most 4096 bytes. */
#define SMALL_STATE 256

/* ------------------------------------------------------------------------ */
/* Generators                                                                */
/* ------------------------------------------------------------------------ */

JNIEXPORT jlong JNICALL Java_org_pmc_Native_generatorCreate(JNIEnv* env, jclass cls, jint type,
                                                            jlong max_state_size) {
  (void)cls;
  if (!non_negative(env, max_state_size, "maxStateSize")) return 0;
  jni_generator* generator = calloc(1, sizeof *generator);
  if (generator == NULL) {
    throw_out_of_memory(env, "a generator");
    return 0;
  }
  if (!ok(env, pmc_generator_create((pmc_model_kind)type, (uint64_t)max_state_size, expand_trampoline, generator,
                                    &generator->generator))) {
    free(generator);
    return 0;
  }
  return to_handle(generator);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_generatorFree(JNIEnv* env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  jni_generator* generator = (jni_generator*)(intptr_t)handle;
  if (generator == NULL) return;
  pmc_generator_free(generator->generator);
  free(generator);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_generatorSetFixedSize(JNIEnv* env, jclass cls, jlong handle,
                                                                 jboolean fixed) {
  (void)cls;
  REQUIRE_HANDLE(jni_generator, generator, handle, )
  ok(env, pmc_generator_set_fixed_size(generator->generator, fixed ? 1 : 0));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_generatorSetThreadSafe(JNIEnv* env, jclass cls, jlong handle,
                                                                  jboolean thread_safe) {
  (void)cls;
  REQUIRE_HANDLE(jni_generator, generator, handle, )
  ok(env, pmc_generator_set_thread_safe(generator->generator, thread_safe ? 1 : 0));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_generatorSetOrder(JNIEnv* env, jclass cls, jlong handle, jint order) {
  (void)cls;
  REQUIRE_HANDLE(jni_generator, generator, handle, )
  ok(env, pmc_generator_set_order(generator->generator, (pmc_state_order)order));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_generatorAddInitialState(JNIEnv* env, jclass cls, jlong handle,
                                                                    jbyteArray state) {
  (void)cls;
  REQUIRE_HANDLE(jni_generator, generator, handle, )
  unsigned char small[SMALL_STATE];
  jsize length = 0;
  unsigned char* bytes = copy_bytes(env, state, small, sizeof small, &length, "state");
  if (bytes == NULL) return;
  ok(env, pmc_generator_add_initial_state(generator->generator, bytes, (uint64_t)length));
  if (bytes != small) free(bytes);
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_generatorAddLabel(JNIEnv* env, jclass cls, jlong handle,
                                                              jbyteArray name) {
  (void)cls;
  REQUIRE_HANDLE(jni_generator, generator, handle, -1)
  char* text = NULL;
  uint64_t index = 0;
  if (!c_string(env, name, 1, "label name", &text)) return -1;
  const int added = ok(env, pmc_generator_add_label(generator->generator, text, &index));
  free(text);
  return added ? (jlong)index : -1;
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_generatorAddRewards(JNIEnv* env, jclass cls, jlong handle,
                                                                jbyteArray name) {
  (void)cls;
  REQUIRE_HANDLE(jni_generator, generator, handle, -1)
  char* text = NULL;
  uint64_t index = 0;
  if (!c_string(env, name, 1, "reward name", &text)) return -1;
  const int added = ok(env, pmc_generator_add_rewards(generator->generator, text, &index));
  free(text);
  return added ? (jlong)index : -1;
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_generatorExplore(JNIEnv* env, jclass cls, jlong handle,
                                                             jlong options_handle, jobject exploration) {
  (void)cls;
  REQUIRE_HANDLE(jni_generator, generator, handle, 0)
  if (exploration == NULL) {
    throw_new(env, g_null_pointer, "exploration");
    return 0;
  }
  if (generator->exploration != NULL) { /* Generator.explore() serializes explorations */
    throw_new(env, g_illegal_state, "pmc JNI: the generator is being explored already");
    return 0;
  }
  jobject global = (*env)->NewGlobalRef(env, exploration);
  if (global == NULL) {
    if (!(*env)->ExceptionCheck(env)) throw_out_of_memory(env, "a global reference");
    return 0;
  }
  generator->exploration = global;
  pmc_model* model = NULL;
  const pmc_status status =
      pmc_model_explore(generator->generator, (const pmc_options*)(intptr_t)options_handle, &model);
  generator->exploration = NULL;
  /* The callbacks leave no exception pending on this thread (they ran on it
   * when the generator is not thread-safe). pmc_last_error() is still the
   * exploration's: no pmc call came between. */
  if (!ok(env, status)) {
    (*env)->DeleteGlobalRef(env, global);
    return 0;
  }
  (*env)->DeleteGlobalRef(env, global);
  return to_handle(model);
}

/* ------------------------------------------------------------------------ */
/* Expansions (valid during one expand call; Expansion checks that)          */
/* ------------------------------------------------------------------------ */

JNIEXPORT void JNICALL Java_org_pmc_Native_expansionAddChoice(JNIEnv* env, jclass cls, jlong handle,
                                                              jbyteArray action) {
  (void)cls;
  REQUIRE_HANDLE(pmc_expansion, expansion, handle, )
  char* text = NULL;
  if (!c_string(env, action, 0, "action", &text)) return;
  ok(env, pmc_expansion_add_choice(expansion, text));
  free(text);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_expansionAddTransition(JNIEnv* env, jclass cls, jlong handle,
                                                                  jdouble value, jbyteArray target) {
  (void)cls;
  REQUIRE_HANDLE(pmc_expansion, expansion, handle, )
  unsigned char small[SMALL_STATE];
  jsize length = 0;
  unsigned char* bytes = copy_bytes(env, target, small, sizeof small, &length, "target");
  if (bytes == NULL) return;
  ok(env, pmc_expansion_add_transition(expansion, value, bytes, (uint64_t)length));
  if (bytes != small) free(bytes);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_expansionSetReward(JNIEnv* env, jclass cls, jlong handle, jint what,
                                                              jlong rewards, jdouble value) {
  (void)cls;
  REQUIRE_HANDLE(pmc_expansion, expansion, handle, )
  if (!non_negative(env, rewards, "reward structure index")) return;
  pmc_status status;
  switch (what) {
    case org_pmc_Native_REWARD_STATE:
      status = pmc_expansion_set_state_reward(expansion, (uint64_t)rewards, value);
      break;
    case org_pmc_Native_REWARD_CHOICE:
      status = pmc_expansion_set_choice_reward(expansion, (uint64_t)rewards, value);
      break;
    case org_pmc_Native_REWARD_TRANSITION:
      status = pmc_expansion_set_transition_reward(expansion, (uint64_t)rewards, value);
      break;
    default: throw_new(env, g_illegal_argument, "pmc JNI: unknown reward selector"); return;
  }
  ok(env, status);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_expansionSetLabel(JNIEnv* env, jclass cls, jlong handle, jlong label) {
  (void)cls;
  REQUIRE_HANDLE(pmc_expansion, expansion, handle, )
  if (!non_negative(env, label, "label index")) return;
  ok(env, pmc_expansion_set_label(expansion, (uint64_t)label));
}

JNIEXPORT void JNICALL Java_org_pmc_Native_expansionFail(JNIEnv* env, jclass cls, jlong handle, jbyteArray message) {
  (void)cls;
  REQUIRE_HANDLE(pmc_expansion, expansion, handle, )
  char* text = NULL;
  if (!c_string(env, message, 1, "message", &text)) return;
  ok(env, pmc_expansion_fail(expansion, text));
  free(text);
}

/* ------------------------------------------------------------------------ */
/* State bytes of explored models                                            */
/* ------------------------------------------------------------------------ */

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_modelStateBytes(JNIEnv* env, jclass cls, jlong handle,
                                                                 jlong state) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, NULL)
  if (!non_negative(env, state, "state")) return NULL;
  unsigned char small[SMALL_STATE];
  uint64_t size = 0;
  if (!ok(env, pmc_model_state_bytes(model, (uint64_t)state, small, sizeof small, &size)) ||
      !fits_java_array(env, size, "state bytes")) {
    return NULL;
  }
  unsigned char* bytes = small;
  if (size > sizeof small) { /* read again, whole */
    bytes = malloc((size_t)size);
    if (bytes == NULL) {
      throw_out_of_memory(env, "state bytes");
      return NULL;
    }
    uint64_t again = 0;
    if (!ok(env, pmc_model_state_bytes(model, (uint64_t)state, bytes, size, &again))) {
      free(bytes);
      return NULL;
    }
  }
  jbyteArray array = (*env)->NewByteArray(env, (jsize)size);
  if (array != NULL && size > 0) {
    (*env)->SetByteArrayRegion(env, array, 0, (jsize)size, (const jbyte*)bytes);
    if ((*env)->ExceptionCheck(env)) {
      (*env)->DeleteLocalRef(env, array);
      array = NULL;
    }
  }
  if (bytes != small) free(bytes);
  return array;
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_modelFindState(JNIEnv* env, jclass cls, jlong handle,
                                                           jbyteArray state) {
  (void)cls;
  REQUIRE_HANDLE(pmc_model, model, handle, -1)
  unsigned char small[SMALL_STATE];
  jsize length = 0;
  unsigned char* bytes = copy_bytes(env, state, small, sizeof small, &length, "state");
  if (bytes == NULL) return -1;
  uint64_t index = 0;
  const int found = ok(env, pmc_model_find_state(model, bytes, (uint64_t)length, &index));
  if (bytes != small) free(bytes);
  return found ? (jlong)index : -1;
}
