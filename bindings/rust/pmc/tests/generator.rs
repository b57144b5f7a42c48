//! Models described by Rust closures (pmc::Generator), explored by pmc: the
//! same models, file for file, as their PRISM-language sources; errors and
//! panics of the closure; state bytes; several threads.
mod common;

use std::collections::BTreeMap;
use std::error::Error as _;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use common::scratch_dir;
use pmc::{ErrorKind, ExpandResult, Expansion, Generator, LabelId, Model, ModelKind, Options, StateOrder};

/// The source tree's root (CARGO_MANIFEST_DIR is <root>/bindings/rust/pmc).
fn source(relative: &str) -> String {
    format!("{}/../../../{relative}", env!("CARGO_MANIFEST_DIR"))
}

// The three models. A state has one byte per variable of the source, its
// value minus the lower bound, in declaration order: the default order
// (StateOrder::Bytes) then numbers the states as PRISM does.

const FACES: [&str; 6] = ["one", "two", "three", "four", "five", "six"];

/// examples/die/die.pm: state [s, d]; labels and rewards by name.
fn expand_die(state: &[u8], e: &mut Expansion<'_>) -> ExpandResult {
    let (s, d) = (state[0], state[1]);
    match s {
        0..=2 => e.transition(0.5, &[2 * s + 1, d]).transition(0.5, &[2 * s + 2, d]),
        3 => e.transition(0.5, &[1, d]).transition(0.5, &[7, 1]),
        6 => e.transition(0.5, &[2, d]).transition(0.5, &[7, 6]),
        4 | 5 => e.transition(0.5, &[7, 2 * s - 6]).transition(0.5, &[7, 2 * s - 5]),
        _ => e.transition(1.0, state),
    };
    if s == 7 {
        e.label("done");
        if d >= 1 {
            e.label(FACES[d as usize - 1]);
        }
    } else {
        e.state_reward("coin_flips", 1.0);
    }
    Ok(())
}

fn die(order: StateOrder) -> Generator<'static> {
    let mut builder = Generator::builder(ModelKind::Dtmc, 2).unwrap();
    builder.set_fixed_size(true).unwrap().set_order(order).unwrap().add_initial_state(&[0, 0]).unwrap();
    for name in ["done"].into_iter().chain(FACES) {
        builder.add_label(name).unwrap();
    }
    builder.add_rewards("coin_flips").unwrap();
    builder.build(expand_die)
}

const N: u8 = 10;

/// tests/data/generator/gambler.pm: state [x]; labels and rewards by the
/// ids the builder returned.
fn gambler(order: StateOrder) -> Generator<'static> {
    let mut builder = Generator::builder(ModelKind::Dtmc, 1).unwrap();
    builder.set_order(order).unwrap().add_initial_state(&[5]).unwrap();
    let win = builder.add_label("win").unwrap();
    let done = builder.add_label("done").unwrap();
    let rounds = builder.add_rewards("rounds").unwrap();
    builder.build(move |state, e| {
        let x = state[0];
        if 0 < x && x < N {
            e.choice("bet").transition(0.4, &[x + 1]).transition(0.6, &[x - 1]).state_reward(rounds, 1.0);
        } else {
            e.transition(1.0, state);
        }
        if x == N {
            e.label(win);
        }
        if x == 0 || x == N {
            e.label(done);
        }
        Ok(())
    })
}

/// tests/data/generator/walk.nm: state [c]; choices east, jump, stay.
fn expand_walk(state: &[u8], e: &mut Expansion<'_>) -> ExpandResult {
    let c = state[0];
    if c < 4 {
        e.choice("east").transition(0.9, &[c + 1]).transition(0.1, &[c]).choice_reward("moves", 1.0);
    }
    if c < 3 {
        e.choice("jump").transition(0.5, &[c + 2]).transition(0.5, &[0]).choice_reward("moves", 1.0);
    }
    if c == 4 {
        e.choice("stay").transition(1.0, state).label("goal");
    }
    Ok(())
}

