//! The safe API on small models built from arrays, whose answers are known
//! by hand: building, labels and rewards, schedulers, errors, options,
//! cancellation, progress and threads.
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pmc::{Csr, ErrorKind, Model, ModelKind, Options, ParametricCsr, Rewards};

/// State 0 moves to the absorbing state 1 ("done") with probability 0.25 a step.
fn two_state_dtmc() -> Model {
    let csr = Csr::new(&[0, 2, 3], &[0, 1, 1], &[0.75, 0.25, 1.0]);
    let mut model = Model::from_csr(ModelKind::Dtmc, &csr, None).unwrap();
    model.add_label("init", &[0]).unwrap();
    model.add_label("done", &[1]).unwrap();
    model
}

/// A random walk on 0..n-1 from the middle, absorbed at both ends ("goal" =
/// the right end). Unbounded reachability converges very slowly with
/// cpu.power at ε = 1e-15, so a check runs until cancelled.
fn random_walk(n: u64) -> Model {
    let (mut offsets, mut columns, mut values) = (vec![0u64], Vec::new(), Vec::new());
    for i in 0..n {
        if i == 0 || i + 1 == n {
            columns.push(i);
            values.push(1.0);
        } else {
            columns.extend([i - 1, i + 1]);
            values.extend([0.5, 0.5]);
        }
        offsets.push(columns.len() as u64);
    }
    let mut model = Model::from_csr(ModelKind::Dtmc, &Csr::new(&offsets, &columns, &values), None).unwrap();
    model.add_label("init", &[n / 2]).unwrap();
    model.add_label("goal", &[n - 1]).unwrap();
    model
}

fn endless_options() -> Options {
    let mut options = Options::new().unwrap();
    options.set_solver("cpu.power").unwrap().set_epsilon(1e-15).unwrap().set_max_iterations(1 << 60).unwrap();
    options
}

#[test]
fn dtmc_from_arrays() {
    let mut model = two_state_dtmc();
    assert_eq!(model.kind(), ModelKind::Dtmc);
    assert_eq!((model.num_states(), model.num_choices(), model.num_transitions()), (2, 2, 3));
    assert_eq!(model.labels(), ["init", "done"]);
    assert_eq!(model.label_states("done").unwrap(), [1]);

    let result = model.check("P=? [ F<=2 \"done\" ]", None).unwrap();
    assert!((result.initial_value() - (1.0 - 0.75 * 0.75)).abs() < 1e-12);
    assert_eq!(result.values().len(), 2);
    assert!(result.seconds() >= 0.0);
    assert!(!result.solver().is_empty());

    // One reward per step in state 0: the expected steps to "done", 1/0.25.
    model.add_rewards("steps", &Rewards { state: Some(&[1.0, 0.0]), ..Rewards::default() }).unwrap();
    assert_eq!(model.reward_names(), ["steps"]);
    let mut options = Options::new().unwrap();
    options.set_epsilon(1e-12).unwrap();
    let steps = model.check("R{\"steps\"}=? [ F \"done\" ]", &options).unwrap();
    assert!((steps.initial_value() - 4.0).abs() < 1e-9, "{}", steps.initial_value());
    assert!(steps.iterations() > 0);
    assert!(steps.converged());
}

#[test]
fn constants_of_properties() {
    // P(F<=k "done") = 1 - 0.75^k in the two-state chain.
    let model = two_state_dtmc();
    let mut options = Options::new().unwrap();
    let error = model.check("P=? [ F<=K \"done\" ]", &options).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Property);
    assert!(error.message().contains("reads 'K', which is no constant"), "{error}");
    options.set_constants("K=2").unwrap();
    let value = model.check("P=? [ F<=K \"done\" ]", &options).unwrap().initial_value();
    assert!((value - (1.0 - 0.75 * 0.75)).abs() < 1e-12, "{value}");
    assert_eq!(options.set_constants("K").unwrap_err().kind(), ErrorKind::InvalidArgument);
}

