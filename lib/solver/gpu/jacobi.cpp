// gpu.jacobi and gpu.segscan-jacobi (GPU-PRISM §2–4): the whole iteration
// stays on the device; the convergence test is a device-side max reduction
// read back every few iterations, not every one (jacobi_loop.hpp).
#include <algorithm>
#include <chrono>
#include <limits>

#include "common/stopwatch.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/launch.hpp"
#include "cuda/linear_kernels.hpp"
#include "cuda/reduction_kernels.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/jacobi_loop.hpp"
#include "solver/gpu/solve_context.hpp"
#include "solver/linear/matrix_layouts.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;

// Jacobi splits off the diagonal: A' = A without it, scale = 1/(1 − a_ii).
void split_diagonal(const SparseMatrix& a, SparseMatrix& off_diagonal, std::vector<double>& scale) {
  scale.assign(a.num_rows(), 1.0);
  off_diagonal.row_offsets.assign(1, 0);
  off_diagonal.columns.reserve(a.num_entries());
  off_diagonal.values.reserve(a.num_entries());
  for (uint64_t i = 0; i < a.num_rows(); ++i) {
    double diagonal = 0;
    for (uint64_t k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
      if (a.columns[k] == i) {
        diagonal += a.values[k];
      } else {
        off_diagonal.columns.push_back(a.columns[k]);
        off_diagonal.values.push_back(a.values[k]);
      }
    }
    scale[i] = 1.0 / (1.0 - diagonal);
    off_diagonal.row_offsets.push_back(off_diagonal.columns.size());
  }
}

enum class Layout { rows, segmented_scan, warp_segments, half_warp_segments };

const char* kernel_name(Layout layout, bool warp) {
  switch (layout) {
    case Layout::rows: return warp ? "warp-per-row" : "thread-per-row";
    case Layout::segmented_scan: return "segmented-scan";
    case Layout::warp_segments: return "warp-segments";
    case Layout::half_warp_segments: return "half-warp-segments";
  }
  return "";
}

