// How the parts of a row-partitioned solve exchange their slices of the
// iterate and combine the convergence measure. Two implementations:
//  - NCCL (cuda/nccl_exchange.cu): one in-place all-gather of `stride`
//    values per device and one all-reduce(max), over NVLink/PCIe as NCCL
//    finds best; needs distinct GPUs and libnccl at run time. Communicators
//    are kept for the next solve over the same GPUs.
//  - copies (cuda/copy_exchange.cu): cudaMemcpyPeerAsync of each slice to
//    every other part. Works without NCCL and for several parts on one GPU
//    (how the partitioning is tested on a single-GPU machine).
#pragma once

#include <memory>
#include <string>

#include "cuda/device_part.hpp"

namespace pmc::cuda {

enum class ExchangeKind { automatic, nccl, copy };

class SliceExchange {
 public:
  virtual ~SliceExchange() = default;
  virtual const char* name() const = 0;
  // Whether one part's slice goes to every other part as soon as any part
  // reads across (NCCL's all-gather), rather than only to its readers.
  virtual bool sends_to_all() const = 0;
  // Enqueues, behind every part's slice_ready, the transfer of each part's
  // slice of x[which] to all other parts.
  virtual void all_gather(DeviceParts& parts, int which) = 0;
  // Enqueues on part p's compute stream a wait until the last all_gather
  // has delivered every slice to p and taken p's own slice everywhere.
  virtual void wait_gathered(DeviceParts& parts, size_t p) = 0;
  // The convergence measure: max over the parts' local_max, enqueued behind
  // slice_ready (start) and read back on the host (finish).
  virtual void start_max(DeviceParts& parts) = 0;
  virtual double finish_max(DeviceParts& parts) = 0;
};

std::unique_ptr<SliceExchange> make_copy_exchange(DeviceParts& parts);

// NCCL over the parts (distinct GPUs); throws Error(unsupported) saying why
// it cannot (built without NCCL, libnccl not found, a GPU listed twice).
std::unique_ptr<SliceExchange> make_nccl_exchange(DeviceParts& parts, uint64_t stride);

// Every pair of the parts' distinct GPUs has direct peer access (NVLink or
// PCIe peer-to-peer): copies need no staging through the host.
bool peers_reach_each_other(const DeviceParts& parts);

// automatic: peer copies where every pair of GPUs has direct peer access
// (measured faster than NCCL's all-gather on two: bench/RESULTS.md
// "Several GPUs"), else NCCL where it can work, else copies.
std::unique_ptr<SliceExchange> make_exchange(ExchangeKind kind, DeviceParts& parts, uint64_t stride);

// Destroys the NCCL communicators kept for later solves (a no-op without
// NCCL). Called by release_process_caches(), never from a static destructor.
void release_nccl_communicators() noexcept;

}  // namespace pmc::cuda