#[test]
fn ctmc_from_arrays() {
    // Rate 2 from state 0 to 1: P(reach 1 by time 1) = 1 - e^-2.
    let mut model = Model::from_csr(ModelKind::Ctmc, &Csr::new(&[0, 1, 1], &[1], &[2.0]), None).unwrap();
    model.add_label("init", &[0]).unwrap();
    model.add_label("done", &[1]).unwrap();
    assert_eq!(model.kind(), ModelKind::Ctmc);
    let value = model.check("P=? [ F<=1 \"done\" ]", None).unwrap().initial_value();
    assert!((value - (1.0 - (-2.0f64).exp())).abs() < 1e-5, "{value}");
}

#[test]
fn mdp_from_arrays_and_its_scheduler() {
    // State 0: choice 0 reaches "goal" (1) with 0.5, choice 1 with 0.9;
    // otherwise "sink" (2). Both 1 and 2 are absorbing.
    let csr =
        Csr::new(&[0, 2, 4, 5, 6], &[1, 2, 1, 2, 1, 2], &[0.5, 0.5, 0.9, 0.1, 1.0, 1.0]).with_row_groups(&[0, 2, 3, 4]);
    let mut model = Model::from_csr(ModelKind::Mdp, &csr, None).unwrap();
    model.add_label("init", &[0]).unwrap();
    model.add_label("goal", &[1]).unwrap();
    assert_eq!((model.num_states(), model.num_choices()), (3, 4));

    let max = model.check("Pmax=? [ F \"goal\" ]", None).unwrap();
    assert!((max.initial_value() - 0.9).abs() < 1e-12);
    assert_eq!(max.scheduler().unwrap()[0], Some(1));
    assert_eq!(max.values().len(), 3);
    let min = model.check("Pmin=? [ F \"goal\" ]", None).unwrap();
    assert!((min.initial_value() - 0.5).abs() < 1e-12);
    let scheduler = min.scheduler().unwrap();
    assert_eq!(scheduler.len(), 3);
    assert_eq!(scheduler[0], Some(0));
    // States 1 and 2 have one choice: 0, or None (any choice is optimal).
    assert!(scheduler[1..].iter().all(|c| matches!(c, None | Some(0))));

    // Sound bounds from interval iteration (the default); unsound solvers give none.
    assert!(max.is_sound());
    let (lower, upper) = max.bounds().unwrap();
    assert!(lower <= 0.9 + 1e-9 && 0.9 - 1e-9 <= upper, "[{lower}, {upper}]");
    let mut options = Options::new().unwrap();
    options.set_solver("cpu.vi").unwrap();
    let unsound = model.check("Pmax=? [ F \"goal\" ]", &options).unwrap();
    assert!(!unsound.is_sound());
    assert_eq!(unsound.bounds().unwrap_err().kind(), ErrorKind::Unsupported);
}

/// Knuth's die (examples/die): P=? [ F "six" ] is 1/6 in the initial state.
fn die() -> Model {
    Model::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../examples/die/die.tra")).unwrap()
}

#[test]
fn default_checks_are_sound_and_carry_bounds() {
    let model = die();
    let result = model.check("P=? [ F \"six\" ]", None).unwrap();
    assert!(result.is_sound(), "{}", result.solver());
    let (lower, upper) = result.bounds().unwrap();
    let value = result.initial_value();
    assert!(lower <= 1.0 / 6.0 && 1.0 / 6.0 <= upper, "1/6 in [{lower}, {upper}]");
    assert!(lower <= value && value <= upper, "{value} in [{lower}, {upper}]");
    assert!(upper - lower <= 2e-6 * value, "[{lower}, {upper}] within the default epsilon");

    let (lower_all, upper_all) = result.bound_values().unwrap();
    let values = result.values();
    assert_eq!((lower_all.len(), upper_all.len()), (values.len(), values.len()));
    assert_eq!(values.len() as u64, model.num_states());
    for (state, value) in values.iter().enumerate() {
        assert!(lower_all[state] <= *value && *value <= upper_all[state], "state {state}");
    }
    let init = model.label_states("init").unwrap()[0] as usize;
    assert_eq!((lower_all[init], upper_all[init]), (lower, upper));
}

