//! Table sets (`--table-sets N`, also `--schemas N`): N independent copies of the nine
//! tables, each in a schema of its own. Set 1 is the URL's schema (a database with one set
//! is what it always was); set k lives in `<schema>_set<k>`. Each set has its own
//! txbench_meta; set 1's records how many sets were prepared. Seed 000's readers were told
//! to run "10 or more database schemas in parallel" to hide the page-split cost: this is
//! how a user sees whether it does.

use super::{NullDates, State};
use crate::engine::{self, Conn, Engine, TargetUrl, namespace};
use crate::workload::Condition;
use crate::workload::meta;
use anyhow::{Context, Result, bail};

/// Set 1's record of how many sets were prepared.
pub const META_KEY: &str = "tpcc.table_sets";

/// The table sets a command works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSets {
    /// The URL's schema: set 1's, and the stem of the others' names.
    pub base: String,
    /// How many.
    pub count: u32,
    /// The server's engine (how names are quoted).
    pub engine: Engine,
}

impl TableSets {
    /// One set: the connection's schema as it always was (for unit tests of a run).
    pub fn one(engine: Engine) -> TableSets {
        TableSets {
            base: String::new(),
            count: 1,
            engine,
        }
    }

    /// `count` sets named after the connection's schema.
    pub fn named_from(conn: &mut Conn, count: u32) -> Result<TableSets> {
        Ok(TableSets {
            base: namespace::current(conn)?,
            count,
            engine: conn.engine(),
        })
    }

    /// Set `k`'s schema.
    pub fn schema(&self, k: u32) -> String {
        if k == 1 {
            self.base.clone()
        } else {
            format!("{}_set{k}", self.base)
        }
    }

    /// The schema a connection enters for set `k` (None for set 1: the URL's own).
    pub fn enters(&self, k: u32) -> Option<String> {
        (k > 1).then(|| self.schema(k))
    }

    /// Set `k` as messages name it: `set 2 (txbench_set2)`.
    pub fn name(&self, k: u32) -> String {
        format!("set {k} ({})", self.schema(k))
    }

    /// `table` of set `k` as SQL from a connection to set 1.
    pub fn qualified(&self, k: u32, table: &str) -> String {
        namespace::qualify(self.engine, self.enters(k).as_deref(), table)
    }

    /// A connection to `target` in set `k`'s schema.
    pub fn connect(&self, target: &TargetUrl, k: u32) -> Result<Conn> {
        let mut conn = engine::connect(target)?;
        if let Some(s) = self.enters(k) {
            namespace::enter(&mut conn, &s).with_context(|| {
                format!(
                    "table {}: the schema cannot be used (prepare it with --table-sets {})",
                    self.name(k),
                    self.count
                )
            })?;
        }
        Ok(conn)
    }
}

/// The sets prepared, as set 1 records them (1 when it records none).
pub fn recorded(conn: &mut Conn) -> Result<u32> {
    Ok(meta::get(conn, META_KEY)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(1))
}

/// The sets `check`, `run` and `cleanup` work on: `requested` (`--table-sets`), or every
/// prepared one; more than were prepared is an error naming the flag.
pub fn resolve(conn: &mut Conn, requested: Option<u32>) -> Result<TableSets> {
    let prepared = recorded(conn)?;
    let count = requested.unwrap_or(prepared);
    if count > prepared {
        bail!(
            "--table-sets {count} is more than the {prepared} prepared: run `txbench prepare tpcc --table-sets {count}` first"
        );
    }
    TableSets::named_from(conn, count)
}

