//! The shape of src/ (docs/ARCHITECTURE.md, issue 24): no import circle between modules,
//! nothing below `commands` importing `cli` or `commands`, and no file over 600 lines.
//! What today's code still breaks is listed in tests/layout-baseline.txt, which may only
//! shrink: a listed file may not grow past its listed length, a listed circle may not take
//! in another module, and anything new must keep the rules. Run by `make lint`.
//!
//! A module is a file (`src/a/b.rs` is `a::b`, `src/a/mod.rs` is `a`). It imports another
//! when it names it in a `crate::…` or `super::…` path (in `use` or inline); a module naming
//! its own ancestors (a child using what its parent holds) is not an import back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest a file may be.
const MAX_LINES: usize = 600;

/// Every .rs file under src/ but the binaries, with its module path.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "bin") {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.last().is_some_and(|l| l == "mod") {
            parts.pop();
        }
        let name = parts.join("::");
        if name == "lib" || name == "main" {
            continue;
        }
        out.insert(name, f);
    }
    out
}

/// The paths a file names after `crate::` and `super::`, resolved to absolute module paths
/// (`a::b::Item`), braces expanded.
fn named_paths(text: &str, module: &str) -> Vec<String> {
    let code: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let start = if boundary && rest.starts_with(b"crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if boundary && rest.starts_with(b"super::") {
            // `super` of `a::b` (a/b.rs) is `a`; of `a` (a/mod.rs), the root.
            let mut base: Vec<String> = module.split("::").map(String::from).collect();
            let mut at = 0;
            while bytes[i + at..].starts_with(b"super::") {
                base.pop();
                at += "super::".len();
            }
            Some((base, at))
        } else {
            None
        };
        match start {
            Some((base, len)) => {
                let (paths, used) = parse_tree(&code[i + len..]);
                for p in paths {
                    let mut full = base.clone();
                    full.extend(p);
                    out.push(full.join("::"));
                }
                i += len + used.max(1);
            }
            None => i += 1,
        }
    }
    out
}

/// A path tree after `crate::`: `a::b::{c, d::e}` gives [a,b,c] and [a,b,d,e]. Returns the
/// paths and the bytes read.
fn parse_tree(s: &str) -> (Vec<Vec<String>>, usize) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut prefix = Vec::new();
    loop {
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if i > start {
            prefix.push(s[start..i].to_string());
        }
        if s[i..].starts_with("::") {
            i += 2;
            if s[i..].starts_with('{') {
                i += 1;
                let mut out = Vec::new();
                loop {
                    while i < b.len() && (b[i] as char).is_whitespace() {
                        i += 1;
                    }
                    if i >= b.len() || b[i] == b'}' {
                        i += 1;
                        break;
                    }
                    let (sub, used) = parse_tree(&s[i..]);
                    for p in sub {
                        let mut full = prefix.clone();
                        full.extend(p);
                        out.push(full);
                    }
                    i += used.max(1);
                    while i < b.len() && (b[i] as char).is_whitespace() {
                        i += 1;
                    }
                    if i < b.len() && b[i] == b',' {
                        i += 1;
                    }
                }
                return (out, i);
            }
            continue;
        }
        return (vec![prefix], i);
    }
}

/// The module a path names: its longest prefix that is a module.
fn module_of(path: &str, mods: &BTreeMap<String, PathBuf>) -> Option<String> {
    let parts: Vec<&str> = path.split("::").filter(|p| *p != "self").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find(|m| mods.contains_key(m))
}

fn is_ancestor(a: &str, of: &str) -> bool {
    of.starts_with(&format!("{a}::"))
}

/// Module → the modules it imports.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(src);
    let mut g = BTreeMap::new();
    for (m, f) in &mods {
        let text = std::fs::read_to_string(f).unwrap();
        let mut to = BTreeSet::new();
        for p in named_paths(&text, m) {
            if let Some(t) = module_of(&p, &mods)
                && t != *m
                && !is_ancestor(&t, m)
            {
                to.insert(t);
            }
        }
        g.insert(m.clone(), to);
    }
    g
}

