//! The README's generator example: Knuth and Yao's die (examples/die/die.pm)
//! without any file. From the source root:
//! `cargo run --manifest-path bindings/rust/Cargo.toml --example generator`
use pmc::{Generator, ModelKind, Options};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The state is [s, d], one byte per variable of die.pm (its value minus its lower bound).
    let mut builder = Generator::builder(ModelKind::Dtmc, 2)?;
    builder.set_fixed_size(true)?.add_initial_state(&[0, 0])?;
    // Labels and reward structures are declared up front; the ids (or the names) go to the Expansion.
    let done = builder.add_label("done")?;
    let mut faces = Vec::new();
    for face in ["one", "two", "three", "four", "five", "six"] {
        faces.push(builder.add_label(face)?);
    }
    let coin_flips = builder.add_rewards("coin_flips")?;

    // Called once per reachable state: its choices, transitions (probability, target), labels, rewards.
    let die = builder.build(move |state, e| {
        let (s, d) = (state[0], state[1]);
        match s {
            0..=2 => e.transition(0.5, &[2 * s + 1, d]).transition(0.5, &[2 * s + 2, d]),
            3 => e.transition(0.5, &[1, d]).transition(0.5, &[7, 1]),
            6 => e.transition(0.5, &[2, d]).transition(0.5, &[7, 6]),
            4 | 5 => e.transition(0.5, &[7, 2 * s - 6]).transition(0.5, &[7, 2 * s - 5]),
            7 => e.transition(1.0, state).label(done).label(faces[d as usize - 1]),
            _ => return Err(format!("no node {s}").into()), // stops the exploration with this message
        };
        if s < 7 {
            e.state_reward(coin_flips, 1.0);
        }
        Ok(())
    });

    let model = die.explore(None)?; // or explore(&options): threads, max_states, strict, ...
    let mut options = Options::new()?;
    options.set_epsilon(1e-10)?;
    let six = model.check("P=? [ F \"six\" ]", &options)?;
    println!("{} {}", six.initial_value(), model.num_states()); // 1/6, 13 states
    println!("{}", six.value_of(&model, &[2, 0])?); // 1/3: the value in the state [2, 0]
    println!("{:?} {}", model.state_bytes(0)?, model.find_state(&[7, 6])?); // [0, 0] 12
    Ok(())
}
