#include "interrupt.hpp"

#include <semaphore.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <ctime>
#include <mutex>
#include <thread>

namespace pmc::shell {

namespace {

static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free &&
                  std::atomic<std::atomic<bool>*>::is_always_lock_free,
              "the signal handlers need lock-free atomics");

// The shell's handler.
std::atomic<std::atomic<bool>*> g_cancel{nullptr};
std::atomic<bool> g_interrupted{false};
struct sigaction g_previous {};

extern "C" void on_sigint(int) {
  g_interrupted.store(true);
  if (std::atomic<bool>* cancel = g_cancel.load()) cancel->store(true);
}

// The one-shot command's handler and its watchdog.
std::atomic<bool> g_command_cancel{false};
std::atomic<int> g_command_signal{0};
std::atomic<bool> g_command_done{false};
sem_t g_watchdog_wake;
struct sigaction g_previous_int {}, g_previous_term {};

void write_cancelled() {
  static const char message[] = "pmc: cancelled\n";
  const ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
}

extern "C" void on_command_signal(int signal) {
  int expected = 0;
  if (!g_command_signal.compare_exchange_strong(expected, signal)) {
    write_cancelled();  // the second signal: the user insists
    _exit(128 + expected);
  }
  g_command_cancel.store(true);
  sem_post(&g_watchdog_wake);
}

// The grace period after a first signal: the command ends by itself (the
// destructor posts), or the process ends here.
void wait_out_the_grace_period() {
  timespec deadline{};
  clock_gettime(CLOCK_REALTIME, &deadline);
  const auto grace_ns = static_cast<long long>(k_command_grace_seconds * 1e9);
  deadline.tv_sec += static_cast<time_t>(grace_ns / 1000000000);
  deadline.tv_nsec += static_cast<long>(grace_ns % 1000000000);
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  while (sem_timedwait(&g_watchdog_wake, &deadline) != 0) {
    if (errno == ETIMEDOUT) {
      if (g_command_done.load()) return;
      write_cancelled();
      _exit(128 + g_command_signal.load());
    }
  }
}

// Waits for a signal, then gives the command its grace period to end by
// itself. Detached and never ending (a process may end at any moment: no
// thread may need joining at exit); a post without a signal under way (the
// destructor's) is passed over.
[[noreturn]] void watchdog() {
  while (true) {
    while (sem_wait(&g_watchdog_wake) != 0 && errno == EINTR) {
    }
    if (!g_command_done.load()) wait_out_the_grace_period();
  }
}

std::once_flag g_watchdog_started;

}  // namespace

InterruptHandler::InterruptHandler(std::atomic<bool>* cancel) {
  g_cancel.store(cancel);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: interrupt the prompt's read
  sigaction(SIGINT, &action, &g_previous);
}

InterruptHandler::~InterruptHandler() {
  sigaction(SIGINT, &g_previous, nullptr);
  g_cancel.store(nullptr);
}

bool take_interrupt() { return g_interrupted.exchange(false); }

CommandInterrupt::CommandInterrupt() {
  g_command_cancel.store(false);
  g_command_signal.store(0);
  g_command_done.store(false);
  std::call_once(g_watchdog_started, [] {
    sem_init(&g_watchdog_wake, 0, 0);
    std::thread(watchdog).detach();
  });
  struct sigaction action {};
  action.sa_handler = on_command_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

CommandInterrupt::~CommandInterrupt() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  g_command_done.store(true);
  sem_post(&g_watchdog_wake);  // ends a grace period under way
}

std::atomic<bool>& command_cancel_flag() { return g_command_cancel; }

int command_signal_status() {
  const int signal = g_command_signal.load();
  return signal == 0 ? 0 : 128 + signal;
}

}  // namespace pmc::shell