fn walk(order: StateOrder) -> Generator<'static> {
    let mut builder = Generator::builder(ModelKind::Mdp, 1).unwrap();
    builder.set_fixed_size(true).unwrap().set_order(order).unwrap().add_initial_state(&[0]).unwrap();
    builder.add_label("goal").unwrap();
    builder.add_rewards("moves").unwrap();
    builder.build(expand_walk)
}

/// {extension: bytes} of the model saved as PRISM explicit files `dir/stem.*`.
fn saved_files(model: &Model, dir: &Path, stem: &str) -> BTreeMap<String, Vec<u8>> {
    model.save(dir.join(format!("{stem}.tra"))).unwrap();
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(extension) = name.strip_prefix(stem).filter(|rest| rest.starts_with('.')) {
            files.insert(extension.to_owned(), std::fs::read(dir.join(&name)).unwrap());
        }
    }
    files
}

fn epsilon_1e12() -> Options {
    let mut options = Options::new().unwrap();
    options.set_epsilon(1e-12).unwrap();
    options
}

/// The generator's model is its source's bit for bit (the saved files), and
/// gives the same values; returns the generator's values of `properties`.
fn assert_same_as_source(generator: &Generator<'_>, source_path: &str, properties: &[&str]) -> Vec<f64> {
    let generated = generator.explore(None).unwrap();
    let source = Model::build_prism(source_path, None, None).unwrap();
    assert_eq!(generated.kind(), source.kind());
    assert_eq!(
        (generated.num_states(), generated.num_choices(), generated.num_transitions()),
        (source.num_states(), source.num_choices(), source.num_transitions())
    );
    assert_eq!(generated.labels(), source.labels());
    assert_eq!(generated.reward_names(), source.reward_names());
    assert_eq!(generated.label_states("init").unwrap(), source.label_states("init").unwrap());
    assert_eq!(generated.warnings(), source.warnings());

    let stem = Path::new(source_path).file_stem().unwrap().to_str().unwrap();
    let dir = scratch_dir(&format!("generator-{stem}"));
    let ours = saved_files(&generated, &dir, "generated");
    let mut theirs = saved_files(&source, &dir, "source");
    // The source's model has state valuations (a .sta); state bytes are not saved.
    assert!(!ours.contains_key(".sta"), "{:?}", ours.keys());
    assert!(theirs.remove(".sta").is_some(), "{:?}", theirs.keys());
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    assert!(ours.contains_key(".tra"));
    for (extension, bytes) in &ours {
        assert!(!bytes.is_empty(), "{extension} is empty");
        assert!(
            *bytes == theirs[extension],
            "the {extension} files differ:\n--- generated\n{}\n--- source\n{}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&theirs[extension])
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();

    let options = epsilon_1e12();
    properties
        .iter()
        .map(|property| {
            let value = generated.check(property, &options).unwrap().initial_value();
            let expected = source.check(property, &options).unwrap().initial_value();
            assert!((value - expected).abs() <= 1e-9, "{property}: generated {value}, source {expected}");
            value
        })
        .collect()
}

#[test]
fn die_is_its_source() {
    let values = assert_same_as_source(
        &die(StateOrder::Bytes),
        &source("examples/die/die.pm"),
        &["P=? [ F \"six\" ]", "R{\"coin_flips\"}=? [ F \"done\" ]"],
    );
    assert!((values[0] - 1.0 / 6.0).abs() <= 1e-9, "{}", values[0]);
    assert!((values[1] - 11.0 / 3.0).abs() <= 1e-9, "{}", values[1]);
}

#[test]
fn gambler_is_its_source() {
    let values = assert_same_as_source(
        &gambler(StateOrder::Bytes),
        &source("tests/data/generator/gambler.pm"),
        &["P=? [ F \"win\" ]", "R{\"rounds\"}=? [ F \"done\" ]"],
    );
    let win = (1.0 - 1.5f64.powi(5)) / (1.0 - 1.5f64.powi(10));
    assert!((values[0] - win).abs() <= 1e-9, "{}", values[0]);
}

#[test]
fn walk_is_its_source() {
    let values = assert_same_as_source(
        &walk(StateOrder::Bytes),
        &source("tests/data/generator/walk.nm"),
        &["Pmax=? [ F \"goal\" ]", "Rmin=? [ F \"goal\" ]", "R{\"moves\"}min=? [ F \"goal\" ]"],
    );
    assert!((values[0] - 1.0).abs() <= 1e-9, "{}", values[0]);
}

#[test]
fn scheduler_and_values_map_back_to_states() {
    let model = walk(StateOrder::Bytes).explore(None).unwrap();
    let result = model.check("Rmin=? [ F \"goal\" ]", None).unwrap();
    let scheduler = result.scheduler().unwrap();
    let goal = model.find_state(&[4]).unwrap();
    assert!(matches!(scheduler[goal as usize], None | Some(0)), "{:?}", scheduler[goal as usize]); // "stay"
    assert_eq!(result.value_of(&model, &[4]).unwrap(), 0.0);
    assert_eq!(result.value_of(&model, &[0]).unwrap(), result.initial_value());
    assert_eq!(result.value_of(&model, &[9]).unwrap_err().kind(), ErrorKind::InvalidArgument);
}

#[test]
fn ctmc_rates_of_several_choices_add_up() {
    // 0 -> 1 at rate 1.5 + 0.5; 1 absorbing.
    let mut builder = Generator::builder(ModelKind::Ctmc, 1).unwrap();
    builder.add_initial_state(&[0]).unwrap();
    let done = builder.add_label("done").unwrap();
    let unnamed = builder.add_rewards("").unwrap();
    let generator = builder.build(move |state, e| {
        if state == [0] {
            e.transition(1.5, &[1]).choice(None).transition(0.5, &[1]);
        } else {
            e.transition(1.0, state).label(done).state_reward(unnamed, 0.0);
        }
        Ok(())
    });
    assert_eq!(generator.kind(), ModelKind::Ctmc);
    let model = generator.explore(None).unwrap();
    assert_eq!(model.kind(), ModelKind::Ctmc);
    assert_eq!(model.reward_names(), [""]);
    let value = model.check("P=? [ F<=1 \"done\" ]", None).unwrap().initial_value();
    assert!((value - (1.0 - (-2.0f64).exp())).abs() < 1e-9, "{value}");
}

#[test]
fn state_bytes_round_trip() {
    for order in [StateOrder::Bytes, StateOrder::Bfs] {
        for generator in [die(order), gambler(order), walk(order)] {
            let model = generator.explore(None).unwrap();
            let mut seen = std::collections::BTreeSet::new();
            for i in 0..model.num_states() {
                let bytes = model.state_bytes(i).unwrap();
                assert_eq!(model.find_state(&bytes).unwrap(), i, "{order:?} {bytes:?}");
                seen.insert(bytes);
            }
            assert_eq!(seen.len() as u64, model.num_states());
            assert_eq!(model.state_bytes(model.num_states()).unwrap_err().kind(), ErrorKind::InvalidArgument);
            if order == StateOrder::Bfs {
                assert_eq!(model.label_states("init").unwrap(), [0], "{generator:?}");
            }
        }
    }
}

#[test]
fn orders_number_the_states() {
    // By bytes: state i is [i], and the initial state [5] is state 5, as PRISM numbers them.
    let model = gambler(StateOrder::Bytes).explore(None).unwrap();
    let states: Vec<Vec<u8>> = (0..model.num_states()).map(|i| model.state_bytes(i).unwrap()).collect();
    assert_eq!(states, (0..=N).map(|x| vec![x]).collect::<Vec<_>>());
    assert_eq!(model.label_states("init").unwrap(), [5]);

    let bfs = gambler(StateOrder::Bfs).explore(None).unwrap();
    assert_eq!(bfs.label_states("init").unwrap(), [0]);
    let first: Vec<Vec<u8>> = (0..3).map(|i| bfs.state_bytes(i).unwrap()).collect();
    assert_eq!(first, [[5], [6], [4]]);
    // The same values, state by state, whatever the numbering.
    let ours = bfs.check("P=? [ F \"win\" ]", None).unwrap();
    let theirs = model.check("P=? [ F \"win\" ]", None).unwrap();
    for x in 0..=N {
        let (a, b) = (ours.value_of(&bfs, &[x]).unwrap(), theirs.value_of(&model, &[x]).unwrap());
        assert!((a - b).abs() < 1e-12, "[{x}]: {a} {b}");
    }
}

#[test]
fn find_state_and_state_bytes_errors() {
    let model = die(StateOrder::Bytes).explore(None).unwrap();
    let six = model.find_state(&[7, 6]).unwrap();
    assert_eq!(model.label_states("six").unwrap(), [six]);
    let unreachable = model.find_state(&[7, 0]).unwrap_err();
    assert_eq!(unreachable.kind(), ErrorKind::InvalidArgument);
    assert!(unreachable.message().contains("0x0700"), "{unreachable}");

    let built = Model::build_prism(source("examples/die/die.pm"), None, None).unwrap();
    assert_eq!(built.state_bytes(0).unwrap_err().kind(), ErrorKind::Unsupported);
    assert_eq!(built.find_state(&[0, 0]).unwrap_err().kind(), ErrorKind::Unsupported);
}

#[test]
fn long_states() {
    // States longer than the first buffer Model::state_bytes reads into.
    let mut builder = Generator::builder(ModelKind::Dtmc, 200).unwrap();
    builder.add_initial_state(&[]).unwrap();
    let generator = builder.build(|state, e| {
        if state.len() < 200 {
            let mut next = state.to_vec();
            next.push(state.len() as u8);
            e.transition(1.0, &next);
        } else {
            e.transition(1.0, state);
        }
        Ok(())
    });
    let model = generator.explore(None).unwrap();
    assert_eq!(model.num_states(), 201);
    for i in [0u64, 63, 64, 65, 200] {
        let bytes: Vec<u8> = (0..i as u8).collect();
        assert_eq!(model.state_bytes(i).unwrap(), bytes);
        assert_eq!(model.find_state(&bytes).unwrap(), i);
    }
}

#[test]
fn closures_may_borrow_and_mutate() {
    // An FnMut closure borrowing a local: counts the calls, once per state.
    let mut calls = 0u64;
    let limit = 7u8;
    let mut builder = Generator::builder(ModelKind::Dtmc, 1).unwrap();
    builder.add_initial_state(&[0]).unwrap();
    let generator = builder.build(|state, e| {
        calls += 1;
        e.transition(1.0, &[(state[0] + 1).min(limit)]);
        Ok(())
    });
    let states = generator.explore(None).unwrap().num_states();
    drop(generator);
    assert_eq!(states, 8);
    assert_eq!(calls, 8);
}

// --- Errors ---

/// A counter of `n` states [0], [1], ... that calls `at` on state [k] instead.
fn counter<'a>(n: u8, k: u8, at: impl FnMut(&[u8], &mut Expansion<'_>) -> ExpandResult + Send + 'a) -> Generator<'a> {
    let mut at = at;
    let mut builder = Generator::builder(ModelKind::Dtmc, 1).unwrap();
    builder.add_initial_state(&[0]).unwrap();
    builder.add_label("l").unwrap();
    builder.add_rewards("r").unwrap();
    builder.build(move |state, e| {
        if state[0] == k {
            return at(state, e);
        }
        e.transition(1.0, &[(state[0] + 1).min(n - 1)]);
        Ok(())
    })
}

#[derive(Debug)]
struct CoinLost {
    flips: u32,
}

impl fmt::Display for CoinLost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the coin rolled away after {} flips", self.flips)
    }
}

