//! A benchmark named in words, for people: its workload and data size, threads, engine, and
//! the options that differ from their defaults ("tpcc 2 WH · 4 threads · check",
//! "oltp_read_write 4×100,000 rows · 16 threads · rand zipfian (exp 0.8)"). The defaults
//! are the command line's own (clap's, `WorkloadChoice::defaults`), recorded the way a run
//! records its options (`recorded` of the workloads' run options), so a new option or a
//! changed default is named here with no list of them to keep.

use crate::cli::WorkloadChoice;
use crate::report::text::shown;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The options that differ from their defaults shown at most; the rest are "+N more".
pub const OPTIONS_SHOWN: usize = 6;

/// The longest key or value shown, in characters (a crafted store's are cut).
const LONGEST: usize = 32;

/// Between the parts of a name.
const SEP: &str = " · ";

/// The name of the benchmark of `workload` with `options` (its recorded options, JSON),
/// `threads` (None: a sweep's several) and `engine` ("mysql", "postgres"): plain text, with
/// every control character escaped; HTML must still escape it.
pub fn benchmark_name(workload: &str, options: &str, threads: Option<u32>, engine: &str) -> String {
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
            let defaults = defaults().get(workload);
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

/// Each workload's recorded options when every option is at its default (the data's size
/// too: [`size`] names it, whatever it is).
fn defaults() -> &'static BTreeMap<String, Value> {
    static DEFAULTS: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    DEFAULTS.get_or_init(|| {
        WorkloadChoice::names()
            .into_iter()
            .filter_map(|n| {
                let v = recorded_options(&WorkloadChoice::defaults(&n)?)?;
                Some((n, v))
            })
            .collect()
    })
}

