//! An SQL command's text: where it ends (`;` outside quotes, comments and dollar quotes, or
//! a backslash command), its `:variables`, and how the server will count it.

/// A piece of an SQL command's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Seg {
    Text(String),
    /// `:name`; `quoted`: inside a quoted string or identifier, where an undefined name is
    /// left as it is written (pgbench leaves every undefined name so).
    Var {
        name: String,
        quoted: bool,
    },
}

/// How the server counts an SQL command (MySQL's Com_* counters and transactions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SqlClass {
    /// SELECT (Com_select).
    Read,
    /// Plain INSERT, UPDATE, DELETE, REPLACE (Com_insert, Com_update, …).
    Write,
    /// BEGIN or START TRANSACTION.
    Begin,
    /// COMMIT or END (MariaDB knows no END: sent as COMMIT there).
    Commit,
    /// ROLLBACK.
    Rollback,
    /// SAVEPOINT, SET and the like: counted by neither.
    Other,
    /// A statement the server may count under another counter (INSERT … SELECT, multi-table
    /// UPDATE, WITH …): the statement cross-check is left out.
    Unsure,
}

/// A character of a variable name (pgbench: letters, `_`, non-ASCII; digits after the first).
pub(super) fn name_char(c: char, first: bool) -> bool {
    c == '_' || !c.is_ascii() || c.is_ascii_alphabetic() || (!first && c.is_ascii_digit())
}

/// What the SQL lexer found on a line.
pub(super) enum Scan {
    /// A `;` ending the command at this byte.
    End(usize),
    /// A backslash command starting at this byte.
    Backslash(usize),
    /// The line ends inside the command.
    Line,
}

/// Where the SQL lexer is between lines: inside a block comment (its depth), a quoted
/// string or identifier, or a dollar-quoted body.
#[derive(Default)]
pub(super) struct SqlLexer {
    comment: u32,
    quote: Option<char>,
    dollar: Option<String>,
}

impl SqlLexer {
    pub(super) fn is_clear(&self) -> bool {
        self.comment == 0 && self.quote.is_none() && self.dollar.is_none()
    }

    pub(super) fn scan(&mut self, s: &str) -> Scan {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if let Some(tag) = &self.dollar {
                match s[i..].find(tag.as_str()) {
                    Some(at) => {
                        i += at + tag.len();
                        self.dollar = None;
                        continue;
                    }
                    None => return Scan::Line,
                }
            }
            let c = b[i];
            if self.comment > 0 {
                if b[i..].starts_with(b"*/") {
                    self.comment -= 1;
                    i += 2;
                } else if b[i..].starts_with(b"/*") {
                    self.comment += 1;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            if let Some(q) = self.quote {
                // E'…' strings: a backslash escapes the next character.
                if q == 'e' && c == b'\\' {
                    i += 2;
                    continue;
                }
                let end = if q == 'e' { b'\'' } else { q as u8 };
                if c == end {
                    if b.get(i + 1) == Some(&c) {
                        i += 2;
                        continue;
                    }
                    self.quote = None;
                }
                i += 1;
                continue;
            }
            match c {
                b'\''
                    if i > 0
                        && matches!(b[i - 1], b'E' | b'e')
                        && (i < 2 || !(b[i - 2].is_ascii_alphanumeric() || b[i - 2] == b'_')) =>
                {
                    self.quote = Some('e');
                }
                b'\'' | b'"' => self.quote = Some(c as char),
                b'-' if b.get(i + 1) == Some(&b'-') => return Scan::Line,
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    self.comment = 1;
                    i += 1;
                }
                b'$' => {
                    if let Some(tag) = dollar_tag(&s[i..]) {
                        i += tag.len();
                        self.dollar = Some(tag);
                        continue;
                    }
                }
                b';' => return Scan::End(i),
                b'\\' => return Scan::Backslash(i),
                _ => {}
            }
            i += 1;
        }
        Scan::Line
    }
}

/// `$tag$` or `$$` at the start of `s`.
fn dollar_tag(s: &str) -> Option<String> {
    let rest = &s[1..];
    let end = rest.find('$')?;
    let tag = &rest[..end];
    (tag.chars().enumerate().all(|(i, c)| name_char(c, i == 0))).then(|| format!("${tag}$"))
}

/// The SQL text cut at each `:name`, outside comments; `::` (a cast) is text.
pub fn segments(sql: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut quote: Option<char> = None;
    let mut it = sql.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '-') if sql[i + 1..].starts_with('-') => {
                // A comment: kept as text, its colons never variables.
                let end = sql[i..].find('\n').map_or(sql.len(), |n| i + n);
                text.push_str(&sql[i..end]);
                while it.peek().is_some_and(|&(j, _)| j < end) {
                    it.next();
                }
                continue;
            }
            (_, ':') if sql[i + 1..].starts_with(':') => {
                text.push_str("::");
                it.next();
                continue;
            }
            (_, ':')
                if sql[i + 1..]
                    .chars()
                    .next()
                    .is_some_and(|c| name_char(c, true)) =>
            {
                let name: String = sql[i + 1..]
                    .chars()
                    .take_while(|&c| name_char(c, false))
                    .collect();
                for _ in 0..name.chars().count() {
                    it.next();
                }
                if !text.is_empty() {
                    out.push(Seg::Text(std::mem::take(&mut text)));
                }
                out.push(Seg::Var {
                    name,
                    quoted: quote.is_some(),
                });
                continue;
            }
            _ => {}
        }
        text.push(c);
    }
    if !text.is_empty() {
        out.push(Seg::Text(text));
    }
    out
}

/// How the server will count `sql` (its first keyword, and what follows for the writes whose
/// counter depends on it).
pub fn classify(sql: &str) -> SqlClass {
    let upper = sql.to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.iter().skip(1).any(|x| *x == w);
    match words.first().copied().unwrap_or("") {
        "SELECT" => SqlClass::Read,
        "INSERT" | "REPLACE" if has("SELECT") => SqlClass::Unsure,
        "UPDATE" | "DELETE"
            if has("JOIN") || has("USING") || upper.contains(',') && !has("WHERE") =>
        {
            SqlClass::Unsure
        }
        "UPDATE" if update_targets(&upper) > 1 => SqlClass::Unsure,
        "INSERT" | "REPLACE" | "UPDATE" | "DELETE" => SqlClass::Write,
        "BEGIN" | "START" => SqlClass::Begin,
        "COMMIT" | "END" => SqlClass::Commit,
        "ROLLBACK" => SqlClass::Rollback,
        "SAVEPOINT" | "RELEASE" | "SET" | "DO" | "SHOW" | "ANALYZE" | "VACUUM" => SqlClass::Other,
        _ => SqlClass::Unsure,
    }
}

/// The tables an UPDATE names before SET (more than one: MySQL counts Com_update_multi).
fn update_targets(upper: &str) -> usize {
    let before_set = upper.split(" SET ").next().unwrap_or("");
    before_set.split(',').count()
}
