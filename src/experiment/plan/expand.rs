//! The steps of [`Plan::expand_with`], in the order it takes them: the variants, the
//! baseline and the workloads checked, the scale chosen, its sizes and the reset rule
//! resolved, every variant × workload's options substituted, the primary outcome checked.

use super::{Pair, Plan, REPLAY, Reset, Scale, bad, substitute, valid_name};
use crate::config::ThreadLevels;
use crate::experiment::{COSTS, PRIMARY_THROUGHPUT};
use std::path::Path;

/// The sizes of every cell under the chosen scale, checked.
pub(super) struct Sizes {
    /// Thread levels.
    pub(super) threads: Vec<u32>,
    /// Warm-up seconds.
    pub(super) warmup: f64,
    /// Measured seconds.
    pub(super) duration: f64,
    /// Repetitions (with `precision`: the blocks before the first look).
    pub(super) repetitions: u32,
}

impl Plan {
    /// Refuses a plan without a variant or without a workload.
    pub(super) fn check_not_empty(&self, file: &Path) -> anyhow::Result<()> {
        if self.variants.is_empty() {
            return Err(bad(
                file,
                "no [[variant]]: an experiment compares at least one",
            ));
        }
        if self.workloads.is_empty() {
            return Err(bad(file, "no [[workload]]: give at least one"));
        }
        Ok(())
    }

