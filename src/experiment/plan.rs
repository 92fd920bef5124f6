//! Experiment plans: the TOML a user writes (or copies from a built-in one), checked and
//! expanded for one scale into the matrix of variants × workloads × thread levels ×
//! repetitions. Pure data: nothing here talks to a server.

use crate::config::ThreadLevels;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How every cell starts from the same data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reset {
    /// Prepare once per variant and workload, keep a copy of the stopped server's data
    /// directory, restore it before every cell (sandboxes only; their default).
    Snapshot,
    /// Clean up and prepare again before every cell.
    Reload,
    /// Run on whatever the previous cell left (the default for `url` variants).
    None,
}

/// The sizes of one scale (`[scale.quick]`, `[scale.full]`), over the plan's own values.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    /// Thread levels, as `run --threads` takes them ("4", "1,2,4", "1..64x2").
    pub threads: Option<String>,
    /// Warm-up seconds of every cell.
    pub warmup: Option<f64>,
    /// Measured seconds of every cell.
    pub duration: Option<f64>,
    /// How many times every cell runs.
    pub repetitions: Option<u32>,
    /// Values for `{name}` in the workloads' and variants' options (e.g. warehouses).
    #[serde(default)]
    pub vars: BTreeMap<String, String>,
}

/// One server configuration to compare.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// Its name (a column of the tables; letters, digits, '-' and '_').
    pub name: String,
    /// Server settings (`--set key=value`): checked against what the server reports.
    #[serde(default)]
    pub set: BTreeMap<String, toml::Value>,
    /// A my.cnf fragment (`--config`), relative to the plan file.
    pub config: Option<PathBuf>,
    /// Another server build (`--binary`).
    pub binary: Option<PathBuf>,
    /// Pin the server to these CPUs (`--cpus`).
    pub cpus: Option<String>,
    /// Bind the server to this NUMA node (`--numa-node`; said and ignored on a one-node host).
    pub numa_node: Option<u32>,
    /// A primary with this many replicas (`--replicas`).
    pub replicas: Option<u32>,
    /// Semi-synchronous replicas (`--semisync`).
    #[serde(default)]
    pub semisync: bool,
    /// A Galera cluster of this many nodes (`--galera`).
    pub galera: Option<u32>,
    /// An existing server instead of a sandbox (then `reset` is `reload` or `none`).
    pub url: Option<String>,
    /// Extra `prepare` options of this variant, for every workload (`--null-dates null`).
    #[serde(default)]
    pub prepare: Vec<String>,
    /// Extra `run` options of this variant, for every workload (`--isolation read-committed`).
    #[serde(default)]
    pub run: Vec<String>,
}

/// One workload of the matrix.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// `run`'s workload name (tpcc, tpcb, oltp_read_write…).
    pub name: String,
    /// A label when one workload appears twice with other options (default: `name`).
    pub label: Option<String>,
    /// `prepare` options.
    #[serde(default)]
    pub prepare: Vec<String>,
    /// `run` options (besides --threads, --time and --warmup, which the plan sets).
    #[serde(default)]
    pub run: Vec<String>,
}

impl Workload {
    /// Its column label.
    pub fn label(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.name)
    }
}

/// A plan as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// What the plan compares, in one line.
    pub description: Option<String>,
    /// The variant the others are compared with.
    pub baseline: String,
    /// snapshot (default for sandboxes), reload or none.
    pub reset: Option<Reset>,
    /// Seed of the cell order (default: from the clock, recorded).
    pub seed: Option<u64>,
    /// Thread levels when no scale says otherwise.
    pub threads: Option<String>,
    /// Warm-up seconds when no scale says otherwise (default 5).
    pub warmup: Option<f64>,
    /// Measured seconds when no scale says otherwise (default 30).
    pub duration: Option<f64>,
    /// Repetitions when no scale says otherwise (default 3).
    pub repetitions: Option<u32>,
    /// `{name}` values when no scale says otherwise.
    #[serde(default)]
    pub vars: BTreeMap<String, String>,
    /// Named scales (`--scale quick`).
    #[serde(default)]
    pub scale: BTreeMap<String, Scale>,
    /// The server configurations.
    #[serde(default, rename = "variant")]
    pub variants: Vec<Variant>,
    /// The workloads.
    #[serde(default, rename = "workload")]
    pub workloads: Vec<Workload>,
}

