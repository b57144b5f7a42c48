// The CUDA runtime calls that host code needs (lib/solver/gpu/), behind plain
// C++: device and pinned memory, copies, streams, events, timing and the
// current device. No CUDA header here, so that host code compiles without nvcc; the
// definitions are in device_runtime.cu, and every failure throws pmc::Error
// naming the call (check.cuh).
//
// Copies and fills are enqueued on a stream. A copy from the host returns
// once the source may be reused, and a copy to the host once the value has
// arrived (both wait for the stream), so host code never reads half a copy.
#pragma once

#include <cstddef>
#include <memory>

struct CUstream_st;  // the runtime's stream: cudaStream_t is CUstream_st*
struct CUevent_st;   // the runtime's event: cudaEvent_t is CUevent_st*

namespace pmc::cuda {

// A stream to enqueue device work on. Null is the legacy default stream,
// which synchronises with every other stream of the device: solvers use
// their own Stream instead.
using StreamHandle = CUstream_st*;

void* device_allocate(size_t bytes);
void device_free(void* data) noexcept;  // null is fine
void* pinned_allocate(size_t bytes);    // page-locked host memory
void pinned_free(void* data) noexcept;

void copy_to_device(void* device, const void* host, size_t bytes, StreamHandle stream);
void copy_to_host(void* host, const void* device, size_t bytes, StreamHandle stream);
// Device to device: enqueued only, the host does not wait.
void copy_on_device(void* to, const void* from, size_t bytes, StreamHandle stream);
// Every byte of [device, device + bytes) set to `byte`; enqueued only.
void fill_bytes(void* device, unsigned char byte, size_t bytes, StreamHandle stream);
// Waits until everything enqueued on `stream` has run.
void synchronize(StreamHandle stream);

// Makes CUDA device `ordinal` (the runtime's number) current for this thread.
void make_device_current(int ordinal);
// The same where nothing may throw (a destructor that returns memory to its
// device): a failure is ignored.
void make_device_current_noexcept(int ordinal) noexcept;

// The owners below hand their stream or event back to the runtime through
// these; each must go while the device it was created on is current.
struct DestroyStream {
  void operator()(CUstream_st* stream) const noexcept;
};
struct DestroyEvent {
  void operator()(CUevent_st* event) const noexcept;
};
using OwnedEvent = std::unique_ptr<CUevent_st, DestroyEvent>;

// A non-blocking stream of the device current at its creation.
class Stream {
 public:
  Stream();
  StreamHandle get() const { return stream_.get(); }

 private:
  std::unique_ptr<CUstream_st, DestroyStream> stream_;
};

// An event without timing, of the device current at its creation: orders
// work across streams, and across devices.
class Event {
 public:
  Event();
  CUevent_st* get() const { return event_.get(); }
  void record(StreamHandle stream);
  // Work enqueued on `stream` from now on waits for the last record (a
  // never-recorded event is complete; events of another device work too).
  void make_wait(StreamHandle stream) const;
  void synchronize() const;

 private:
  OwnedEvent event_;
};

// Seconds of device time between start() and stop_seconds(), measured with
// events recorded on `stream`.
class StreamTimer {
 public:
  explicit StreamTimer(StreamHandle stream);
  void start();
  double stop_seconds();  // waits for the stop event

 private:
  StreamHandle stream_;
  OwnedEvent start_, stop_;
};

}  // namespace pmc::cuda
