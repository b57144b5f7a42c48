/* org.pmc.Native: properties files (pmc_properties_*; see pmc_jni.h). The
 * Java side copies a file's properties out right after reading it and
 * frees the handle, so these calls never meet a handle shared by threads. */
#include <stdlib.h>

#include "pmc_jni.h"

JNIEXPORT jlong JNICALL Java_org_pmc_Native_propertiesRead(JNIEnv* env, jclass cls, jbyteArray path,
                                                           jbyteArray constants) {
  (void)cls;
  char* path_text = NULL;
  char* constants_text = NULL;
  pmc_properties* properties = NULL;
  if (c_string(env, path, 1, "path", &path_text) && c_string(env, constants, 0, "constants", &constants_text)) {
    ok(env, pmc_properties_read(path_text, constants_text, &properties));
  }
  free(path_text);
  free(constants_text);
  return to_handle(properties);
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_propertiesParse(JNIEnv* env, jclass cls, jbyteArray text,
                                                            jbyteArray source_name, jbyteArray constants) {
  (void)cls;
  char* text_copy = NULL;
  char* source_name_text = NULL;
  char* constants_text = NULL;
  pmc_properties* properties = NULL;
  if (c_string(env, text, 1, "text", &text_copy) && c_string(env, source_name, 0, "sourceName", &source_name_text) &&
      c_string(env, constants, 0, "constants", &constants_text)) {
    ok(env, pmc_properties_parse(text_copy, source_name_text, constants_text, &properties));
  }
  free(text_copy);
  free(source_name_text);
  free(constants_text);
  return to_handle(properties);
}

JNIEXPORT void JNICALL Java_org_pmc_Native_propertiesFree(JNIEnv* env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  pmc_properties_free((pmc_properties*)(intptr_t)handle);
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_propertiesCount(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  REQUIRE_HANDLE(pmc_properties, properties, handle, 0)
  uint64_t count = 0;
  if (!ok(env, pmc_properties_count(properties, &count))) return 0;
  return (jlong)count;
}

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_propertiesName(JNIEnv* env, jclass cls, jlong handle, jlong index) {
  (void)cls;
  REQUIRE_HANDLE(pmc_properties, properties, handle, NULL)
  const char* name = NULL;
  if (!non_negative(env, index, "index") || !ok(env, pmc_properties_name(properties, (uint64_t)index, &name))) {
    return NULL;
  }
  return new_bytes(env, name);
}

JNIEXPORT jbyteArray JNICALL Java_org_pmc_Native_propertiesText(JNIEnv* env, jclass cls, jlong handle, jlong index) {
  (void)cls;
  REQUIRE_HANDLE(pmc_properties, properties, handle, NULL)
  const char* text = NULL;
  if (!non_negative(env, index, "index") || !ok(env, pmc_properties_text(properties, (uint64_t)index, &text))) {
    return NULL;
  }
  return new_bytes(env, text);
}

JNIEXPORT jlong JNICALL Java_org_pmc_Native_propertiesLine(JNIEnv* env, jclass cls, jlong handle, jlong index) {
  (void)cls;
  REQUIRE_HANDLE(pmc_properties, properties, handle, 0)
  uint64_t line = 0;
  if (!non_negative(env, index, "index") || !ok(env, pmc_properties_line(properties, (uint64_t)index, &line))) {
    return 0;
  }
  return (jlong)line;
}
