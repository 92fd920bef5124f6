//! Evaluating pgbench expressions as pgbench does (its evalStandardFunc and evalLazyFunc):
//! integers are 64-bit and overflow is an error, a double operand makes arithmetic double, a
//! NULL argument makes most results NULL, AND/OR/CASE evaluate lazily.

use super::expr::{BinOp, Expr, Func, IsWhat};
use crate::workload::rand::WorkerRng;
use rand::Rng;
use std::collections::HashMap;

/// A value of the language.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    Null,
    Bool(bool),
    Int(i64),
    Double(f64),
}

impl Val {
    fn type_name(self) -> &'static str {
        match self {
            Val::Null => "null",
            Val::Bool(_) => "boolean",
            Val::Int(_) => "int",
            Val::Double(_) => "double",
        }
    }

    fn int(self) -> Result<i64, String> {
        match self {
            Val::Int(i) => Ok(i),
            Val::Double(d) => {
                let r = d.round_ties_even();
                // i64::MAX as f64 rounds up to 2^63, which does not fit.
                if r.is_nan() || r < i64::MIN as f64 || r >= i64::MAX as f64 {
                    Err(format!("double to int overflow for {d}"))
                } else {
                    Ok(r as i64)
                }
            }
            v => Err(format!("cannot coerce {} to int", v.type_name())),
        }
    }

    fn double(self) -> Result<f64, String> {
        match self {
            Val::Double(d) => Ok(d),
            Val::Int(i) => Ok(i as f64),
            v => Err(format!("cannot coerce {} to double", v.type_name())),
        }
    }

    fn bool(self) -> Result<bool, String> {
        match self {
            Val::Bool(b) => Ok(b),
            v => Err(format!("cannot coerce {} to boolean", v.type_name())),
        }
    }

    /// Whether `\if` and CASE take it as true: non-zero numbers, true; NULL is false.
    pub fn truth(self) -> bool {
        match self {
            Val::Null => false,
            Val::Bool(b) => b,
            Val::Int(i) => i != 0,
            Val::Double(d) => d != 0.0,
        }
    }

    /// As text, for SQL and for `debug`.
    pub fn text(self) -> String {
        match self {
            Val::Null => String::new(),
            Val::Bool(b) => b.to_string(),
            Val::Int(i) => i.to_string(),
            Val::Double(d) => d.to_string(),
        }
    }

    /// A variable's text read as pgbench's makeVariableValue does: null, a boolean word (or
    /// a prefix of true/false/yes/no), an integer, or a double.
    pub fn of_text(name: &str, s: &str) -> Result<Val, String> {
        let l = s.to_ascii_lowercase();
        let prefix = |w: &str| !l.is_empty() && w.starts_with(&l);
        if l == "null" {
            Ok(Val::Null)
        } else if prefix("true") || prefix("yes") || l == "on" {
            Ok(Val::Bool(true))
        } else if prefix("false") || prefix("no") || l == "off" || l == "of" {
            Ok(Val::Bool(false))
        } else if let Ok(i) = s.trim().parse::<i64>() {
            Ok(Val::Int(i))
        } else {
            match s.trim().parse::<f64>() {
                Ok(d) if !s.trim().is_empty() => Ok(Val::Double(d)),
                _ => Err(format!("malformed variable \"{name}\" value: \"{s}\"")),
            }
        }
    }
}

/// A variable: text (from -D or `\gset`) or a value (from `\set`).
#[derive(Debug, Clone, PartialEq)]
pub enum Var {
    Text(String),
    Val(Val),
}

impl Var {
    /// Its text, as SQL receives it.
    pub fn text(&self) -> String {
        match self {
            Var::Text(s) => s.clone(),
            Var::Val(v) => v.text(),
        }
    }
}

/// A virtual user's variables.
pub type Vars = HashMap<String, Var>;

/// What an expression is evaluated in: the variables and the random generator.
pub struct Env<'a> {
    pub vars: &'a Vars,
    pub rng: &'a mut WorkerRng,
}