#[test]
fn timings_by_phase_add_up() {
    let model = die();
    let result = model.check("R{\"coin_flips\"}=? [ F \"done\" ]", None).unwrap();
    let t = result.timings();
    let phases = [t.load, t.gpu_startup, t.precompute, t.build, t.transfer, t.solve, t.other];
    assert!(phases.iter().all(|&s| s >= 0.0), "{t:?}");
    assert_eq!(t.load, 0.0, "Model::check does not load the model");
    assert_eq!(phases.iter().sum::<f64>(), t.total, "{t:?}");
    assert!((t.total - result.seconds()).abs() <= 1e-9 + 1e-9 * t.total, "{t:?} vs {}", result.seconds());
}

#[test]
fn release_device_is_fine_without_copies_and_beside_checks() {
    let model = die();
    model.release_device().unwrap();
    std::thread::scope(|scope| {
        let checker = scope.spawn(|| {
            for _ in 0..10 {
                let value = model.check("P=? [ F \"six\" ]", None).unwrap().initial_value();
                assert!((value - 1.0 / 6.0).abs() < 1e-5, "{value}");
            }
        });
        for _ in 0..20 {
            model.release_device().unwrap();
        }
        checker.join().unwrap();
    });
    model.release_device().unwrap();
}

#[test]
fn unsound_solvers_give_no_bounds() {
    let model = die();
    // Unsound options: "auto" may pick a faster, unsound solver (on the CPU
    // cpu.gauss-seidel); naming an unsound solver is unsound either way.
    let mut unsound = Options::new().unwrap();
    unsound.set_sound(false).unwrap();
    let mut named = Options::new().unwrap();
    named.set_solver("cpu.gauss-seidel").unwrap();
    for (what, options) in [("set_sound(false)", &unsound), ("cpu.gauss-seidel", &named)] {
        let result = model.check("P=? [ F \"six\" ]", options).unwrap();
        assert!((result.initial_value() - 1.0 / 6.0).abs() < 1e-5, "{what}: {}", result.initial_value());
        assert!(!result.is_sound(), "{what}: {}", result.solver());
        assert_eq!(result.bounds().unwrap_err().kind(), ErrorKind::Unsupported, "{what}");
        assert_eq!(result.bound_values().unwrap_err().kind(), ErrorKind::Unsupported, "{what}");
    }
    // Sound options with a sound solver named: sound again.
    unsound.set_sound(true).unwrap().set_solver("cpu.interval-vi").unwrap();
    assert!(model.check("P=? [ F \"six\" ]", &unsound).unwrap().is_sound());
}

#[test]
fn parametric_ctmc_from_arrays() {
    // 0 -> 1 at rate 1 + 2k, 1 -> 0 at rate r.
    let csr = ParametricCsr {
        row_offsets: &[0, 1, 2],
        columns: &[1, 0],
        constants: &[1.0, 0.0],
        parameter_names: &["k", "r"],
        coefficients: &[2.0, 0.0, 0.0, 1.0],
        lower: Some(&[0.0, 0.5]),
        upper: Some(&[1.0, 2.0]),
    };
    let model = Model::from_parametric_csr(&csr, None).unwrap();
    assert_eq!(model.kind(), ModelKind::Pctmc);
    assert_eq!(model.parameter_names(), ["k", "r"]);
    assert_eq!(model.num_transitions(), 2);

    let short = ParametricCsr { coefficients: &[2.0, 0.0, 0.0], ..csr };
    let error = Model::from_parametric_csr(&short, None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.message().contains("coefficients"), "{error}");
}

