//! A pgbench script read into commands, as pgbench's ParseScript does: SQL ends at `;`
//! outside quotes and comments (or where a backslash command begins: sql.rs), a backslash
//! command ends at the end of its line (a `\` at the line's end continues it). Every error
//! names the file, the line and what is wrong.

use super::expr::{self, Expr};
use super::sql::{Scan, SqlLexer, name_char};
pub use super::sql::{Seg, SqlClass, classify, segments};
use std::fmt;

/// A script that cannot be run: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    pub file: String,
    pub line: u32,
    pub what: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.what)
    }
}

impl std::error::Error for ScriptError {}

/// Where `\gset` or `\aset` store a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    /// `\aset` (every row; none leaves the variables as they were) rather than `\gset`.
    pub all: bool,
    pub prefix: String,
}

/// What a command does.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    Sql {
        segs: Vec<Seg>,
        class: SqlClass,
        store: Option<Store>,
    },
    Set {
        var: String,
        expr: Expr,
    },
    /// `\sleep`: an amount (a number or a variable) in microseconds per unit.
    Sleep {
        amount: Expr,
        unit_us: u64,
    },
    /// `\if`: on false, go to `next` (the next `\elif`, `\else` or `\endif`).
    If {
        cond: Expr,
        next: usize,
    },
    /// `\elif`: reached from a branch that ran, go to `end`; jumped to, test `cond`.
    Elif {
        cond: Expr,
        next: usize,
        end: usize,
    },
    /// `\else`: reached from a branch that ran, go to `end`.
    Else {
        end: usize,
    },
    Endif,
}

/// One command of a script.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    /// Its first line in the file.
    pub line: u32,
    /// Its text, on one line, as per-statement reports show it.
    pub text: String,
    pub body: Body,
    /// Inside an `\if`: it may or may not run.
    pub conditional: bool,
}

/// Reads `src` (the file `file`) into commands.
pub fn parse(file: &str, src: &str) -> Result<Vec<Command>, ScriptError> {
    let mut p = Reader {
        file,
        cmds: Vec::new(),
        sql: String::new(),
        sql_line: 0,
        ifs: Vec::new(),
    };
    let lines: Vec<&str> = src.lines().collect();
    let mut i = 0;
    let mut lexer = SqlLexer::default();
    while i < lines.len() {
        let line_no = i as u32 + 1;
        let line = lines[i];
        i += 1;
        if lexer.is_clear() && line.trim_start().starts_with('\\') {
            p.flush_sql()?;
            let mut meta = line.trim_start()[1..].to_string();
            while meta.ends_with('\\') && i < lines.len() {
                meta.pop();
                meta.push(' ');
                meta.push_str(lines[i]);
                i += 1;
            }
            p.meta(line_no, &meta)?;
            continue;
        }
        p.sql_text(line_no, line, &mut lexer)?;
    }
    if !lexer.is_clear() {
        return Err(p.err(
            p.sql_line,
            "the script ends inside a quoted string or comment",
        ));
    }
    p.flush_sql()?;
    if let Some(&(at, _)) = p.ifs.last() {
        return Err(p.err(p.cmds[at].line, "\\if without a matching \\endif"));
    }
    Ok(p.cmds)
}

struct Reader<'a> {
    file: &'a str,
    cmds: Vec<Command>,
    /// SQL read so far and the line it began on.
    sql: String,
    sql_line: u32,
    /// Open `\if`s: the `\if`'s index and its branches' (`\elif`, `\else`) indexes.
    ifs: Vec<(usize, Vec<usize>)>,
}

