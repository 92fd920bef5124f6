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

#[test]
fn sequential_keys_expand_with_the_command_line_over_the_plan() {
    let p = parse(f(), PLAN).unwrap();
    // None: fixed repetitions.
    assert_eq!(p.expand(f(), None).unwrap().sequential, None);
    let text = PLAN.replace(
        "repetitions = 2\n",
        "repetitions = 2\nprecision = 3\nmax_time = \"10m\"\n",
    );
    let p = parse(f(), &text).unwrap();
    let e = p.expand(f(), None).unwrap();
    let s = e.sequential.clone().unwrap();
    assert_eq!(
        (s.precision_pct, s.min_repetitions, s.max_repetitions),
        (3.0, 2, 6)
    );
    assert_eq!(s.max_time_s, Some(600.0));
    // The schedule holds the most blocks.
    assert_eq!(e.repetitions, 6);
    assert_eq!(e.primary, "throughput");
    let args = SequentialArgs {
        precision: Some(1.5),
        max_repetitions: Some(4),
        max_time: Some("90s".into()),
    };
    let s = p.expand_with(f(), None, &args).unwrap().sequential.unwrap();
    assert_eq!(
        (s.precision_pct, s.max_repetitions, s.max_time_s),
        (1.5, 4, Some(90.0))
    );
    // A cost as the primary outcome.
    let p = parse(f(), &format!("primary = \"page_reorgs\"\n{text}")).unwrap();
    assert_eq!(p.expand(f(), None).unwrap().primary, "page_reorgs");
}

#[test]
fn sequential_refusals_name_the_key() {
    let refused = |text: &str, args: &SequentialArgs| {
        let p = parse(f(), text).unwrap();
        p.expand_with(f(), None, args).unwrap_err().to_string()
    };
    let none = SequentialArgs::default();
    let with = |k: &str| PLAN.replace("repetitions = 2\n", &format!("repetitions = 2\n{k}\n"));
    let e = refused(&with("precision = 0"), &none);
    assert!(
        e.contains("p.toml: precision = 0: give a percentage above 0"),
        "{e}"
    );
    let e = refused(&with("precision = 3\nmax_repetitions = 1"), &none);
    assert!(
        e.contains("max_repetitions = 1: below repetitions (2)"),
        "{e}"
    );
    let e = refused(&with("precision = 3\nmax_time = \"soon\""), &none);
    assert!(e.contains("max_time = 'soon'"), "{e}");
    let e = refused(
        PLAN,
        &SequentialArgs {
            max_repetitions: Some(5),
            ..SequentialArgs::default()
        },
    );
    assert!(
        e.contains("give precision too (--precision PERCENT)"),
        "{e}"
    );
    let one = with("precision = 3").replace(
        "[[variant]]\nname = \"null\"\nprepare = [\"--null-dates\", \"null\"]\n",
        "",
    );
    let one = one.replace(
        "set = { innodb_flush_log_at_trx_commit = 1, innodb_adaptive_hash_index = false }\n",
        "",
    );
    let e = refused(&one, &none);
    assert!(e.contains("a plan of one variant has none"), "{e}");
    let e = refused(&format!("primary = \"speed\"\n{PLAN}"), &none);
    assert!(
        e.contains("primary = 'speed': give throughput or a cost: server_cpu_ms, redo_bytes"),
        "{e}"
    );
}

#[test]
fn a_label_the_plan_sets_itself_is_seen_in_either_spelling() {
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    assert!(sets_label(&args(&["--label", "variant=x"]), "variant"));
    assert!(sets_label(
        &args(&["--rate", "5", "--label=experiment=e"]),
        "experiment"
    ));
    assert!(!sets_label(&args(&["--label", "variants=x"]), "variant"));
    assert!(!sets_label(&args(&["--label"]), "variant"));
    assert!(!sets_label(&args(&["variant=x"]), "variant"));
}

