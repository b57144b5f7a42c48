//! The safe API on the reference models: each format loads, and
//! DTMC, CTMC and MDP properties agree with PRISM's values. Skips when the
//! models are absent (PMC_MODELS).
mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{cases, precise, scratch_dir, Case};
use pmc::{Csr, ErrorKind, Model, ModelKind, Options};

/// Checks every manifest property of the instance on `model`.
fn assert_all_agree(model: &Model, cases: &[Case]) {
    let options = precise();
    for case in cases {
        let result = model.check(&case.property, &options).unwrap_or_else(|e| panic!("{}: {e}", case.property));
        assert!(result.converged());
        case.assert_agrees(result.initial_value());
    }
}

fn assert_shape(model: &Model, case: &Case, kind: ModelKind) {
    assert_eq!(model.kind(), kind);
    assert_eq!(model.num_states(), case.states);
    assert_eq!(model.num_transitions(), case.transitions);
}

#[test]
fn dtmc_from_prism_explicit_agrees_with_prism() {
    let models = models_or_skip!();
    for (name, instance) in [("leader_sync", "3_2"), ("brp", "N16_M2")] {
        let cases = cases(&models, name, instance);
        let model = Model::load(cases[0].tra(&models)).unwrap();
        assert_shape(&model, &cases[0], ModelKind::Dtmc);
        assert!(model.labels().iter().any(|l| l == "init"));
        assert_all_agree(&model, &cases);
    }
}

#[test]
fn ctmc_from_prism_explicit_agrees_with_prism() {
    let models = models_or_skip!();
    let cases = cases(&models, "tandem", "C15");
    let model = Model::load(cases[0].tra(&models)).unwrap();
    assert_shape(&model, &cases[0], ModelKind::Ctmc);
    assert_eq!(model.reward_names(), ["customers"]);
    assert_all_agree(&model, &cases);
}

#[test]
fn mdp_from_prism_explicit_agrees_with_prism() {
    let models = models_or_skip!();
    let cases = cases(&models, "consensus", "N2_K2");
    let model = Model::load(cases[0].tra(&models)).unwrap();
    assert_shape(&model, &cases[0], ModelKind::Mdp);
    assert_eq!(model.num_choices(), 400);
    assert_all_agree(&model, &cases);
}

/// The transitions of a PRISM explicit MDP file: (state, choice) -> [(target, probability)].
fn read_mdp_rows(path: &Path) -> BTreeMap<(u64, u64), Vec<(u64, f64)>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows: BTreeMap<(u64, u64), Vec<(u64, f64)>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| fields[i].parse::<u64>().unwrap();
        rows.entry((number(0), number(1))).or_default().push((number(2), fields[3].parse().unwrap()));
    }
    rows
}

#[test]
fn mdp_scheduler_attains_the_optimum() {
    // Fix the scheduler's choice in every state (choice 0 where any is
    // optimal), build that DTMC from arrays and check it: it must reach the
    // MDP's optimum.
    let models = models_or_skip!();
    let cases = cases(&models, "consensus", "N2_K2");
    let mdp = Model::load(cases[0].tra(&models)).unwrap();
    let rows = read_mdp_rows(&cases[0].tra(&models));
    let options = precise();
    for case in cases.iter().filter(|c| c.property.starts_with("Pm")) {
        let result = mdp.check(&case.property, &options).unwrap();
        let scheduler = result.scheduler().unwrap();
        assert_eq!(scheduler.len() as u64, mdp.num_states());
        assert!(scheduler.iter().any(Option::is_some), "{}: no state has a fixed choice", case.property);

        let (mut offsets, mut columns, mut values) = (vec![0u64], Vec::new(), Vec::new());
        for (state, choice) in scheduler.iter().enumerate() {
            let row = &rows[&(state as u64, choice.unwrap_or(0))];
            columns.extend(row.iter().map(|&(target, _)| target));
            values.extend(row.iter().map(|&(_, p)| p));
            offsets.push(columns.len() as u64);
        }
        let mut dtmc = Model::from_csr(ModelKind::Dtmc, &Csr::new(&offsets, &columns, &values), None).unwrap();
        for label in mdp.labels() {
            dtmc.add_label(&label, &mdp.label_states(&label).unwrap()).unwrap();
        }
        let induced = case.property.replacen("Pmax", "P", 1).replacen("Pmin", "P", 1);
        let value = dtmc.check(&induced, &options).unwrap().initial_value();
        case.assert_agrees(value);
    }
    // A DTMC property has no scheduler.
    let error = mdp.check("P=? [ X \"finished\" ]", &options);
    assert!(error.is_err(), "P=? on an MDP must fail (no min/max)");
}