SolveStats jacobi(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings, Layout layout) {
  const auto start = std::chrono::steady_clock::now();
  const gpu::SolveContext context(settings);
  const StreamHandle stream = context.stream();
  // The row layout uploads the matrix as it is and skips the diagonal in the
  // kernel (copying 10^7+ entries on the host cost more than the whole
  // iteration: 0.19 s of 0.21 on 2.5M rows); the segmented scan sums whole
  // rows, so it gets the matrix without its diagonal.
  const bool segmented = layout != Layout::rows;  // every layout but rows gets the matrix without its diagonal
  const bool warp_segmented = layout == Layout::warp_segments || layout == Layout::half_warp_segments;
  SparseMatrix off_diagonal;
  std::vector<double> scale;
  if (segmented) split_diagonal(system.a, off_diagonal, scale);
  const SparseMatrix& matrix = segmented ? off_diagonal : system.a;
  const uint64_t n = matrix.num_rows();
  // The warp-segmented layouts replace the CSR arrays on the device.
  SegmentedMatrix host_segments;
  if (warp_segmented) host_segments = to_segments(matrix, layout == Layout::warp_segments ? 32 : 16,
                                                  layout == Layout::warp_segments ? 1 : 2);
  DeviceCsr a(warp_segmented ? SparseMatrix{std::vector<uint64_t>(n + 1, 0), {}, {}} : matrix, stream);
  DeviceBuffer<uint64_t> segment_starts(host_segments.segment_starts, stream);
  DeviceBuffer<uint32_t> segment_columns(host_segments.columns, stream);
  DeviceBuffer<double> segment_values(host_segments.values, stream);
  const DeviceSegments segments{n, host_segments.segment_rows, host_segments.lanes_per_row, segment_starts.data(),
                                segment_columns.data(), segment_values.data()};
  DeviceBuffer<double> b(system.b, stream), x_old(x, stream), x_new(x.size()), diff(x.size());
  DeviceBuffer<double> d_scale = segmented ? DeviceBuffer<double>(scale, stream) : DeviceBuffer<double>(n);
  if (!segmented && n > 0) {
    launch_jacobi_scale(n, a.view(), d_scale.data(), stream);
  }
  const bool warp = settings.gpu_layout == GpuLayout::warp_per_row ||
                    (settings.gpu_layout != GpuLayout::thread_per_row && use_warp_per_row(n, matrix.num_entries()));

  // Segmented-scan layout: products per entry, CUB segmented sum per row.
  DeviceBuffer<double> products, row_sums;
  DeviceBuffer<unsigned char> scan_temp;
  size_t scan_temp_bytes = 0;
  if (layout == Layout::segmented_scan) {
    products.allocate(std::max<uint64_t>(a.entries, 1));
    row_sums.allocate(n);
    scan_temp_bytes = segmented_sum_scratch_bytes(n, a.offsets.data());
    scan_temp.allocate(std::max<size_t>(scan_temp_bytes, 1));
  }

  SolveStats stats;
  stats.solver = layout == Layout::rows ? "gpu.jacobi" : "gpu.segscan-jacobi";
  stats.kernel = kernel_name(layout, warp);
  // Matrix (with the segments' padding), b, scale, x gathered (at least once), y written.
  const double matrix_bytes =
      warp_segmented ? host_segments.slots() * 12.0 + host_segments.segment_starts.size() * 8.0 : a.bytes();
  stats.bytes_per_iteration = matrix_bytes + n * 8.0 * 4 + (layout == Layout::segmented_scan ? a.entries * 16.0 + n * 16.0 : 0);
  gpu::run_jacobi_loop(settings, stream, layout == Layout::rows ? "gpu.jacobi" : "gpu.segscan-jacobi", n, diff.data(),
                       stats, [&](bool check) {
    RowUpdate u{n, a.view(), b.data(), d_scale.data(), x_old.data(), x_new.data(), check ? diff.data() : nullptr,
                nullptr, 0.0, settings.relative ? 1 : 0, segmented ? 0 : 1};
    if (layout == Layout::rows) {
      launch_row_update(u, warp, stream);
    } else if (warp_segmented) {
      launch_segment_row_update(segments, u, stream);
    } else {
      if (a.entries > 0) {  // a grid of 0 blocks is a launch error
        launch_entry_products(a.entries, a.columns.data(), a.values.data(), x_old.data(), products.data(), stream);
      } else {
        products.fill_zero(stream);
      }
      segmented_sum(scan_temp.data(), scan_temp_bytes, products.data(), row_sums.data(), n, a.offsets.data(), stream);
      launch_finish_rows(u, row_sums.data(), stream);
    }
    std::swap(x_old, x_new);
  });
  x_old.download(x, stream);
  stats.seconds = seconds_since(start);
  return stats;
}


// One GPU, or the rows split over several (solver/device/device_selection.hpp).
SolveStats jacobi_on_planned_devices(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings,
                                     Layout layout) {
  const DevicePlan plan = plan_devices(settings, system.a.num_entries(), system.a.num_rows());
  if (plan.devices.size() > 1) return gpu_jacobi_partitioned(system, x, settings, plan.devices, settings.gpu_exchange);
  return jacobi(system, x, settings, layout);
}

}  // namespace

SolveStats gpu_jacobi_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) {
  Layout layout = Layout::rows;
  if (settings.gpu_layout == GpuLayout::warp_segments) layout = Layout::warp_segments;
  if (settings.gpu_layout == GpuLayout::half_warp_segments) layout = Layout::half_warp_segments;
  if (!settings.bfs_reorder) return jacobi_on_planned_devices(system, x, settings, layout);
  // Breadth-first numbering: solve the renamed system, then name the
  // solution back (the host permutation is outside the timed loop).
  const std::vector<uint32_t> order = bfs_order(system.a);
  const LinearSystem renamed = permute_system(system, order);
  std::vector<double> renamed_x(x.size());
  for (size_t k = 0; k < order.size(); ++k) renamed_x[k] = x[order[k]];
  SolveStats stats = jacobi_on_planned_devices(renamed, renamed_x, settings, layout);
  for (size_t k = 0; k < order.size(); ++k) x[order[k]] = renamed_x[k];
  stats.kernel += "+bfs";
  return stats;
}

SolveStats gpu_segscan_jacobi_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) {
  if (system.a.num_rows() > static_cast<uint64_t>(INT32_MAX)) {
    throw Error(ErrorCode::unsupported, "gpu.segscan-jacobi handles at most 2^31 rows (CUB's segment count)");
  }
  return jacobi(system, x, settings, Layout::segmented_scan);
}

}  // namespace pmc
