// The slice exchange without NCCL: each part copies its slice into every
// other part's iterate (cudaMemcpyPeerAsync; direct over NVLink/PCIe where
// peer access is possible, staged by the driver otherwise, a plain device
// copy when both parts share one GPU), and the convergence measure is the
// max of the parts' values read back to the host.
#include <algorithm>
#include <mutex>
#include <set>
#include <utility>

#include "cuda/check.cuh"
#include "cuda/slice_exchange.hpp"

namespace pmc::cuda {

namespace {

// Peer access is a property of the process: enabled once per ordered pair
// (enabling it again is an error the driver reports, and memcheck with it).
void enable_peer_access(const DeviceParts& parts) {
  static std::mutex mutex;
  static std::set<std::pair<int, int>> enabled;
  const std::lock_guard<std::mutex> lock(mutex);
  for (const auto& from : parts) {
    for (const auto& to : parts) {
      if (from->ordinal == to->ordinal || enabled.count({from->ordinal, to->ordinal}) > 0) continue;
      int possible = 0;
      PMC_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, from->ordinal, to->ordinal));
      if (!possible) continue;
      from->activate();
      const cudaError_t status = cudaDeviceEnablePeerAccess(to->ordinal, 0);
      if (status == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();  // enabled by someone else in this process (the embedding program): fine
      } else {
        PMC_CUDA_CHECK(status);
      }
      enabled.insert({from->ordinal, to->ordinal});
    }
  }
}

class CopyExchange final : public SliceExchange {
 public:
  explicit CopyExchange(DeviceParts& parts) : maxes_(parts.size()) {
    enable_peer_access(parts);
    for (const auto& part : parts) {
      part->activate();
      reduced_.push_back(std::make_unique<Event>());
    }
  }
  const char* name() const override { return "peer copies"; }
  bool sends_to_all() const override { return false; }

  void all_gather(DeviceParts& parts, int which) override {
    for (size_t p = 0; p < parts.size(); ++p) {
      DevicePart* source = parts[p].get();
      source->activate();
      const cudaStream_t stream = source->comm.get();
      // Every slice of this iteration written means every part has also
      // finished reading the values these copies overwrite (two iterations
      // old: x[which] held them).
      for (const auto& part : parts) part->slice_ready.make_wait(stream);
      for (const auto& target : parts) {
        // Only to the parts whose rows read this slice, only what they read.
        const IndexRange read = target->reads_from[p];
        if (target.get() == source || read.empty()) continue;
        const uint64_t first = source->slot_base + read.begin;
        PMC_CUDA_CHECK(cudaMemcpyPeerAsync(target->x[which].data() + first, target->ordinal,
                                           source->x[which].data() + first, source->ordinal,
                                           read.size() * sizeof(double), stream));
      }
      source->gathered.record(stream);
    }
  }

  void wait_gathered(DeviceParts& parts, size_t p) override {
    // The copies of the slices p reads, and of p's own slice to its readers
    // (taken before p overwrites it); slices p does not read send nothing to p.
    for (size_t source = 0; source < parts.size(); ++source) {
      if (source == p || !parts[p]->reads_from[source].empty()) parts[source]->gathered.make_wait(parts[p]->compute.get());
    }
  }

  void start_max(DeviceParts& parts) override {
    for (size_t p = 0; p < parts.size(); ++p) {
      DevicePart& part = *parts[p];
      part.activate();
      part.slice_ready.make_wait(part.comm.get());
      PMC_CUDA_CHECK(cudaMemcpyAsync(maxes_.data() + p, part.local_max.data(), sizeof(double),
                                     cudaMemcpyDeviceToHost, part.comm.get()));
      reduced_[p]->record(part.comm.get());
    }
  }

  double finish_max(DeviceParts& parts) override {
    double result = 0;
    for (size_t p = 0; p < parts.size(); ++p) {
      reduced_[p]->synchronize();
      result = std::max(result, maxes_.data()[p]);
    }
    return result;
  }

 private:
  PinnedBuffer<double> maxes_;
  std::vector<std::unique_ptr<Event>> reduced_;
};

}  // namespace

std::unique_ptr<SliceExchange> make_copy_exchange(DeviceParts& parts) { return std::make_unique<CopyExchange>(parts); }

bool peers_reach_each_other(const DeviceParts& parts) {
  for (const auto& from : parts) {
    for (const auto& to : parts) {
      if (from->ordinal == to->ordinal) continue;
      int possible = 0;
      PMC_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, from->ordinal, to->ordinal));
      if (!possible) return false;
    }
  }
  return true;
}

}  // namespace pmc::cuda
