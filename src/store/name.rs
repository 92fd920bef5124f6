//! A benchmark named in words, for people: its workload and data size, threads, engine, and
//! the options that differ from their defaults ("tpcc 2 WH · 4 threads · check",
//! "oltp_read_write 4×100,000 rows · 16 threads · rand zipfian (exp 0.8)"). The defaults
//! are the command line's own (clap's, `WorkloadChoice::defaults`), recorded the way a run
//! records its options (`recorded` of the workloads' run options), so a new option or a
//! changed default is named here with no list of them to keep.

use crate::report::text::shown;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The options that differ from their defaults shown at most; the rest are "+N more".
pub const OPTIONS_SHOWN: usize = 6;

/// The longest key or value shown, in characters (a crafted store's are cut).
pub const LONGEST: usize = 32;

/// Between the parts of a name.
const SEP: &str = " · ";

/// The name of the benchmark of `workload` with `options` (its recorded options, JSON),
/// `threads` (None: a sweep's several) and `engine` ("mysql", "postgres"): plain text, with
/// every control character escaped; HTML must still escape it.
pub fn benchmark_name(workload: &str, options: &str, threads: Option<u32>, engine: &str) -> String {
    benchmark_name_with(defaults(), workload, options, threads, engine)
}

/// [`benchmark_name`] with `defaults` (each workload's recorded options at their defaults)
/// given rather than those [`set_defaults`] handed over.
pub fn benchmark_name_with(
    defaults: &BTreeMap<String, Value>,
    workload: &str,
    options: &str,
    threads: Option<u32>,
    engine: &str,
) -> String {
    let mut parts = Vec::new();
    let parsed = serde_json::from_str::<Value>(options);
    let object = match &parsed {
        Ok(Value::Object(m)) => Some(m),
        _ => None,
    };
    let mut used: Vec<&str> = Vec::new();
    let head = clip(&shown(workload));
    parts.push(match object.and_then(|o| size(o, &mut used)) {
        Some(s) => format!("{head} {s}"),
        None => head,
    });
    if let Some(t) = threads {
        parts.push(format!("{t} thread{}", if t == 1 { "" } else { "s" }));
    }
    match engine {
        "mysql" => {}
        "postgres" => parts.push("PostgreSQL".into()),
        other => parts.push(clip(&shown(other))),
    }
    match (&parsed, object) {
        (_, Some(o)) => {
            let defaults = defaults.get(workload);
            let differ: Vec<String> = o
                .iter()
                .filter(|(k, _)| !used.contains(&k.as_str()))
                .filter(|(k, v)| defaults.and_then(|d| d.get(k.as_str())) != Some(*v))
                .map(|(k, v)| option_words(k, v))
                .collect();
            let more = differ.len().saturating_sub(OPTIONS_SHOWN);
            parts.extend(differ.into_iter().take(OPTIONS_SHOWN));
            if more > 0 {
                parts.push(format!("+{more} more"));
            }
        }
        (Ok(Value::Null), None) => {}
        (_, None) => parts.push(format!("options {}", clip(&shown(options)))),
    }
    parts.join(SEP)
}

/// The data's size from `o`, the keys it used added to `used`: TPC-C's warehouses, TPC-B's
/// scale, oltp_*'s tables and rows.
fn size<'a>(o: &'a Map<String, Value>, used: &mut Vec<&'a str>) -> Option<String> {
    let n = |k: &str| o.get(k).and_then(Value::as_u64);
    if let Some(p) = n("prepared_warehouses") {
        used.push("prepared_warehouses");
        let w = match o.get("warehouses") {
            Some(Value::Null) => {
                used.push("warehouses");
                p
            }
            Some(v) => match v.as_u64() {
                Some(w) => {
                    used.push("warehouses");
                    w
                }
                None => p,
            },
            None => p,
        };
        return Some(if w == p {
            format!("{} WH", grouped(p))
        } else {
            format!("{} of {} WH", grouped(w), grouped(p))
        });
    }
    if let Some(s) = n("scale") {
        used.push("scale");
        return Some(format!("scale {}", grouped(s)));
    }
    if let Some(rows) = n("table_size") {
        used.push("table_size");
        return Some(match n("tables") {
            Some(1) => {
                used.push("tables");
                format!("{} rows", grouped(rows))
            }
            Some(t) => {
                used.push("tables");
                format!("{}×{} rows", grouped(t), grouped(rows))
            }
            None => format!("{} rows", grouped(rows)),
        });
    }
    None
}

