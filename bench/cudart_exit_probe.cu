// What the static CUDA runtime does at process exit, and what happens to a
// thread still starting CUDA when the process ends: the facts pmc's exit
// paths rely on (docs/decisions.md, "Ending the process while CUDA starts").
// Built and run by `bash bench/gpu_run.sh exit`:
//
//   nvcc -O2 -std=c++20 -o /tmp/probe bench/cudart_exit_probe.cu
//   /tmp/probe order          which atexit hooks can still call CUDA
//   /tmp/probe phases         the start-up's parts: cuInit, context, a kernel
//   /tmp/probe race US        exit US microseconds after a thread began
//                             starting CUDA (the thread is left running)
//   /tmp/probe race-wait US   the same, with an atexit hook, registered
//                             before the thread starts, that joins it
//   /tmp/probe race-quick US  the same, ended by _exit after a flush
#include <cuda_runtime.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

__global__ void probe_kernel(int* out) { *out = 42; }

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void try_cuda(const char* hook) {
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, 16);
  std::printf("%s: cudaMalloc -> %s\n", hook, cudaGetErrorName(e));
  std::fflush(stdout);
  if (e == cudaSuccess) cudaFree(p);
}

void hook_before_any_call() { try_cuda("hook registered before any CUDA call"); }
void hook_after_count() { try_cuda("hook registered after cudaGetDeviceCount"); }
void hook_after_context() { try_cuda("hook registered after the context"); }

// The start-up pmc's discovery performs: count, then a test kernel.
void start_cuda() {
  int count = 0;
  cudaGetDeviceCount(&count);
  int* flag = nullptr;
  if (cudaMalloc(&flag, sizeof(int)) == cudaSuccess) {
    probe_kernel<<<1, 1>>>(flag);
    int value = 0;
    cudaMemcpy(&value, flag, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(flag);
  }
}

std::thread* g_thread = nullptr;
void join_thread() {
  if (g_thread != nullptr && g_thread->joinable()) g_thread->join();
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "order";
  const long delay_us = argc > 2 ? std::atol(argv[2]) : 0;
  if (std::strcmp(mode, "order") == 0) {
    std::atexit(hook_before_any_call);
    int count = 0;
    cudaGetDeviceCount(&count);
    std::atexit(hook_after_count);
    cudaFree(nullptr);
    std::atexit(hook_after_context);
    std::printf("main returns\n");
    return 0;
  }
  if (std::strcmp(mode, "phases") == 0) {
    const double t0 = now();
    int count = 0;
    cudaGetDeviceCount(&count);
    const double t1 = now();
    cudaFree(nullptr);
    const double t2 = now();
    start_cuda();
    const double t3 = now();
    std::printf("cudaGetDeviceCount %.3f s, context %.3f s, test kernel %.3f s\n", t1 - t0, t2 - t1, t3 - t2);
    return 0;
  }
  const bool wait = std::strcmp(mode, "race-wait") == 0;
  const bool quick = std::strcmp(mode, "race-quick") == 0;
  if (wait) std::atexit(join_thread);
  g_thread = new std::thread(start_cuda);
  if (!wait) g_thread->detach();
  std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
  std::printf("exit after %ld us\n", delay_us);
  if (quick) {
    std::fflush(stdout);
    _exit(0);
  }
  return 0;
}
