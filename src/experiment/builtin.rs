//! The plans shipped with txbench (`plans/*.toml`), listed by `experiment list` and printed
//! by `experiment show NAME` for a user to copy and edit.

/// Name and text of every built-in plan.
pub const PLANS: &[(&str, &str)] = &[
    ("null-dates", include_str!("../../plans/null-dates.toml")),
    ("schemas", include_str!("../../plans/schemas.toml")),
    ("isolation", include_str!("../../plans/isolation.toml")),
    ("thread-pool", include_str!("../../plans/thread-pool.toml")),
    ("autoinc", include_str!("../../plans/autoinc.toml")),
    ("durability", include_str!("../../plans/durability.toml")),
    ("two-tools", include_str!("../../plans/two-tools.toml")),
    ("replication", include_str!("../../plans/replication.toml")),
    ("co-location", include_str!("../../plans/co-location.toml")),
    ("decline", include_str!("../../plans/decline.toml")),
];

/// The built-in plan called `name`.
pub fn get(name: &str) -> Option<&'static str> {
    PLANS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_built_in_plan_expands_at_both_scales() {
        for (name, text) in PLANS {
            let f = Path::new(name);
            let plan = super::super::plan::parse(f, text).unwrap();
            assert!(plan.description.is_some(), "{name}");
            for scale in ["quick", "full"] {
                let e = plan
                    .expand(f, Some(scale))
                    .unwrap_or_else(|e| panic!("{name} {scale}: {e}"));
                // A plan of one variant compares nothing (decline: one long run).
                if e.variants.len() > 1 {
                    assert!(e.repetitions >= 2, "{name} {scale}: a verdict needs 2");
                }
            }
        }
        // The decline plan's cells get their by-period table: hours at full scale.
        let text = get("decline").unwrap();
        let plan = super::super::plan::parse(Path::new("decline"), text).unwrap();
        let full = plan.expand(Path::new("decline"), Some("full")).unwrap();
        assert_eq!(full.pairs[0].run, ["--period", "3600"]);
        assert_eq!(full.duration, 8.0 * 3600.0);
    }
}