/// Where the defaults come from: the command line's definition, which only `commands` may
/// read; it hands its reader over once, before anything is named (commands::names).
static SOURCE: OnceLock<fn() -> BTreeMap<String, Value>> = OnceLock::new();

/// Sets where each workload's default options come from (the first call wins).
pub fn set_defaults(source: fn() -> BTreeMap<String, Value>) {
    let _ = SOURCE.set(source);
}

/// Each workload's recorded options when every option is at its default (the data's size
/// too: [`size`] names it, whatever it is); none before [`set_defaults`] (then every
/// option is named: the library's own unit tests, which never start from the command line).
fn defaults() -> &'static BTreeMap<String, Value> {
    static DEFAULTS: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    DEFAULTS.get_or_init(|| SOURCE.get().map(|f| f()).unwrap_or_default())
}

/// One option that differs from its default, in words: a boolean as its name ("procedures",
/// "no auto inc"), the transaction variant as its value ("simple-update"), anything else as
/// its name and value ("null dates default", "mix 20,10,1,1,1").
fn option_words(key: &str, v: &Value) -> String {
    let name = clip(&shown(&key.replace(['_', '-'], " ")));
    match v {
        Value::Bool(true) => name,
        Value::Bool(false) => format!("no {name}"),
        _ if key == "variant" => clip(&value_words(key, v)),
        _ => format!("{name} {}", clip(&value_words(key, v))),
    }
}

/// A value in words: numbers grouped by thousands, enum names as the command line spells
/// them (`Deferred`: deferred), lists joined by commas, a distribution as its type and
/// parameters ("zipfian (exp 0.8)").
fn value_words(key: &str, v: &Value) -> String {
    match v {
        Value::Null => "none".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_i64() {
            Some(i) if i < 0 => format!("-{}", grouped(i.unsigned_abs())),
            Some(i) => grouped(i as u64),
            None => match n.as_u64() {
                Some(u) => grouped(u),
                None => n.as_f64().map_or(n.to_string(), |f| f.to_string()),
            },
        },
        Value::String(s) if key == "think_time" => match s.as_str() {
            "Off" => "off".into(),
            "Scaled(1.0)" => "spec".into(),
            t => match t.strip_prefix("Scaled(").and_then(|t| t.strip_suffix(')')) {
                Some(f) => format!("×{}", shown(f)),
                None => enum_words(t),
            },
        },
        Value::String(s) => enum_words(s),
        Value::Array(a) => a
            .iter()
            .map(|x| value_words("", x))
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(m) => {
            let rest: Vec<String> = m
                .iter()
                .filter(|(k, _)| *k != "type")
                .map(|(k, x)| format!("{} {}", shown(k), value_words(k, x)))
                .collect();
            let kind = m.get("type").map(|t| value_words("type", t));
            match (kind, rest.is_empty()) {
                (Some(k), true) => k,
                (Some(k), false) => format!("{k} ({})", rest.join(", ")),
                (None, _) => rest.join(", "),
            }
        }
    }
}

/// A serde enum name as the command line spells it (`HistoryOnly`: history-only); any other
/// string as it is, escaped.
fn enum_words(s: &str) -> String {
    let camel = s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric());
    if !camel {
        return shown(s).into_owned();
    }
    let mut o = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            o.push('-');
        }
        o.push(c.to_ascii_lowercase());
    }
    o
}

/// `n` with commas between thousands (100,000).
pub fn grouped(n: u64) -> String {
    let d = n.to_string();
    let mut o = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            o.push(',');
        }
        o.push(c);
    }
    o
}

/// `s` cut to [`LONGEST`] characters, an ellipsis marking the cut.
fn clip(s: &str) -> String {
    if s.chars().count() <= LONGEST {
        return s.to_string();
    }
    let mut o: String = s.chars().take(LONGEST - 1).collect();
    o.push('…');
    o
}
