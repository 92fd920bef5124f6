//! pgbench's `\set` expression language, parsed by hand (recursive descent with pgbench's
//! precedence from its exprparse.y): integer and double constants, `true`, `false`, `null`,
//! `:variables`, function calls, CASE, and the operators below, loosest first:
//!
//! ```text
//! OR (right)   AND (right)   NOT (prefix)   IS [NOT] NULL|TRUE|FALSE, ISNULL, NOTNULL
//! = <> != < <= > >= (no chains)   | # & << >> (left)   + - (left)   * / % (left)
//! unary - + ~
//! ```

/// A function of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Abs,
    Debug,
    Double,
    Exp,
    Greatest,
    Hash,
    HashFnv1a,
    HashMurmur2,
    Int,
    Least,
    Ln,
    Mod,
    Permute,
    Pi,
    Pow,
    Random,
    RandomExponential,
    RandomGaussian,
    RandomZipfian,
    Sqrt,
}

impl Func {
    /// The function called `name` (case-insensitive) and its argument counts (min, max).
    fn named(name: &str) -> Option<(Func, usize, usize)> {
        use Func::*;
        Some(match name.to_ascii_lowercase().as_str() {
            "abs" => (Abs, 1, 1),
            "debug" => (Debug, 1, 1),
            "double" => (Double, 1, 1),
            "exp" => (Exp, 1, 1),
            "greatest" => (Greatest, 1, usize::MAX),
            "hash" => (Hash, 1, 2),
            "hash_fnv1a" => (HashFnv1a, 1, 2),
            "hash_murmur2" => (HashMurmur2, 1, 2),
            "int" => (Int, 1, 1),
            "least" => (Least, 1, usize::MAX),
            "ln" => (Ln, 1, 1),
            "mod" => (Mod, 2, 2),
            "permute" => (Permute, 2, 3),
            "pi" => (Pi, 0, 0),
            "pow" | "power" => (Pow, 2, 2),
            "random" => (Random, 2, 2),
            "random_exponential" => (RandomExponential, 3, 3),
            "random_gaussian" => (RandomGaussian, 3, 3),
            "random_zipfian" => (RandomZipfian, 3, 3),
            "sqrt" => (Sqrt, 1, 1),
            _ => return None,
        })
    }
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    And,
    Or,
}