impl std::error::Error for CoinLost {}

#[test]
fn a_closure_error_stops_the_exploration() {
    let generator = counter(10, 3, |_, _| Err(CoinLost { flips: 3 }.into()));
    let error = generator.explore(None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Model);
    assert!(error.message().contains("the coin rolled away after 3 flips"), "{error}");
    assert!(error.message().contains("0x03"), "{error}"); // the state
                                                          // The closure's own error is the source, by value.
    let source = error.source().expect("a source");
    assert_eq!(source.downcast_ref::<CoinLost>().expect("the closure's error").flips, 3);
    // The generator stays usable: the next exploration fails afresh.
    let again = generator.explore(None).unwrap_err();
    assert_eq!(again, error);
    assert!(again.source().is_some());

    // A plain message.
    let error = counter(10, 2, |_, _| Err("no third state".into())).explore(None).unwrap_err();
    assert!(error.message().contains("no third state"), "{error}");
    assert_eq!(error.source().unwrap().to_string(), "no third state");
    // Through `?`.
    let error = counter(10, 2, |_, _| {
        "x".parse::<u8>()?;
        Ok(())
    })
    .explore(None)
    .unwrap_err();
    assert!(error.message().contains("invalid digit"), "{error}");
    assert!(error.source().unwrap().downcast_ref::<std::num::ParseIntError>().is_some());
}

