// Launchers of gpu.param-bounds' kernels (param_bounds_kernels.cu), over the
// plain views of param_kernels.hpp: the host half
// (lib/solver/gpu/param_bounds.cpp) calls them without nvcc. The kernels'
// per-thread work is param_kernels.hpp's; a launch runs it for every element
// (state, region) of the launch's regions. Every launch is enqueued on
// `stream`.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/device_runtime.hpp"
#include "cuda/param_kernels.hpp"

namespace pmc::cuda {

// The fused loop's shape for a launch: E elements per thread and the grid;
// E = 0 where the elements do not fit the threads that can be resident at
// once (or the device has no cooperative launch).
struct ParamFusedShape {
  int elements_per_thread = 0;
  unsigned blocks = 0;
};

// The block loop's shape: E states per thread, the threads and the shared
// bytes of a block; E = 0 where a region does not fit a block.
struct ParamBlockShape {
  int elements_per_thread = 0;
  unsigned threads = 0;
  size_t shared_bytes = 0;
};

// How a launch runs its steps: the block loop where
// block.elements_per_thread > 0, else the fused loop where
// fused.elements_per_thread > 0, else one launch per step.
struct ParamStepLoop {
  ParamBlockShape block;
  ParamFusedShape fused;
};

// The fused loop's shape for `elements` elements on the current device.
ParamFusedShape param_fused_shape(bool ell, uint64_t elements);
// The most elements one fused launch can hold on the current device.
uint64_t param_fused_capacity(bool ell);
// The block loop's shape for a model of `states` states on the current device.
ParamBlockShape param_block_shape(uint64_t states);
// The shared memory a block of the current device may opt in to.
uint64_t shared_bytes_per_block();
// Lets the block loop's kernel of this shape use its shared bytes; once,
// before its first launch.
void prepare_param_block_loop(bool ell, const ParamBlockShape& block);

// Before the first phase: (s, r) ← x0[s] in buffer 0.
void launch_param_start(uint64_t elements, uint32_t regions, const double* x0, const param_kernels::VectorsView& v,
                        StreamHandle stream);
void launch_param_start_phase(uint64_t elements, uint32_t regions, const param_kernels::PhaseView& ph,
                              int zero_inactive, const param_kernels::VectorsView& v, StreamHandle stream);
// Steps [k_first, k_last] of a phase for every element of the launch's
// regions (m.rows · g.count elements), as `loop` says.
void launch_param_steps(const ParamStepLoop& loop, bool ell, const param_kernels::PatternView& m,
                        const param_kernels::RegionsView& g, const param_kernels::PhaseView& ph,
                        const param_kernels::VectorsView& v, uint32_t k_first, uint32_t k_last, StreamHandle stream);
void launch_param_finish_phase(uint64_t elements, uint32_t regions, const param_kernels::PhaseView& ph,
                               int probability, const param_kernels::VectorsView& v, StreamHandle stream);
// out[i·R + r] = buffer 0 at (states[i], r) for the `count` kept states.
void launch_param_gather(uint64_t count, uint32_t regions, const uint64_t* states, const double* lo,
                         const double* hi, double* out_lo, double* out_hi, StreamHandle stream);

}  // namespace pmc::cuda
