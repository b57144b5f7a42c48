// The C ABI under concurrency, through include/pmc/pmc.h only:
// every thread-safety promise of the header, exercised by 12 threads at
// once. Models are shared by checks with different options and give the
// values of the single-threaded checks bit for bit; cancellation stops the
// checks of its options handle and no other; results travel between
// threads; pmc_last_error() stays per thread; models load and free in many
// threads at once; and a load/free loop of 10 000 models keeps the resident
// memory flat. tests/sanitizers/tsan.sh runs this file under
// ThreadSanitizer.
#include <gtest/gtest.h>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pmc/pmc.h"
#include "support/manifest.hpp"
#include "support/temp_dir.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMC_TEST_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define PMC_TEST_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(PMC_TEST_ASAN)
#define PMC_TEST_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(PMC_TEST_TSAN)
#define PMC_TEST_TSAN 1
#endif

namespace {

constexpr int k_threads = 12;

// Rounds of scenario 1: sanitizers slow each check 5-20x, and one round of
// 12 threads already overlaps every task with the others.
#if defined(PMC_TEST_ASAN) || defined(PMC_TEST_TSAN)
constexpr size_t k_check_rounds = 1;
#else
constexpr size_t k_check_rounds = 2;
#endif

const std::string k_examples = std::string(PMC_TEST_DATA_DIR) + "/../../examples";
const std::string k_die = k_examples + "/die/die.tra";
const std::string k_die_source = k_examples + "/die/die.pm";
const std::string k_consensus_source = k_examples + "/consensus/consensus.nm";

std::string last_error() { return pmc_last_error(); }

struct ModelDeleter {
  void operator()(pmc_model* m) const { pmc_model_free(m); }
};
struct OptionsDeleter {
  void operator()(pmc_options* o) const { pmc_options_free(o); }
};
struct ResultDeleter {
  void operator()(pmc_result* r) const { pmc_result_free(r); }
};
using ModelPtr = std::unique_ptr<pmc_model, ModelDeleter>;
using OptionsPtr = std::unique_ptr<pmc_options, OptionsDeleter>;
using ResultPtr = std::unique_ptr<pmc_result, ResultDeleter>;

ModelPtr load(const std::string& path) {
  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_load(path.c_str(), nullptr, &model), PMC_OK) << path << ": " << last_error();
  return ModelPtr(model);
}

// A reference model ($PMC_MODELS) by its folder and .tra name.
std::string reference_model(const std::string& folder, const std::string& tra) {
  return pmc::testing::models_root() + "/" + folder + "/" + tra;
}

// The options a check runs with; threads are never 0 (every core), so that
// the same settings give the same floating-point sums on any machine.
struct Settings {
  const char* solver = "auto";
  double epsilon = 1e-6;
  int sound = 1;
  int relative = 1;
  uint64_t threads = 1;
};

OptionsPtr make_options(const Settings& s) {
  pmc_options* options = nullptr;
  EXPECT_EQ(pmc_options_create(&options), PMC_OK);
  EXPECT_EQ(pmc_options_set_solver(options, s.solver), PMC_OK) << last_error();
  EXPECT_EQ(pmc_options_set_epsilon(options, s.epsilon), PMC_OK);
  EXPECT_EQ(pmc_options_set_sound(options, s.sound), PMC_OK);
  EXPECT_EQ(pmc_options_set_relative(options, s.relative), PMC_OK);
  EXPECT_EQ(pmc_options_set_threads(options, s.threads), PMC_OK);
  return OptionsPtr(options);
}

// Everything a result says, read through the getters.
struct Snapshot {
  std::vector<double> values, lower, upper;
  std::vector<int64_t> scheduler;
  double initial = 0;
  std::string solver;
  uint64_t iterations = 0;
  int sound = 0, converged = 0, is_boolean = 0;
};

