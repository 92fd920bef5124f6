//! What else the host did while a cell ran (issue 41): the CPU other processes used, the
//! CPU the hypervisor stole, and the disk's fsync latency, from the cell's own server
//! figures. A cell run beside a neighbour's work is shown as such beside its throughput, and
//! the summary names the disturbed cells, so a wide interval is read as the machine's noise
//! rather than as the variants' equality.

use super::{Cell, CellStatus};
use crate::results::RunResult;
use serde::{Deserialize, Serialize};

/// Other processes' share of the host's CPU from which a cell counts as disturbed, %.
pub const DISTURBED_OTHERS_PCT: f64 = 20.0;
/// Stolen CPU from which a cell counts as disturbed, %.
pub const DISTURBED_STEAL_PCT: f64 = 5.0;
/// Disturbed cells the summary names by number.
const NAMED: usize = 3;

/// The host's load beside a cell's run, averaged over its measured phase.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HostLoad {
    /// CPU used by processes other than the server and txbench, % of the host's CPUs.
    pub others_pct: f64,
    /// CPU stolen by the hypervisor, % of the host's CPUs.
    pub steal_pct: f64,
    /// Mean latency of the fsyncs on the data directory's disk, ms (None: none ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fsync_ms: Option<f64>,
    /// The host's CPUs busy, % (None: recorded by an older txbench).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub busy_pct: Option<f64>,
}

impl HostLoad {
    /// The load beside run `r`, from its server figures (None without them, or without the
    /// host's CPU figures).
    pub fn of(r: &RunResult) -> Option<HostLoad> {
        let s = r.summary.as_ref()?;
        let a = &s.server.as_ref()?.averages;
        let host = *a.get("host_cpu_busy_pct")?;
        // Every target's server is this run's own (co-located instances driven together),
        // else the first's, the one sampled.
        let targets: Option<f64> = (!s.targets.is_empty())
            .then(|| s.targets.iter().map(|t| t.server_cpu_pct).sum())
            .flatten();
        let server = targets
            .or_else(|| a.get("server_cpu_pct").copied())
            .unwrap_or(0.0);
        Some(HostLoad {
            busy_pct: Some(host),
            others_pct: (host - server - s.client_cpu_pct).max(0.0),
            steal_pct: a.get("host_steal_pct").copied().unwrap_or(0.0),
            fsync_ms: a.get("fsync_ms_avg").copied().filter(|v| *v > 0.0),
        })
    }

    /// Whether the cell ran beside enough other work to move its throughput.
    pub fn disturbed(&self) -> bool {
        self.others_pct >= DISTURBED_OTHERS_PCT || self.steal_pct >= DISTURBED_STEAL_PCT
    }

    /// "others 38 % CPU, steal 0.0 %, fsync 0.23 ms", as the cells tables show it.
    pub fn text(&self) -> String {
        let fsync = self
            .fsync_ms
            .map_or(String::new(), |f| format!(", fsync {f:.2} ms"));
        format!(
            "others {:.0} % CPU, steal {:.1} %{fsync}",
            self.others_pct, self.steal_pct
        )
    }
}

/// The summary's line on the cells that ran disturbed, the most disturbed first (None when
/// none did): "3 of 16 cells ran beside other work (…): #9 (default, 4 threads, 16,242 NOPM,
/// others 41 % CPU) …".
pub fn disturbed_line(cells: &[Cell], unit: &str) -> Option<String> {
    let mut hit: Vec<(&Cell, HostLoad)> = cells
        .iter()
        .filter(|c| c.status == CellStatus::Done || c.status == CellStatus::Invalid)
        .filter_map(|c| Some((c, c.host?)))
        .filter(|(_, h)| h.disturbed())
        .collect();
    if hit.is_empty() {
        return None;
    }
    hit.sort_by(|a, b| {
        (b.1.others_pct + b.1.steal_pct).total_cmp(&(a.1.others_pct + a.1.steal_pct))
    });
    let named: Vec<String> = hit
        .iter()
        .take(NAMED)
        .map(|(c, h)| {
            let figure = if unit == "NOPM" { c.nopm } else { c.tps };
            let figure = figure.map_or(String::new(), |v| {
                format!(", {} {unit}", crate::store::grouped(v.round() as u64))
            });
            format!(
                "#{} ({}, {} threads{figure}, {})",
                c.order,
                super::coloc::cell_label(c),
                c.threads,
                h.text()
            )
        })
        .collect();
    Some(format!(
        "{} of {} cells ran beside other work (others ≥ {DISTURBED_OTHERS_PCT:.0} % of the CPUs, or steal ≥ {DISTURBED_STEAL_PCT:.0} %): {}{}; their throughput widens the intervals.",
        hit.len(),
        cells.len(),
        named.join(", "),
        match hit.len().saturating_sub(NAMED) {
            0 => String::new(),
            more => format!(" and {more} more"),
        }
    ))
}