#[test]
fn drn_written_by_save_loads_back() {
    let models = models_or_skip!();
    let cases = cases(&models, "leader_sync", "3_2");
    let original = Model::load(cases[0].tra(&models)).unwrap();
    let dir = scratch_dir("drn");
    let path = dir.join("leader_sync.drn");
    original.save(&path).unwrap();
    assert!(std::fs::read_to_string(&path).unwrap().contains("@type: DTMC"));

    for model in [Model::load(&path).unwrap(), Model::load_with_format(&path, "drn").unwrap()] {
        assert_shape(&model, &cases[0], ModelKind::Dtmc);
        // DRN lists labels per state, so an empty label ("deadlock" here) is not written.
        for label in original.labels() {
            let states = original.label_states(&label).unwrap();
            if !states.is_empty() {
                assert_eq!(model.label_states(&label).unwrap(), states, "label {label}");
            }
        }
        assert_eq!(model.reward_names(), original.reward_names());
        assert_all_agree(&model, &cases);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn parametric_drn_loads() {
    let models = models_or_skip!();
    let model = Model::load(models.join("pctmc/am_10_4.drn")).unwrap();
    assert_eq!(model.kind(), ModelKind::Pctmc);
    assert_eq!(model.num_states(), 120);
    assert_eq!(model.num_transitions(), 273);
    assert_eq!(model.parameter_names(), ["k1", "k2", "k3"]);
    // Checked at a parameter point, against PRISM's value.
    let mut options = Options::new().unwrap();
    options.set_parameter("k1", 3.0).unwrap().set_parameter("k2", 30.0).unwrap();
    let property = "P=? [ F[100,100] \"correct\" ]";
    let missing = model.check(property, Some(&options)).unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::InvalidArgument);
    assert!(missing.message().contains("no value for k3"), "{}", missing.message());
    options.set_parameter("k3", 60.0).unwrap();
    let result = model.check(property, Some(&options)).unwrap();
    assert!((result.initial_value() - 0.8281606456376895).abs() <= 1e-7, "{}", result.initial_value());
    assert!(options.set_parameter("k3", f64::NAN).is_err());
    options.clear_parameters().unwrap();
    assert!(model.check(property, Some(&options)).is_err());
}

#[test]
fn pmcb_written_by_save_loads_back() {
    let models = models_or_skip!();
    let cases = cases(&models, "consensus", "N2_K2");
    let original = Model::load(cases[0].tra(&models)).unwrap();
    let dir = scratch_dir("pmcb");
    let path = dir.join("consensus.pmcb");
    original.save(&path).unwrap();
    let model = Model::load(&path).unwrap();
    assert_shape(&model, &cases[0], ModelKind::Mdp);
    assert_eq!(model.num_choices(), original.num_choices());
    assert_eq!(model.labels(), original.labels());
    assert_eq!(model.reward_names(), ["steps"]);
    assert_all_agree(&model, &cases);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn prism_explicit_written_by_save_loads_back() {
    let models = models_or_skip!();
    let cases = cases(&models, "tandem", "C15");
    let original = Model::load(cases[0].tra(&models)).unwrap();
    let dir = scratch_dir("prism");
    let path = dir.join("tandem.tra");
    original.save_with_format(&path, "prism").unwrap();
    assert!(dir.join("tandem.lab").is_file());
    let model = Model::load(&path).unwrap();
    assert_shape(&model, &cases[0], ModelKind::Ctmc);
    assert_eq!(model.reward_names(), original.reward_names());
    assert_all_agree(&model, &cases);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn load_files_reads_only_the_files_given() {
    let models = models_or_skip!();
    let case = &cases(&models, "leader_sync", "3_2")[0];
    let mut options = pmc::Options::new().unwrap();
    options.set_strict(true).unwrap();
    let files = [case.tra(&models), case.dir(&models).join("leader_sync.lab")];
    let model = Model::load_files(&files, Some("prism"), &options).unwrap();
    assert_eq!(model.num_states(), case.states);
    assert!(model.labels().iter().any(|l| l == "elected"));
    assert!(model.reward_names().is_empty(), "no .srew was given");
}

#[test]
fn values_cover_every_state() {
    // herman: every state is initial; the reference is the value in state 0.
    let models = models_or_skip!();
    let cases = cases(&models, "herman", "N7");
    let case = cases.iter().find(|c| c.property.starts_with("R{")).unwrap();
    let model = Model::load(case.tra(&models)).unwrap();
    let result = model.check(&case.property, &precise()).unwrap();
    let values = result.values();
    assert_eq!(values.len() as u64, model.num_states());
    assert_eq!(values[0], result.initial_value());
    case.assert_agrees(values[0]);
    let range = result.initial_range();
    assert_eq!(range.count, 128);
    assert_eq!(range.min, values.iter().cloned().fold(f64::INFINITY, f64::min));
    assert_eq!(range.max, values.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
    assert!(!result.is_boolean());

    // A bounded property gives 0/1 per state.
    let bounded = model.check("P>=0.5 [ F<=3 \"stable\" ]", None).unwrap();
    assert!(bounded.is_boolean());
    assert!(bounded.values().iter().all(|&v| v == 0.0 || v == 1.0));
    // A buffer of any size: filled as far as it goes, the state count returned.
    let mut first = [f64::NAN; 4];
    assert_eq!(bounded.values_into(&mut first) as u64, model.num_states());
    assert!(first.iter().all(|v| !v.is_nan()));
}

#[test]
fn errors_carry_pmc_messages() {
    let models = models_or_skip!();
    let missing = models.join("no/such/model.tra");
    let error = Model::load(&missing).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Io, "{error}");
    assert!(error.message().contains("no/such/model"), "message names the file: {error}");

    let case = &cases(&models, "leader_sync", "3_2")[0];
    let model = Model::load(case.tra(&models)).unwrap();
    let error = model.check("P=? [ F \"elected\" ", None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Property, "{error}");
    assert!(!error.message().is_empty());
    assert!(error.to_string().starts_with("invalid property: "), "{error}");

    let error = model.check("P=? [ F \"no_such_label\" ]", None).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Property);
    assert!(error.message().contains("no_such_label"), "{error}");

    let result = model.check("P=? [ F \"elected\" ]", None).unwrap();
    assert_eq!(result.scheduler().unwrap_err().kind(), ErrorKind::Unsupported);

    // A DTMC file read as an MDP: pmc says which line is wrong.
    let error = Model::load_with_format(case.tra(&models), "prism-mdp").unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::Parse | ErrorKind::Model), "{error}");
    assert!(error.message().contains("leader_sync.tra"), "{error}");
}
