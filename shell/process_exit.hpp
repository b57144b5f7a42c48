// How the `pmc` process ends. exit() runs the handlers registered with
// atexit in reverse order, and the static CUDA runtime registers its
// teardown during the first CUDA call: a background discovery still
// creating its context when that teardown runs blocks on a driver mutex for
// ever, or faults (cuda/devices.hpp, bench/NOTES.md). So once CUDA was
// touched the process flushes its output and ends with _exit: no exit
// handler, no static destructor runs, and the driver releases the context
// as the process's files close. Without CUDA it ends with exit(), so that
// the sanitizers' and coverage's exit handlers still run.
#pragma once

namespace pmc::shell {

[[noreturn]] void end_process(int status);

}  // namespace pmc::shell