/// Evaluates `e`; the error says what went wrong (pgbench's words where it has them).
pub fn eval(e: &Expr, env: &mut Env) -> Result<Val, String> {
    Ok(match e {
        Expr::Int(i) => Val::Int(*i),
        Expr::Double(d) => Val::Double(*d),
        Expr::Bool(b) => Val::Bool(*b),
        Expr::Null => Val::Null,
        Expr::Var(name) => match env.vars.get(name) {
            None => return Err(format!("undefined variable \"{name}\"")),
            Some(Var::Val(v)) => *v,
            Some(Var::Text(s)) => Val::of_text(name, s)?,
        },
        Expr::Not(a) => match eval(a, env)? {
            Val::Null => Val::Null,
            v => Val::Bool(!v.bool()?),
        },
        Expr::BitNot(a) => match eval(a, env)? {
            Val::Null => Val::Null,
            v => Val::Int(!v.int()?),
        },
        Expr::Is(a, what, negated) => {
            let v = eval(a, env)?;
            let is = match what {
                IsWhat::Null => v == Val::Null,
                IsWhat::True => v == Val::Bool(true),
                IsWhat::False => v == Val::Bool(false),
            };
            Val::Bool(is != *negated)
        }
        Expr::Case(arms, otherwise) => {
            for (c, v) in arms {
                if eval(c, env)?.truth() {
                    return eval(v, env);
                }
            }
            match otherwise {
                Some(o) => eval(o, env)?,
                None => Val::Null,
            }
        }
        Expr::Binary(BinOp::And, a, b) => lazy(eval(a, env)?, false, || eval(b, env))?,
        Expr::Binary(BinOp::Or, a, b) => lazy(eval(a, env)?, true, || eval(b, env))?,
        Expr::Binary(op, a, b) => {
            let (l, r) = (eval(a, env)?, eval(b, env)?);
            if l == Val::Null || r == Val::Null {
                return Ok(Val::Null);
            }
            binary(*op, l, r)?
        }
        Expr::Call(f, args) => {
            let mut v = Vec::with_capacity(args.len());
            for a in args {
                v.push(eval(a, env)?);
            }
            if *f == Func::Debug {
                eprintln!("debug: {} {}", v[0].type_name(), v[0].text());
                return Ok(v[0]);
            }
            if v.contains(&Val::Null) {
                return Ok(Val::Null);
            }
            call(*f, &v, env)?
        }
    })
}

/// AND (`short` false) and OR (`short` true): NULL on either side is NULL.
fn lazy(a: Val, short: bool, b: impl FnOnce() -> Result<Val, String>) -> Result<Val, String> {
    if a == Val::Null {
        return Ok(Val::Null);
    }
    if a.bool()? == short {
        return Ok(Val::Bool(short));
    }
    match b()? {
        Val::Null => Ok(Val::Null),
        v => Ok(Val::Bool(v.bool()?)),
    }
}

fn overflow(what: &str) -> String {
    format!("bigint {what} out of range")
}

fn binary(op: BinOp, l: Val, r: Val) -> Result<Val, String> {
    use BinOp::*;
    let double = matches!(l, Val::Double(_)) || matches!(r, Val::Double(_));
    match op {
        Add | Sub | Mul | Div | Eq | Ne | Lt | Le | Gt | Ge if double => {
            let (a, b) = (l.double()?, r.double()?);
            Ok(match op {
                Add => Val::Double(a + b),
                Sub => Val::Double(a - b),
                Mul => Val::Double(a * b),
                Div => Val::Double(a / b),
                Eq => Val::Bool(a == b),
                Ne => Val::Bool(a != b),
                Lt => Val::Bool(a < b),
                Le => Val::Bool(a <= b),
                Gt => Val::Bool(a > b),
                _ => Val::Bool(a >= b),
            })
        }
        _ => {
            let (a, b) = (l.int()?, r.int()?);
            Ok(match op {
                Add => Val::Int(a.checked_add(b).ok_or_else(|| overflow("add"))?),
                Sub => Val::Int(a.checked_sub(b).ok_or_else(|| overflow("sub"))?),
                Mul => Val::Int(a.checked_mul(b).ok_or_else(|| overflow("mul"))?),
                Div | Mod if b == 0 => return Err("division by zero".into()),
                Div => Val::Int(a.checked_div(b).ok_or_else(|| overflow("div"))?),
                // pgbench: x % -1 is 0, INT64_MIN included.
                Mod => Val::Int(a.checked_rem(b).unwrap_or(0)),
                Eq => Val::Bool(a == b),
                Ne => Val::Bool(a != b),
                Lt => Val::Bool(a < b),
                Le => Val::Bool(a <= b),
                Gt => Val::Bool(a > b),
                Ge => Val::Bool(a >= b),
                BitAnd => Val::Int(a & b),
                BitOr => Val::Int(a | b),
                BitXor => Val::Int(a ^ b),
                // C leaves shifts past 63 undefined; the count is taken modulo 64.
                Shl => Val::Int(a.wrapping_shl(b as u32)),
                Shr => Val::Int(a.wrapping_shr(b as u32)),
                And | Or => unreachable_lazy(),
            })
        }
    }
}

