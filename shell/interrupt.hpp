// Ctrl-C in the shell: SIGINT cancels the running solve (through the cancel
// flag every solver polls) or abandons the line being edited; it never ends
// the shell. The handler only stores to lock-free atomics, which is
// async-signal-safe.
#pragma once

#include <atomic>

namespace pmc::shell {

// Installs the handler (without SA_RESTART, so a blocking read at the prompt
// returns EINTR) for the life of the object; restores the previous one after.
class InterruptHandler {
 public:
  explicit InterruptHandler(std::atomic<bool>* cancel);
  ~InterruptHandler();
  InterruptHandler(const InterruptHandler&) = delete;
  InterruptHandler& operator=(const InterruptHandler&) = delete;
};

// True once since the last call: a SIGINT arrived. Clears it.
bool take_interrupt();

}  // namespace pmc::shell
