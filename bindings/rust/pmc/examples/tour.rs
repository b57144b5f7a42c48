//! The README's example. From the source root:
//! `cargo run --manifest-path bindings/rust/Cargo.toml --example tour`
use std::ops::ControlFlow;

use pmc::{Csr, Model, ModelKind, Options};

fn main() -> pmc::Result<()> {
    // From a file: the format by extension (.tra with .lab/.srew/.trew siblings, .drn, .pmcb).
    let model = Model::load("examples/die/die.tra")?;
    let mut options = Options::new()?;
    options.set_solver("cpu.gauss-seidel")?.set_epsilon(1e-10)?;
    // Reports from solves longer than 0.2 s, at most every 0.2 s; Break(()) cancels.
    options.set_progress(|p| {
        eprintln!("{}: iteration {}, residual {:e}, {:.1} s", p.solver, p.iteration, p.residual, p.seconds);
        ControlFlow::Continue(())
    })?;
    let result = model.check("P=? [ F \"six\" ]", &options)?;
    println!("{} ({}, {} iterations)", result.initial_value(), result.solver(), result.iterations());
    let per_state: Vec<f64> = result.values();
    println!("per state: {per_state:?}");

    // From arrays: an MDP. State 0 has two choices (rows 0 and 1), reaching "goal" (state 1)
    // with probability 0.5 or 0.9, else state 2; states 1 and 2 loop.
    let row_offsets = [0, 2, 4, 5, 6];
    let columns = [1, 2, 1, 2, 1, 2];
    let values = [0.5, 0.5, 0.9, 0.1, 1.0, 1.0];
    let csr = Csr::new(&row_offsets, &columns, &values).with_row_groups(&[0, 2, 3, 4]);
    let mut mdp = Model::from_csr(ModelKind::Mdp, &csr, None)?;
    mdp.add_label("init", &[0])?;
    mdp.add_label("goal", &[1])?;
    let best = mdp.check("Pmax=? [ F \"goal\" ]", None)?;
    let scheduler: Vec<Option<u64>> = best.scheduler()?; // None: any choice is optimal
    println!("Pmax = {}, scheduler {scheduler:?}", best.initial_value());

    // Errors carry pmc's status and message, e.g. the column of a syntax error.
    if let Err(e) = model.check("P=? [ F \"six\" ", None) {
        println!("{e}");
    }
    Ok(())
}
