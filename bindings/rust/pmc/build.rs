//! Writes libpmc's folder, found by pmc-sys's build script (PMC_LIB_DIR or
//! pkg-config), into this crate's test and example binaries as an rpath, so
//! `cargo test` runs without LD_LIBRARY_PATH. `cargo:rustc-link-arg` only
//! reaches the package that emits it, hence this script. Programs of other
//! crates need their own rpath, LD_LIBRARY_PATH, or an installed libpmc.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_PMC_LIB_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    if let Some(dir) = std::env::var("DEP_PMC_LIB_DIR").ok().filter(|d| !d.is_empty()) {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
