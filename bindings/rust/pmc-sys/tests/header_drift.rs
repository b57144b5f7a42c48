//! Compares the hand-written declarations of src/lib.rs with
//! include/pmc/pmc.h: every `PMC_API` function must be declared with the same
//! parameter names and types and return type, every declared function must
//! exist in the header, and enum constants, handle types and version macros
//! must agree (the version macros live in pmc_version.h, which pmc.h
//! includes). Any difference, in either direction, fails with a list.
//!
//! Function-pointer typedefs (`pmc_progress_fn`) are compared the same way
//! with their `Option<unsafe extern "C" fn(...)>` aliases.
//!
//! build.rs finds the header: `PMC_HEADER`, else `PMC_INCLUDE_DIR/pmc/pmc.h`,
//! else beside this crate in the source tree (`../../../include/pmc/pmc.h`),
//! else pkg-config's include folders.
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Debug, PartialEq, Eq, Clone)]
struct Function {
    params: Vec<(String, String)>, // (name, Rust type)
    ret: String,                   // Rust type, "" for void
}

fn header_path() -> PathBuf {
    // Found by build.rs: PMC_HEADER, PMC_INCLUDE_DIR, the source tree or pkg-config.
    let path = env!("PMC_SYS_HEADER");
    assert!(
        !path.is_empty(),
        "pmc.h not found: set PMC_HEADER to its path or PMC_INCLUDE_DIR to the folder holding pmc/pmc.h"
    );
    PathBuf::from(path)
}

fn read(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn strip_c_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let block = rest.find("/*");
        let line = rest.find("//");
        match (block, line) {
            (Some(b), l) if l.map_or(true, |l| b < l) => {
                out.push_str(&rest[..b]);
                let end = rest[b + 2..].find("*/").expect("unterminated comment") + b + 4;
                out.push(' ');
                rest = &rest[end..];
            }
            (_, Some(l)) => {
                out.push_str(&rest[..l]);
                rest = rest[l..].find('\n').map_or("", |n| &rest[l + n..]);
            }
            (None, None) => {
                out.push_str(rest);
                return out;
            }
            (Some(_), None) => unreachable!(),
        }
    }
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Splits "const char* const* paths" into ("const char* const*", "paths").
fn split_declarator(decl: &str) -> (String, String) {
    let decl = decl.trim();
    let start = decl.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
    (decl[..start].trim().to_owned(), decl[start..].to_owned())
}

/// The Rust spelling of a C type: `const char* const*` -> `*const *const c_char`.
fn c_type_to_rust(c_type: &str) -> String {
    let spaced = c_type.replace('*', " * ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let mut base = None;
    let mut base_const = false;
    let mut stars = Vec::new(); // per '*': is the pointer itself const
    for token in &tokens {
        match *token {
            "const" if stars.is_empty() => base_const = true,
            "const" => *stars.last_mut().unwrap() = true,
            "*" => stars.push(false),
            name => {
                assert!(base.is_none() && stars.is_empty(), "cannot read C type {c_type:?}");
                base = Some(name);
            }
        }
    }
    let base = base.unwrap_or_else(|| panic!("no base type in {c_type:?}"));
    let mut rust = match base {
        "char" => "c_char".to_owned(),
        "int" => "c_int".to_owned(),
        "double" => "f64".to_owned(),
        "uint64_t" => "u64".to_owned(),
        "int64_t" => "i64".to_owned(),
        "void" if stars.is_empty() => String::new(),
        "void" => "c_void".to_owned(),
        other if other.starts_with("pmc_") => other.to_owned(),
        other => panic!("unknown C type {other:?} in {c_type:?}"),
    };
    // The first '*' points at the base type; each further '*' points at the
    // pointer before it, which is const when "const" followed that '*'.
    let mut pointee_const = base_const;
    for pointer_const in stars {
        rust = format!("{} {rust}", if pointee_const { "*const" } else { "*mut" });
        pointee_const = pointer_const;
    }
    rust
}

fn normalize_rust_type(t: &str) -> String {
    let t = squash(t)
        .replace("core::ffi::", "")
        .replace("std::os::raw::", "")
        .replace("std::ffi::", "")
        .replace("c_double", "f64");
    t.trim().to_owned()
}

struct Api {
    functions: BTreeMap<String, Function>,
    callbacks: BTreeMap<String, Function>, // function-pointer typedefs
    constants: BTreeMap<String, i64>,
    handles: Vec<String>,
    enums: Vec<String>,
}

fn parse_header(text: &str) -> Api {
    let mut constants = BTreeMap::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        // The integer version macros (PMC_VERSION_STRING is the same version as text).
        if words.len() == 3 && words[0] == "#define" && words[1].starts_with("PMC_VERSION_") {
            if let Ok(value) = words[2].parse() {
                constants.insert(words[1].to_owned(), value);
            }
        }
    }
    let code: String =
        strip_c_comments(text).lines().filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join("\n");
    let code = squash(&code);

    let mut handles = Vec::new();
    let mut enums = Vec::new();
    let mut callbacks = BTreeMap::new();
    for statement in code.split(';') {
        let statement = statement.trim();
        // typedef void (*pmc_progress_fn)(const char* solver, ...)
        if let Some(i) = statement.find("typedef ").filter(|&i| statement[i..].contains("(*")) {
            let rest = &statement[i + "typedef ".len()..];
            let star = rest.find("(*").unwrap();
            let name_end = star + rest[star..].find(')').expect("typedef name");
            let name = rest[star + 2..name_end].trim().to_owned();
            let params_text = &rest[name_end + 1..];
            let params_text =
                params_text.trim().strip_prefix('(').and_then(|p| p.strip_suffix(')')).expect("typedef parameters");
            let function = Function { params: c_params(params_text), ret: c_type_to_rust(rest[..star].trim()) };
            assert!(callbacks.insert(name.clone(), function).is_none(), "{name} declared twice in the header");
        }
        if let Some(i) = statement.find("typedef struct ") {
            let rest = &statement[i + "typedef struct ".len()..];
            handles.push(rest.split_whitespace().next().unwrap().to_owned());
        }
        if let Some(i) = statement.find("typedef enum ") {
            let rest = &statement[i + "typedef enum ".len()..];
            enums.push(rest.split_whitespace().next().unwrap().to_owned());
            let body = &rest[rest.find('{').unwrap() + 1..rest.find('}').unwrap()];
            for item in body.split(',') {
                let (name, value) = item.split_once('=').expect("enum constants have explicit values");
                constants.insert(name.trim().to_owned(), value.trim().parse().expect("enum value"));
            }
        }
    }

    let mut functions = BTreeMap::new();
    for piece in code.split("PMC_API").skip(1) {
        let decl = piece.split(';').next().unwrap().trim();
        let open = decl.find('(').expect("function declaration");
        let close = decl.rfind(')').unwrap();
        let (ret, name) = split_declarator(&decl[..open]);
        let params = c_params(&decl[open + 1..close]);
        let previous = functions.insert(name.clone(), Function { params, ret: c_type_to_rust(&ret) });
        assert!(previous.is_none(), "{name} declared twice in the header");
    }
    Api { functions, callbacks, constants, handles, enums }
}