#[test]
fn bad_arrays_are_errors() {
    // Caught by the bindings before pmc would read past a slice.
    let error = Model::from_csr(ModelKind::Dtmc, &Csr::new(&[0, 2, 3], &[0, 1], &[0.75, 0.25, 1.0]), None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.message().contains("columns"), "{error}");
    let error = Model::from_csr(ModelKind::Mdp, &Csr::new(&[0, 1], &[0], &[1.0]), None).unwrap_err();
    assert!(error.message().contains("row_groups"), "{error}");
    let mut model = two_state_dtmc();
    let error = model.add_rewards("r", &Rewards { state: Some(&[1.0]), ..Rewards::default() }).unwrap_err();
    assert!(error.message().contains("state rewards has 1 entries, expected 2"), "{error}");
    assert!(Model::from_csr(ModelKind::Dtmc, &Csr::new(&[], &[], &[]), None).is_err());

    // Caught by pmc, with its message.
    let error = Model::from_csr(ModelKind::Dtmc, &Csr::new(&[0, 1, 2], &[0, 5], &[1.0, 1.0]), None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Model);
    assert!(error.message().contains("columns[1] = 5"), "names the bad column: {error}");
    let error =
        Model::from_csr(ModelKind::Dtmc, &Csr::new(&[0, 2, 3], &[0, 1, 1], &[0.5, 0.25, 1.0]), None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Model, "rows must sum to 1: {error}");
    let error = Model::from_csr(ModelKind::Dtmc, &Csr::new(&[0, 3, 2], &[0, 1], &[1.0, 1.0]), None).unwrap_err();
    assert!(error.message().contains("decrease"), "{error}");
    let error = model.add_label("far", &[7]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.message().contains("states[0] = 7"), "{error}");
    assert_eq!(model.label_states("nope").unwrap_err().kind(), ErrorKind::InvalidArgument);

    // A deadlock state gets a self-loop and a warning, or an error when strict.
    let deadlock = Csr::new(&[0, 1, 1], &[1], &[1.0]);
    assert_eq!(Model::from_csr(ModelKind::Dtmc, &deadlock, None).unwrap().warnings().len(), 1);
    let mut strict = Options::new().unwrap();
    strict.set_strict(true).unwrap();
    assert!(Model::from_csr(ModelKind::Dtmc, &deadlock, &strict).is_err());
}

#[test]
fn bad_text_and_options_are_errors() {
    let model = two_state_dtmc();
    let error = model.check("P=? [ F \"done\" ", None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Property);
    assert!(!error.message().is_empty());
    let error = model.check("P=? [ F \"do\0ne\" ]", None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.message().contains("NUL"), "{error}");

    let mut options = Options::new().unwrap();
    let error = options.set_solver("cpu.no-such-solver").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.message().contains("cpu.no-such-solver"), "{error}");
    assert_eq!(error.to_string(), format!("invalid argument: {}", error.message()));
    assert!(options.set_epsilon(2.0).is_err());
    assert!(options.set_row_sum_tolerance(0.5).is_err());
    // A failed setter leaves the options usable.
    options.set_solver("cpu.jacobi").unwrap().set_relative(false).unwrap().set_threads(1).unwrap();
    options.set_epsilon(1e-12).unwrap();
    // From the middle of 0..10: reach 10 before 0 with probability 1/2.
    let result = random_walk(11).check("P=? [ F \"goal\" ]", &options).unwrap();
    assert_eq!(result.solver(), "cpu.jacobi");
    assert!((result.initial_value() - 0.5).abs() < 1e-9);
}