/// A variant and a workload with every option resolved for one scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    /// The variant's name.
    pub variant: String,
    /// The workload's label.
    pub workload: String,
    /// `txbench prepare` arguments after `prepare`.
    pub prepare: Vec<String>,
    /// `txbench run` arguments after `run`, without --threads, --time, --warmup and --out.
    pub run: Vec<String>,
}

/// A plan expanded for one scale: what an experiment runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expanded {
    /// The scale's name ("" when the plan has none).
    pub scale: String,
    /// Thread levels.
    pub threads: Vec<u32>,
    /// Warm-up seconds.
    pub warmup: f64,
    /// Measured seconds.
    pub duration: f64,
    /// Repetitions.
    pub repetitions: u32,
    /// How every cell starts.
    pub reset: Reset,
    /// The baseline variant.
    pub baseline: String,
    /// Variant names, in plan order.
    pub variants: Vec<String>,
    /// Workload labels, in plan order.
    pub workloads: Vec<String>,
    /// Every variant × workload with its options.
    pub pairs: Vec<Pair>,
}

impl Expanded {
    /// The options of `variant` × `workload`.
    pub fn pair(&self, variant: &str, workload: &str) -> Option<&Pair> {
        self.pairs
            .iter()
            .find(|p| p.variant == variant && p.workload == workload)
    }
}

/// A plan's problem, naming the file and the key.
fn bad(file: &Path, what: impl std::fmt::Display) -> anyhow::Error {
    crate::error::Failure::Usage(format!("{}: {what}", file.display())).into()
}

/// Parses a plan's text; an error names the file, and the line and column of a syntax
/// error or the unknown key.
pub fn parse(file: &Path, text: &str) -> anyhow::Result<Plan> {
    toml::from_str::<Plan>(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| {
                let line = text[..s.start].matches('\n').count() + 1;
                let col = s.start - text[..s.start].rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("line {line}, column {col}: ")
            })
            .unwrap_or_default();
        bad(file, format!("{at}{}", e.message()))
    })
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `{name}` replaced by its value; an unknown name is an error naming it.
fn substitute(file: &Path, s: &str, vars: &BTreeMap<String, String>) -> anyhow::Result<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let Some(j) = rest[i..].find('}') else {
            return Err(bad(file, format!("'{s}': a '{{' without its '}}'")));
        };
        let name = &rest[i + 1..i + j];
        let Some(v) = vars.get(name) else {
            return Err(bad(
                file,
                format!("'{s}': no value for {{{name}}} (set it in vars, or in the scale's vars)"),
            ));
        };
        out.push_str(v);
        rest = &rest[i + j + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A setting's value as `--set` writes it.
pub fn set_value(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Boolean(b) => if *b { "ON" } else { "OFF" }.into(),
        other => other.to_string(),
    }
}