/// "const char* path, uint64_t n" -> [("path", "*const c_char"), ("n", "u64")].
fn c_params(text: &str) -> Vec<(String, String)> {
    let text = text.trim();
    if text == "void" || text.is_empty() {
        return Vec::new();
    }
    text.split(',')
        .map(|p| {
            let (t, n) = split_declarator(p);
            (n, c_type_to_rust(&t))
        })
        .collect()
}

/// "solver: *const c_char, n: u64" -> [("solver", "*const c_char"), ("n", "u64")].
fn rust_params(text: &str, of: &str) -> Vec<(String, String)> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (n, t) = p.split_once(':').unwrap_or_else(|| panic!("parameter {p:?} of {of}"));
            // `type` and `fn` are Rust keywords: pmc-sys spells them `type_`, `fn_`.
            (n.trim().trim_end_matches('_').to_owned(), normalize_rust_type(t))
        })
        .collect()
}

fn parse_rust(text: &str) -> Api {
    let code: String = text.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n");
    let code = squash(&code);

    let mut constants = BTreeMap::new();
    let mut handles = Vec::new();
    let mut enums = Vec::new();
    let mut callbacks = BTreeMap::new();
    for statement in code.split(';') {
        let statement = statement.trim();
        if let Some(i) = statement.rfind("pub const ") {
            let rest = &statement[i + "pub const ".len()..];
            let (name, rest) = rest.split_once(':').unwrap();
            let value = rest.split_once('=').unwrap().1.trim();
            constants.insert(name.trim().to_owned(), value.parse().expect("integer constant"));
        }
        if let Some(i) = statement.rfind("pub type ") {
            let rest = &statement[i + "pub type ".len()..];
            let (name, target) = rest.split_once('=').unwrap();
            let name = name.trim().to_owned();
            let target = squash(target);
            if target.contains("fn(") {
                // C function pointers may be NULL: Option<unsafe extern "C" fn(...) -> R>.
                let inner = target
                    .strip_prefix("Option<")
                    .and_then(|t| t.strip_suffix('>'))
                    .unwrap_or_else(|| panic!("{name}: a C function pointer must be Option<...>"))
                    .trim()
                    .trim_end_matches(',')
                    .trim();
                let inner = inner
                    .strip_prefix("unsafe extern \"C\" fn(")
                    .unwrap_or_else(|| panic!("{name}: expected `unsafe extern \"C\" fn(`"));
                let close = inner.rfind(')').unwrap();
                let ret = inner[close + 1..].trim().strip_prefix("->").map_or(String::new(), normalize_rust_type);
                let function = Function { params: rust_params(&inner[..close], &name), ret };
                assert!(callbacks.insert(name.clone(), function).is_none(), "{name} declared twice in pmc-sys");
            } else {
                assert_eq!(normalize_rust_type(&target), "c_int", "C enums are c_int aliases");
                enums.push(name);
            }
        }
    }
    let mut rest = code.as_str();
    while let Some(i) = rest.find("pub struct ") {
        rest = &rest[i + "pub struct ".len()..];
        handles.push(rest.split(|c: char| !is_ident_char(c)).next().unwrap().to_owned());
    }

    let block_start = code.find("extern \"C\" {").expect("extern \"C\" block") + "extern \"C\" {".len();
    let block = &code[block_start..];
    let block = &block[..block.rfind('}').unwrap()];
    let mut functions = BTreeMap::new();
    for item in block.split(';') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let decl = item.strip_prefix("pub fn ").unwrap_or_else(|| panic!("not `pub fn`: {item}"));
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        let name = decl[..open].trim().to_owned();
        let params = rust_params(&decl[open + 1..close], &name);
        let ret = decl[close + 1..].trim().strip_prefix("->").map_or(String::new(), normalize_rust_type);
        let previous = functions.insert(name.clone(), Function { params, ret });
        assert!(previous.is_none(), "{name} declared twice in pmc-sys");
    }
    Api { functions, callbacks, constants, handles, enums }
}