#[test]
fn a_lua_workload_gets_its_script_first_and_is_labelled_by_it() {
    let text = "baseline = \"a\"\n[[variant]]\nname = \"a\"\n\
        [[workload]]\nname = \"lua\"\nscript = \"scripts/oltp_read_write.lua\"\n\
        prepare = [\"--tables\", \"1\"]\nrun = [\"--tables\", \"1\"]\n";
    let file = Path::new("plans/p.toml");
    let e = parse(file, text).unwrap().expand(file, None).unwrap();
    assert_eq!(e.workloads, ["oltp_read_write"]);
    let pair = e.pair("a", "oltp_read_write").unwrap();
    assert_eq!(
        pair.prepare,
        ["plans/scripts/oltp_read_write.lua", "--tables", "1"]
    );
    assert_eq!(pair.run[0], "plans/scripts/oltp_read_write.lua");
    for (workload, said) in [
        ("name = \"lua\"\n", "give its sysbench script"),
        (
            "name = \"tpcc\"\nscript = \"x.lua\"\n",
            "script is for name = \"lua\" only",
        ),
    ] {
        let text = format!("baseline = \"a\"\n[[variant]]\nname = \"a\"\n[[workload]]\n{workload}");
        let err = parse(f(), &text).unwrap().expand(f(), None).unwrap_err();
        assert!(err.to_string().contains(said), "{err}");
        assert!(err.to_string().starts_with("p.toml: "), "{err}");
    }
}

#[test]
fn writers_name_how_many_galera_nodes_are_driven_and_nothing_else() {
    let with = |extra: &str| {
        parse(
            f(),
            &PLAN.replace("name = \"null\"\n", &format!("name = \"null\"\n{extra}")),
        )
        .unwrap()
        .expand(f(), Some("quick"))
    };
    assert!(with("galera = 3\nwriters = 1\n").is_ok());
    let p = parse(
        f(),
        &PLAN.replace(
            "name = \"null\"\n",
            "name = \"null\"\ngalera = 3\nwriters = 1\n",
        ),
    )
    .unwrap();
    let v = p.variant("null").unwrap();
    assert_eq!((v.galera, v.writers), (Some(3), Some(1)));
    for (extra, says) in [
        ("galera = 3\nwriters = 4\n", "writers = 4: give 1 to 3"),
        ("galera = 2\nwriters = 0\n", "writers = 0: give 1 to 2"),
        ("writers = 1\n", "writers is for a Galera cluster"),
    ] {
        let err = with(extra).unwrap_err().to_string();
        assert!(err.contains(says), "{extra}: {err}");
        assert!(err.contains("variant 'null'"), "{err}");
    }
}