#[test]
fn a_panic_stops_the_exploration_and_is_resumed() {
    let generator = counter(10, 2, |state, _| panic!("no state {state:?} here"));
    for _ in 0..2 {
        let payload = panic::catch_unwind(AssertUnwindSafe(|| generator.explore(None))).unwrap_err();
        assert_eq!(payload.downcast_ref::<String>().map(String::as_str), Some("no state [2] here"));
    }
    // A panic with a &str payload, in a closure that also returned errors elsewhere.
    let generator = counter(10, 4, |_, _| panic!("static message"));
    let payload = panic::catch_unwind(AssertUnwindSafe(|| generator.explore(None))).unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"static message"));
}

#[test]
fn the_closure_may_not_call_pmc() {
    let generator = counter(10, 1, |_, _| {
        let _ = pmc::version();
        Ok(())
    });
    let payload = panic::catch_unwind(AssertUnwindSafe(|| generator.explore(None))).unwrap_err();
    let message = payload.downcast_ref::<&str>().expect("a &str payload");
    assert!(message.contains("expand closure"), "{message}");

    // Exploring its own generator would wait for itself: refused the same way.
    let inner = counter(3, 9, |_, _| Ok(()));
    let generator = counter(10, 1, |_, _| {
        inner.explore(None)?;
        Ok(())
    });
    assert!(panic::catch_unwind(AssertUnwindSafe(|| generator.explore(None))).is_err());
    // pmc calls work again after the exploration.
    assert_eq!(inner.explore(None).unwrap().num_states(), 3);
}