/// pmc.h followed by pmc_version.h, which it includes and which meson
/// generates into the build tree (build.rs finds it: PMC_VERSION_HEADER,
/// beside pmc.h, or the source tree's build/include/pmc).
fn header_text() -> String {
    let version_header = env!("PMC_SYS_VERSION_HEADER");
    assert!(
        !version_header.is_empty(),
        "pmc_version.h not found: set PMC_VERSION_HEADER to its path (a meson build's include/pmc/pmc_version.h)"
    );
    read(&header_path()) + "\n" + &read(&PathBuf::from(version_header))
}

#[test]
fn declarations_match_the_header() {
    let header = parse_header(&header_text());
    let rust = parse_rust(&read(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")));
    assert!(header.functions.len() > 50, "parsed only {} functions from the header", header.functions.len());
    assert!(!header.callbacks.is_empty(), "parsed no function-pointer typedef from the header");

    let mut problems = Vec::new();
    for (name, c) in &header.functions {
        match rust.functions.get(name) {
            None => problems.push(format!("{name}: in pmc.h, missing in pmc-sys")),
            Some(r) if r != c => problems.push(format!("{name}: pmc.h has {c:?}, pmc-sys has {r:?}")),
            Some(_) => {}
        }
    }
    for name in rust.functions.keys().filter(|n| !header.functions.contains_key(*n)) {
        problems.push(format!("{name}: in pmc-sys, not in pmc.h"));
    }
    for (name, c) in &header.callbacks {
        match rust.callbacks.get(name) {
            None => problems.push(format!("typedef {name}: in pmc.h, missing in pmc-sys")),
            Some(r) if r != c => problems.push(format!("typedef {name}: pmc.h has {c:?}, pmc-sys has {r:?}")),
            Some(_) => {}
        }
    }
    for name in rust.callbacks.keys().filter(|n| !header.callbacks.contains_key(*n)) {
        problems.push(format!("typedef {name}: in pmc-sys, not in pmc.h"));
    }
    for (name, value) in &header.constants {
        match rust.constants.get(name) {
            None => problems.push(format!("{name}: in pmc.h, missing in pmc-sys")),
            Some(v) if v != value => problems.push(format!("{name}: {value} in pmc.h, {v} in pmc-sys")),
            Some(_) => {}
        }
    }
    for name in rust.constants.keys().filter(|n| !header.constants.contains_key(*n)) {
        problems.push(format!("constant {name}: in pmc-sys, not in pmc.h"));
    }
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let (hh, rh) = (sorted(header.handles), sorted(rust.handles));
    if hh != rh {
        problems.push(format!("handle types: pmc.h {hh:?}, pmc-sys {rh:?}"));
    }
    let (he, re) = (sorted(header.enums), sorted(rust.enums));
    if he != re {
        problems.push(format!("enum types: pmc.h {he:?}, pmc-sys {re:?}"));
    }
    assert!(problems.is_empty(), "pmc-sys differs from pmc.h:\n  {}", problems.join("\n  "));
}

#[test]
fn c_types_translate() {
    assert_eq!(c_type_to_rust("const char* const*"), "*const *const c_char");
    assert_eq!(c_type_to_rust("const char**"), "*mut *const c_char");
    assert_eq!(c_type_to_rust("pmc_model**"), "*mut *mut pmc_model");
    assert_eq!(c_type_to_rust("const pmc_model*"), "*const pmc_model");
    assert_eq!(c_type_to_rust("uint64_t"), "u64");
    assert_eq!(c_type_to_rust("void"), "");
}

#[test]
fn linked_library_matches_the_declared_version() {
    // The calls that prove the crate links and runs against libpmc.
    let number = unsafe { pmc_sys::pmc_version_number() };
    assert_eq!(number as u32, pmc_sys::PMC_VERSION_NUMBER);
    let version = unsafe { std::ffi::CStr::from_ptr(pmc_sys::pmc_version()) };
    let expected =
        format!("{}.{}.{}", pmc_sys::PMC_VERSION_MAJOR, pmc_sys::PMC_VERSION_MINOR, pmc_sys::PMC_VERSION_PATCH);
    assert_eq!(version.to_str().unwrap(), expected);
}
