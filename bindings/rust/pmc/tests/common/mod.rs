//! Shared by the integration tests: the reference models, the manifest and
//! scratch folders.
#![allow(dead_code)] // each test file uses a part

use std::io::Write;
use std::path::{Path, PathBuf};

/// `PMC_MODELS`, else the team's models folder, `../shared/models` beside the
/// source tree;
/// None, with a message, when absent: the caller then skips.
pub fn models_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("PMC_MODELS").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        // CARGO_MANIFEST_DIR is <source root>/bindings/rust/pmc.
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/models"),
    };
    if dir.join("manifest.tsv").is_file() {
        Some(dir)
    } else {
        // Straight to stderr: libtest captures eprintln! of passing tests.
        let _ = writeln!(std::io::stderr(), "SKIPPED: no reference models at {} (set PMC_MODELS)", dir.display());
        None
    }
}

/// `let models = models_or_skip!();` returns from the test when the models are absent.
#[macro_export]
macro_rules! models_or_skip {
    () => {
        match common::models_dir() {
            Some(dir) => dir,
            None => return,
        }
    };
}

/// One row of the models' manifest.tsv.
#[derive(Debug, Clone)]
pub struct Case {
    pub model: String,
    pub instance: String,
    pub kind: String,
    pub states: u64,
    pub transitions: u64,
    pub files: Vec<String>,
    pub property: String,
    pub reference: f64,
}

impl Case {
    pub fn dir(&self, models: &Path) -> PathBuf {
        models.join(&self.model).join(&self.instance)
    }

    /// The instance's transition file (.tra or .tra.gz).
    pub fn tra(&self, models: &Path) -> PathBuf {
        let name = self.files.iter().find(|f| f.ends_with(".tra") || f.ends_with(".tra.gz")).expect("a .tra file");
        self.dir(models).join(name)
    }

    /// |value - ref| <= tol * max(|ref|, 1e-9), tol 1e-5 for CTMC time bounds, else 1e-6.
    pub fn assert_agrees(&self, value: f64) {
        if self.reference.is_infinite() {
            assert_eq!(value, self.reference, "{} {}: {}", self.model, self.instance, self.property);
            return;
        }
        let p = &self.property;
        let time_bounded =
            self.kind == "ctmc" && (p.contains("<=") || p.contains("F[") || p.contains("U[") || p.contains("U>="));
        let tol = if time_bounded { 1e-5 } else { 1e-6 };
        let error = (value - self.reference).abs();
        assert!(
            error <= tol * self.reference.abs().max(1e-9),
            "{} {}: {} = {value}, reference {} (error {error:e})",
            self.model,
            self.instance,
            self.property,
            self.reference
        );
    }
}

/// The manifest rows of one instance.
pub fn cases(models: &Path, model: &str, instance: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(models.join("manifest.tsv")).expect("manifest.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("manifest header").split('\t').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (m, i, t, s, tr, f, p, r) = (
        column("model"),
        column("instance"),
        column("type"),
        column("states"),
        column("transitions"),
        column("files"),
        column("property"),
        column("reference_value"),
    );
    let found: Vec<Case> = lines
        .map(|line| line.split('\t').collect::<Vec<&str>>())
        .filter(|row| row.len() > r && row[m] == model && row[i] == instance)
        .map(|row| Case {
            model: row[m].to_owned(),
            instance: row[i].to_owned(),
            kind: row[t].to_owned(),
            states: row[s].parse().expect("states"),
            transitions: row[tr].parse().expect("transitions"),
            files: row[f].split(',').map(str::to_owned).collect(),
            property: row[p].to_owned(),
            reference: match row[r] {
                "Infinity" => f64::INFINITY,
                value => value.parse().expect("reference_value"),
            },
        })
        .collect();
    assert!(!found.is_empty(), "no manifest rows for {model} {instance}");
    found
}

/// A fresh, empty folder for files a test writes (under cargo's target dir).
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Options for comparing with the references (computed at ε = 1e-12):
/// ε = 1e-10 keeps the solvers' own error far below the 1e-6 asserted.
pub fn precise() -> pmc::Options {
    let mut options = pmc::Options::new().expect("options");
    options.set_epsilon(1e-10).expect("epsilon");
    options
}