impl Reader<'_> {
    fn err(&self, line: u32, what: impl Into<String>) -> ScriptError {
        ScriptError {
            file: self.file.to_string(),
            line,
            what: what.into(),
        }
    }

    fn push(&mut self, line: u32, text: String, body: Body) {
        let conditional = !self.ifs.is_empty();
        self.cmds.push(Command {
            line,
            text,
            body,
            conditional,
        });
    }

    /// Reads one line of SQL; a `;` ends a command, a `\gset`/`\aset` at the end of the
    /// line ends one and stores its result.
    fn sql_text(&mut self, line_no: u32, line: &str, lx: &mut SqlLexer) -> Result<(), ScriptError> {
        let mut rest = line;
        loop {
            if self.sql.trim().is_empty() {
                self.sql_line = line_no;
            }
            match lx.scan(rest) {
                Scan::End(at) => {
                    self.sql.push_str(&rest[..at]);
                    self.flush_sql()?;
                    rest = &rest[at + 1..];
                }
                Scan::Backslash(at) => {
                    self.sql.push_str(&rest[..at]);
                    self.flush_sql()?;
                    return self.meta(line_no, &rest[at + 1..]);
                }
                Scan::Line => {
                    self.sql.push_str(rest);
                    self.sql.push('\n');
                    return Ok(());
                }
            }
        }
    }

    fn flush_sql(&mut self) -> Result<(), ScriptError> {
        let sql = std::mem::take(&mut self.sql);
        // Lines that are only a comment are not sent (nor a command of their own).
        let sql = sql
            .lines()
            .filter(|l| !l.trim_start().starts_with("--"))
            .collect::<Vec<_>>()
            .join("\n");
        let sql = sql.trim();
        if sql.is_empty() {
            return Ok(());
        }
        let segs = segments(sql);
        let text = sql.split_whitespace().collect::<Vec<_>>().join(" ");
        self.push(
            self.sql_line,
            text,
            Body::Sql {
                segs,
                class: classify(sql),
                store: None,
            },
        );
        Ok(())
    }

    fn meta(&mut self, line: u32, meta: &str) -> Result<(), ScriptError> {
        let meta = meta.trim();
        let (name, args) = meta
            .split_once(char::is_whitespace)
            .map_or((meta, ""), |(n, a)| (n, a.trim()));
        let text = format!("\\{meta}");
        let lname = name.to_ascii_lowercase();
        let expr = |s: &Self, what: &str| {
            expr::parse(args).map_err(|e| s.err(line, format!("\\{what}: {e}")))
        };
        match lname.as_str() {
            "set" => {
                let (var, e) = args
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| self.err(line, "\\set needs a variable and an expression"))?;
                check_name(var).map_err(|w| self.err(line, format!("\\set: {w}")))?;
                let expr =
                    expr::parse(e.trim()).map_err(|e| self.err(line, format!("\\set: {e}")))?;
                let body = Body::Set {
                    var: var.to_string(),
                    expr,
                };
                self.push(line, text, body);
            }
            "sleep" => {
                let body = self.sleep(line, args)?;
                self.push(line, text, body);
            }
            "if" => {
                let cond = expr(self, "if")?;
                self.push(line, text, Body::If { cond, next: 0 });
                self.ifs.push((self.cmds.len() - 1, Vec::new()));
            }
            "elif" | "else" => {
                let cond = if lname == "elif" {
                    Some(expr(self, "elif")?)
                } else if !args.is_empty() {
                    return Err(self.err(line, "\\else takes no argument"));
                } else {
                    None
                };
                let Some((_, branches)) = self.ifs.last() else {
                    return Err(self.err(line, format!("\\{lname} without a matching \\if")));
                };
                if branches
                    .last()
                    .is_some_and(|&b| matches!(self.cmds[b].body, Body::Else { .. }))
                {
                    return Err(self.err(line, format!("\\{lname} after \\else")));
                }
                let at = self.cmds.len();
                let body = match cond {
                    Some(cond) => Body::Elif {
                        cond,
                        next: 0,
                        end: 0,
                    },
                    None => Body::Else { end: 0 },
                };
                self.push(line, text, body);
                if let Some((_, b)) = self.ifs.last_mut() {
                    b.push(at);
                }
            }
            "endif" => {
                let Some((at_if, branches)) = self.ifs.pop() else {
                    return Err(self.err(line, "\\endif without a matching \\if"));
                };
                let end = self.cmds.len();
                self.push(line, text, Body::Endif);
                self.link(at_if, &branches, end);
            }
            "gset" | "aset" => self.store(line, &lname, args)?,
            "setshell" | "shell" => {
                return Err(self.err(
                    line,
                    format!("\\{lname} is refused: txbench does not run shell commands"),
                ));
            }
            "startpipeline" | "syncpipeline" | "endpipeline" => {
                return Err(self.err(
                    line,
                    format!("\\{lname} is refused: txbench sends one statement at a time"),
                ));
            }
            ";" | "" => {
                return Err(self.err(
                    line,
                    "\\; (several statements in one query) is refused: end each with ;",
                ));
            }
            _ => {
                return Err(self.err(line, format!("unknown command \\{name}")));
            }
        }
        Ok(())
    }

    /// An `\if` chain closed by the `\endif` at `end`: each test's jump when false, each
    /// branch's jump when the one before it ran.
    fn link(&mut self, at_if: usize, branches: &[usize], end: usize) {
        let first_next = branches.first().copied().unwrap_or(end);
        if let Body::If { next, .. } = &mut self.cmds[at_if].body {
            *next = first_next;
        }
        for (k, &b) in branches.iter().enumerate() {
            let after = branches.get(k + 1).copied().unwrap_or(end);
            match &mut self.cmds[b].body {
                Body::Elif { next, end: e, .. } => {
                    *next = after;
                    *e = end;
                }
                Body::Else { end: e } => *e = end,
                _ => {}
            }
        }
    }

    fn sleep(&self, line: u32, args: &str) -> Result<Body, ScriptError> {
        let mut words = args.split_whitespace();
        let amount = words
            .next()
            .ok_or_else(|| self.err(line, "\\sleep needs a duration"))?;
        let amount = if let Some(v) = amount.strip_prefix(':') {
            check_name(v).map_err(|w| self.err(line, format!("\\sleep: {w}")))?;
            Expr::Var(v.to_string())
        } else {
            Expr::Int(amount.parse().map_err(|_| {
                self.err(
                    line,
                    format!("\\sleep: '{amount}' is not a whole number or a :variable"),
                )
            })?)
        };
        let unit_us = match words.next().map(str::to_ascii_lowercase).as_deref() {
            None | Some("s") => 1_000_000,
            Some("ms") => 1_000,
            Some("us") => 1,
            Some(u) => {
                return Err(self.err(line, format!("\\sleep: unknown unit '{u}' (us, ms or s)")));
            }
        };
        if let Some(extra) = words.next() {
            return Err(self.err(line, format!("\\sleep: unexpected '{extra}'")));
        }
        Ok(Body::Sleep { amount, unit_us })
    }

    fn store(&mut self, line: u32, name: &str, args: &str) -> Result<(), ScriptError> {
        if args.split_whitespace().count() > 1 {
            return Err(self.err(line, format!("\\{name} takes one prefix at most")));
        }
        let prefix = args.trim().to_string();
        if !prefix.is_empty() {
            check_name(&prefix).map_err(|w| self.err(line, format!("\\{name}: {w}")))?;
        }
        match self.cmds.last_mut() {
            Some(Command {
                body: Body::Sql { store, .. },
                text,
                ..
            }) if store.is_none() => {
                text.push_str(format!(" \\{name} {prefix}").trim_end());
                *store = Some(Store {
                    all: name == "aset",
                    prefix,
                });
                Ok(())
            }
            _ => Err(self.err(line, format!("\\{name} must follow an SQL command"))),
        }
    }
}

/// A variable name as pgbench allows it: a letter or underscore, then letters, digits,
/// underscores (and any non-ASCII character).
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = name.chars().enumerate().all(|(i, c)| name_char(c, i == 0));
    if name.is_empty() || !ok {
        return Err(format!("invalid variable name \"{name}\""));
    }
    Ok(())
}