Snapshot snapshot(const pmc_result* r) {
  Snapshot s;
  uint64_t count = 0;
  EXPECT_EQ(pmc_result_values(r, nullptr, 0, &count), PMC_OK);
  s.values.resize(count);
  EXPECT_EQ(pmc_result_values(r, s.values.data(), count, &count), PMC_OK);
  EXPECT_EQ(pmc_result_initial_value(r, &s.initial), PMC_OK);
  const char* solver = nullptr;
  EXPECT_EQ(pmc_result_solver(r, &solver), PMC_OK);
  s.solver = solver;
  EXPECT_EQ(pmc_result_iterations(r, &s.iterations), PMC_OK);
  EXPECT_EQ(pmc_result_sound(r, &s.sound), PMC_OK);
  EXPECT_EQ(pmc_result_converged(r, &s.converged), PMC_OK);
  EXPECT_EQ(pmc_result_is_boolean(r, &s.is_boolean), PMC_OK);
  if (s.sound) {
    s.lower.resize(count);
    s.upper.resize(count);
    EXPECT_EQ(pmc_result_bound_values(r, s.lower.data(), s.upper.data(), count, &count), PMC_OK);
  }
  if (pmc_result_scheduler(r, nullptr, 0, &count) == PMC_OK) {
    s.scheduler.resize(count);
    EXPECT_EQ(pmc_result_scheduler(r, s.scheduler.data(), count, &count), PMC_OK);
  }
  return s;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// Bit for bit: the same solver with the same settings runs the same
// floating-point operations in the same order, whichever thread runs it
// (with at most 2 OpenMP threads a sum reduction adds two partial sums,
// which commutes).
testing::AssertionResult identical(const Snapshot& got, const Snapshot& want) {
  if (!same_bits(got.values, want.values)) {
    for (size_t i = 0; i < std::min(got.values.size(), want.values.size()); ++i) {
      if (std::memcmp(&got.values[i], &want.values[i], sizeof(double)) != 0) {
        return testing::AssertionFailure() << "value of state " << i << " is " << got.values[i] << ", single-threaded "
                                           << want.values[i] << " (" << got.values.size() << " states)";
      }
    }
    return testing::AssertionFailure() << got.values.size() << " values, single-threaded " << want.values.size();
  }
  if (!same_bits(got.lower, want.lower) || !same_bits(got.upper, want.upper)) {
    return testing::AssertionFailure() << "bounds differ from the single-threaded ones";
  }
  if (got.scheduler != want.scheduler) return testing::AssertionFailure() << "scheduler differs";
  if (got.solver != want.solver || got.iterations != want.iterations || got.sound != want.sound ||
      got.converged != want.converged || got.is_boolean != want.is_boolean) {
    return testing::AssertionFailure() << got.solver << " after " << got.iterations << " iterations, single-threaded "
                                       << want.solver << " after " << want.iterations;
  }
  return testing::AssertionSuccess();
}

// One property with one set of options.
struct Task {
  const pmc_model* model;
  std::string property;
  Settings settings;
  std::string expected_solver;  // what pmc_result_solver must say ("": not checked)
  double manifest_value = std::nan("");  // manifest.tsv's reference value, where it has one
};

std::string describe(const Task& t) {
  return t.property + " with " + t.settings.solver + ", epsilon " + std::to_string(t.settings.epsilon) + ", " +
         std::to_string(t.settings.threads) + " thread(s)";
}

Snapshot check_or_fail(const Task& task, const pmc_options* options) {
  pmc_result* result = nullptr;
  const pmc_status status = pmc_check(task.model, task.property.c_str(), options, &result);
  EXPECT_EQ(status, PMC_OK) << describe(task) << ": " << last_error();
  ResultPtr owned(result);
  return owned ? snapshot(owned.get()) : Snapshot{};
}

// The reference models every concurrent scenario shares: a DTMC of 20 744
// states and an MDP of 28 598 (above k_parallel_rows, so two threads
// really split their sweeps), an MDP of 3 172 states and a CTMC of 496.
class SharedModels : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (pmc::testing::models_root().empty()) return;
    dtmc_ = load(reference_model("brp/N256_M5", "brp.tra")).release();
    mdp_ = load(reference_model("leader_async/N4", "leader_async.tra")).release();
    big_mdp_ = load(reference_model("wlan/M2_C2", "wlan.tra.gz")).release();
    ctmc_ = load(reference_model("tandem/C15", "tandem.tra")).release();
  }
  static void TearDownTestSuite() {
    for (pmc_model** m : {&dtmc_, &mdp_, &big_mdp_, &ctmc_}) {
      pmc_model_free(*m);
      *m = nullptr;
    }
  }
  void SetUp() override {
    if (pmc::testing::models_root().empty()) GTEST_SKIP() << pmc::testing::missing_models_message();
    ASSERT_TRUE(dtmc_ && mdp_ && big_mdp_ && ctmc_) << "a reference model did not load";
  }

  static std::vector<Task> tasks() {
    return {
        {dtmc_, "P=? [ F \"p4\" ]", {"cpu.gauss-seidel", 1e-6, 0, 1, 1}, "cpu.gauss-seidel", 6.400000000000001e-11},
        {dtmc_, "P=? [ F \"p4\" ]", {"cpu.jacobi", 1e-8, 0, 1, 2}, "cpu.jacobi"},
        {dtmc_, "P=? [ F \"p4\" ]", {"cpu", 1e-6, 1, 1, 2}, "cpu.topo-interval-vi"},
        {dtmc_, "P=? [ F \"p4\" ]", {"cpu.bicgstab", 1e-10, 0, 1, 2}, "cpu.bicgstab"},
        {dtmc_, "P=? [ F \"p4\" ]", {"cpu.power", 1e-6, 0, 1, 1}, "cpu.power"},
        {dtmc_, "P=? [ F<=50 \"p1\" ]", {"cpu.steps", 1e-6, 1, 1, 2}, "cpu.steps"},
        {big_mdp_, "Pmax=? [ F \"collided\" ]", {"cpu.vi", 1e-6, 0, 1, 2}, "cpu.vi", 0.18359375},
        {big_mdp_, "R{\"time\"}min=? [ F \"both_sent\" ]", {"cpu", 1e-6, 1, 1, 2}, "cpu.topo-interval-vi", 1325.0},
        {mdp_, "Pmax=? [ F<=20 \"elected\" ]", {"cpu.vi", 1e-6, 1, 1, 1}, "cpu.vi", 0.0},
        {mdp_, "Rmin=? [ F \"elected\" ]", {"cpu.topo-interval-vi", 1e-8, 1, 1, 2}, "cpu.topo-interval-vi", 4.285714285684315},
        {mdp_, "Rmax=? [ F \"elected\" ]", {"cpu.vi", 1e-6, 0, 1, 2}, "cpu.vi", 4.285714285702278},
        {mdp_, "Rmin=? [ F \"elected\" ]", {"cpu.interval-vi", 1e-7, 1, 0, 1}, "cpu.interval-vi"},
        {mdp_, "Pmin=? [ F \"elected\" ]", {"cpu.topo-vi", 1e-6, 0, 1, 1}, "none"},
        {ctmc_, "R{\"customers\"}=? [ S ]", {"auto", 1e-6, 1, 1, 1}, "", 15.79859292716984},
        {ctmc_, "P=? [ F<=10 \"full_all\" ]", {"auto", 1e-8, 1, 1, 2}, "cpu.steps", 2.7614473851830245e-6},
        {ctmc_, "P=? [ F<=10 \"full1\" ]", {"cpu.steps", 1e-6, 1, 0, 1}, "cpu.steps"},
    };
  }

  static pmc_model* dtmc_;
  static pmc_model* mdp_;
  static pmc_model* big_mdp_;
  static pmc_model* ctmc_;
};

pmc_model* SharedModels::dtmc_ = nullptr;
pmc_model* SharedModels::mdp_ = nullptr;
pmc_model* SharedModels::big_mdp_ = nullptr;
pmc_model* SharedModels::ctmc_ = nullptr;

