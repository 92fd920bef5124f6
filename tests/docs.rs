//! The docs cannot drift from the command line: every `txbench …` line in a ```sh block of
//! README.md and docs/*.md is parsed with the real CLI (`txbench::cli::Cli`), and a line
//! that no longer parses fails this test with its file, line and clap's error. Run by
//! `make lint`; needs no database.
//!
//! What is checked: in a block opened with ```sh, each line that starts with `txbench `
//! after a trailing `# comment` is cut and lines ending in `\` are joined. A line holding a
//! placeholder is a synopsis, not a command, and is skipped: `...` (or `…`), `[` … `]`,
//! `<word>`, `$(`. Synopses belong in ```text blocks, which are never checked. Shell
//! operators (`&&`, `||`, `;`, `|`) separate commands, each `txbench` one checked;
//! redirections (`> FILE`) are dropped.

use clap::Parser;
use clap::error::ErrorKind;
use std::path::{Path, PathBuf};

/// The fewest command lines the docs may hold: a check of nothing passes nothing.
const MIN_CHECKED: usize = 30;

/// What checking one Markdown file found.
#[derive(Debug, Default)]
struct Checked {
    /// Commands that parsed.
    parsed: usize,
    /// `txbench` lines skipped for a placeholder (synopses).
    skipped: usize,
    /// One message per command that did not: `file:line: command`, then clap's error.
    failures: Vec<String>,
}

/// A logical command line of a ```sh block: its first physical line's number and its text
/// (continuations joined, the trailing comment cut).
struct ShLine {
    number: usize,
    text: String,
}

/// The logical lines of every ```sh block in `text`.
fn sh_lines(text: &str) -> Vec<ShLine> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut in_sh = false;
    let mut pending: Option<ShLine> = None;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if trimmed.starts_with("```") {
            if in_block {
                in_block = false;
                in_sh = false;
                out.extend(pending.take());
            } else {
                in_block = true;
                in_sh = trimmed.trim_start_matches('`').trim() == "sh";
            }
            continue;
        }
        if !in_sh {
            continue;
        }
        let (body, continued) = match raw.trim_end().strip_suffix('\\') {
            Some(b) => (b, true),
            None => (raw.trim_end(), false),
        };
        let line = pending.get_or_insert_with(|| ShLine {
            number: i + 1,
            text: String::new(),
        });
        line.text.push_str(body);
        line.text.push(' ');
        if !continued {
            out.extend(pending.take());
        }
    }
    out.extend(pending);
    for l in &mut out {
        l.text = without_comment(&l.text).trim().to_string();
    }
    out
}

/// `line` without a trailing `# comment` (a `#` that starts a word, outside quotes).
fn without_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => return &line[..i],
            None => {}
        }
        prev = c;
    }
    line
}

/// Whether `line` holds a placeholder, which makes it a synopsis rather than a command.
fn has_placeholder(line: &str) -> bool {
    let bracketed = line.find('[').is_some_and(|i| line[i..].contains(']'));
    // `<word>` (a redirection `> FILE` has a space after it).
    let angled = line.match_indices('<').any(|(i, _)| {
        let rest = &line[i + 1..];
        rest.find('>')
            .is_some_and(|j| j > 0 && !rest[..j].contains(char::is_whitespace))
    });
    line.contains("...") || line.contains('…') || line.contains("$(") || bracketed || angled
}

/// The commands of a shell line's words: split at `&&`, `||`, `;` and `|`, redirections
/// and their targets dropped.
fn commands(words: Vec<String>) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    let mut words = words.into_iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "&&" | "||" | ";" | "|" => out.push(Vec::new()),
            ">" | ">>" | "2>" | "2>>" | "&>" | "<" => {
                words.next();
            }
            "2>&1" => {}
            _ if w.starts_with('>') || w.starts_with("2>") => {}
            _ => out.last_mut().expect("never empty").push(w),
        }
    }
    out.retain(|c| c.first().is_some_and(|w| w == "txbench"));
    out
}

