//! The floors of `docs/ARCHITECTURE.md`, checked on the source: every module
//! uses only modules on its own floor or below, the modules of one floor form
//! no cycle, only the catalogue and the bidding folder name the bidding game,
//! and no code downcasts through `Any`. Test modules (`#[cfg(test)]`, at the
//! end of a file) may reach up: a rule test may play a game.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// The floors, bottom first.
const FLOORS: [&str; 16] = [
    "core", "show", "external", "stats", "plan", "journal", "report", "run", "ladder", "arena",
    "web", "play", "games", "check", "catalog", "binary",
];

fn floor_of(module: &str) -> usize {
    let top = module.split("::").next().unwrap_or("");
    let name = match top {
        "main" | "cli" | "cmd" => "binary",
        other => other,
    };
    FLOORS
        .iter()
        .position(|f| *f == name)
        .unwrap_or_else(|| panic!("module {module} is on no floor; add it to FLOORS"))
}

/// Every `.rs` file under `src/`, with its module path (`journal`).
fn modules() -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files
        .into_iter()
        .filter(|p| !p.ends_with("lib.rs"))
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|l| l == "mod") {
                parts.pop();
            }
            (parts.join("::"), p)
        })
        .collect()
}

/// The code of a file without its test module and its comments (a doc
/// link is no dependency).
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => &text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path that starts with `prefix` (`crate::`, `super::`, `ladder::`),
/// with `use` groups expanded: `crate::{a::b, c}` gives `a::b` and `c`.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // part of a longer path or name
        }
        parse_tree(rest, String::new(), &mut out);
    }
    out
}

/// Parses one use tree at the start of `s`, adding full paths under `base`.
fn parse_tree(s: &str, base: String, out: &mut Vec<String>) -> usize {
    let s_trim = s.trim_start();
    let skipped = s.len() - s_trim.len();
    if let Some(inner) = s_trim.strip_prefix('{') {
        let mut used = 1;
        let mut body = inner;
        loop {
            let n = parse_tree(body, base.clone(), out);
            body = &body[n..];
            used += n;
            let t = body.trim_start();
            used += body.len() - t.len();
            body = t;
            if let Some(r) = body.strip_prefix(',') {
                body = r;
                used += 1;
                let t = body.trim_start();
                used += body.len() - t.len();
                body = t;
            }
            if let Some(r) = body.strip_prefix('}') {
                let _ = r;
                return skipped + used + 1;
            }
            if body.is_empty() {
                return skipped + used;
            }
        }
    }
    let ident: String = s_trim
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let full = if base.is_empty() {
        ident.clone()
    } else {
        format!("{base}::{ident}")
    };
    let after = &s_trim[ident.len()..];
    if let Some(next) = after.strip_prefix("::") {
        return skipped + ident.len() + 2 + parse_tree(next, full, out);
    }
    if !ident.is_empty() {
        out.push(full);
    }
    skipped + ident.len()
}

/// The module of `modules` that a path names: its longest known prefix.
fn target<'a>(modules: &'a BTreeMap<String, PathBuf>, path: &str) -> Option<&'a str> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find_map(|p| modules.get_key_value(&p).map(|(k, _)| k.as_str()))
}

/// Which modules each module uses.
fn uses() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let mut graph = BTreeMap::new();
    for (module, path) in &modules {
        let code = code(path);
        let binary = floor_of(module) == FLOORS.len() - 1;
        let mut found = paths_after(&code, if binary { "ladder::" } else { "crate::" });
        let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
        let is_dir = path.ends_with("mod.rs");
        for p in paths_after(&code, "super::") {
            let base = if is_dir {
                parent.rsplit_once("::").map_or("", |(p, _)| p)
            } else {
                parent
            };
            found.push(if base.is_empty() {
                p
            } else {
                format!("{base}::{p}")
            });
        }
        if binary {
            found.extend(paths_after(&code, "crate::"));
        }
        let targets: BTreeSet<String> = found
            .iter()
            .filter_map(|p| target(&modules, p))
            .filter(|t| t != module)
            .map(str::to_string)
            .collect();
        graph.insert(module.clone(), targets);
    }
    graph
}