#[cold]
fn unreachable_lazy() -> Val {
    // AND and OR are evaluated lazily before `binary`: never reached.
    Val::Null
}

fn call(f: Func, v: &[Val], env: &mut Env) -> Result<Val, String> {
    use Func::*;
    Ok(match f {
        Abs => match v[0] {
            Val::Int(i) => Val::Int(i.checked_abs().ok_or_else(|| overflow("abs"))?),
            x => Val::Double(x.double()?.abs()),
        },
        Double => Val::Double(v[0].double()?),
        Exp => Val::Double(v[0].double()?.exp()),
        Ln => Val::Double(v[0].double()?.ln()),
        Sqrt => Val::Double(v[0].double()?.sqrt()),
        Int => Val::Int(v[0].int()?),
        Pi => Val::Double(std::f64::consts::PI),
        Pow => Val::Double(v[0].double()?.powf(v[1].double()?)),
        Mod => binary(BinOp::Mod, v[0], v[1])?,
        Greatest | Least => extremum(f == Greatest, v)?,
        Hash | HashMurmur2 => Val::Int(murmur2(v[0].int()?, seed(v, 1, env)?)),
        HashFnv1a => Val::Int(fnv1a(v[0].int()?, seed(v, 1, env)?)),
        Permute => {
            let size = v[1].int()?;
            if size <= 0 {
                return Err("permute size parameter must be greater than zero".into());
            }
            Val::Int(permute(v[0].int()?, size, seed(v, 2, env)?))
        }
        Random | RandomExponential | RandomGaussian | RandomZipfian => random(f, v, env.rng)?,
        Debug => v[0],
    })
}

/// Argument `i`, or `:default_seed` when it is not given (as pgbench's grammar adds it).
fn seed(v: &[Val], i: usize, env: &Env) -> Result<i64, String> {
    match v.get(i) {
        Some(s) => s.int(),
        None => match env.vars.get("default_seed") {
            Some(Var::Val(s)) => s.int(),
            Some(Var::Text(s)) => Val::of_text("default_seed", s)?.int(),
            None => Err("undefined variable \"default_seed\"".into()),
        },
    }
}

fn extremum(greatest: bool, v: &[Val]) -> Result<Val, String> {
    if v.iter().any(|x| matches!(x, Val::Double(_))) {
        let mut m = v[0].double()?;
        for x in &v[1..] {
            let d = x.double()?;
            m = if greatest { m.max(d) } else { m.min(d) };
        }
        Ok(Val::Double(m))
    } else {
        let mut m = v[0].int()?;
        for x in &v[1..] {
            let i = x.int()?;
            m = if greatest { m.max(i) } else { m.min(i) };
        }
        Ok(Val::Int(m))
    }
}

/// The smallest gaussian parameter pgbench accepts.
const MIN_GAUSSIAN: f64 = 2.0;
/// The zipfian parameter's range in pgbench.
const ZIPFIAN: (f64, f64) = (1.001, 1000.0);