#[test]
fn solvers_version_and_devices() {
    let solvers = pmc::solvers();
    assert!(solvers.contains(&"cpu.jacobi") && solvers.contains(&"cpu.gauss-seidel"), "{solvers:?}");
    assert_eq!(pmc::version_number(), pmc::sys::PMC_VERSION_NUMBER);
    let parts: Vec<u32> = pmc::version().split('.').map(|p| p.parse().unwrap()).collect();
    assert_eq!(parts[0] * 10000 + parts[1] * 100 + parts[2], pmc::version_number());
    match pmc::devices() {
        Ok(devices) => {
            for device in devices {
                assert!(!device.name.is_empty());
                let (free, total) = device.memory().unwrap();
                assert!(free <= total);
            }
        }
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::NoDevice);
            assert!(!e.message().is_empty(), "says why there is no GPU");
        }
    }
}

#[test]
fn hitting_the_iteration_limit() {
    let model = random_walk(101);
    let mut options = Options::new().unwrap();
    options.set_solver("cpu.jacobi").unwrap().set_max_iterations(3).unwrap();
    let error = model.check("P=? [ F \"goal\" ]", &options).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotConverged);
    assert!(error.message().starts_with("not converged"), "{error}");
    let result = model.check_allow_unconverged("P=? [ F \"goal\" ]", &options).unwrap();
    assert!(!result.converged());
    assert_eq!(result.values().len(), 101);
}

#[test]
fn cancel_flag_stays_until_reset() {
    let model = two_state_dtmc();
    let options = Options::new().unwrap();
    options.request_cancel();
    assert_eq!(model.check("P=? [ F \"done\" ]", &options).unwrap_err().kind(), ErrorKind::Cancelled);
    assert_eq!(model.check("P=? [ F \"done\" ]", &options).unwrap_err().kind(), ErrorKind::Cancelled);
    options.reset_cancel();
    assert_eq!(model.check("P=? [ F \"done\" ]", &options).unwrap().initial_value(), 1.0);
}

#[test]
fn progress_callback_reports_and_can_cancel() {
    let model = random_walk(2001);
    let mut options = endless_options();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    options
        .set_progress(move |p| {
            log.lock().unwrap().push((p.solver.to_owned(), p.iteration, p.residual, p.seconds));
            if log.lock().unwrap().len() >= 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
    let error = model.check("P=? [ F \"goal\" ]", &options).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Cancelled, "{error}");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].0, "cpu.power");
    assert!(seen[1].1 > seen[0].1 && seen[1].3 > seen[0].3, "{seen:?}");
    assert!(seen[0].2 > 0.0);

    // The model is still usable once the flag is reset and the callback removed
    // ("auto" again: a named solver that solves none of a property's problems,
    // as cpu.power for bounded steps, is an error).
    options.reset_cancel();
    options.clear_progress().unwrap().set_solver("auto").unwrap();
    let value = model.check("P=? [ F<=1000 \"goal\" ]", &options).unwrap().initial_value();
    assert_eq!(value, 2f64.powi(-1000));
}

#[test]
fn cancel_from_another_thread() {
    let model = random_walk(2001);
    let mut options = endless_options();
    let calls = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&calls);
    options
        .set_progress(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
            ControlFlow::Continue(())
        })
        .unwrap();
    let started = Instant::now();
    std::thread::scope(|scope| {
        let checker = scope.spawn(|| model.check("P=? [ F \"goal\" ]", &options));
        while calls.load(Ordering::SeqCst) == 0 && started.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(5));
        }
        options.request_cancel();
        let error = checker.join().unwrap().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Cancelled, "{error}");
    });
    assert!(calls.load(Ordering::SeqCst) >= 1, "no progress within 60 s");
}

#[test]
fn a_panicking_callback_cancels_and_panics_in_check() {
    let model = random_walk(2001);
    let mut options = endless_options();
    options.set_progress(|_| panic!("callback gave up")).unwrap();
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| model.check("P=? [ F \"goal\" ]", &options)))
        .unwrap_err();
    assert_eq!(panic.downcast_ref::<&str>(), Some(&"callback gave up"));
    options.reset_cancel();
    options.clear_progress().unwrap().set_solver("auto").unwrap();
    assert!(model.check("P=? [ F<=10 \"goal\" ]", &options).is_ok());
}