// Scenario 1: 12 threads check every task, each from a different start,
// k_check_rounds times; half of them through the task's shared options
// handle (pmc_check only reads options), half through options of their own.
TEST_F(SharedModels, TwelveThreadsCheckingOneModelGetTheSingleThreadedValues) {
  const std::vector<Task> all = tasks();
  std::vector<OptionsPtr> shared_options;
  std::vector<Snapshot> reference;
  for (const Task& task : all) {
    shared_options.push_back(make_options(task.settings));
    reference.push_back(check_or_fail(task, shared_options.back().get()));
    if (!task.expected_solver.empty()) {
      EXPECT_EQ(reference.back().solver, task.expected_solver) << describe(task);
    }
  }
  // Every set of options computes the property: manifest.tsv's value, and
  // the others' for the same property, within 1e-5 (relative).
  for (size_t i = 0; i < all.size(); ++i) {
    if (!std::isnan(all[i].manifest_value)) {
      EXPECT_NEAR(reference[i].initial, all[i].manifest_value, 1e-5 * std::abs(all[i].manifest_value)) << describe(all[i]);
    }
    for (size_t j = i + 1; j < all.size(); ++j) {
      if (all[i].model != all[j].model || all[i].property != all[j].property) continue;
      EXPECT_NEAR(reference[i].initial, reference[j].initial, 1e-5 * std::abs(reference[i].initial))
          << describe(all[i]) << " against " << describe(all[j]);
    }
  }

  std::atomic<int> checks{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<OptionsPtr> own;
      if (t % 2 == 1) {
        for (const Task& task : all) own.push_back(make_options(task.settings));
      }
      for (size_t k = 0; k < k_check_rounds * all.size(); ++k) {
        const size_t i = (k + static_cast<size_t>(t)) % all.size();
        const pmc_options* options = t % 2 == 1 ? own[i].get() : shared_options[i].get();
        EXPECT_TRUE(identical(check_or_fail(all[i], options), reference[i])) << describe(all[i]) << ", thread " << t;
        ++checks;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(checks.load(), k_threads * static_cast<int>(k_check_rounds * all.size()));
}

// A random walk on 0..n-1 from the middle, absorbed at both ends; "goal" is
// the right end. The power method needs millions of sweeps to 1e-15, so a
// check of P=? [ F "goal" ] with it runs until cancelled.
ModelPtr build_random_walk(uint64_t n) {
  std::vector<uint64_t> offsets = {0}, columns;
  std::vector<double> values;
  for (uint64_t i = 0; i < n; ++i) {
    if (i == 0 || i + 1 == n) {
      columns.push_back(i);
      values.push_back(1.0);
    } else {
      columns.insert(columns.end(), {i - 1, i + 1});
      values.insert(values.end(), {0.5, 0.5});
    }
    offsets.push_back(columns.size());
  }
  pmc_model* model = nullptr;
  EXPECT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, n, n, nullptr, offsets.data(), columns.data(), values.data(), nullptr,
                                &model),
            PMC_OK)
      << last_error();
  const uint64_t init = n / 2, goal = n - 1;
  EXPECT_EQ(pmc_model_add_label(model, "init", &init, 1), PMC_OK);
  EXPECT_EQ(pmc_model_add_label(model, "goal", &goal, 1), PMC_OK);
  return ModelPtr(model);
}

const char* const k_endless = "P=? [ F \"goal\" ]";

OptionsPtr endless_options(uint64_t threads) {
  OptionsPtr options = make_options({"cpu.power", 1e-15, 0, 1, threads});
  EXPECT_EQ(pmc_options_set_max_iterations(options.get(), uint64_t{1} << 60), PMC_OK);
  return options;
}

// What the progress callbacks of one options handle saw, from every thread
// that checks with it.
struct ProgressLog {
  struct Report {
    std::thread::id thread;
    std::string solver;
    uint64_t iteration;
    double seconds;
  };
  std::mutex mutex;
  std::vector<Report> reports;
  // Set: the callback cancels these options once `cancel_after` reports
  // came (a callback may call pmc_options_request_cancel, and nothing else).
  pmc_options* cancel_target = nullptr;
  size_t cancel_after = 0;

  size_t threads_reported() {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<std::thread::id> seen;
    for (const Report& r : reports) {
      if (std::find(seen.begin(), seen.end(), r.thread) == seen.end()) seen.push_back(r.thread);
    }
    return seen.size();
  }
  std::vector<Report> of(std::thread::id thread) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<Report> mine;
    for (const Report& r : reports) {
      if (r.thread == thread) mine.push_back(r);
    }
    return mine;
  }
};

void record_progress(const char* solver, uint64_t iteration, double, double seconds, void* user_data) {
  auto* log = static_cast<ProgressLog*>(user_data);
  std::lock_guard<std::mutex> lock(log->mutex);
  log->reports.push_back({std::this_thread::get_id(), solver, iteration, seconds});
  if (log->cancel_target && log->reports.size() >= log->cancel_after) pmc_options_request_cancel(log->cancel_target);
}

// The header: callbacks run on the thread that called pmc_check, at most
// every 0.2 s of a solve and never before 0.2 s; iterations grow.
void expect_paced_reports_of(ProgressLog& log, std::thread::id thread, const std::string& solver) {
  const std::vector<ProgressLog::Report> mine = log.of(thread);
  ASSERT_FALSE(mine.empty()) << "no progress reported on the checking thread";
  double previous_seconds = 0;
  uint64_t previous_iteration = 0;
  for (const ProgressLog::Report& r : mine) {
    EXPECT_EQ(r.solver, solver);
    EXPECT_GE(r.seconds, previous_seconds + 0.2 - 1e-9) << "reports closer than 0.2 s";
    EXPECT_GT(r.iteration, previous_iteration);
    previous_seconds = r.seconds;
    previous_iteration = r.iteration;
  }
}

