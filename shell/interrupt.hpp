// Ctrl-C and SIGTERM. The handlers only store to lock-free atomics, post a
// semaphore or call _exit, all async-signal-safe.
#pragma once

#include <atomic>

namespace pmc::shell {

// The shell: SIGINT cancels the running solve (through the cancel flag
// every solver polls) or abandons the line being edited; it never ends the
// shell. Installs the handler (without SA_RESTART, so a blocking read at
// the prompt returns EINTR) for the life of the object; restores the
// previous one after.
class InterruptHandler {
 public:
  explicit InterruptHandler(std::atomic<bool>* cancel);
  ~InterruptHandler();
  InterruptHandler(const InterruptHandler&) = delete;
  InterruptHandler& operator=(const InterruptHandler&) = delete;
};

// True once since the last call: a SIGINT arrived. Clears it.
bool take_interrupt();

// A one-shot command (`pmc check`, `info`, `convert`, `synth`): SIGINT and
// SIGTERM set command_cancel_flag(), which the solvers and the exploration
// poll; the command then writes what it computed, says it was cancelled and
// ends with status 128 + the signal (130 for SIGINT). A second signal, or a
// command still running k_command_grace_seconds after the first (a phase
// that does not poll), ends the process at once with that status: results
// are flushed as they are printed, so none is lost.
class CommandInterrupt {
 public:
  CommandInterrupt();
  ~CommandInterrupt();
  CommandInterrupt(const CommandInterrupt&) = delete;
  CommandInterrupt& operator=(const CommandInterrupt&) = delete;
};

inline constexpr double k_command_grace_seconds = 2.0;

// The flag a one-shot command hands to its loads and checks.
std::atomic<bool>& command_cancel_flag();
// 128 + the signal that cancelled the command, 0 if none did.
int command_signal_status();

}  // namespace pmc::shell