#[test]
fn probabilities_must_sum_to_one() {
    let generator = counter(10, 0, |state, e| {
        e.transition(0.5, state).transition(0.45, &[1]);
        Ok(())
    });
    let error = generator.explore(None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Model);
    assert!(error.message().contains("sum"), "{error}");
    // A wider tolerance accepts it.
    let mut options = Options::new().unwrap();
    options.set_row_sum_tolerance(0.1).unwrap();
    assert_eq!(generator.explore(&options).unwrap().num_states(), 10);
}

#[test]
fn targets_of_the_wrong_size() {
    let mut builder = Generator::builder(ModelKind::Dtmc, 2).unwrap();
    builder.add_initial_state(b"ab").unwrap();
    let error = builder
        .build(|_, e| {
            e.transition(1.0, b"abc");
            Ok(())
        })
        .explore(None)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Model);
    assert!(error.message().contains("3 bytes"), "{error}");

    let mut builder = Generator::builder(ModelKind::Dtmc, 2).unwrap();
    builder.set_fixed_size(true).unwrap().add_initial_state(b"ab").unwrap();
    let error = builder
        .build(|state, e| {
            e.transition(1.0, &state[..1]);
            Ok(())
        })
        .explore(None)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Model);
    assert!(error.message().contains("exactly 2"), "{error}");
}