// Waits (at most 60 s) until `done()`; false on timeout.
template <typename Done>
bool wait_for(Done done) {
  for (int i = 0; i < 6000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

// A result pointer no call may write on failure.
pmc_result* untouched_marker() {
  static int marker;
  return reinterpret_cast<pmc_result*>(&marker);
}

// Scenario 2a: four threads run endless checks with options O (two OpenMP
// threads each), four more check a reference model with options O2. Once
// all four solves reported progress, the main thread cancels O: those four
// checks return PMC_ERROR_CANCELLED without a result, the O2 checks go on
// and keep the single-threaded values. The flag stays set until reset.
TEST_F(SharedModels, CancelStopsEveryCheckWithItsOptionsAndNoOther) {
  const ModelPtr walk = build_random_walk(10001);
  const OptionsPtr options = endless_options(2);
  ProgressLog log;
  ASSERT_EQ(pmc_options_set_progress(options.get(), record_progress, &log), PMC_OK);
  const Task other = {mdp_, "Rmin=? [ F \"elected\" ]", {"cpu.topo-interval-vi", 1e-8, 1, 1, 1}, ""};
  const OptionsPtr other_options = make_options(other.settings);
  const Snapshot other_reference = check_or_fail(other, other_options.get());

  constexpr int k_cancelled = 4;
  std::atomic<bool> cancel_requested{false};
  std::vector<std::thread> threads;
  std::vector<std::thread::id> checker_ids(k_cancelled);
  for (int t = 0; t < k_cancelled; ++t) {
    threads.emplace_back([&, t] {
      checker_ids[t] = std::this_thread::get_id();
      pmc_result* result = untouched_marker();
      EXPECT_EQ(pmc_check(walk.get(), k_endless, options.get(), &result), PMC_ERROR_CANCELLED);
      EXPECT_EQ(result, untouched_marker()) << "a cancelled check hands out no result";
      EXPECT_EQ(last_error(), "cancelled");
    });
  }
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      int after_cancel = 0;
      while (after_cancel < 2) {
        const bool cancelled_before = cancel_requested.load();
        EXPECT_TRUE(identical(check_or_fail(other, other_options.get()), other_reference));
        if (cancelled_before) ++after_cancel;
      }
    });
  }
  EXPECT_TRUE(wait_for([&] { return log.threads_reported() == k_cancelled; }))
      << "only " << log.threads_reported() << " of " << k_cancelled << " solves reported progress within 60 s";
  // request_cancel reports nothing through pmc_last_error, even for NULL.
  pmc_model* none = nullptr;
  ASSERT_EQ(pmc_model_load("/no/such/cancel.tra", nullptr, &none), PMC_ERROR_IO);
  const std::string before = last_error();
  EXPECT_EQ(pmc_options_request_cancel(options.get()), PMC_OK);
  EXPECT_EQ(pmc_options_request_cancel(nullptr), PMC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), before);
  cancel_requested = true;
  for (std::thread& thread : threads) thread.join();
  for (std::thread::id id : checker_ids) expect_paced_reports_of(log, id, "cpu.power");
  EXPECT_EQ(log.threads_reported(), static_cast<size_t>(k_cancelled)) << "a callback ran on a thread not checking";

  // Still set: a check started now with O is cancelled at once, on any
  // model (a short walk, which O solves in a few hundred sweeps).
  ASSERT_EQ(pmc_options_set_progress(options.get(), nullptr, nullptr), PMC_OK);
  const ModelPtr short_walk = build_random_walk(11);
  const Task short_task = {short_walk.get(), k_endless, {"cpu.power", 1e-15, 0, 1, 2}, "cpu.power"};
  pmc_result* result = untouched_marker();
  EXPECT_EQ(pmc_check(short_walk.get(), k_endless, options.get(), &result), PMC_ERROR_CANCELLED);
  EXPECT_EQ(result, untouched_marker());
  // Reset: O checks again, as if it had never been cancelled.
  EXPECT_EQ(pmc_options_reset_cancel(options.get()), PMC_OK);
  const OptionsPtr fresh = endless_options(2);
  const Snapshot after_reset = check_or_fail(short_task, options.get());
  EXPECT_TRUE(identical(after_reset, check_or_fail(short_task, fresh.get())));
  EXPECT_NEAR(after_reset.initial, 0.5, 1e-12);
}

// Scenario 2b: a cancel that races with the check, sent after delays from
// 0 to twice the check's own duration. Each check either is cancelled
// (no result) or finishes with the single-threaded value; cancellations
// happen (at least one, within the bounded number of rounds).
TEST_F(SharedModels, ACancelRacingTheCheckGivesCancelledOrTheExactValue) {
  const Task task = {dtmc_, "P=? [ F<=100 \"p1\" ]", {"cpu.steps", 1e-6, 1, 1, 2}, "cpu.steps"};
  const OptionsPtr options = make_options(task.settings);
  const auto start = std::chrono::steady_clock::now();
  const Snapshot reference = check_or_fail(task, options.get());
  const auto duration = std::chrono::steady_clock::now() - start;
  int cancelled = 0, finished = 0;
  constexpr int k_rounds = 16;
  for (int round = 0; round < k_rounds; ++round) {
    pmc_result* result = untouched_marker();
    pmc_status status = PMC_OK;
    std::thread checker([&] { status = pmc_check(task.model, task.property.c_str(), options.get(), &result); });
    std::this_thread::sleep_for(duration * round / (k_rounds / 2));
    EXPECT_EQ(pmc_options_request_cancel(options.get()), PMC_OK);
    checker.join();
    if (status == PMC_ERROR_CANCELLED) {
      EXPECT_EQ(result, untouched_marker());
      ++cancelled;
    } else {
      ASSERT_EQ(status, PMC_OK) << "round " << round;
      ResultPtr owned(result);
      EXPECT_TRUE(identical(snapshot(owned.get()), reference)) << "round " << round;
      ++finished;
    }
    EXPECT_EQ(pmc_options_reset_cancel(options.get()), PMC_OK);
  }
  EXPECT_GE(cancelled, 1) << finished << " of " << k_rounds << " checks finished before their cancel";
  std::printf("racing cancels: %d cancelled, %d finished (check takes %.3f s)\n", cancelled, finished,
              std::chrono::duration<double>(duration).count());
}