impl Plan {
    /// Checks the plan and expands it for `scale` (None: the first of quick, then the only
    /// scale, else the plan's own values).
    pub fn expand(&self, file: &Path, scale: Option<&str>) -> anyhow::Result<Expanded> {
        if self.variants.is_empty() {
            return Err(bad(
                file,
                "no [[variant]]: an experiment compares at least one",
            ));
        }
        if self.workloads.is_empty() {
            return Err(bad(file, "no [[workload]]: give at least one"));
        }
        let mut seen = Vec::new();
        for v in &self.variants {
            if !valid_name(&v.name) {
                return Err(bad(
                    file,
                    format!(
                        "variant name '{}': use 1-40 letters, digits, '-' or '_'",
                        v.name
                    ),
                ));
            }
            if seen.contains(&v.name) {
                return Err(bad(file, format!("variant '{}' is named twice", v.name)));
            }
            seen.push(v.name.clone());
            if v.url.is_some()
                && (!v.set.is_empty()
                    || v.config.is_some()
                    || v.binary.is_some()
                    || v.replicas.is_some()
                    || v.galera.is_some()
                    || v.cpus.is_some()
                    || v.numa_node.is_some())
            {
                return Err(bad(
                    file,
                    format!(
                        "variant '{}': url names an existing server; set, config, binary, cpus, numa_node, replicas and galera are for sandboxes",
                        v.name
                    ),
                ));
            }
        }
        if !self.variants.iter().any(|v| v.name == self.baseline) {
            return Err(bad(
                file,
                format!(
                    "baseline = '{}' names no variant (the variants: {})",
                    self.baseline,
                    seen.join(", ")
                ),
            ));
        }
        let mut labels = Vec::new();
        for w in &self.workloads {
            if !valid_name(w.label()) {
                return Err(bad(file, format!("workload '{}': not a name", w.label())));
            }
            if labels.contains(&w.label().to_string()) {
                return Err(bad(
                    file,
                    format!("workload '{}' appears twice: give each a label", w.label()),
                ));
            }
            labels.push(w.label().to_string());
        }
        let chosen = match scale {
            Some(name) => Some((
                name.to_string(),
                self.scale.get(name).ok_or_else(|| {
                    bad(
                        file,
                        format!(
                            "--scale {name}: the plan has no [scale.{name}] (it has: {})",
                            if self.scale.is_empty() {
                                "none".to_string()
                            } else {
                                self.scale.keys().cloned().collect::<Vec<_>>().join(", ")
                            }
                        ),
                    )
                })?,
            )),
            None => self
                .scale
                .get("quick")
                .map(|s| ("quick".to_string(), s))
                .or_else(|| {
                    (self.scale.len() == 1)
                        .then(|| self.scale.iter().next().map(|(k, s)| (k.clone(), s)))
                        .flatten()
                }),
        };
        let empty = Scale::default();
        let (scale_name, sc) = chosen
            .as_ref()
            .map_or(("", &empty), |(n, s)| (n.as_str(), *s));
        let threads_text = sc
            .threads
            .clone()
            .or_else(|| self.threads.clone())
            .unwrap_or_else(|| "1".into());
        let threads = ThreadLevels::parse(&threads_text)
            .map_err(|e| bad(file, format!("threads = '{threads_text}': {e}")))?
            .0;
        let warmup = sc.warmup.or(self.warmup).unwrap_or(5.0);
        let duration = sc.duration.or(self.duration).unwrap_or(30.0);
        let repetitions = sc.repetitions.or(self.repetitions).unwrap_or(3);
        if !(warmup >= 0.0 && warmup.is_finite()) {
            return Err(bad(
                file,
                format!("warmup = {warmup}: give 0 or more seconds"),
            ));
        }
        if !(duration > 0.0 && duration.is_finite()) {
            return Err(bad(
                file,
                format!("duration = {duration}: give more than 0 seconds"),
            ));
        }
        if repetitions == 0 {
            return Err(bad(
                file,
                "repetitions = 0: give 1 or more (2 or more for a verdict)",
            ));
        }
        let any_url = self.variants.iter().any(|v| v.url.is_some());
        let reset = self.reset.unwrap_or(if any_url {
            Reset::None
        } else {
            Reset::Snapshot
        });
        if reset == Reset::Snapshot && any_url {
            return Err(bad(
                file,
                "reset = 'snapshot' needs sandboxes: a url variant's data directory is not txbench's to copy (use reload or none)",
            ));
        }
        let mut vars = self.vars.clone();
        vars.extend(sc.vars.clone());
        let sub = |v: &[String]| -> anyhow::Result<Vec<String>> {
            v.iter().map(|s| substitute(file, s, &vars)).collect()
        };
        let mut pairs = Vec::new();
        for v in &self.variants {
            for w in &self.workloads {
                let mut prepare = sub(&w.prepare)?;
                prepare.extend(sub(&v.prepare)?);
                let mut run = sub(&w.run)?;
                run.extend(sub(&v.run)?);
                for reserved in [
                    "--threads",
                    "--time",
                    "--warmup",
                    "--out",
                    "--url",
                    "--server",
                ] {
                    if run
                        .iter()
                        .any(|a| a == reserved || a.starts_with(&format!("{reserved}=")))
                    {
                        return Err(bad(
                            file,
                            format!(
                                "workload '{}' / variant '{}': run options may not hold {reserved} (the plan sets it)",
                                w.label(),
                                v.name
                            ),
                        ));
                    }
                }
                pairs.push(Pair {
                    variant: v.name.clone(),
                    workload: w.label().to_string(),
                    prepare,
                    run,
                });
            }
        }
        Ok(Expanded {
            scale: scale_name.to_string(),
            threads,
            warmup,
            duration,
            repetitions,
            reset,
            baseline: self.baseline.clone(),
            variants: seen,
            workloads: labels,
            pairs,
        })
    }