/// Parse one command with the real CLI: `Err` holds clap's error (help and version
/// requests parse).
fn parse(args: &[String]) -> Result<(), String> {
    match txbench::cli::Cli::try_parse_from(args) {
        Ok(_) => Ok(()),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => Ok(()),
        Err(e) => Err(e.render().to_string()),
    }
}

/// Check every `txbench` command of `text`'s ```sh blocks; `file` names it in failures.
fn check_text(file: &str, text: &str) -> Checked {
    let mut found = Checked::default();
    for line in sh_lines(text) {
        if !line.text.starts_with("txbench ") {
            continue;
        }
        if has_placeholder(&line.text) {
            found.skipped += 1;
            continue;
        }
        let Some(words) = shlex::split(&line.text) else {
            found.failures.push(format!(
                "{file}:{}: `{}`: unbalanced quotes",
                line.number, line.text
            ));
            continue;
        };
        for command in commands(words) {
            match parse(&command) {
                Ok(()) => found.parsed += 1,
                Err(e) => found.failures.push(format!(
                    "{file}:{}: `{}` does not parse:\n{}",
                    line.number,
                    command.join(" "),
                    e.trim_end()
                )),
            }
        }
    }
    found
}

/// README.md and every docs/*.md, sorted; an error names what could not be listed.
fn doc_files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let docs = root.join("docs");
    let entries =
        std::fs::read_dir(&docs).map_err(|e| format!("cannot list {}: {e}", docs.display()))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files.insert(0, root.join("README.md"));
    Ok(files)
}

#[test]
fn every_documented_command_line_parses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = doc_files(root).unwrap_or_else(|e| panic!("{e}"));
    let (mut parsed, mut skipped) = (0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read the doc file {name}: {e}"));
        let found = check_text(&name, &text);
        parsed += found.parsed;
        skipped += found.skipped;
        failures.extend(found.failures);
    }
    assert!(
        failures.is_empty(),
        "{} documented command line(s) do not parse with the CLI (fix the doc, or move a \
         synopsis with placeholders into a ```text block):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        parsed >= MIN_CHECKED,
        "only {parsed} command lines checked in {} files (at least {MIN_CHECKED} expected): \
         are the examples still in ```sh blocks?",
        files.len()
    );
    println!("{parsed} documented command lines parse ({skipped} synopsis lines skipped)");
}

#[test]
fn a_planted_bad_line_is_reported() {
    let doc = "# Page\n\n```sh\ntxbench run oltp_read_write --no-such-flag\n```\n";
    let found = check_text("planted.md", doc);
    assert_eq!(found.parsed, 0);
    assert_eq!(found.failures.len(), 1, "{:?}", found.failures);
    let failure = &found.failures[0];
    assert!(failure.starts_with("planted.md:4: "), "{failure}");
    assert!(failure.contains("--no-such-flag"), "{failure}");
}

#[test]
fn what_is_checked_and_what_is_not() {
    let doc = "\
```sh
txbench server start pg --engine postgres   # a comment, cut
txbench run tpcc --threads 4 \\
    --time 20
txbench prepare oltp_read_write && txbench run oltp_read_write --time 10
txbench experiment show null-dates > my.toml
txbench --help
txbench report RUN_OR_SWEEP... [-o report.html]
txbench run tpcc --out <dir>
echo not txbench
```

```text
txbench run oltp_read_write --no-such-flag
```
";
    let found = check_text("doc.md", doc);
    assert!(found.failures.is_empty(), "{:?}", found.failures);
    assert_eq!((found.parsed, found.skipped), (6, 2));
    // A continuation joins the lines: the flag on the second is parsed with the first.
    let bad = "```sh\ntxbench run tpcc \\\n    --no-such-flag\n```\n";
    let found = check_text("doc.md", bad);
    assert_eq!(found.failures.len(), 1, "{:?}", found.failures);
    assert!(found.failures[0].starts_with("doc.md:2: "));
}