#[test]
fn no_initial_state() {
    let generator = Generator::builder(ModelKind::Mdp, 1).unwrap().build(expand_walk);
    let error = generator.explore(None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.message().contains("initial state"), "{error}");
}

#[test]
fn bad_arguments_in_the_closure() {
    type Case = Box<dyn Fn(&[u8], &mut Expansion<'_>) -> ExpandResult + Send>;
    fn case(expand: impl Fn(&[u8], &mut Expansion<'_>) + Send + 'static) -> Case {
        Box::new(move |state, e| {
            expand(state, e);
            Ok(())
        })
    }
    let forged = forged_label();
    let cases: Vec<(&str, Case, &str)> = vec![
        (
            "negative probability",
            case(|s, e| {
                e.transition(-0.5, s);
            }),
            "",
        ),
        (
            "NaN",
            case(|s, e| {
                e.transition(f64::NAN, s);
            }),
            "",
        ),
        (
            "unknown label name",
            case(|s, e| {
                e.transition(1.0, s).label("nope");
            }),
            "unknown label \"nope\"",
        ),
        (
            "unknown label id",
            case(move |s, e| {
                e.transition(1.0, s).label(forged);
            }),
            "7",
        ),
        (
            "unknown rewards name",
            case(|s, e| {
                e.transition(1.0, s).state_reward("q", 1.0);
            }),
            "\"q\"",
        ),
        (
            "reward before any transition",
            case(|_, e| {
                e.transition_reward("r", 1.0);
            }),
            "",
        ),
        (
            "negative reward",
            case(|s, e| {
                e.transition(1.0, s).state_reward("r", -1.0);
            }),
            "",
        ),
        (
            "action with a NUL byte",
            case(|s, e| {
                e.choice("a\0b").transition(1.0, s);
            }),
            "NUL",
        ),
    ];
    for (what, expand, says) in cases {
        let error = counter(5, 0, expand).explore(None).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Model, "{what}: {error}");
        assert!(error.message().contains("0x00"), "{what}: {error}");
        assert!(error.message().contains(says), "{what}: {error}");
        assert!(error.source().is_none(), "{what}");
    }
}

/// A LabelId of another generator (of 8 labels).
fn forged_label() -> LabelId {
    let mut builder = Generator::builder(ModelKind::Dtmc, 1).unwrap();
    (0..8).map(|i| builder.add_label(&format!("l{i}")).unwrap()).last().unwrap()
}

#[test]
fn deadlocks_and_options() {
    // A deadlock gets a self-loop and a warning, or fails when strict.
    let mut builder = Generator::builder(ModelKind::Dtmc, 1).unwrap();
    builder.add_initial_state(&[0]).unwrap();
    let generator = builder.build(|state, e| {
        if state == [0] {
            e.transition(1.0, &[1]);
        }
        Ok(())
    });
    let model = generator.explore(None).unwrap();
    assert_eq!(model.label_states("deadlock").unwrap(), [1]);
    assert_eq!(model.warnings().len(), 1);
    let mut strict = Options::new().unwrap();
    strict.set_strict(true).unwrap();
    assert_eq!(generator.explore(&strict).unwrap_err().kind(), ErrorKind::Model);

    let generator = gambler(StateOrder::Bytes);
    let mut options = Options::new().unwrap();
    options.set_max_states(3).unwrap();
    let error = generator.explore(&options).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Model);
    options.set_max_states(100).unwrap();
    assert_eq!(generator.explore(&options).unwrap().num_states(), 11);
    options.request_cancel();
    assert_eq!(generator.explore(&options).unwrap_err().kind(), ErrorKind::Cancelled);
    options.reset_cancel();
    assert_eq!(generator.explore(&options).unwrap().num_states(), 11);
}