/// What `IS` tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IsWhat {
    Null,
    True,
    False,
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Int(i64),
    Double(f64),
    Bool(bool),
    Null,
    Var(String),
    /// `NOT e`.
    Not(Box<Expr>),
    /// `~e`.
    BitNot(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `e IS [NOT] what` (the bool: NOT).
    Is(Box<Expr>, IsWhat, bool),
    /// CASE WHEN c THEN v ... [ELSE e] END.
    Case(Vec<(Expr, Expr)>, Option<Box<Expr>>),
    Call(Func, Vec<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Int(String),
    Double(f64),
    Var(String),
    Word(String),
    Op(&'static str),
    LParen,
    RParen,
    Comma,
}

/// Splits `s` into tokens, each with its column (1-based).
fn lex(s: &str) -> Result<Vec<(Tok, usize)>, String> {
    const OPS: [&str; 18] = [
        "<>", "!=", "<=", ">=", "<<", ">>", "=", "<", ">", "+", "-", "*", "/", "%", "&", "|", "#",
        "~",
    ];
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let col = s[..i].chars().count() + 1;
        let word = |j: usize| j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_');
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'(' || c == b')' || c == b',' {
            out.push((
                match c {
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    _ => Tok::Comma,
                },
                col,
            ));
            i += 1;
        } else if c == b':' {
            let start = i + 1;
            let mut j = start;
            while word(j) {
                j += 1;
            }
            if j == start {
                return Err(format!("a ':' without a variable name at column {col}"));
            }
            out.push((Tok::Var(s[start..j].to_string()), col));
            i = j;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let mut double = false;
            if i < b.len() && b[i] == b'.' {
                double = true;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                let mut j = i + 1;
                if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                    j += 1;
                }
                if j < b.len() && b[j].is_ascii_digit() {
                    double = true;
                    i = j;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            if word(i) {
                return Err(format!("a malformed number at column {col}"));
            }
            let text = &s[start..i];
            out.push((
                if double {
                    Tok::Double(
                        text.parse()
                            .map_err(|_| format!("a malformed number at column {col}"))?,
                    )
                } else {
                    Tok::Int(text.to_string())
                },
                col,
            ));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while word(i) {
                i += 1;
            }
            out.push((Tok::Word(s[start..i].to_ascii_lowercase()), col));
        } else if let Some(op) = OPS.iter().find(|o| s[i..].starts_with(**o)) {
            out.push((Tok::Op(op), col));
            i += op.len();
        } else {
            let ch = s[i..].chars().next().unwrap_or('?');
            return Err(format!("unexpected character '{ch}' at column {col}"));
        }
    }
    Ok(out)
}

/// Parses one expression (all of `s`); the error says what and at which column.
pub fn parse(s: &str) -> Result<Expr, String> {
    let toks = lex(s)?;
    let mut p = Parser {
        toks,
        pos: 0,
        end_col: s.chars().count() + 1,
        depth: 0,
    };
    if p.toks.is_empty() {
        return Err("an expression is missing".into());
    }
    let e = p.or()?;
    if p.pos < p.toks.len() {
        return Err(p.unexpected());
    }
    Ok(e)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    end_col: usize,
    /// Nesting, bounded so a hostile expression cannot overflow the stack.
    depth: u32,
}

/// Deeper nesting than this is refused.
const MAX_DEPTH: u32 = 200;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn unexpected(&self) -> String {
        match self.toks.get(self.pos) {
            Some((t, col)) => format!("syntax error at column {col}: unexpected {}", show(t)),
            None => format!(
                "syntax error at column {}: the expression ends too early",
                self.end_col
            ),
        }
    }

    fn word(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Word(x)) if x == w) {
            self.pos += 1;
            return true;
        }
        false
    }

    fn op(&mut self, ops: &[&'static str]) -> Option<&'static str> {
        if let Some(Tok::Op(o)) = self.peek()
            && let Some(found) = ops.iter().find(|x| *x == o)
        {
            self.pos += 1;
            return Some(found);
        }
        None
    }

    fn expect(&mut self, t: Tok) -> Result<(), String> {
        if self.peek() == Some(&t) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("the expression nests deeper than {MAX_DEPTH}"));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Expr, String> {
        self.deeper()?;
        let l = self.and()?;
        let e = if self.word("or") {
            Expr::Binary(BinOp::Or, Box::new(l), Box::new(self.or()?))
        } else {
            l
        };
        self.depth -= 1;
        Ok(e)
    }

    fn and(&mut self) -> Result<Expr, String> {
        self.deeper()?;
        let l = self.not()?;
        let e = if self.word("and") {
            Expr::Binary(BinOp::And, Box::new(l), Box::new(self.and()?))
        } else {
            l
        };
        self.depth -= 1;
        Ok(e)
    }

    fn not(&mut self) -> Result<Expr, String> {
        if self.word("not") {
            self.deeper()?;
            let e = Expr::Not(Box::new(self.not()?));
            self.depth -= 1;
            return Ok(e);
        }
        self.is()
    }

    fn is(&mut self) -> Result<Expr, String> {
        let e = self.cmp()?;
        if self.word("isnull") {
            return Ok(Expr::Is(Box::new(e), IsWhat::Null, false));
        }
        if self.word("notnull") {
            return Ok(Expr::Is(Box::new(e), IsWhat::Null, true));
        }
        if self.word("is") {
            let negated = self.word("not");
            let what = if self.word("null") {
                IsWhat::Null
            } else if self.word("true") {
                IsWhat::True
            } else if self.word("false") {
                IsWhat::False
            } else {
                return Err(self.unexpected());
            };
            return Ok(Expr::Is(Box::new(e), what, negated));
        }
        Ok(e)
    }

    fn cmp(&mut self) -> Result<Expr, String> {
        let l = self.bits()?;
        let ops = ["=", "<>", "!=", "<", "<=", ">", ">="];
        let Some(o) = self.op(&ops) else {
            return Ok(l);
        };
        let op = match o {
            "=" => BinOp::Eq,
            "<>" | "!=" => BinOp::Ne,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            _ => BinOp::Ge,
        };
        let r = self.bits()?;
        if matches!(self.peek(), Some(Tok::Op(x)) if ops.contains(x)) {
            return Err(self.unexpected());
        }
        Ok(Expr::Binary(op, Box::new(l), Box::new(r)))
    }

    fn left(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Parser) -> Result<Expr, String>,
    ) -> Result<Expr, String> {
        let mut l = next(self)?;
        while let Some(o) = self.op(ops) {
            let op = match o {
                "|" => BinOp::BitOr,
                "#" => BinOp::BitXor,
                "&" => BinOp::BitAnd,
                "<<" => BinOp::Shl,
                ">>" => BinOp::Shr,
                "+" => BinOp::Add,
                "-" => BinOp::Sub,
                "*" => BinOp::Mul,
                "/" => BinOp::Div,
                _ => BinOp::Mod,
            };
            l = Expr::Binary(op, Box::new(l), Box::new(next(self)?));
        }
        Ok(l)
    }

    fn bits(&mut self) -> Result<Expr, String> {
        self.left(&["|", "#", "&", "<<", ">>"], Parser::sum)
    }

    fn sum(&mut self) -> Result<Expr, String> {
        self.left(&["+", "-"], Parser::product)
    }

    fn product(&mut self) -> Result<Expr, String> {
        self.left(&["*", "/", "%"], Parser::unary)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        let Some(o) = self.op(&["-", "+", "~"]) else {
            return self.primary();
        };
        // pgbench reads -9223372036854775808 as one constant.
        if o == "-"
            && let Some(Tok::Int(t)) = self.peek()
            && t.trim_start_matches('0') == "9223372036854775808"
        {
            self.pos += 1;
            return Ok(Expr::Int(i64::MIN));
        }
        self.deeper()?;
        let e = self.unary()?;
        self.depth -= 1;
        Ok(match o {
            "-" => Expr::Binary(BinOp::Sub, Box::new(Expr::Int(0)), Box::new(e)),
            "~" => Expr::BitNot(Box::new(e)),
            _ => e,
        })
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let Some((t, col)) = self.toks.get(self.pos).cloned() else {
            return Err(self.unexpected());
        };
        self.pos += 1;
        match t {
            Tok::Int(s) => s
                .parse()
                .map(Expr::Int)
                .map_err(|_| format!("integer constant {s} at column {col} is out of range")),
            Tok::Double(d) => Ok(Expr::Double(d)),
            Tok::Var(v) => Ok(Expr::Var(v)),
            Tok::LParen => {
                self.deeper()?;
                let e = self.or()?;
                self.depth -= 1;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::Word(w) => match w.as_str() {
                "true" => Ok(Expr::Bool(true)),
                "false" => Ok(Expr::Bool(false)),
                "null" => Ok(Expr::Null),
                "case" => self.case(),
                _ => self.call(&w, col),
            },
            _ => {
                self.pos -= 1;
                Err(self.unexpected())
            }
        }
    }

    fn case(&mut self) -> Result<Expr, String> {
        self.deeper()?;
        let mut arms = Vec::new();
        while self.word("when") {
            let c = self.or()?;
            if !self.word("then") {
                return Err(self.unexpected());
            }
            arms.push((c, self.or()?));
        }
        if arms.is_empty() {
            return Err(self.unexpected());
        }
        let otherwise = if self.word("else") {
            Some(Box::new(self.or()?))
        } else {
            None
        };
        if !self.word("end") {
            return Err(self.unexpected());
        }
        self.depth -= 1;
        Ok(Expr::Case(arms, otherwise))
    }

    fn call(&mut self, name: &str, col: usize) -> Result<Expr, String> {
        let Some((f, min, max)) = Func::named(name) else {
            return Err(format!("unknown function \"{name}\" at column {col}"));
        };
        self.expect(Tok::LParen)?;
        self.deeper()?;
        let mut args = Vec::new();
        if self.peek() != Some(&Tok::RParen) {
            loop {
                args.push(self.or()?);
                if self.peek() != Some(&Tok::Comma) {
                    break;
                }
                self.pos += 1;
            }
        }
        self.expect(Tok::RParen)?;
        self.depth -= 1;
        if args.len() < min || args.len() > max {
            let want = match (min, max) {
                (a, b) if a == b => format!("{a}"),
                (a, usize::MAX) => format!("at least {a}"),
                (a, b) => format!("{a} to {b}"),
            };
            return Err(format!(
                "{name}() at column {col} takes {want} argument(s), not {}",
                args.len()
            ));
        }
        Ok(Expr::Call(f, args))
    }
}

fn show(t: &Tok) -> String {
    match t {
        Tok::Int(s) => format!("number {s}"),
        Tok::Double(d) => format!("number {d}"),
        Tok::Var(v) => format!("variable :{v}"),
        Tok::Word(w) => format!("'{w}'"),
        Tok::Op(o) => format!("'{o}'"),
        Tok::LParen => "'('".into(),
        Tok::RParen => "')'".into(),
        Tok::Comma => "','".into(),
    }
}