/// random, random_exponential, random_gaussian and random_zipfian over [lb, ub], with
/// pgbench's algorithms and checks (the generator is the virtual user's own).
fn random(f: Func, v: &[Val], rng: &mut WorkerRng) -> Result<Val, String> {
    let (lb, ub) = (v[0].int()?, v[1].int()?);
    if lb > ub {
        return Err("empty range given to random".into());
    }
    let n = ub
        .checked_sub(lb)
        .and_then(|d| d.checked_add(1))
        .ok_or("random range is too large")?;
    if f == Func::Random {
        return Ok(Val::Int(rng.random_range(lb..=ub)));
    }
    let p = v[2].double()?;
    // Offsets in [0, n) from a fraction in [0, 1).
    let at = |frac: f64| lb + ((n as f64 * frac) as i64).clamp(0, n - 1);
    Ok(Val::Int(match f {
        Func::RandomExponential => {
            if p.is_nan() || p <= 0.0 {
                return Err(format!(
                    "exponential parameter must be greater than zero (not {p})"
                ));
            }
            let cut = (-p).exp();
            let u = 1.0 - rng.random::<f64>();
            at(-(cut + (1.0 - cut) * u).ln() / p)
        }
        Func::RandomGaussian => {
            if p.is_nan() || p < MIN_GAUSSIAN {
                return Err(format!(
                    "gaussian parameter must be at least {MIN_GAUSSIAN} (not {p})"
                ));
            }
            let stdev = loop {
                let r1 = 1.0 - rng.random::<f64>();
                let r2 = rng.random::<f64>();
                let s = (-2.0 * r1.ln()).sqrt() * (2.0 * std::f64::consts::PI * r2).sin();
                if s >= -p && s < p {
                    break s;
                }
            };
            at((stdev + p) / (p * 2.0))
        }
        _ => {
            if p.is_nan() || p < ZIPFIAN.0 || p > ZIPFIAN.1 {
                return Err(format!(
                    "zipfian parameter must be in range [{}, {}] (not {p})",
                    ZIPFIAN.0, ZIPFIAN.1
                ));
            }
            lb + zipfian(rng, n, p) - 1
        }
    }))
}

/// pgbench's computeIterativeZipfian (Devroye's rejection method): a value in [1, n].
fn zipfian(rng: &mut WorkerRng, n: i64, s: f64) -> i64 {
    let b = 2f64.powf(s - 1.0);
    loop {
        let u = 1.0 - rng.random::<f64>();
        let v = rng.random::<f64>();
        let x = u.powf(-1.0 / (s - 1.0)).floor();
        let t = (1.0 + 1.0 / x).powf(s - 1.0);
        if v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n as f64 {
            return x as i64;
        }
    }
}

/// pgbench's getHashFnv1a: FNV-1a over the value's 8 bytes, the basis xor'ed with `seed`.
pub fn fnv1a(val: i64, seed: i64) -> i64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    let mut h = BASIS ^ seed as u64;
    let mut v = val as u64;
    for _ in 0..8 {
        h ^= v & 0xff;
        h = h.wrapping_mul(PRIME);
        v >>= 8;
    }
    h as i64
}

/// pgbench's getHashMurmur2: MurmurHash64A of the one 8-byte value.
pub fn murmur2(val: i64, seed: i64) -> i64 {
    const MUL: u64 = 0xc6a4_a793_5bd1_e995;
    const ROT: u32 = 47;
    let mut h = (seed as u64) ^ MUL.wrapping_mul(8);
    let mut k = val as u64;
    k = k.wrapping_mul(MUL);
    k ^= k >> ROT;
    k = k.wrapping_mul(MUL);
    h ^= k;
    h = h.wrapping_mul(MUL);
    h ^= h >> ROT;
    h = h.wrapping_mul(MUL);
    h ^= h >> ROT;
    h as i64
}

/// A permutation of [0, size) keyed by `seed`: `val` mod size mapped to another value, every
/// value once. pgbench's own permute gives other values for the same seed (its generator is
/// not txbench's); both are bijections, which is what scripts rely on. Rounds of a keyed
/// invertible mix on the next power of two, cycle-walking until inside [0, size).
pub fn permute(val: i64, size: i64, seed: i64) -> i64 {
    if size < 2 {
        return 0;
    }
    let size = size as u64;
    let mut v = (val as u64) % size;
    let bits = 64 - (size - 1).leading_zeros();
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let key = murmur2(seed, 0x5eed) as u64;
    loop {
        for round in 0..4u64 {
            let k = key.wrapping_add(round.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            // Odd multiplier, xor with a key and a right shift: each step is a bijection
            // of the masked domain.
            v = (v.wrapping_mul(k | 1)) & mask;
            v ^= (k >> 7) & mask;
            v ^= v >> (bits / 2 + 1);
        }
        if v < size {
            return v as i64;
        }
    }
}