    /// The variants' names in plan order, each checked: a name, given once, and a `url`
    /// variant without the sandbox keys.
    pub(super) fn checked_variants(&self, file: &Path) -> anyhow::Result<Vec<String>> {
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
            match (v.writers, v.galera) {
                (Some(w), Some(g)) if w == 0 || w > g => {
                    return Err(bad(
                        file,
                        format!(
                            "variant '{}': writers = {w}: give 1 to {g} (the nodes of its Galera cluster)",
                            v.name
                        ),
                    ));
                }
                (Some(_), None) => {
                    return Err(bad(
                        file,
                        format!(
                            "variant '{}': writers is for a Galera cluster: it needs galera = N",
                            v.name
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(seen)
    }

    /// Refuses a baseline that names none of `variants`.
    pub(super) fn check_baseline(&self, file: &Path, variants: &[String]) -> anyhow::Result<()> {
        if !self.variants.iter().any(|v| v.name == self.baseline) {
            return Err(bad(
                file,
                format!(
                    "baseline = '{}' names no variant (the variants: {})",
                    self.baseline,
                    variants.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// The workloads' labels in plan order, each checked: a name, given once.
    pub(super) fn checked_workloads(&self, file: &Path) -> anyhow::Result<Vec<String>> {
        let mut labels = Vec::new();
        for w in &self.workloads {
            if !valid_name(w.label()) {
                return Err(bad(file, format!("workload '{}': not a name", w.label())));
            }
            match (w.name.as_str(), &w.script) {
                ("lua", None) => {
                    return Err(bad(
                        file,
                        "workload 'lua': give its sysbench script (script = \"/usr/share/sysbench/oltp_read_write.lua\")",
                    ));
                }
                (name, Some(_)) if name != "lua" => {
                    return Err(bad(
                        file,
                        format!("workload '{name}': script is for name = \"lua\" only"),
                    ));
                }
                _ => {}
            }
            if labels.contains(&w.label().to_string()) {
                return Err(bad(
                    file,
                    format!("workload '{}' appears twice: give each a label", w.label()),
                ));
            }
            labels.push(w.label().to_string());
        }
        Ok(labels)
    }

    /// A `replay` workload (`txbench replay`'s catch-up as the outcome): every variant a
    /// sandbox primary with replicas, cells that start from a snapshot or a reload (a warm
    /// server is driven by `run`), and throughput the outcome (the replica's New-Orders per
    /// minute; a replay has no costs per transaction).
    pub(super) fn check_replay(
        &self,
        file: &Path,
        reset: Reset,
        primary: &str,
    ) -> anyhow::Result<()> {
        if !self.workloads.iter().any(|w| w.name == REPLAY) {
            return Ok(());
        }
        if let Some(v) = self
            .variants
            .iter()
            .find(|v| v.replicas.unwrap_or(0) == 0 || v.url.is_some() || v.instances.is_some())
        {
            return Err(bad(
                file,
                format!(
                    "variant '{}': workload 'replay' measures a replica's catch-up: give every variant replicas = 1 or more (a sandbox primary)",
                    v.name
                ),
            ));
        }
        if reset == Reset::Warm {
            return Err(bad(
                file,
                "reset = \"warm\": workload 'replay' stops a replica's applier on data of its own; use snapshot or reload",
            ));
        }
        if primary != PRIMARY_THROUGHPUT {
            return Err(bad(
                file,
                format!(
                    "primary = '{primary}': workload 'replay' measures the replica's New-Orders per minute; use {PRIMARY_THROUGHPUT}"
                ),
            ));
        }
        Ok(())
    }

    /// The scale to expand for, with its name: `scale` (an error when the plan has none of
    /// that name), else quick, else the only one; None: the plan's own values.
    pub(super) fn chosen_scale(
        &self,
        file: &Path,
        scale: Option<&str>,
    ) -> anyhow::Result<Option<(String, &Scale)>> {
        Ok(match scale {
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
        })
    }

    /// Thread levels, warm-up, duration and repetitions of scale `sc` over the plan's own,
    /// checked.
    pub(super) fn sizes(&self, file: &Path, sc: &Scale) -> anyhow::Result<Sizes> {
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
        Ok(Sizes {
            threads,
            warmup,
            duration,
            repetitions,
        })
    }

    /// How every cell starts: the scale's `reset`, else the plan's, else none with a `url`
    /// variant and snapshot without; snapshot refused with a `url` variant.
    pub(super) fn reset_rule(&self, file: &Path, sc: &Scale) -> anyhow::Result<Reset> {
        let any_url = self.variants.iter().any(|v| v.url.is_some());
        let reset = sc.reset.or(self.reset).unwrap_or(if any_url {
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
        if reset == Reset::Warm && self.variants.iter().any(|v| v.instances.is_some()) {
            return Err(bad(
                file,
                "reset = 'warm' keeps every variant's servers running between cells; a co-location plan measures its instances alone and together, so it restores them instead (use snapshot)",
            ));
        }
        Ok(reset)
    }

    /// The seconds of scale `sc` (over the plan's) that a warm experiment drives each server
    /// before its first cell: 30 by default, refused without `reset = "warm"`.
    pub(super) fn warm_start(
        &self,
        file: &Path,
        sc: &Scale,
        reset: Reset,
    ) -> anyhow::Result<Option<f64>> {
        let given = sc.warm_start.or(self.warm_start);
        if reset != Reset::Warm {
            return match given {
                Some(_) => Err(bad(
                    file,
                    "warm_start: only a warm experiment (reset = 'warm') drives its servers before the first cell",
                )),
                None => Ok(None),
            };
        }
        let secs = given.unwrap_or(30.0);
        if !(secs >= 0.0 && secs.is_finite()) {
            return Err(bad(
                file,
                format!("warm_start = {secs}: give 0 or more seconds"),
            ));
        }
        Ok(Some(secs))
    }

    /// Every variant × workload with its options, `{name}` replaced by the values of scale
    /// `sc` over the plan's.
    pub(super) fn pairs(&self, file: &Path, sc: &Scale) -> anyhow::Result<Vec<Pair>> {
        let mut vars = self.vars.clone();
        vars.extend(sc.vars.clone());
        let sub = |v: &[String]| -> anyhow::Result<Vec<String>> {
            v.iter().map(|s| substitute(file, s, &vars)).collect()
        };
        let mut pairs = Vec::new();
        for v in &self.variants {
            for w in &self.workloads {
                // `lua FILE options`: the script first, where the plan file is.
                let script: Vec<String> = w
                    .script
                    .iter()
                    .map(|s| {
                        let dir = file.parent().unwrap_or(Path::new(""));
                        dir.join(s).display().to_string()
                    })
                    .collect();
                let mut prepare = script.clone();
                prepare.extend(sub(&w.prepare)?);
                prepare.extend(sub(&v.prepare)?);
                let mut run = script;
                run.extend(sub(&w.run)?);
                run.extend(sub(&v.run)?);
                check_reserved(file, w.label(), &v.name, &run)?;
                pairs.push(Pair {
                    variant: v.name.clone(),
                    workload: w.label().to_string(),
                    prepare,
                    run,
                });
            }
        }
        Ok(pairs)
    }

    /// The primary outcome: the plan's, else throughput; checked to be throughput or a cost.
    pub(super) fn primary_outcome(&self, file: &Path) -> anyhow::Result<String> {
        let primary = self
            .primary
            .clone()
            .unwrap_or_else(|| PRIMARY_THROUGHPUT.into());
        if primary != PRIMARY_THROUGHPUT && !COSTS.contains(&primary.as_str()) {
            return Err(bad(
                file,
                format!(
                    "primary = '{primary}': give {PRIMARY_THROUGHPUT} or a cost: {}",
                    COSTS.join(", ")
                ),
            ));
        }
        Ok(primary)
    }
}

impl Plan {
    /// The co-location's instances (None: a plan comparing variants), checked: 2 or more,
    /// on the plan's only variant, a sandbox of one server, one CPU list per instance, and
    /// throughput the outcome (the ratio is together's against the sum of alone's).
    pub(super) fn co_location(&self, file: &Path, primary: &str) -> anyhow::Result<Option<u32>> {
        let Some(v) = self.variants.iter().find(|v| v.instances.is_some()) else {
            if let Some(v) = self.variants.iter().find(|v| !v.instance_cpus.is_empty()) {
                return Err(bad(
                    file,
                    format!(
                        "variant '{}': instance_cpus is for co-location: give instances too",
                        v.name
                    ),
                ));
            }
            return Ok(None);
        };
        let n = v.instances.unwrap_or(0);
        let why = if n < 2 {
            Some(format!(
                "instances = {n}: give 2 or more (the instances run alone and together)"
            ))
        } else if self.variants.len() > 1 {
            Some("instances: a co-location plan has one variant (its instances alone against together are the comparison)".into())
        } else if v.url.is_some() {
            Some("instances: co-location starts sandboxes; url names one existing server".into())
        } else if v.replicas.is_some() || v.galera.is_some() || v.semisync {
            Some("instances: each instance is one server; replicas, semisync and galera are not supported with co-location".into())
        } else if !v.instance_cpus.is_empty() && v.instance_cpus.len() != n as usize {
            Some(format!(
                "instance_cpus: {} entries for {n} instances: give one CPU list per instance",
                v.instance_cpus.len()
            ))
        } else if primary != PRIMARY_THROUGHPUT {
            Some(format!(
                "primary = '{primary}': a co-location plan compares throughput (together against the sum of alone)"
            ))
        } else {
            None
        };
        match why {
            Some(why) => Err(bad(file, format!("variant '{}': {why}", v.name))),
            None => Ok(Some(n)),
        }
    }
}

/// Refuses `run` options of `workload` × `variant` that hold one the plan sets.
fn check_reserved(
    file: &Path,
    workload: &str,
    variant: &str,
    run: &[String],
) -> anyhow::Result<()> {
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
                    "workload '{workload}' / variant '{variant}': run options may not hold {reserved} (the plan sets it)",
                ),
            ));
        }
    }
    Ok(())
}