#[test]
fn a_co_location_plan_names_its_instances_and_bad_ones_are_one_line_refusals() {
    let plan = |variant: &str, more: &str| {
        format!(
            "baseline = \"a\"\n{more}\n[[variant]]\nname = \"a\"\n{variant}\n[[workload]]\nname = \"tpcb\"\n"
        )
    };
    let ok = parse(
        f(),
        &plan("instances = 2\ninstance_cpus = [\"0\", \"1\"]", ""),
    )
    .unwrap()
    .expand(f(), None)
    .unwrap();
    assert_eq!(ok.instances, Some(2));
    let refused = |variant: &str, more: &str| {
        let text = plan(variant, more);
        let e = parse(f(), &text)
            .and_then(|p| p.expand(f(), None))
            .unwrap_err()
            .to_string();
        assert!(!e.contains('\n'), "one line: {e}");
        assert!(e.starts_with("p.toml: "), "{e}");
        e
    };
    assert!(refused("instances = 0", "").contains("instances = 0: give 2 or more"));
    assert!(refused("instances = 1", "").contains("instances = 1"));
    assert!(refused("instances = 2\ngalera = 3", "").contains("galera"));
    assert!(refused("instances = 2\nreplicas = 1", "").contains("replicas"));
    assert!(refused("instances = 2\nurl = \"mysql://h/db\"", "").contains("url"));
    assert!(
        refused("instances = 2\ninstance_cpus = [\"0\"]", "")
            .contains("instance_cpus: 1 entries for 2 instances")
    );
    assert!(refused("instance_cpus = [\"0\"]", "").contains("give instances too"));
    assert!(refused("instances = 2", "primary = \"redo_bytes\"").contains("compares throughput"));
    assert!(refused("instances = 2", "reset = \"warm\"").contains("reset = 'warm'"));
    let two = "baseline = \"a\"\n[[variant]]\nname = \"a\"\ninstances = 2\n[[variant]]\nname = \"b\"\n[[workload]]\nname = \"tpcb\"\n";
    let e = parse(f(), two)
        .unwrap()
        .expand(f(), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("a co-location plan has one variant"), "{e}");
    // A misspelt key is refused with its line.
    let e = parse(f(), &plan("instance = 2", ""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 5") && e.contains("instance"), "{e}");
    // Sequential: the ratio is what it stops on, so one variant is enough.
    let seq = parse(f(), &plan("instances = 2", "precision = 5"))
        .unwrap()
        .expand(f(), None)
        .unwrap();
    assert!(seq.sequential.is_some());
}

#[test]
fn a_warm_plan_drives_its_servers_once_and_warm_start_is_refused_elsewhere() {
    let plan = |more: &str| {
        format!(
            "baseline = \"a\"\n{more}\n[[variant]]\nname = \"a\"\n[[variant]]\nname = \"b\"\n[[workload]]\nname = \"tpcb\"\n"
        )
    };
    let expand = |more: &str| parse(f(), &plan(more)).and_then(|p| p.expand(f(), None));
    let warm = expand("reset = \"warm\"").unwrap();
    assert_eq!((warm.reset, warm.warm_start), (Reset::Warm, Some(30.0)));
    let scaled =
        expand("reset = \"warm\"\nwarm_start = 60\n[scale.quick]\nwarm_start = 12").unwrap();
    assert_eq!(scaled.warm_start, Some(12.0));
    // A scale may be warm where the plan is not (the quick built-in plans).
    let p = parse(
        f(),
        &plan("[scale.quick]\nreset = \"warm\"\n[scale.full]\nthreads = \"8\""),
    )
    .unwrap();
    let quick = p.expand(f(), Some("quick")).unwrap();
    assert_eq!((quick.reset, quick.warm_start), (Reset::Warm, Some(30.0)));
    assert_eq!(p.expand(f(), Some("full")).unwrap().reset, Reset::Snapshot);
    assert_eq!(expand("").unwrap().warm_start, None);
    for (more, want) in [
        ("warm_start = 10", "warm_start: only a warm experiment"),
        (
            "reset = \"warm\"\nwarm_start = -1",
            "warm_start = -1: give 0 or more seconds",
        ),
    ] {
        let e = expand(more).unwrap_err().to_string();
        assert!(e.starts_with("p.toml: ") && e.contains(want), "{more}: {e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
    let e = expand("reset = \"tepid\"").unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("`warm`"), "{e}");
}

#[test]
fn a_replay_workload_needs_replicas_in_every_variant_and_no_warm_reset_or_cost() {
    let plan = |more: &str, replicas: &str| {
        format!(
            "baseline = \"a\"\n{more}\n[[variant]]\nname = \"a\"\nreplicas = 1\n[[variant]]\nname = \"b\"\n{replicas}\n[[workload]]\nname = \"replay\"\n"
        )
    };
    let expand = |more: &str, replicas: &str| {
        parse(f(), &plan(more, replicas)).and_then(|p| p.expand(f(), None))
    };
    let e = expand("", "replicas = 2").unwrap();
    assert_eq!(e.replays, ["replay"]);
    for (more, replicas, want) in [
        (
            "",
            "",
            "variant 'b': workload 'replay' measures a replica's catch-up",
        ),
        (
            "reset = \"warm\"",
            "replicas = 1",
            "reset = \"warm\": workload 'replay'",
        ),
        (
            "primary = \"fsyncs\"",
            "replicas = 1",
            "primary = 'fsyncs': workload 'replay'",
        ),
    ] {
        let err = expand(more, replicas).unwrap_err().to_string();
        assert!(
            err.starts_with("p.toml: ") && err.contains(want),
            "{more}: {err}"
        );
    }
}