/// What a run of `w` records as its options (see sweep's `run_config`), on data prepared
/// with the same options (TPC-C's warehouses and TPC-B's scale: 1 unless given).
fn recorded_options(w: &WorkloadChoice) -> Option<Value> {
    use WorkloadChoice as W;
    match w {
        W::Tpcc(a) => Some(a.run_options().recorded(
            a.warehouses,
            a.warehouses.unwrap_or(1),
            a.null_dates,
            a.check,
            a.table_sets.unwrap_or(1),
        )),
        W::Tpcb(a) => Some(
            a.run_options()
                .recorded(a.scale.unwrap_or(1), a.history_key),
        ),
        W::OltpReadWrite(a)
        | W::OltpReadOnly(a)
        | W::OltpWriteOnly(a)
        | W::OltpPointSelect(a)
        | W::OltpUpdateIndex(a)
        | W::OltpUpdateNonIndex(a)
        | W::OltpInsert(a)
        | W::OltpDelete(a) => serde_json::to_value(a.options().ok()?).ok(),
    }
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
fn grouped(n: u64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The options a run of `w` records with `args` on its command line: parsed by clap as
    /// `run` parses them, recorded as a run records them.
    fn recorded(workload: &str, args: &[&str], prepared: u32) -> String {
        #[derive(Debug, clap::Parser)]
        struct W {
            #[command(subcommand)]
            w: WorkloadChoice,
        }
        let w =
            <W as clap::Parser>::try_parse_from(["txbench", workload].iter().chain(args).copied())
                .unwrap()
                .w;
        let v = match &w {
            WorkloadChoice::Tpcc(a) => a.run_options().recorded(
                a.warehouses,
                prepared,
                a.null_dates,
                a.check,
                a.table_sets.unwrap_or(1),
            ),
            WorkloadChoice::Tpcb(a) => a.run_options().recorded(prepared, a.history_key),
            _ => recorded_options(&w).unwrap(),
        };
        serde_json::to_string(&v).unwrap()
    }

    #[test]
    fn defaults_are_left_out_and_the_data_size_leads() {
        let o = recorded("tpcc", &[], 2);
        assert!(
            o.starts_with("{\"check\":false,\"delivery\":\"Interactive\""),
            "{o}"
        );
        assert_eq!(
            benchmark_name("tpcc", &o, Some(4), "mysql"),
            "tpcc 2 WH · 4 threads"
        );
        assert_eq!(
            benchmark_name("tpcb", &recorded("tpcb", &[], 10), Some(1), "postgres"),
            "tpcb scale 10 · 1 thread · PostgreSQL"
        );
        assert_eq!(
            benchmark_name(
                "oltp_read_write",
                &recorded("oltp_read_write", &[], 0),
                Some(16),
                "mysql"
            ),
            "oltp_read_write 10,000 rows · 16 threads"
        );
        // A sweep's name has no thread count.
        assert_eq!(
            benchmark_name(
                "tpcc",
                &recorded("tpcc", &["--warehouses", "2"], 10),
                None,
                "mysql"
            ),
            "tpcc 2 of 10 WH"
        );
        // Every workload of the command line has its defaults.
        assert_eq!(defaults().len(), WorkloadChoice::names().len());
        assert!(defaults().len() >= 10);
    }

    #[test]
    fn options_that_differ_from_their_defaults_are_named_in_words() {
        let o = recorded(
            "tpcc",
            &[
                "--null-dates",
                "default",
                "--procedures",
                "--delivery",
                "deferred",
                "--check",
            ],
            2,
        );
        assert_eq!(
            benchmark_name("tpcc", &o, Some(4), "mysql"),
            "tpcc 2 WH · 4 threads · check · delivery deferred · null dates default · procedures"
        );
        let o = recorded("tpcc", &["--think-time", "spec", "--mix", "20,10,1,1,1"], 1);
        assert_eq!(
            benchmark_name("tpcc", &o, Some(1), "mysql"),
            "tpcc 1 WH · 1 thread · mix 20,10,1,1,1 · think time spec"
        );
        let o = recorded(
            "tpcb",
            &["--variant", "simple-update", "--history-key", "client"],
            10,
        );
        assert_eq!(
            benchmark_name("tpcb", &o, Some(8), "mysql"),
            "tpcb scale 10 · 8 threads · history key client · simple-update"
        );
        let o = recorded(
            "oltp_read_write",
            &[
                "--tables",
                "4",
                "--table-size",
                "100000",
                "--rand-type",
                "zipfian",
                "--auto-inc",
                "off",
            ],
            0,
        );
        assert_eq!(
            benchmark_name("oltp_read_write", &o, Some(16), "mysql"),
            "oltp_read_write 4×100,000 rows · 16 threads · no auto inc · rand zipfian (exp 0.8)"
        );
    }

    #[test]
    fn many_differences_fold_into_more() {
        let o = recorded(
            "oltp_read_write",
            &[
                "--range-size",
                "5",
                "--point-selects",
                "1",
                "--simple-ranges",
                "2",
                "--sum-ranges",
                "2",
                "--order-ranges",
                "2",
                "--distinct-ranges",
                "2",
                "--index-updates",
                "2",
                "--non-index-updates",
                "2",
                "--skip-trx",
            ],
            0,
        );
        let n = benchmark_name("oltp_read_write", &o, Some(2), "mysql");
        assert!(n.ends_with(" · +3 more"), "{n}");
        assert_eq!(n.matches(" · ").count(), 1 + OPTIONS_SHOWN + 1, "{n}");
        assert!(!n.contains('{'), "{n}");
    }

    #[test]
    fn a_crafted_store_is_named_escaped_and_never_fails() {
        // Unknown keys and values, control characters, HTML, and a very long value: shown
        // escaped and cut, never raw.
        let o = serde_json::json!({
            "<script>alert(1)</script>": "\u{1b}[2J\u{202e}x",
            "k\nv": true,
            "long": "y".repeat(500),
            "nested": {"type": "a\rb", "z": [1, null, -2.5]},
        })
        .to_string();
        let n = benchmark_name("tp\u{1b}cc", &o, Some(3), "oracle\n");
        assert!(
            !n.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "{n:?}"
        );
        assert!(
            n.starts_with("tp\\u{1b}cc · 3 threads · oracle\\n · "),
            "{n}"
        );
        assert!(
            n.contains("<script>alert(1)</script> \\u{1b}[2J\\u{202e}x"),
            "{n}"
        );
        assert!(n.contains("k\\nv"), "{n}");
        assert!(
            n.contains(&format!("long {}…", "y".repeat(LONGEST - 1))),
            "{n}"
        );
        assert!(!n.contains(&"y".repeat(LONGEST)), "{n}");
        assert!(n.contains("nested a\\rb (z 1,none,-2.5)"), "{n}");
        // HTML stays text here: the pages escape it as any text (browse's tests).
        // Options that are not an object, or not JSON at all.
        assert_eq!(
            benchmark_name("tpcc", "null", Some(1), "mysql"),
            "tpcc · 1 thread"
        );
        assert_eq!(
            benchmark_name("tpcc", "[1,2]", Some(1), "mysql"),
            "tpcc · 1 thread · options [1,2]"
        );
        let n = benchmark_name(
            "x",
            &format!("{{\"a\":\"{}", "\u{7}".repeat(100)),
            None,
            "mysql",
        );
        assert!(n.starts_with("x · options {\"a\":\"\\u{7}"), "{n}");
        assert!(n.ends_with('…') && n.chars().count() < 60, "{n}");
        // Numbers where words are expected: escaped text, not a size.
        assert_eq!(
            benchmark_name("tpcc", r#"{"prepared_warehouses":"<b>"}"#, None, "mysql"),
            "tpcc · prepared warehouses <b>"
        );
    }
}