    /// The variant called `name`.
    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// The workload labelled `label`.
    pub fn workload(&self, label: &str) -> Option<&Workload> {
        self.workloads.iter().find(|w| w.label() == label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = r#"
description = "NULL vs DEFAULT dates"
baseline = "default"

[scale.quick]
threads = "2,4"
duration = 20
repetitions = 2
vars = { warehouses = "2" }

[scale.full]
threads = "1..64x2"
vars = { warehouses = "100" }

[[variant]]
name = "default"
prepare = ["--null-dates", "default"]

[[variant]]
name = "null"
prepare = ["--null-dates", "null"]
set = { innodb_flush_log_at_trx_commit = 1, innodb_adaptive_hash_index = false }

[[workload]]
name = "tpcc"
prepare = ["--warehouses", "{warehouses}"]
"#;

    fn f() -> &'static Path {
        Path::new("p.toml")
    }

    #[test]
    fn a_plan_expands_for_its_scale() {
        let p = parse(f(), PLAN).unwrap();
        let e = p.expand(f(), None).unwrap();
        assert_eq!(e.scale, "quick");
        assert_eq!(e.threads, [2, 4]);
        assert_eq!((e.warmup, e.duration, e.repetitions), (5.0, 20.0, 2));
        assert_eq!(e.reset, Reset::Snapshot);
        let pair = e.pair("null", "tpcc").unwrap();
        assert_eq!(pair.prepare, ["--warehouses", "2", "--null-dates", "null"]);
        let full = p.expand(f(), Some("full")).unwrap();
        assert_eq!(full.threads.len(), 7);
        assert_eq!(full.pair("default", "tpcc").unwrap().prepare[1], "100");
        assert_eq!(
            set_value(&p.variants[1].set["innodb_adaptive_hash_index"]),
            "OFF"
        );
        assert_eq!(
            set_value(&p.variants[1].set["innodb_flush_log_at_trx_commit"]),
            "1"
        );
    }

    #[test]
    fn refusals_name_the_file_and_the_key() {
        let e = parse(f(), "baseline = \"a\"\nbogus = 1\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("p.toml: line 2, column 1: unknown field `bogus`"),
            "{e}"
        );
        let e = parse(f(), "baseline = \n").unwrap_err().to_string();
        assert!(e.starts_with("p.toml: line 1, column"), "{e}");
        let p = parse(
            f(),
            &PLAN.replace("baseline = \"default\"", "baseline = \"nope\""),
        )
        .unwrap();
        let e = p.expand(f(), None).unwrap_err().to_string();
        assert!(e.contains("baseline = 'nope' names no variant"), "{e}");
        let p = parse(f(), "baseline = \"a\"\n").unwrap();
        assert!(
            p.expand(f(), None)
                .unwrap_err()
                .to_string()
                .contains("no [[variant]]")
        );
        let p = parse(f(), PLAN).unwrap();
        let e = p.expand(f(), Some("huge")).unwrap_err().to_string();
        assert!(
            e.contains("--scale huge: the plan has no [scale.huge] (it has: full, quick)"),
            "{e}"
        );
        let e = parse(f(), &PLAN.replace("{warehouses}", "{wh}"))
            .unwrap()
            .expand(f(), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no value for {wh}"), "{e}");
        let e = parse(
            f(),
            &PLAN.replace(
                "prepare = [\"--warehouses\"",
                "run = [\"--threads\", \"8\"]\nprepare = [\"--warehouses\"",
            ),
        )
        .unwrap()
        .expand(f(), None)
        .unwrap_err()
        .to_string();
        assert!(e.contains("may not hold --threads"), "{e}");
        // Placement is for sandboxes: a url variant with numa_node is refused by key.
        let e = parse(
            f(),
            &PLAN.replace(
                "name = \"default\"\n",
                "name = \"default\"\nurl = \"mysql://u@127.0.0.1/db\"\nnuma_node = 1\n",
            ),
        )
        .unwrap()
        .expand(f(), None)
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("variant 'default': url names an existing server"),
            "{e}"
        );
        assert!(e.contains("numa_node"), "{e}");
    }

    #[test]
    fn placement_keys_reach_the_variant() {
        let p = parse(
            f(),
            &PLAN.replace(
                "name = \"null\"\n",
                "name = \"null\"\ncpus = \"0\"\nnuma_node = 0\n",
            ),
        )
        .unwrap();
        let v = p.variant("null").unwrap();
        assert_eq!((v.cpus.as_deref(), v.numa_node), (Some("0"), Some(0)));
    }
}