// Scenario 2c: cancellation from a progress callback running in another
// check's thread, and from a signal handler (both documented).
TEST_F(SharedModels, CancelFromAnotherChecksCallbackAndFromASignalHandler) {
  const ModelPtr walk = build_random_walk(2001);
  const OptionsPtr victim = endless_options(1);
  const OptionsPtr canceller = endless_options(1);
  ProgressLog victim_log, canceller_log;
  ASSERT_EQ(pmc_options_set_progress(victim.get(), record_progress, &victim_log), PMC_OK);
  ASSERT_EQ(pmc_options_set_progress(canceller.get(), record_progress, &canceller_log), PMC_OK);
  std::atomic<bool> victim_done{false};
  pmc_status victim_status = PMC_OK;
  std::thread victim_thread([&] {
    pmc_result* result = nullptr;
    victim_status = pmc_check(walk.get(), k_endless, victim.get(), &result);
    pmc_result_free(result);
    victim_done = true;
  });
  ASSERT_TRUE(wait_for([&] { return victim_log.threads_reported() == 1; }));
  {
    // The canceller's callback cancels the victim's options, then its own.
    std::lock_guard<std::mutex> lock(canceller_log.mutex);
    canceller_log.cancel_target = victim.get();
    canceller_log.cancel_after = 1;
  }
  pmc_status canceller_status = PMC_OK;
  std::thread canceller_thread([&] {
    pmc_result* result = nullptr;
    canceller_status = pmc_check(walk.get(), k_endless, canceller.get(), &result);
    pmc_result_free(result);
  });
  EXPECT_TRUE(wait_for([&] { return victim_done.load(); })) << "the callback's cancel did not stop the victim";
  EXPECT_EQ(pmc_options_request_cancel(victim.get()), PMC_OK);  // ends the test either way
  victim_thread.join();
  EXPECT_EQ(victim_status, PMC_ERROR_CANCELLED);
  EXPECT_EQ(pmc_options_request_cancel(canceller.get()), PMC_OK);
  canceller_thread.join();
  EXPECT_EQ(canceller_status, PMC_ERROR_CANCELLED);

  // A signal handler: SIGUSR1, sent to the checking thread.
  static std::atomic<pmc_options*> signal_target{nullptr};
  static_assert(std::atomic<pmc_options*>::is_always_lock_free, "a signal handler may read it");
  signal_target = victim.get();
  struct sigaction action = {}, previous = {};
  action.sa_handler = [](int) { pmc_options_request_cancel(signal_target.load()); };
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  EXPECT_EQ(pmc_options_reset_cancel(victim.get()), PMC_OK);
  ProgressLog signal_log;
  ASSERT_EQ(pmc_options_set_progress(victim.get(), record_progress, &signal_log), PMC_OK);
  victim_done = false;
  std::thread signalled([&] {
    pmc_result* result = nullptr;
    victim_status = pmc_check(walk.get(), k_endless, victim.get(), &result);
    pmc_result_free(result);
    victim_done = true;
  });
  EXPECT_TRUE(wait_for([&] { return signal_log.threads_reported() == 1; }));
  EXPECT_EQ(pthread_kill(signalled.native_handle(), SIGUSR1), 0);
  EXPECT_TRUE(wait_for([&] { return victim_done.load(); })) << "the signal handler's cancel did not stop the check";
  EXPECT_EQ(pmc_options_request_cancel(victim.get()), PMC_OK);
  signalled.join();
  EXPECT_EQ(victim_status, PMC_ERROR_CANCELLED);
  sigaction(SIGUSR1, &previous, nullptr);
  signal_target = nullptr;
}