#[test]
fn a_callback_may_not_call_pmc() {
    let model = random_walk(2001);
    let mut options = endless_options();
    options
        .set_progress(|_| {
            let _ = pmc::version(); // any pmc call but request_cancel: forbidden by pmc.h
            ControlFlow::Continue(())
        })
        .unwrap();
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| model.check("P=? [ F \"goal\" ]", &options)))
        .unwrap_err();
    let message = panic.downcast_ref::<&str>().copied().unwrap_or_default();
    assert!(message.contains("must not be called from a progress callback"), "{message:?}");
}

#[test]
fn threads_share_a_model_and_options() {
    let model = two_state_dtmc();
    let mut options = Options::new().unwrap();
    options.set_threads(1).unwrap();
    let values: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=4)
            .map(|k| {
                let (model, options) = (&model, &options);
                scope.spawn(move || model.check(&format!("P=? [ F<={k} \"done\" ]"), options).unwrap().initial_value())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (k, value) in (1..=4).zip(values) {
        assert!((value - (1.0 - 0.75f64.powi(k))).abs() < 1e-12);
    }
    // A result moves to another thread (Send).
    let result = model.check("P=? [ F \"done\" ]", None).unwrap();
    assert_eq!(std::thread::spawn(move || result.initial_value()).join().unwrap(), 1.0);
}

/// examples/consensus/consensus.nm, a PRISM-language MDP with K undefined.
const CONSENSUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../examples/consensus/consensus.nm");

#[test]
fn exact_results_are_rationals() {
    let model = Model::build_prism(CONSENSUS, Some("K=2"), None).unwrap();
    let mut exact = Options::new().unwrap();
    exact.set_exact(true).unwrap();
    let result = model.check("Pmax=? [ F \"finished\" & !\"agree\" ]", &exact).unwrap();
    assert_eq!(result.exact().as_deref(), Some("13/120"));
    assert_eq!(result.solver(), "cpu.exact-pi");
    assert!(result.is_sound());
    assert_eq!(result.initial_value(), 13.0 / 120.0);
    let steps = model.check("R{\"steps\"}min=? [ F \"finished\" ]", &exact).unwrap();
    assert_eq!(steps.exact().as_deref(), Some("48"));
    assert_eq!(model.check("Pmax=? [ F \"finished\" ]", None).unwrap().exact(), None);
    let bounded = model.check("Pmax=? [ F<=20 \"finished\" ]", &exact).unwrap_err();
    assert_eq!(bounded.kind(), ErrorKind::Unsupported);
    assert!(bounded.message().contains("Options::set_exact(true) computes"), "{}", bounded.message());
}

#[test]
fn builds_prism_language_sources() {
    let model = Model::build_prism(CONSENSUS, Some("K=2"), None).unwrap();
    assert_eq!(model.kind(), ModelKind::Mdp);
    assert_eq!((model.num_states(), model.num_choices(), model.num_transitions()), (272, 400, 492));
    let result = model.check("Pmax=? [ F \"finished\" & !\"agree\" ]", None).unwrap();
    assert!((result.initial_value() - 0.108333333333).abs() < 1e-6, "{}", result.initial_value());

    // A source defining its constants also loads by extension.
    let die = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../examples/die/die.pm");
    assert_eq!(Model::load(die).unwrap().num_states(), 13);
    assert_eq!(Model::build_prism(die, None, None).unwrap().num_states(), 13);

    // The parser's messages come through unchanged.
    let undefined = Model::build_prism(CONSENSUS, None, None).unwrap_err();
    assert_eq!(undefined.kind(), ErrorKind::Parse);
    assert!(undefined.message().contains("Model::build_prism(path, Some(\"K=...\")") && !undefined.message().contains("--const"), "{}", undefined.message());
    let unknown = Model::build_prism(CONSENSUS, Some("K=2,Q=1"), None).unwrap_err();
    assert_eq!(unknown.kind(), ErrorKind::InvalidArgument);
    let mut options = Options::new().unwrap();
    options.set_max_states(100).unwrap();
    let limited = Model::build_prism(CONSENSUS, Some("K=2"), &options).unwrap_err();
    assert_eq!(limited.kind(), ErrorKind::Model);
    assert!(limited.message().contains("100"), "{}", limited.message());
    assert_eq!(Model::build_prism(CONSENSUS, Some("K=2\0"), None).unwrap_err().kind(), ErrorKind::InvalidArgument);

    // The explorer: "cpu" and the default give the same model, a bad name
    // fails at once, "gpu" without a GPU names the setting as Rust sets it.
    let mut on_cpu = Options::new().unwrap();
    on_cpu.set_build("cpu").unwrap();
    let by_cpu = Model::build_prism(CONSENSUS, Some("K=2"), &on_cpu).unwrap();
    let by_default = Model::build_prism(CONSENSUS, Some("K=2"), None).unwrap();
    assert_eq!(by_cpu.num_transitions(), by_default.num_transitions());
    assert_eq!(on_cpu.set_build("tpu").unwrap_err().kind(), ErrorKind::InvalidArgument);
    let mut on_gpu = Options::new().unwrap();
    on_gpu.set_build("gpu").unwrap();
    match Model::build_prism(CONSENSUS, Some("K=2"), &on_gpu) {
        Ok(model) => assert_eq!(model.num_states(), 272),
        Err(error) => {
            assert_eq!(error.kind(), ErrorKind::NoDevice);
            assert!(error.message().contains("Options::set_build(\"gpu\") needs a GPU"), "{}", error.message());
        }
    }

    // A memory limit too small for the exploration, then for a check.
    let mut small = Options::new().unwrap();
    small.set_memory_limit(4096).unwrap();
    let refused = Model::build_prism(CONSENSUS, Some("K=2"), &small).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::OutOfMemory);
    assert!(refused.message().contains("memory limit of 4.0 KiB"), "{}", refused.message());
    let mut tiny = Options::new().unwrap();
    tiny.set_memory_limit(1024).unwrap();
    let refused = model.check("Pmax=? [ F \"finished\" & !\"agree\" ]", &tiny).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::OutOfMemory);
    assert!(refused.message().contains("Options::set_memory_limit(BYTES)"), "{}", refused.message());
}

