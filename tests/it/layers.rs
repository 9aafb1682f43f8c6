//! The layering rule of `src/` (see `src/lib.rs` and `docs/src/architecture.md`), checked on the
//! source itself: a module uses only modules of its own layer or of the layers below it, and no
//! two modules use each other, directly or around a circle.
//!
//! A module is a file; a file's `tests` child counts as the file itself. A use is any path that
//! starts with `crate::` or `super::`, resolved to the deepest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers from the bottom up. A module's layer is the longest entry its path starts with.
const LAYERS: &[&[&str]] = &[
    &["protocol"],
    &["engine", "config"],
    &["engine", "select"],
    &["engine", "execute"],
    &["engine", "verdict"],
    &["engine", "notice"],
    &["engine", "trace"],
    &["engine", "validate"],
    &["engine", "dispatch"],
    &["engine"],
    &["host"],
    &["commands"],
    &["cli"],
    &[],
];

type Module = Vec<String>;

struct Use {
    from: Module,
    to: Module,
    file: PathBuf,
    line: usize,
}

fn module_of(src: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(src).expect("a file under src/");
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    if parts.last().is_some_and(|p| p == "tests") {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The identifier path that starts at `text` (`a::b::c`), up to the first character that cannot
/// be part of one.
fn path_at(text: &str) -> Vec<String> {
    let end = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).unwrap_or(text.len());
    text[..end].split("::").filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// The deepest known module that `path` names.
fn resolve(path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|candidate| modules.contains(candidate))
}

fn uses(src: &Path) -> (BTreeSet<Module>, Vec<Use>) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    let mut found = Vec::new();
    for file in &files {
        let from = module_of(src, file);
        let is_tests = file.file_stem().is_some_and(|s| s == "tests");
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (index, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (at, _) in code.match_indices("crate::").chain(code.match_indices("super::")) {
                let rest = &code[at..];
                let mut path = path_at(rest);
                if path.first().is_some_and(|p| p == "crate") {
                    path.remove(0);
                } else {
                    // `super` from a file is its parent module; from a `tests` child, the file's.
                    let mut base = from.clone();
                    if !is_tests {
                        base.pop();
                    }
                    path.remove(0);
                    base.extend(path);
                    path = base;
                }
                let Some(to) = resolve(&path, &modules) else { continue };
                if to != from && !to.is_empty() {
                    found.push(Use { from: from.clone(), to, file: file.clone(), line: index + 1 });
                }
            }
        }
    }
    (modules, found)
}

fn layer(module: &Module) -> usize {
    LAYERS
        .iter()
        .enumerate()
        .filter(|(_, prefix)| module.starts_with(&prefix.iter().map(|s| s.to_string()).collect::<Vec<_>>()))
        .max_by_key(|(_, prefix)| prefix.len())
        .map(|(rank, _)| rank)
        .unwrap_or(LAYERS.len())
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let (_, uses) = uses(&src());
    assert!(uses.len() > 50, "the scan found only {} uses: is it still reading src/?", uses.len());
    let upward: Vec<String> = uses
        .iter()
        .filter(|u| {
            let (from, to) = (layer(&u.from), layer(&u.to));
            // `engine` itself (its mod.rs) only declares the sub-layers.
            to > from && !(u.to.len() == 1 && u.to[0] == "engine")
        })
        .map(|u| format!("{}:{}: {} uses {}, a layer above it", u.file.display(), u.line, name(&u.from), name(&u.to)))
        .collect();
    assert!(upward.is_empty(), "uses that point up:\n{}", upward.join("\n"));
}

#[test]
fn no_modules_use_each_other_in_a_circle() {
    let (modules, uses) = uses(&src());
    let mut graph: BTreeMap<&Module, BTreeSet<&Module>> = modules.iter().map(|m| (m, BTreeSet::new())).collect();
    for u in &uses {
        graph.entry(&u.from).or_default().insert(&u.to);
    }
    // Depth-first search, colouring modules on the current path.
    fn visit<'m>(
        module: &'m Module,
        graph: &BTreeMap<&'m Module, BTreeSet<&'m Module>>,
        path: &mut Vec<&'m Module>,
        done: &mut BTreeSet<&'m Module>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| *m == module) {
            let mut circle: Vec<String> = path[start..].iter().map(|m| name(m)).collect();
            circle.push(name(module));
            return Some(circle);
        }
        if !done.insert(module) {
            return None;
        }
        path.push(module);
        for next in graph.get(module).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for module in &modules {
        if let Some(circle) = visit(module, &graph, &mut Vec::new(), &mut done) {
            panic!("modules that use each other in a circle: {}", circle.join(" -> "));
        }
    }
}

#[test]
fn the_check_sees_an_upward_use() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("engine")).expect("mkdir");
    std::fs::create_dir_all(src.join("host")).expect("mkdir");
    std::fs::write(src.join("engine/mod.rs"), "pub mod dispatch;\n").expect("write");
    std::fs::write(src.join("engine/dispatch.rs"), "use crate::host::codex;\n").expect("write");
    std::fs::write(src.join("host/mod.rs"), "pub mod codex;\n").expect("write");
    std::fs::write(src.join("host/codex.rs"), "use crate::engine::dispatch;\n").expect("write");
    let (_, found) = uses(&src);
    let upward: Vec<_> = found.iter().filter(|u| layer(&u.to) > layer(&u.from)).collect();
    assert_eq!(upward.len(), 1);
    assert_eq!((name(&upward[0].from), name(&upward[0].to)), ("engine::dispatch".into(), "host::codex".into()));
}