/// Every set of `sets` is a complete TPC-C load of the same shape (warehouses, null dates,
/// load-time C) with at least `warehouses` warehouses: set 1's state, and each set's.
pub fn ready_all(
    target: &TargetUrl,
    sets: &TableSets,
    warehouses: Option<u32>,
) -> Result<Vec<State>> {
    let mut states: Vec<State> = Vec::new();
    for k in 1..=sets.count {
        let mut conn = sets.connect(target, k)?;
        let st = super::ready(&mut conn, warehouses)
            .with_context(|| format!("table {}", sets.name(k)))?;
        if let Some(first) = states.first()
            && (st.warehouses, st.null_dates, st.c_last_load)
                != (first.warehouses, first.null_dates, first.c_last_load)
        {
            bail!(
                "table {} holds {} warehouse(s) with --null-dates {} (load C {}), set 1 {} with --null-dates {} (load C {}): the sets must be alike; clean up and prepare them again",
                sets.name(k),
                st.warehouses,
                st.null_dates.name(),
                st.c_last_load,
                first.warehouses,
                first.null_dates.name(),
                first.c_last_load
            );
        }
        states.push(st);
    }
    Ok(states)
}

/// The consistency conditions of every set (`initial`: each set's condition 11 state,
/// false where missing), with the seconds each set's check took.
pub fn check_all(
    target: &TargetUrl,
    sets: &TableSets,
    null_dates: NullDates,
    initial: &[bool],
) -> Result<Vec<(Vec<Condition>, f64)>> {
    (1..=sets.count)
        .map(|k| {
            let t = std::time::Instant::now();
            let conditions = super::check::run(
                &|| sets.connect(target, k),
                null_dates,
                initial.get(k as usize - 1).copied().unwrap_or(false),
                super::check::parallelism(),
            )
            .with_context(|| format!("checking table {}", sets.name(k)))?;
            Ok((conditions, t.elapsed().as_secs_f64()))
        })
        .collect()
}

/// The conditions of several sets as one list, each failing one named by its set.
pub fn name_conditions(sets: &TableSets, per_set: Vec<Vec<Condition>>) -> Vec<Condition> {
    if sets.count == 1 {
        return per_set.into_iter().next().unwrap_or_default();
    }
    per_set
        .into_iter()
        .enumerate()
        .flat_map(|(i, cs)| {
            let name = sets.name(i as u32 + 1);
            cs.into_iter().map(move |mut c| {
                c.description = format!("{name}: {}", c.description);
                c
            })
        })
        .collect()
}

/// Drops every set's tables (the last set first; set 1, which records the others, last)
/// and the schemas txbench made for them once nothing else is in them.
pub fn cleanup_all(target: &TargetUrl, sets: &TableSets) -> Result<()> {
    let mut base = engine::connect(target)?;
    for k in (2..=sets.count).rev() {
        let schema = sets.schema(k);
        if !namespace::exists(&mut base, &schema)? {
            continue;
        }
        let mut conn = sets.connect(target, k)?;
        super::cleanup(&mut conn).with_context(|| format!("table {}", sets.name(k)))?;
        meta::drop_if_unused(&mut conn)?;
        drop(conn);
        namespace::drop_if_empty(&mut base, &schema)?;
    }
    super::cleanup(&mut base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_one_is_the_urls_schema_and_the_others_are_named_after_it() {
        let s = TableSets {
            base: "tx`b".into(),
            count: 3,
            engine: Engine::Mysql,
        };
        assert_eq!(s.schema(1), "tx`b");
        assert_eq!(s.enters(1), None);
        assert_eq!(s.schema(3), "tx`b_set3");
        assert_eq!(s.name(2), "set 2 (tx`b_set2)");
        assert_eq!(s.qualified(1, "district"), "district");
        assert_eq!(s.qualified(2, "district"), "`tx``b_set2`.district");
        let pg = TableSets {
            engine: Engine::Postgres,
            ..s
        };
        assert_eq!(pg.qualified(2, "district"), "\"tx`b_set2\".district");
    }

    #[test]
    fn conditions_of_several_sets_name_their_set() {
        let s = TableSets {
            base: "db".into(),
            count: 2,
            engine: Engine::Mysql,
        };
        let c = |n| Condition {
            number: n,
            description: "d".into(),
            violations: 0,
            applies: true,
            detail: String::new(),
        };
        let all = name_conditions(&s, vec![vec![c(1)], vec![c(1), c(2)]]);
        assert_eq!(all.len(), 3);
        assert_eq!(all[2].description, "set 2 (db_set2): d");
        let one = TableSets { count: 1, ..s };
        assert_eq!(name_conditions(&one, vec![vec![c(1)]])[0].description, "d");
    }
}