#[test]
fn no_module_uses_a_floor_above_it() {
    let mut wrong = Vec::new();
    for (module, targets) in uses() {
        for t in targets {
            if floor_of(&t) > floor_of(&module) {
                wrong.push(format!("{module} uses {t}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows pointing up:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_modules_form_no_cycle() {
    let graph = uses();
    // depth-first search for a back edge
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(1) => {
                let start = stack.iter().position(|s| s == m).unwrap();
                return Some(stack[start..].to_vec());
            }
            Some(_) => return None,
            None => {}
        }
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for t in graph.get(m).into_iter().flatten() {
            // a folder's mod.rs re-exporting its own children is no cycle
            if t.starts_with(&format!("{m}::")) {
                continue;
            }
            if let Some(cycle) = visit(t, graph, state, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if let Some(cycle) = visit(m, &graph, &mut state, &mut Vec::new()) {
            panic!("a cycle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn only_the_catalogue_and_the_game_folder_name_a_game() {
    for (module, path) in modules() {
        let code = code(&path);
        let allowed = module == "catalog" || module.starts_with("games::bidding");
        assert!(
            allowed || !code.contains("\"bidding\""),
            "{module} names the bidding game"
        );
        assert!(!code.contains("dyn Any"), "{module} downcasts through Any");
    }
}

#[test]
fn the_checker_sees_imports() {
    // the parser itself, on the shapes the code uses
    let code = "use crate::{\n    core::{bot::Bot, seat::Seat},\n    plan::Roster,\n};\nlet x = crate::external::line_protocol();";
    let mut paths = paths_after(code, "crate::");
    paths.sort();
    assert_eq!(
        paths,
        [
            "core::bot::Bot",
            "core::seat::Seat",
            "external::line_protocol",
            "plan::Roster"
        ]
    );
    let graph = uses();
    assert!(graph["run::tournament"].contains("journal"));
    assert!(graph["catalog"].contains("games::gdl"));
    assert!(graph["games::bidding::bots"].contains("games::bidding::solver"));
}

#[test]
fn the_protocol_doc_states_each_games_rules_as_its_source_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/PROTOCOL.md")).unwrap();
    for game in [
        "bidding",
        "armies",
        "troops",
        "coordination",
        "breakthrough",
        "gdl",
    ] {
        let source = fs::read_to_string(root.join(format!("src/games/{game}/rules.rs"))).unwrap();
        let header: Vec<&str> = source
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| {
                l.strip_prefix("//! ")
                    .unwrap_or(l.trim_start_matches("//!"))
            })
            .collect();
        let header = header.join("\n");
        let rules = header
            .split("Rules:")
            .nth(1)
            .and_then(|r| r.split("\n\nParameters").next())
            .unwrap_or_else(|| panic!("{game}: no `Rules:` in the file's opening comment"))
            .trim();
        assert!(
            doc.contains(&format!("### {game}\n\n{rules}\n")),
            "docs/PROTOCOL.md does not state the rules of {game} as its rules.rs does"
        );
    }
}

/// What every catalogue game must have besides its code: a shipped season
/// that names it, an example bot program, its rules and a transcript in
/// docs/PROTOCOL.md, its parameters in docs/CONFIG.md. The per-game tests
/// loop over the catalogue (tests/games.rs, tests/cli.rs, tests/external.rs),
/// so a game added there is tested; this test fails when a game is added
/// without the rest.
#[test]
fn every_catalogue_game_is_shipped_and_documented() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| fs::read_to_string(root.join(p)).unwrap();
    let protocol = read("docs/PROTOCOL.md");
    let rules = &protocol[protocol.find("## The rules of each game").unwrap()..];
    let transcripts = &protocol[protocol.find("## Transcripts").unwrap()..];
    let config_doc = read("docs/CONFIG.md");
    let mut missing = Vec::new();
    for kind in ladder::catalog::GameKind::ALL {
        let name = kind.name();
        let config = read(kind.config());
        if !config.contains(&format!("game = \"{name}\"")) {
            missing.push(format!("{}: does not name {name}", kind.config()));
        }
        if !root.join(kind.example_bot()).is_file() {
            missing.push(format!("{name}: no {}", kind.example_bot()));
        }
        let heading = format!("\n### {name}\n");
        if !rules.contains(&heading) {
            missing.push(format!("{name}: no rules in docs/PROTOCOL.md"));
        }
        if !transcripts.contains(&heading) {
            missing.push(format!("{name}: no transcript in docs/PROTOCOL.md"));
        }
        if !config_doc.contains(&format!("`{name}`")) {
            missing.push(format!("{name}: not in docs/CONFIG.md"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The rooms may hold rules (a game's `rules.rs`, the GDL reasoner) and
/// solvers (`solver.rs`, `search.rs`) at any length; everything else stays
/// under 600 lines before its test module, so a newcomer reads a room whole;
/// `main.rs` only parses, dispatches and maps errors (under 150).
#[test]
fn no_room_outside_rules_and_solvers_is_over_600_lines_and_main_is_thin() {
    let exempt = |module: &str| {
        module.starts_with("games::gdl::")
            || ["rules", "solver", "search"]
                .iter()
                .any(|name| module.ends_with(&format!("::{name}")))
    };
    let mut long = Vec::new();
    for (module, path) in modules() {
        let text = fs::read_to_string(&path).unwrap();
        let lines = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .count();
        let limit = if module == "main" { 150 } else { 600 };
        if lines > limit && !exempt(&module) {
            long.push(format!("{module}: {lines} lines (limit {limit})"));
        }
    }
    assert!(long.is_empty(), "rooms too long to read whole: {long:?}");
}