#[test]
fn properties_files_read_by_the_library() {
    let props = pmc::Properties::parse(
        "const int N;\n\"first\": P=? [ F \"done\" ]\nP=? [ F<=N \"done\" ]\n",
        Some("two.props"),
        Some("N=2"),
    )
    .unwrap();
    assert_eq!(props.len(), 2);
    let pairs: Vec<(&str, &str)> = props.iter().collect();
    assert_eq!(pairs, [("first", "P=? [ F \"done\" ]"), ("", "P=? [ F<=2 \"done\" ]")]);
    assert_eq!(props.as_slice()[1].line, 3);
    let model = two_state_dtmc();
    let value = model.check(pairs[1].1, None).unwrap().initial_value();
    assert!((value - (1.0 - 0.75 * 0.75)).abs() < 1e-12);

    let error = pmc::Properties::parse("const int N;\nP=? [ F<=N \"done\" ]\n", Some("two.props"), None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Parse);
    assert!(error.message().contains("two.props:2: column 10: constant 'N' (int, two.props:1) has no value"), "{error}");
    let error = pmc::Properties::read("/nonexistent/missing.props", None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Io);
    assert!(error.message().contains("/nonexistent/missing.props"), "{error}");
    let error = pmc::Properties::parse("P=? [ F \"a\" ]", None, Some("N")).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
}
