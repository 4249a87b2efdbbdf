//! The rooms of the code and what each may import, as ARCHITECTURE.md draws them, checked on
//! the source: a change that adds an import across rooms against this table, or a cycle, fails
//! here with the file that does it.
//!
//! A module's path comes from its file (`src/core/fov/ray.rs` is `core::fov::ray`); its room is
//! `core::<folder or file>` in the core, else the top module (`app`, `cli`). Imports are the
//! `crate::…` and `super::…` paths in the code outside its unit tests (a file's trailing
//! `#[cfg(test)]` module); comments are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each room and the rooms it may import. A room not listed may import nothing outside itself.
const ALLOWED: &[(&str, &[&str])] = &[
    ("core::rng", &[]),
    ("core::model", &[]),
    ("core::fov", &["core::model", "core::rng"]),
    ("core::path", &["core::model"]),
    ("core::ext", &["core::model", "core::fov", "core::path"]),
    ("core::sim", &["core::model", "core::fov", "core::path", "core::ext", "core::rng"]),
    ("core::analysis", &["core::model", "core::fov", "core::path", "core::ext", "core::sim"]),
    ("core::format", &["core::model"]),
    ("core::edit", &["core::model", "core::rng", "core::format"]),
    ("core::generate", &["core::model", "core::rng", "core::format"]),
    ("cli", &["core"]),
    ("app", &["core"]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/core/fov/ray.rs` → `["core", "fov", "ray"]`; `mod.rs` names its folder.
fn module_of(file: &Path, src: &Path) -> Vec<String> {
    let mut parts: Vec<String> =
        file.strip_prefix(src).unwrap().with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts
}

/// The room of a module path: two parts in the core, one elsewhere.
fn room_of(module: &[String]) -> String {
    match module {
        [first, second, ..] if first == "core" => format!("core::{second}"),
        [first, ..] => first.clone(),
        [] => String::new(),
    }
}

/// The code of a file without its unit tests and comments.
fn code_of(text: &str) -> String {
    let text = match text.find("\n#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The module paths a file's code names: `crate::a::b…` as `[a, b]`, `super::…` resolved.
fn imports_of(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let words: Vec<&str> = code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).collect();
    let mut out = Vec::new();
    for word in words {
        let parts: Vec<&str> = word.split("::").collect();
        let (base, rest) = if parts[0] == "crate" {
            (Vec::new(), &parts[1..])
        } else if parts[0] == "super" {
            let ups = parts.iter().take_while(|p| **p == "super").count();
            // In `a/b.rs` and in `a/b/mod.rs` (both module a::b), `super` is `a`.
            let keep = module.len().saturating_sub(ups);
            (module[..keep].to_vec(), &parts[ups..])
        } else {
            continue;
        };
        let mut path = base;
        path.extend(rest.iter().take(3).filter(|p| !p.is_empty()).map(|p| p.to_string()));
        out.push(path);
    }
    out
}

#[test]
fn rooms_import_only_what_the_architecture_allows_and_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let allowed: BTreeMap<&str, BTreeSet<&str>> =
        ALLOWED.iter().map(|(room, may)| (*room, may.iter().copied().collect())).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut wrong = Vec::new();
    for file in &files {
        let module = module_of(file, &src);
        let room = room_of(&module);
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for import in imports_of(&code, &module) {
            let target = room_of(&import);
            // `crate::core::Map`: the core's public face, allowed wherever the core is.
            let target = if target.starts_with("core::") && target[6..].starts_with(char::is_uppercase) {
                "core".to_owned()
            } else {
                target
            };
            if target.is_empty() || target == room || (room.starts_with("core::") && target == "core") {
                continue;
            }
            graph.entry(room.clone()).or_default().insert(target.clone());
            let may = allowed.get(room.as_str());
            let ok = may.is_some_and(|may| {
                may.contains(target.as_str()) || (may.contains("core") && target.starts_with("core"))
            });
            if !ok {
                wrong.push(format!("{} ({room}) imports {target}", file.strip_prefix(&src).unwrap().display()));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "imports across rooms that ARCHITECTURE.md does not allow:\n{}", wrong.join("\n"));
    // No cycle among the rooms (the table above has none; this catches one through `core`).
    for start in graph.keys() {
        let mut stack: Vec<&String> = graph[start].iter().collect();
        let mut seen = BTreeSet::new();
        while let Some(room) = stack.pop() {
            assert_ne!(room, start, "the rooms import each other in a cycle through {start}");
            if seen.insert(room) {
                stack.extend(graph.get(room).into_iter().flatten());
            }
        }
    }
}

#[test]
fn the_core_names_no_gui_crate() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    rust_files(&core, &mut files);
    for file in files {
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        for gui in ["egui", "eframe", "rfd"] {
            let named = code.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == gui);
            assert!(!named, "{} names {gui}: the core must build without the GUI", file.display());
        }
    }
}

/// Inside a room, the modules beside each other (`core::format::tmx`, `core::format::tmj`, …)
/// import each other in no cycle: shared pieces go in a leaf module, and the room's `mod.rs`
/// (which may dispatch to all of them) is left out.
#[test]
fn modules_within_a_room_import_each_other_in_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("core"), &mut files);
    // `core::format::tmx` for any file under `src/core/format/tmx/`.
    let sibling = |module: &[String]| (module.len() >= 3).then(|| module[..3].join("::"));
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file, &src);
        let Some(from) = sibling(&module) else { continue };
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for import in imports_of(&code, &module) {
            if let Some(to) = sibling(&import)
                && to != from
                && to[..to.rfind("::").unwrap()] == from[..from.rfind("::").unwrap()]
            {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    for start in graph.keys() {
        let mut stack: Vec<(&String, Vec<&String>)> = graph[start].iter().map(|m| (m, vec![start, m])).collect();
        let mut seen = BTreeSet::new();
        while let Some((module, path)) = stack.pop() {
            assert_ne!(
                module,
                start,
                "modules import each other in a cycle: {}",
                path.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(" → ")
            );
            if seen.insert(module) {
                for next in graph.get(module).into_iter().flatten() {
                    let mut path = path.clone();
                    path.push(next);
                    stack.push((next, path));
                }
            }
        }
    }
}
