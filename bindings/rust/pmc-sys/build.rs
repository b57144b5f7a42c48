//! Tells rustc where libpmc is. In order:
//!   1. `PMC_LIB_DIR`: the folder holding libpmc.so (e.g. a meson build's
//!      `lib/`, or `<prefix>/lib/x86_64-linux-gnu`);
//!   2. `pkg-config --libs pmc` (an installed pmc.pc, or a meson build's
//!      `meson-uninstalled/` folder on PKG_CONFIG_PATH);
//!   3. the linker's default search path (with a warning).
//!
//! The folder found is also written into the test binaries as an rpath, so
//! `cargo test` runs without LD_LIBRARY_PATH; it reaches the `pmc` crate as
//! `DEP_PMC_LIB_DIR` (this crate `links = "pmc"`), whose build script does
//! the same for its own tests.
//!
//! The header is only read by tests/header_drift.rs; its path is passed on
//! as `PMC_SYS_HEADER`: `PMC_HEADER`, else `PMC_INCLUDE_DIR/pmc/pmc.h`, else
//! the source tree's `include/pmc/pmc.h`, else pkg-config's include folders.
//!
//! Cargo runs this script in the pmc-sys folder, not where the user ran
//! cargo, so a relative PMC_LIB_DIR (or PKG_CONFIG_PATH entry) would be
//! read from the wrong place and fail later as "unable to find library
//! -lpmc" or, at run time, "libpmc.so.0: cannot open shared object file":
//! it is refused here instead, with the absolute path to give.
//!
//! No build dependencies (no `pkg-config` crate): `cargo test --offline`
//! must work without a registry, so the pkg-config program is run directly.
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn pkg_config(args: &[&str]) -> Option<String> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let output = Command::new(program).args(args).arg("pmc").output().ok()?;
    if !output.status.success() {
        return None;
    }
    String::from_utf8(output.stdout).ok()
}

/// The -L folders of `pkg-config --libs pmc`; None unless it links -lpmc.
fn pkg_config_lib_dirs() -> Option<Vec<String>> {
    let libs = pkg_config(&["--libs"])?;
    let flags: Vec<&str> = libs.split_whitespace().collect();
    if !flags.contains(&"-lpmc") {
        println!("cargo:warning=pmc-sys: `pkg-config --libs pmc` gave {libs:?}, without -lpmc; ignored");
        return None;
    }
    Some(flags.iter().filter_map(|flag| flag.strip_prefix("-L")).map(str::to_owned).collect())
}

fn find_header() -> Option<PathBuf> {
    if let Some(path) = env::var_os("PMC_HEADER").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let mut candidates = Vec::new();
    if let Some(dir) = env::var_os("PMC_INCLUDE_DIR").filter(|d| !d.is_empty()) {
        candidates.push(PathBuf::from(dir));
    }
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR")?);
    candidates.push(manifest.join("../../../include"));
    if let Some(cflags) = pkg_config(&["--cflags-only-I"]) {
        candidates.extend(cflags.split_whitespace().filter_map(|f| f.strip_prefix("-I")).map(PathBuf::from));
    }
    if let Some(dir) = pkg_config(&["--variable=includedir"]) {
        candidates.push(PathBuf::from(dir.trim()));
    }
    candidates.into_iter().map(|dir| dir.join("pmc/pmc.h")).find(|p| p.is_file())
}

/// Stops the build on a relative path: cargo would resolve it against this
/// crate's folder, not the folder the user ran cargo in.
fn refuse_relative(var: &str, path: &str) -> ! {
    let here = env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    panic!(
        "pmc-sys: {var} holds the relative path {path:?}, which cargo's build script would read from \
         {here}, not from the folder you ran cargo in; give an absolute path, e.g. {var}=\"$PWD/{path}\""
    );
}

fn main() {
    for var in ["PMC_LIB_DIR", "PMC_INCLUDE_DIR", "PMC_HEADER", "PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rerun-if-changed=build.rs");

    let dirs = match env::var("PMC_LIB_DIR") {
        Ok(dir) if !dir.is_empty() && Path::new(&dir).is_relative() => refuse_relative("PMC_LIB_DIR", &dir),
        Ok(dir) if !dir.is_empty() => vec![dir],
        _ => pkg_config_lib_dirs().unwrap_or_else(|| {
            if let Some(entry) = env::var("PKG_CONFIG_PATH")
                .unwrap_or_default()
                .split(':')
                .find(|entry| !entry.is_empty() && Path::new(entry).is_relative())
            {
                refuse_relative("PKG_CONFIG_PATH", entry);
            }
            println!(
                "cargo:warning=pmc-sys: neither PMC_LIB_DIR nor `pkg-config --libs pmc` found libpmc; \
                 trying the linker's default path"
            );
            Vec::new()
        }),
    };
    for dir in &dirs {
        if !Path::new(dir).is_dir() {
            println!("cargo:warning=pmc-sys: library folder {dir} does not exist");
        }
        println!("cargo:rustc-link-search=native={dir}");
        // For this crate's own test binaries (header_drift links libpmc).
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
    // Dependents' build scripts see this as DEP_PMC_LIB_DIR.
    if let Some(dir) = dirs.first() {
        println!("cargo:lib_dir={dir}");
    }
    println!("cargo:rustc-link-lib=dylib=pmc");

    let header = find_header();
    if let Some(path) = &header {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    // Empty when not found: header_drift then fails with a message saying how to point at it.
    println!("cargo:rustc-env=PMC_SYS_HEADER={}", header.map(|p| p.display().to_string()).unwrap_or_default());
}