/// The circles: strongly connected sets of more than one module (Tarjan's algorithm).
fn circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let l = t.low[w].min(t.low[v]);
                t.low.insert(v, l);
            } else if t.on.contains(w) {
                let l = t.index[w].min(t.low[v]);
                t.low.insert(v, l);
            }
        }
        if t.low[v] == t.index[v] {
            let mut set = BTreeSet::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                set.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                t.out.push(set);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

/// What tests/layout-baseline.txt lets today's code keep: `lines PATH N` and
/// `circle A B C…`.
struct Baseline {
    lines: BTreeMap<String, usize>,
    circles: Vec<BTreeSet<String>>,
}

fn baseline(root: &Path) -> Baseline {
    let text = std::fs::read_to_string(root.join("tests/layout-baseline.txt")).unwrap_or_default();
    let mut b = Baseline {
        lines: BTreeMap::new(),
        circles: Vec::new(),
    };
    for (n, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let mut w = l.split_whitespace();
        match w.next() {
            Some("lines") => {
                let (Some(p), Some(k)) = (w.next(), w.next().and_then(|k| k.parse().ok())) else {
                    panic!("tests/layout-baseline.txt line {}: lines PATH N", n + 1);
                };
                b.lines.insert(p.to_string(), k);
            }
            Some("circle") => b.circles.push(w.map(String::from).collect()),
            _ => panic!(
                "tests/layout-baseline.txt line {}: 'lines' or 'circle'",
                n + 1
            ),
        }
    }
    b
}

#[test]
fn src_has_no_new_circles_no_upward_imports_and_no_long_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let base = baseline(root);
    let mut problems = Vec::new();

    // Lengths.
    let mut walk = vec![src.clone()];
    while let Some(d) = walk.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                let n = std::fs::read_to_string(&p).unwrap().lines().count();
                let limit = base
                    .lines
                    .get(&rel)
                    .copied()
                    .unwrap_or(MAX_LINES)
                    .max(MAX_LINES);
                if n > limit {
                    problems.push(format!(
                        "{rel}: {n} lines, more than {limit} (split it: ~{MAX_LINES} a file)"
                    ));
                }
            }
        }
    }

    // Circles.
    let g = graph(&src);
    for c in circles(&g) {
        if !base.circles.iter().any(|b| c.is_subset(b)) {
            let list: Vec<&str> = c.iter().map(String::as_str).collect();
            problems.push(format!("an import circle: {}", list.join(" <-> ")));
        }
    }

    // Nothing below the commands sees the command line.
    for (m, to) in &g {
        let top = m.split("::").next().unwrap_or("");
        if top == "cli" || top == "commands" {
            continue;
        }
        for t in to {
            let tt = t.split("::").next().unwrap_or("");
            if tt == "cli" || tt == "commands" {
                problems.push(format!("{m} imports {t}: only commands may"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "src/'s shape:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_checker_finds_what_it_should() {
    let (p, _) = parse_tree("a::b::{c, d::{e, f}, g}; x");
    let got: Vec<String> = p.iter().map(|v| v.join("::")).collect();
    assert_eq!(got, ["a::b::c", "a::b::d::e", "a::b::d::f", "a::b::g"]);
    let named = named_paths(
        "use crate::x::Y;\nuse super::sib::Z; // crate::not::this\nfn f() { crate::z::g(); }",
        "p::me",
    );
    assert_eq!(named, ["x::Y", "p::sib::Z", "z::g"]);
    let mut g = BTreeMap::new();
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    g.insert("a".to_string(), set(&["b"]));
    g.insert("b".to_string(), set(&["c"]));
    g.insert("c".to_string(), set(&["a"]));
    g.insert("d".to_string(), set(&["a"]));
    assert_eq!(circles(&g), vec![set(&["a", "b", "c"])]);
}
