#include "interrupt.hpp"

#include <csignal>

namespace pmc::shell {

namespace {

std::atomic<std::atomic<bool>*> g_cancel{nullptr};
std::atomic<bool> g_interrupted{false};
struct sigaction g_previous {};

static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<std::atomic<bool>*>::is_always_lock_free,
              "the SIGINT handler needs lock-free atomics");

extern "C" void on_sigint(int) {
  g_interrupted.store(true);
  if (std::atomic<bool>* cancel = g_cancel.load()) cancel->store(true);
}

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

}  // namespace pmc::shell
