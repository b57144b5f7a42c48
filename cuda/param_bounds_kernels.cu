// param_bounds_kernels.hpp's launchers and the kernels of gpu.param-bounds:
// each kernel runs param_kernels.hpp's per-thread work for its thread's
// element(s). Why the three step loops (one launch per step, fused, block)
// and how the host half chooses between them: lib/solver/gpu/param_bounds.cpp.
#include <cooperative_groups.h>

#include <iterator>

#include "cuda/check.cuh"
#include "cuda/launch.hpp"
#include "cuda/param_bounds_kernels.hpp"

namespace pmc::cuda {

namespace pk = pmc::param_kernels;

namespace {

template <bool Ell>
__global__ void param_step(pk::PatternView m, pk::RegionsView g, pk::PhaseView ph, pk::VectorsView v, uint32_t k) {
  pk::step<Ell>(m, g, ph, v, k, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

// Steps [k_first, k_last] in one cooperative launch (pk::FusedThread).
template <bool Ell, int E>
__global__ void __launch_bounds__(k_block_threads)
    param_steps_fused(pk::PatternView m, pk::RegionsView g, pk::PhaseView ph, pk::VectorsView v, uint32_t k_first,
                      uint32_t k_last) {
  const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const uint64_t first = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  const uint64_t stride = uint64_t{gridDim.x} * k_block_threads;
  pk::FusedThread<Ell, E> thread;
  thread.load(m, g, ph, v, first, stride, k_first);
  for (uint32_t k = k_first; k <= k_last; ++k) {
    thread.step(m, g, ph, v, first, stride, k);
    if (k < k_last) grid.sync();  // the launch's end orders the last step
  }
  thread.store(v, first, stride, k_first);
}

// Elements per thread of the fused loop: the fewest that fit.
constexpr int k_fused_elements[] = {1, 2, 4};

template <bool Ell, int E>
const void* fused_kernel() {
  return reinterpret_cast<const void*>(&param_steps_fused<Ell, E>);
}
const void* fused_kernel(bool ell, int elements_per_thread) {
  switch (elements_per_thread) {
    case 1: return ell ? fused_kernel<true, 1>() : fused_kernel<false, 1>();
    case 2: return ell ? fused_kernel<true, 2>() : fused_kernel<false, 2>();
    default: return ell ? fused_kernel<true, 4>() : fused_kernel<false, 4>();
  }
}

// How many blocks of the fused kernel can be resident at once (0: the
// device has no cooperative launch).
uint64_t resident_blocks(bool ell, int elements_per_thread) {
  int device = 0, cooperative = 0, sms = 0, per_sm = 0;
  PMC_CUDA_CHECK(cudaGetDevice(&device));
  PMC_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  if (!cooperative) return 0;
  PMC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  PMC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fused_kernel(ell, elements_per_thread),
                                                               k_block_threads, 0));
  return static_cast<uint64_t>(sms) * static_cast<uint64_t>(per_sm);
}

// The block loop (pk::BlockThread): one block per region, the region's
// lo/hi in shared memory.
constexpr uint32_t k_block_loop_max_threads = 512;
constexpr int k_block_elements[] = {1, 2, 4, 8, 16};

template <bool Ell, int E>
__global__ void __launch_bounds__(k_block_loop_max_threads, 1)
    param_steps_block(pk::PatternView m, pk::RegionsView g, pk::PhaseView ph, pk::VectorsView v, uint32_t k_first,
                      uint32_t k_last) {
  extern __shared__ double shared[];
  const uint32_t r = blockIdx.x;
  const uint32_t end = pk::block_end(ph, r, k_last);
  if (end < k_first) return;  // the whole block: its region's steps are done
  const uint64_t n = m.rows;
  const pk::SharedRegion sh{{shared, shared + n}, {shared + 2 * n, shared + 3 * n}};
  pk::block_load(m, g, v, sh, r, k_first, threadIdx.x, blockDim.x);
  pk::BlockThread<Ell, E> thread;
  thread.load(m, g, ph, v, r, threadIdx.x, blockDim.x);
  __syncthreads();
  for (uint32_t k = k_first; k <= end; ++k) {
    thread.step(m, g, ph, sh, r, threadIdx.x, blockDim.x, k);
    __syncthreads();
  }
  thread.store(g, v, sh, r, threadIdx.x, blockDim.x, end);
}

template <bool Ell, int E>
const void* block_kernel() {
  return reinterpret_cast<const void*>(&param_steps_block<Ell, E>);
}
const void* block_kernel(bool ell, int elements_per_thread) {
  switch (elements_per_thread) {
    case 1: return ell ? block_kernel<true, 1>() : block_kernel<false, 1>();
    case 2: return ell ? block_kernel<true, 2>() : block_kernel<false, 2>();
    case 4: return ell ? block_kernel<true, 4>() : block_kernel<false, 4>();
    case 8: return ell ? block_kernel<true, 8>() : block_kernel<false, 8>();
    default: return ell ? block_kernel<true, 16>() : block_kernel<false, 16>();
  }
}

__global__ void param_start(uint64_t elements, uint32_t regions, const double* x0, pk::VectorsView v) {
  pk::start(elements, regions, x0, v, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

__global__ void param_start_phase(uint64_t elements, uint32_t regions, pk::PhaseView ph, int zero_inactive,
                                  pk::VectorsView v) {
  pk::start_phase(elements, regions, ph, zero_inactive, v, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

__global__ void param_finish_phase(uint64_t elements, uint32_t regions, pk::PhaseView ph, int probability,
                                   pk::VectorsView v) {
  pk::finish_phase(elements, regions, ph, probability, v, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

__global__ void param_gather(uint64_t count, uint32_t regions, const uint64_t* states, const double* lo,
                             const double* hi, double* out_lo, double* out_hi) {
  pk::gather(count, regions, states, lo, hi, out_lo, out_hi, blockIdx.x * uint64_t{k_block_threads} + threadIdx.x);
}

}  // namespace

ParamFusedShape param_fused_shape(bool ell, uint64_t elements) {
  for (int e : k_fused_elements) {
    const uint64_t blocks = (elements + uint64_t{k_block_threads} * e - 1) / (uint64_t{k_block_threads} * e);
    if (blocks <= resident_blocks(ell, e)) return {e, static_cast<unsigned>(blocks)};
  }
  return {};
}

uint64_t param_fused_capacity(bool ell) {
  constexpr int e = k_fused_elements[std::size(k_fused_elements) - 1];
  return resident_blocks(ell, e) * k_block_threads * e;
}

uint64_t shared_bytes_per_block() {
  int device = 0, shared_optin = 0;
  PMC_CUDA_CHECK(cudaGetDevice(&device));
  PMC_CUDA_CHECK(cudaDeviceGetAttribute(&shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return static_cast<uint64_t>(shared_optin);
}

ParamBlockShape param_block_shape(uint64_t states) {
  const uint64_t bytes = states * 4 * sizeof(double);
  if (bytes > shared_bytes_per_block()) return {};
  for (int e : k_block_elements) {
    const uint64_t threads = (states + e - 1) / e;
    if (threads <= k_block_loop_max_threads) {
      return {e, static_cast<unsigned>((threads + 31) / 32 * 32), static_cast<size_t>(bytes)};
    }
  }
  return {};
}

void prepare_param_block_loop(bool ell, const ParamBlockShape& block) {
  PMC_CUDA_CHECK(cudaFuncSetAttribute(block_kernel(ell, block.elements_per_thread),
                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(block.shared_bytes)));
}

void launch_param_start(uint64_t elements, uint32_t regions, const double* x0, const pk::VectorsView& v,
                        StreamHandle stream) {
  param_start<<<blocks_for_threads(elements), k_block_threads, 0, stream>>>(elements, regions, x0, v);
  PMC_CUDA_CHECK_LAUNCH("param_start");
}

void launch_param_start_phase(uint64_t elements, uint32_t regions, const pk::PhaseView& ph, int zero_inactive,
                              const pk::VectorsView& v, StreamHandle stream) {
  param_start_phase<<<blocks_for_threads(elements), k_block_threads, 0, stream>>>(elements, regions, ph,
                                                                                   zero_inactive, v);
  PMC_CUDA_CHECK_LAUNCH("param_start_phase");
}

void launch_param_steps(const ParamStepLoop& loop, bool ell, const pk::PatternView& m, const pk::RegionsView& g,
                        const pk::PhaseView& ph, const pk::VectorsView& v, uint32_t k_first, uint32_t k_last,
                        StreamHandle stream) {
  if (loop.block.elements_per_thread > 0 || loop.fused.elements_per_thread > 0) {
    // cudaLaunchKernel takes the arguments by address.
    pk::PatternView pattern = m;
    pk::RegionsView regions = g;
    pk::PhaseView phase = ph;
    pk::VectorsView vectors = v;
    void* args[] = {&pattern, &regions, &phase, &vectors, &k_first, &k_last};
    if (loop.block.elements_per_thread > 0) {
      PMC_CUDA_CHECK(cudaLaunchKernel(block_kernel(ell, loop.block.elements_per_thread), g.count,
                                      loop.block.threads, args, loop.block.shared_bytes, stream));
    } else {
      PMC_CUDA_CHECK(cudaLaunchCooperativeKernel(fused_kernel(ell, loop.fused.elements_per_thread),
                                                 loop.fused.blocks, k_block_threads, args, 0, stream));
    }
    return;
  }
  const unsigned blocks = blocks_for_threads(m.rows * g.count);
  for (uint32_t k = k_first; k <= k_last; ++k) {
    if (ell) {
      param_step<true><<<blocks, k_block_threads, 0, stream>>>(m, g, ph, v, k);
    } else {
      param_step<false><<<blocks, k_block_threads, 0, stream>>>(m, g, ph, v, k);
    }
    PMC_CUDA_CHECK_LAUNCH("param_step");
  }
}

void launch_param_finish_phase(uint64_t elements, uint32_t regions, const pk::PhaseView& ph, int probability,
                               const pk::VectorsView& v, StreamHandle stream) {
  param_finish_phase<<<blocks_for_threads(elements), k_block_threads, 0, stream>>>(elements, regions, ph,
                                                                                    probability, v);
  PMC_CUDA_CHECK_LAUNCH("param_finish_phase");
}

void launch_param_gather(uint64_t count, uint32_t regions, const uint64_t* states, const double* lo,
                         const double* hi, double* out_lo, double* out_hi, StreamHandle stream) {
  param_gather<<<blocks_for_threads(count * regions), k_block_threads, 0, stream>>>(count, regions, states, lo, hi,
                                                                                     out_lo, out_hi);
  PMC_CUDA_CHECK_LAUNCH("param_gather");
}

}  // namespace pmc::cuda