#[test]
fn the_closure_may_cancel() {
    let options = Options::new().unwrap();
    let generator = counter(50, 20, |_, _| {
        options.request_cancel();
        Ok(())
    });
    assert_eq!(generator.explore(&options).unwrap_err().kind(), ErrorKind::Cancelled);
}

#[test]
fn builder_errors() {
    assert_eq!(Generator::builder(ModelKind::Pctmc, 1).unwrap_err().kind(), ErrorKind::Unsupported);
    assert_eq!(Generator::builder(ModelKind::Dtmc, 0).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(Generator::builder(ModelKind::Dtmc, 4097).unwrap_err().kind(), ErrorKind::InvalidArgument);

    let mut builder = Generator::builder(ModelKind::Dtmc, 2).unwrap();
    assert_eq!(builder.add_label("done").unwrap().index(), 0);
    assert_eq!(builder.add_label("six").unwrap().index(), 1);
    for name in ["done", "init", "deadlock", "", "a\"b", "a\0b"] {
        assert_eq!(builder.add_label(name).unwrap_err().kind(), ErrorKind::InvalidArgument, "{name:?}");
    }
    assert_eq!(builder.add_rewards("r").unwrap().index(), 0);
    assert_eq!(builder.add_rewards("").unwrap().index(), 1);
    assert_eq!(builder.add_rewards("r").unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(builder.add_initial_state(b"abc").unwrap_err().kind(), ErrorKind::InvalidArgument);
    builder.set_fixed_size(true).unwrap();
    assert_eq!(builder.add_initial_state(b"a").unwrap_err().kind(), ErrorKind::InvalidArgument);
    // Duplicate initial states are one.
    builder.add_initial_state(b"ab").unwrap().add_initial_state(b"ab").unwrap();
    let generator = builder.build(|state, e| {
        e.transition(1.0, state);
        Ok(())
    });
    assert_eq!(generator.explore(None).unwrap().num_states(), 1);
    assert_eq!(format!("{generator:?}"), "Generator { kind: Dtmc, max_state_size: 2, thread_safe: false }");
    // A builder dropped unbuilt frees its generator (checked under valgrind).
    drop(Generator::builder(ModelKind::Mdp, 3).unwrap());
}

// --- Threads ---

/// A random walk on a size x size grid (state [x, y]) from the corner
/// [0, 0]; a move off the grid stays put (targets of one choice add up).
fn grid(size: u8, order: StateOrder) -> Generator<'static> {
    let mut builder = Generator::builder(ModelKind::Dtmc, 2).unwrap();
    builder.set_fixed_size(true).unwrap().set_order(order).unwrap().add_initial_state(&[0, 0]).unwrap();
    let corner = builder.add_label("corner").unwrap();
    let west = builder.add_label("west").unwrap();
    let steps = builder.add_rewards("steps").unwrap();
    builder
        .build_thread_safe(move |state, e| {
            let (x, y) = (state[0] as i32, state[1] as i32);
            let clamp = |v: i32| v.clamp(0, size as i32 - 1) as u8;
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                e.transition(0.25, &[clamp(x + dx), clamp(y + dy)]);
            }
            if x == size as i32 - 1 && y == size as i32 - 1 {
                e.label(corner);
            }
            if x == 0 {
                e.label(west);
            }
            e.state_reward(steps, 1.0);
            Ok(())
        })
        .unwrap()
}

fn threads(n: u64) -> Options {
    let mut options = Options::new().unwrap();
    options.set_threads(n).unwrap();
    options
}