// Scenario 3: four threads make results, eight others read and free them.
// Every fourth result is read by three readers at once (results are
// immutable) and freed by whichever finishes last.
TEST_F(SharedModels, ResultsMadeInOneThreadAreReadAndFreedInOthers) {
  const std::vector<Task> all = tasks();
  std::vector<OptionsPtr> options;
  std::vector<Snapshot> reference;
  for (const Task& task : all) {
    options.push_back(make_options(task.settings));
    reference.push_back(check_or_fail(task, options.back().get()));
  }
  struct Shared {
    pmc_result* result;
    size_t task;
    std::atomic<int> readers_left;
  };
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::shared_ptr<Shared>> queue;
  int producers_left = 4;  // guarded by `mutex`
  std::atomic<int> read{0}, freed{0};
  constexpr size_t k_per_producer = 12;
  std::vector<std::thread> threads;
  for (int p = 0; p < 4; ++p) {
    threads.emplace_back([&, p] {
      for (size_t k = 0; k < k_per_producer; ++k) {
        const size_t i = (k * 4 + static_cast<size_t>(p)) % all.size();
        pmc_result* result = nullptr;
        if (pmc_check(all[i].model, all[i].property.c_str(), options[i].get(), &result) != PMC_OK) {
          ADD_FAILURE() << describe(all[i]) << ": " << last_error();
          continue;
        }
        const int readers = k % 4 == 0 ? 3 : 1;
        auto item = std::make_shared<Shared>();
        item->result = result;
        item->task = i;
        item->readers_left = readers;
        {
          std::lock_guard<std::mutex> lock(mutex);
          for (int r = 0; r < readers; ++r) queue.push_back(item);
        }
        ready.notify_all();
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        --producers_left;
      }
      ready.notify_all();
    });
  }
  for (int c = 0; c < 8; ++c) {
    threads.emplace_back([&] {
      for (;;) {
        std::shared_ptr<Shared> item;
        {
          std::unique_lock<std::mutex> lock(mutex);
          ready.wait(lock, [&] { return !queue.empty() || producers_left == 0; });
          if (queue.empty()) return;
          item = queue.front();
          queue.pop_front();
        }
        const char* solver = nullptr;
        EXPECT_EQ(pmc_result_solver(item->result, &solver), PMC_OK);
        EXPECT_TRUE(identical(snapshot(item->result), reference[item->task])) << describe(all[item->task]);
        double seconds = -1, total = -1;
        EXPECT_EQ(pmc_result_seconds(item->result, &seconds), PMC_OK);
        EXPECT_EQ(pmc_result_phase_seconds(item->result, PMC_PHASE_TOTAL, &total), PMC_OK);
        EXPECT_GE(seconds, 0.0);
        EXPECT_EQ(std::string(solver ? solver : ""), reference[item->task].solver) << "the solver string stays valid until freed";
        ++read;
        if (--item->readers_left == 0) {
          pmc_result_free(item->result);
          ++freed;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(freed.load(), static_cast<int>(4 * k_per_producer));
  EXPECT_EQ(read.load(), static_cast<int>(4 * (k_per_producer / 4 * 3 + k_per_producer * 3 / 4)));
}

// Scenario 4: pmc_last_error() is per thread. Each round, every thread
// fails in its own way with text naming the thread and round, succeeds
// (which leaves the message alone), waits until every other thread has
// failed too, and still reads its own message through the same pointer.
TEST(CApiConcurrency, LastErrorIsPerThreadAndStaysUntilTheThreadsNextFailure) {
  const ModelPtr die = load(k_die);
  ASSERT_TRUE(die);
  pmc_result* check = nullptr;
  ASSERT_EQ(pmc_check(die.get(), "P=? [ F \"six\" ]", nullptr, &check), PMC_OK);
  double six = 0;
  EXPECT_EQ(pmc_result_initial_value(check, &six), PMC_OK);
  pmc_result_free(check);
  uint64_t device_count = 0;
  const pmc_status devices = pmc_device_count(&device_count);

  constexpr int k_rounds = 30;
  std::barrier all_failed(k_threads);
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      EXPECT_EQ(last_error(), "") << "a new thread starts without a message";
      OptionsPtr options = make_options({});
      for (int round = 0; round < k_rounds; ++round) {
        const std::string tag = "t" + std::to_string(t) + "r" + std::to_string(round);
        pmc_status status = PMC_OK;
        switch ((t + round) % 4) {
          case 0: {
            pmc_result* r = nullptr;
            status = pmc_check(die.get(), ("P=? [ F \"" + tag + "\" ]").c_str(), options.get(), &r);
            EXPECT_EQ(status, PMC_ERROR_PROPERTY);
            break;
          }
          case 1: {
            pmc_model* m = nullptr;
            status = pmc_model_load(("/no/such/" + tag + ".tra").c_str(), nullptr, &m);
            EXPECT_EQ(status, PMC_ERROR_IO);
            break;
          }
          case 2: {
            pmc_model* m = nullptr;
            status = pmc_model_build_prism(k_die_source.c_str(), (tag + "=1").c_str(), options.get(), &m);
            EXPECT_EQ(status, PMC_ERROR_INVALID_ARGUMENT);
            break;
          }
          case 3:
            status = pmc_options_set_solver(options.get(), ("cpu." + tag).c_str());
            EXPECT_EQ(status, PMC_ERROR_INVALID_ARGUMENT);
            break;
        }
        const char* message = pmc_last_error();
        const std::string mine = message;
        EXPECT_NE(mine.find(tag), std::string::npos) << "thread " << t << " round " << round << " read: " << mine;
        // Successful calls, and calls documented not to report, keep it.
        pmc_result* r = nullptr;
        EXPECT_EQ(pmc_check(die.get(), "P=? [ F \"six\" ]", options.get(), &r), PMC_OK);
        double value = 0;
        EXPECT_EQ(pmc_result_initial_value(r, &value), PMC_OK);
        EXPECT_EQ(value, six);
        pmc_result_free(r);
        EXPECT_EQ(pmc_options_request_cancel(nullptr), PMC_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(pmc_options_reset_cancel(nullptr), PMC_ERROR_INVALID_ARGUMENT);
        EXPECT_EQ(std::string(pmc_status_string(PMC_ERROR_IO)), "i/o error");
        EXPECT_EQ(std::string(pmc_version()).substr(0, 2), std::to_string(PMC_VERSION_MAJOR) + ".");
        uint64_t solvers = 0;
        const char* solver_name = nullptr;
        EXPECT_EQ(pmc_solver_count(&solvers), PMC_OK);
        EXPECT_EQ(pmc_solver_name(static_cast<uint64_t>(round) % solvers, &solver_name), PMC_OK);
        all_failed.arrive_and_wait();
        EXPECT_EQ(std::string(message), mine) << "the message changed under another thread's failure";
        EXPECT_EQ(last_error(), mine);
        // pmc_device_count fails the same way in every thread (no GPU, or
        // never), telling each thread why.
        uint64_t count = 99;
        EXPECT_EQ(pmc_device_count(&count), devices);
        EXPECT_EQ(count, device_count);
        all_failed.arrive_and_wait();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// Scenario 5: models loaded, built, queried, saved, changed (each thread
// its own handle) and freed in 12 threads at once, while the GPU copies of
// a shared model are released beside its checks.
TEST(CApiConcurrency, ModelsLoadAndFreeInManyThreadsAtOnce) {
  struct Shape {
    uint64_t states, transitions, labels;
    double value;  // P=? [ F "six" ] or the consensus property
  };
  const auto shape_of = [](const pmc_model* model, const char* property) {
    Shape s{};
    EXPECT_EQ(pmc_model_num_states(model, &s.states), PMC_OK);
    EXPECT_EQ(pmc_model_num_transitions(model, &s.transitions), PMC_OK);
    EXPECT_EQ(pmc_model_num_labels(model, &s.labels), PMC_OK);
    pmc_result* r = nullptr;
    EXPECT_EQ(pmc_check(model, property, nullptr, &r), PMC_OK) << property << ": " << last_error();
    EXPECT_EQ(pmc_result_initial_value(r, &s.value), PMC_OK);
    pmc_result_free(r);
    return s;
  };
  const auto same = [](const Shape& a, const Shape& b) {
    return a.states == b.states && a.transitions == b.transitions && a.labels == b.labels && a.value == b.value;
  };
  const char* const six = "P=? [ F \"six\" ]";
  const char* const agree = "Pmin=? [ F \"finished\" & \"all_coins_equal_1\" ]";
  OptionsPtr one_thread = make_options({});
  const ModelPtr die = load(k_die);
  ASSERT_TRUE(die);
  const Shape die_shape = shape_of(die.get(), six);
  pmc_model* built = nullptr;
  ASSERT_EQ(pmc_model_build_prism(k_consensus_source.c_str(), "K=2", one_thread.get(), &built), PMC_OK)
      << last_error();
  const ModelPtr consensus(built);
  const Shape consensus_shape = shape_of(consensus.get(), agree);
  EXPECT_EQ(consensus_shape.states, 272u);
  pmc::testing::TempDir dir;

  std::atomic<bool> checks_done{false};
  std::atomic<int> loaded{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 6; ++round) {
        pmc_model* model = nullptr;
        const char* property = six;
        const Shape* want = &die_shape;
        switch ((t + round) % 5) {
          case 0: ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK) << last_error(); break;
          case 1: {
            const std::string lab = k_examples + "/die/die.lab";
            const char* paths[] = {k_die.c_str(), lab.c_str()};
            ASSERT_EQ(pmc_model_load_files(paths, 2, "prism-dtmc", one_thread.get(), &model), PMC_OK) << last_error();
            break;
          }
          case 2:
            ASSERT_EQ(pmc_model_build_prism(k_die_source.c_str(), nullptr, one_thread.get(), &model), PMC_OK)
                << last_error();
            break;
          case 3:
            ASSERT_EQ(pmc_model_build_prism(k_consensus_source.c_str(), "K=2", one_thread.get(), &model), PMC_OK)
                << last_error();
            property = agree;
            want = &consensus_shape;
            break;
          case 4: {
            // The shared die saved by many threads at once, then read back.
            const std::string path = dir.path("die_" + std::to_string(t) + "_" + std::to_string(round) + ".pmcb");
            ASSERT_EQ(pmc_model_save(die.get(), path.c_str(), nullptr), PMC_OK) << last_error();
            ASSERT_EQ(pmc_model_load(path.c_str(), nullptr, &model), PMC_OK) << last_error();
            break;
          }
        }
        ModelPtr owned(model);
        Shape got = shape_of(owned.get(), property);
        EXPECT_TRUE(same(got, *want)) << "thread " << t << " round " << round << ": " << got.states << " states";
        // Exclusive access to its own handle: a label added here changes
        // nobody else's model.
        const uint64_t first = 0;
        EXPECT_EQ(pmc_model_add_label(owned.get(), ("mine_" + std::to_string(t)).c_str(), &first, 1), PMC_OK);
        uint64_t labels = 0;
        EXPECT_EQ(pmc_model_num_labels(owned.get(), &labels), PMC_OK);
        EXPECT_EQ(labels, want->labels + 1);
        // Queries of the shared models, read by every thread at once.
        const char* name = nullptr;
        EXPECT_EQ(pmc_model_label_name(die.get(), 0, &name), PMC_OK);
        uint64_t count = 0;
        EXPECT_EQ(pmc_model_label_states(consensus.get(), "finished", nullptr, 0, &count), PMC_OK);
        EXPECT_GT(count, 0u);
        ++loaded;
      }
    });
  }
  // Beside them, the shared die is checked while its device copies are
  // released (documented thread-safe; PMC_OK without CUDA or copies too).
  std::thread checker([&] {
    for (int i = 0; i < 40; ++i) EXPECT_TRUE(same(shape_of(die.get(), six), die_shape));
    checks_done = true;
  });
  while (!checks_done.load()) {
    EXPECT_EQ(pmc_model_release_device(die.get()), PMC_OK) << last_error();
    std::this_thread::yield();
  }
  checker.join();
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(loaded.load(), k_threads * 6);
  // The shared models are unchanged by everyone's labels.
  EXPECT_TRUE(same(shape_of(die.get(), six), die_shape));
  EXPECT_TRUE(same(shape_of(consensus.get(), agree), consensus_shape));
}

// Scenario 6: one parametric CTMC shared by 6 threads, each synthesising
// with options of its own and one shared request (pmc_synthesize: "the
// model and the request may be used by several threads at once; one
// options handle must not be shared") and
// checking the CTMC at a point of its own (pmc_options_set_parameter on its
// own options); every answer equals the single-threaded one.
TEST(CApiConcurrency, ParametricModelSharedBySynthesesAndPointChecks) {
  const std::string root = pmc::testing::models_root();
  if (root.empty()) GTEST_SKIP() << pmc::testing::missing_models_message();
  const ModelPtr model = load(root + "/pctmc/am_10_4.drn");
  ASSERT_TRUE(model);
  const char* const names[] = {"k1", "k2", "k3"};
  const double lower[] = {1, 1, 1}, upper[] = {3, 3, 1};
  const char* const property = "P=? [ F[10,10] \"correct\" ]";
  // One request shared by every thread: pmc_synthesize only reads it.
  pmc_synthesis_request* request = nullptr;
  ASSERT_EQ(pmc_synthesis_request_create(property, &request), PMC_OK) << last_error();
  const std::unique_ptr<pmc_synthesis_request, void (*)(pmc_synthesis_request*)> owned_request(
      request, pmc_synthesis_request_free);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(pmc_synthesis_request_set_parameter_range(request, names[i], lower[i], upper[i]), PMC_OK);
  }
  ASSERT_EQ(pmc_synthesis_request_set_mode(request, PMC_SYNTH_MAX), PMC_OK);
  ASSERT_EQ(pmc_synthesis_request_set_epsilon(request, 0.05), PMC_OK);
  struct Synthesis {
    uint64_t regions = 0;
    double optimum_lower = 0, optimum_upper = 0;
  };
  const auto synthesize = [&](const pmc_options* options) {
    Synthesis out;
    pmc_synth_result* r = nullptr;
    EXPECT_EQ(pmc_synthesize(model.get(), request, options, &r), PMC_OK) << last_error();
    EXPECT_EQ(pmc_synth_result_num_regions(r, &out.regions), PMC_OK);
    EXPECT_EQ(pmc_synth_result_optimum(r, &out.optimum_lower, &out.optimum_upper), PMC_OK);
    pmc_synth_result_free(r);
    return out;
  };
  const auto at_point = [&](pmc_options* options, double k1) {
    EXPECT_EQ(pmc_options_set_parameter(options, "k1", k1), PMC_OK);
    EXPECT_EQ(pmc_options_set_parameter(options, "k2", 2.0), PMC_OK);
    EXPECT_EQ(pmc_options_set_parameter(options, "k3", 1.0), PMC_OK);
    pmc_result* r = nullptr;
    EXPECT_EQ(pmc_check(model.get(), property, options, &r), PMC_OK) << last_error();
    ResultPtr owned(r);
    return owned ? snapshot(owned.get()) : Snapshot{};
  };
  const Settings settings{"cpu", 1e-6, 1, 1, 1};
  const OptionsPtr options = make_options(settings);
  const Synthesis synthesis = synthesize(options.get());
  EXPECT_LE(synthesis.optimum_upper - synthesis.optimum_lower, 0.05 + 1e-12);
  std::vector<Snapshot> points;
  for (int t = 0; t < 6; ++t) points.push_back(at_point(make_options(settings).get(), 1.0 + 0.4 * t));

  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      const OptionsPtr own = make_options(settings);
      const Synthesis got = synthesize(own.get());
      EXPECT_EQ(got.regions, synthesis.regions);
      EXPECT_EQ(got.optimum_lower, synthesis.optimum_lower);
      EXPECT_EQ(got.optimum_upper, synthesis.optimum_upper);
      EXPECT_TRUE(identical(at_point(own.get(), 1.0 + 0.4 * t), points[t])) << "k1 = " << 1.0 + 0.4 * t;
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// Resident memory of this process, in bytes (/proc/self/statm, field 2).
uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// A thread-safe generator explored on 8 threads, by two explorations at
// once: the callback runs concurrently (its counter is the only state it
// shares), pmc's state set, work pool and action table are shared by the
// threads, and both models are the same as a one-threaded exploration's.
struct CountingWalk {
  std::atomic<uint64_t> calls{0};
};

int expand_counting_walk(const void* state, uint64_t, pmc_expansion* e, void* user_data) {
  static_cast<CountingWalk*>(user_data)->calls.fetch_add(1, std::memory_order_relaxed);
  uint8_t xy[2];
  std::memcpy(xy, state, 2);
  constexpr int k_side = 120;
  const uint8_t right[2] = {static_cast<uint8_t>((xy[0] + 1) % k_side), xy[1]};
  const uint8_t up[2] = {xy[0], static_cast<uint8_t>((xy[1] + 1) % k_side)};
  pmc_expansion_add_choice(e, (xy[0] + xy[1]) % 2 == 0 ? "even" : "odd");
  pmc_expansion_add_transition(e, 0.75, right, 2);
  pmc_expansion_add_transition(e, 0.25, up, 2);
  pmc_expansion_add_choice(e, "stay");
  pmc_expansion_add_transition(e, 1.0, state, 2);
  if (xy[0] == 0) pmc_expansion_set_label(e, 0);
  return 0;
}

TEST(CApiConcurrency, AThreadSafeGeneratorExploredOnEightThreadsTwiceAtOnce) {
  CountingWalk walk;
  pmc_generator* generator = nullptr;
  ASSERT_EQ(pmc_generator_create(PMC_MODEL_MDP, 2, expand_counting_walk, &walk, &generator), PMC_OK);
  pmc_generator_set_fixed_size(generator, 1);
  pmc_generator_set_thread_safe(generator, 1);
  const uint8_t origin[2] = {0, 0};
  pmc_generator_add_initial_state(generator, origin, 2);
  ASSERT_EQ(pmc_generator_add_label(generator, "left", nullptr), PMC_OK);
  pmc_options* options = nullptr;
  pmc_options_create(&options);
  pmc_options_set_threads(options, 8);
  pmc_options* one_thread = nullptr;
  pmc_options_create(&one_thread);
  pmc_options_set_threads(one_thread, 1);

  pmc_model* reference = nullptr;
  ASSERT_EQ(pmc_model_explore(generator, one_thread, &reference), PMC_OK) << last_error();
  pmc::testing::TempDir dir;
  ASSERT_EQ(pmc_model_save(reference, dir.path("one.tra").c_str(), nullptr), PMC_OK);
  pmc_model* models[2] = {nullptr, nullptr};
  pmc_status statuses[2] = {PMC_ERROR_INTERNAL, PMC_ERROR_INTERNAL};
  {
    std::thread first([&] { statuses[0] = pmc_model_explore(generator, options, &models[0]); });
    statuses[1] = pmc_model_explore(generator, options, &models[1]);
    first.join();
  }
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(statuses[i], PMC_OK) << i;
    const std::string path = dir.path("eight" + std::to_string(i) + ".tra");
    ASSERT_EQ(pmc_model_save(models[i], path.c_str(), nullptr), PMC_OK);
    std::ifstream a(dir.path("one.tra")), b(path);
    std::string text_a((std::istreambuf_iterator<char>(a)), {}), text_b((std::istreambuf_iterator<char>(b)), {});
    EXPECT_EQ(text_a, text_b) << "exploration " << i << " on 8 threads differs from one thread's";
    pmc_model_free(models[i]);
  }
  EXPECT_EQ(walk.calls.load(), 3u * 120 * 120);  // each exploration expands each state once
  pmc_model_free(reference);
  pmc_options_free(options);
  pmc_options_free(one_thread);
  pmc_generator_free(generator);
}

// 10 000 rounds of loading, building and checking small models, each freed
// again: the resident memory after the first 1 000 rounds (allocator pools
// warm) must not grow by more than 4 MB (a leak of 400 bytes a round).
// Under ASan freed memory sits in a quarantine and RSS says nothing, so the
// sanitized build runs 500 rounds and leaves leaks to LeakSanitizer at
// exit; under TSan (shadow memory; each load zero-fills megabytes of read
// buffers, ~20 ms there) it runs 30 rounds, for races only.
TEST(CApiMemory, TenThousandLoadFreeRoundsKeepResidentMemoryFlat) {
#if defined(PMC_TEST_ASAN)
  constexpr int k_rounds = 500, k_warm_up = 100;
  constexpr bool k_measure = false;
#elif defined(PMC_TEST_TSAN)
  constexpr int k_rounds = 30, k_warm_up = 10;
  constexpr bool k_measure = false;
#else
  constexpr int k_rounds = 10000, k_warm_up = 1000;
  constexpr bool k_measure = true;
#endif
  const uint64_t offsets[] = {0, 2, 3, 4};
  const uint64_t columns[] = {1, 2, 1, 2};
  const double values[] = {0.5, 0.5, 1.0, 1.0};
  uint64_t warm = 0;
  for (int round = 0; round < k_rounds; ++round) {
    if (round == k_warm_up) warm = resident_bytes();
    pmc_model* model = nullptr;
    ASSERT_EQ(pmc_model_load(k_die.c_str(), nullptr, &model), PMC_OK) << last_error();
    pmc_result* result = nullptr;
    ASSERT_EQ(pmc_check(model, "P=? [ F \"six\" ]", nullptr, &result), PMC_OK) << last_error();
    double value = 0;
    ASSERT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
    ASSERT_NEAR(value, 1.0 / 6, 1e-6);
    pmc_result_free(result);
    pmc_model_free(model);

    pmc_model* small = nullptr;
    ASSERT_EQ(pmc_model_build_csr(PMC_MODEL_DTMC, 3, 3, nullptr, offsets, columns, values, nullptr, &small), PMC_OK);
    const uint64_t init = 0, goal = 2;
    ASSERT_EQ(pmc_model_add_label(small, "init", &init, 1), PMC_OK);
    ASSERT_EQ(pmc_model_add_label(small, "goal", &goal, 1), PMC_OK);
    result = nullptr;
    ASSERT_EQ(pmc_check(small, "P=? [ F \"goal\" ]", nullptr, &result), PMC_OK) << last_error();
    ASSERT_EQ(pmc_result_initial_value(result, &value), PMC_OK);
    ASSERT_EQ(value, 0.5);
    pmc_result_free(result);
    pmc_model_free(small);
  }
  const uint64_t end = resident_bytes();
  const double growth_mb = (static_cast<double>(end) - static_cast<double>(warm)) / 1e6;
  std::printf("resident memory after %d rounds: %.1f MB, after %d: %.1f MB (growth %.2f MB)\n", k_warm_up, warm / 1e6,
              k_rounds, end / 1e6, growth_mb);
  RecordProperty("resident_growth_kb", static_cast<int>(growth_mb * 1000));
  if (k_measure) {
    EXPECT_LT(growth_mb, 4.0) << "resident memory grew by " << growth_mb << " MB over " << k_rounds - k_warm_up
                              << " load/check/free rounds";
  } else {
    std::printf("sanitized build: growth not asserted (%s)\n",
                "ASan quarantine or TSan shadow memory; LeakSanitizer checks leaks at exit");
  }
}

}  // namespace
