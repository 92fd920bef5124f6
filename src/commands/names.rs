//! The defaults a benchmark's name leaves out (store::benchmark_name), read from the command
//! line's definition: clap's defaults, recorded the way a run records its options.

use crate::cli::WorkloadChoice;
use serde_json::Value;
use std::collections::BTreeMap;

/// Each workload's recorded options when every option is at its default, for
/// store::benchmark_name (which may not read the command line itself).
pub(crate) fn default_options() -> BTreeMap<String, Value> {
    WorkloadChoice::names()
        .into_iter()
        .filter_map(|n| {
            let v = recorded_options(&WorkloadChoice::defaults(&n)?)?;
            Some((n, v))
        })
        .collect()
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
        // No script by default, as for pgbench's: a run's script is always named.
        W::Lua(_) => Some(serde_json::json!({
            "script": "", "sha256": "", "modules": [], "options": {},
        })),
        // No script by default: a run's scripts always differ, and are named.
        W::Script(_) => Some(
            crate::workload::script::ScriptSet {
                scripts: Vec::new(),
                defines: Vec::new(),
                mode: Default::default(),
            }
            .recorded(1),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{LONGEST, OPTIONS_SHOWN};

    /// [`crate::store::benchmark_name`] with the command line's defaults.
    fn benchmark_name(workload: &str, options: &str, threads: Option<u32>, engine: &str) -> String {
        crate::store::benchmark_name_with(&defaults(), workload, options, threads, engine)
    }

    /// The names' defaults, as the command line gives them.
    fn defaults() -> BTreeMap<String, Value> {
        default_options()
    }

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