#[test]
fn four_threads_give_the_one_threaded_model() {
    let size = 100u8;
    for order in [StateOrder::Bytes, StateOrder::Bfs] {
        let generator = grid(size, order);
        assert!(format!("{generator:?}").contains("thread_safe: true"));
        let dir = scratch_dir(&format!("generator-grid-{order:?}"));
        let one = generator.explore(&threads(1)).unwrap();
        let four = generator.explore(&threads(4)).unwrap();
        assert_eq!(four.num_states(), size as u64 * size as u64);
        let (files_one, files_four) = (saved_files(&one, &dir, "one"), saved_files(&four, &dir, "four"));
        for extension in [".tra", ".lab", ".srew"] {
            assert!(files_one.contains_key(extension), "{extension}: {:?}", files_one.keys());
        }
        assert!(files_one == files_four, "{order:?}: the files differ");
        for i in 0..one.num_states() {
            assert_eq!(one.state_bytes(i).unwrap(), four.state_bytes(i).unwrap(), "{order:?} state {i}");
        }
        if order == StateOrder::Bytes {
            assert_eq!(four.find_state(&[1, 0]).unwrap(), size as u64);
        } else {
            assert_eq!(four.state_bytes(0).unwrap(), [0, 0]);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn errors_and_panics_on_one_of_four_threads() {
    let calls = AtomicU64::new(0);
    let mut builder = Generator::builder(ModelKind::Dtmc, 2).unwrap();
    builder.add_initial_state(&[0, 0]).unwrap();
    let generator = builder
        .build_thread_safe(|state, e| {
            calls.fetch_add(1, Ordering::Relaxed);
            match (state[0], state[1]) {
                (30, 30) => return Err(CoinLost { flips: 60 }.into()),
                (x, y) => e.transition(0.5, &[(x + 1).min(59), y]).transition(0.5, &[x, (y + 1).min(59)]),
            };
            Ok(())
        })
        .unwrap();
    for _ in 0..3 {
        let error = generator.explore(&threads(4)).unwrap_err();
        assert!(error.message().contains("after 60 flips"), "{error}");
        assert!(error.source().unwrap().downcast_ref::<CoinLost>().is_some());
    }
    assert!(calls.load(Ordering::Relaxed) > 0);

    let mut builder = Generator::builder(ModelKind::Dtmc, 2).unwrap();
    builder.add_initial_state(&[0, 0]).unwrap();
    let generator = builder
        .build_thread_safe(|state, e| {
            let (x, y) = (state[0], state[1]);
            assert!((x, y) != (30, 30), "the middle");
            e.transition(0.5, &[(x + 1).min(59), y]).transition(0.5, &[x, (y + 1).min(59)]);
            Ok(())
        })
        .unwrap();
    for _ in 0..3 {
        let payload = panic::catch_unwind(AssertUnwindSafe(|| generator.explore(&threads(4)))).unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"the middle"));
    }
}

#[test]
fn explorations_of_one_generator_from_two_threads() {
    let generator = grid(20, StateOrder::Bytes);
    let serial = counter(30, 99, |_, _| Ok(()));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                for _ in 0..3 {
                    assert_eq!(generator.explore(&threads(2)).unwrap().num_states(), 400);
                    assert_eq!(serial.explore(None).unwrap().num_states(), 30);
                }
            });
        }
    });
}

#[test]
fn the_readme_shows_the_example() {
    // bindings/rust/README.md shows examples/generator.rs from its `use` on; its `sh` block runs it.
    let readme = std::fs::read_to_string(source("bindings/rust/README.md")).unwrap();
    let example = std::fs::read_to_string(source("bindings/rust/pmc/examples/generator.rs")).unwrap();
    let shown: Vec<&str> = readme
        .split("```rust\n")
        .skip(1)
        .map(|block| &block[..block.find("```").unwrap()])
        .filter(|block| block.contains("Generator::builder"))
        .collect();
    assert_eq!(shown, [&example[example.find("use pmc::").unwrap()..]]);
}
