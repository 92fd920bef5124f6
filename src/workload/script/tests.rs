//! The script language: expressions parsed and evaluated as pgbench does, scripts read into
//! commands, bad input refused with file and line, and never a panic on any input.

use super::eval::{self, Env, Val, Var, Vars};
use super::parse::{Body, Seg, SqlClass};
use super::*;
use crate::workload::rand::worker_rng;
use proptest::prelude::*;

fn vars() -> Vars {
    let mut v = Vars::new();
    v.insert("scale".into(), Var::Val(Val::Int(10)));
    v.insert("default_seed".into(), Var::Val(Val::Int(42)));
    v.insert("t".into(), Var::Text("17".into()));
    v.insert("d".into(), Var::Text("2.5".into()));
    v.insert("b".into(), Var::Text("yes".into()));
    v.insert("bad".into(), Var::Text("x1".into()));
    v
}

fn run(s: &str) -> Result<Val, String> {
    let e = expr::parse(s)?;
    let vars = vars();
    let mut rng = worker_rng(7, 1);
    eval::eval(
        &e,
        &mut Env {
            vars: &vars,
            rng: &mut rng,
        },
    )
}

fn int(s: &str) -> i64 {
    match run(s) {
        Ok(Val::Int(i)) => i,
        other => panic!("{s}: {other:?}"),
    }
}

#[test]
fn arithmetic_follows_pgbench_precedence_and_types() {
    assert_eq!(int("1 + 2 * 3"), 7);
    assert_eq!(int("(1 + 2) * 3"), 9);
    assert_eq!(int("-7 / 2"), -3);
    assert_eq!(int("-7 % 2"), -1);
    assert_eq!(int("mod(7, -1)"), 0);
    assert_eq!(int("1 << 4 | 1"), 17);
    assert_eq!(int("~0"), -1);
    assert_eq!(int("5 # 1"), 4);
    assert_eq!(int("100000 * :scale"), 1_000_000);
    assert_eq!(int(":t + 1"), 18);
    assert_eq!(int("-9223372036854775808"), i64::MIN);
    assert_eq!(run("3.0 / 2"), Ok(Val::Double(1.5)));
    assert_eq!(run(":d * 2"), Ok(Val::Double(5.0)));
    assert_eq!(int("int(2.5)"), 2);
    assert_eq!(int("int(3.5)"), 4);
    assert_eq!(int("abs(-3)"), 3);
    assert_eq!(run("greatest(1, 2.5, 2)"), Ok(Val::Double(2.5)));
    assert_eq!(int("least(3, 1, 2)"), 1);
    assert_eq!(run("pow(2, 10)"), Ok(Val::Double(1024.0)));
    assert_eq!(run("power(2, 0.5) = sqrt(2)"), Ok(Val::Bool(true)));
    assert_eq!(run("ln(exp(1)) = 1"), Ok(Val::Bool(true)));
    assert_eq!(run("pi() > 3.14"), Ok(Val::Bool(true)));
    assert_eq!(run("double(3)"), Ok(Val::Double(3.0)));
}

#[test]
fn booleans_null_and_case_as_pgbench() {
    assert_eq!(run("1 < 2 and 2 < 3"), Ok(Val::Bool(true)));
    assert_eq!(run("1 > 2 or 3 >= 3"), Ok(Val::Bool(true)));
    assert_eq!(run("not true"), Ok(Val::Bool(false)));
    assert_eq!(run(":b and true"), Ok(Val::Bool(true)));
    // Lazy: the undefined variable is never read.
    assert_eq!(run("true or :nope > 1"), Ok(Val::Bool(true)));
    assert_eq!(run("false and :nope > 1"), Ok(Val::Bool(false)));
    assert_eq!(run("null is null"), Ok(Val::Bool(true)));
    assert_eq!(run("1 isnull"), Ok(Val::Bool(false)));
    assert_eq!(run("1 notnull"), Ok(Val::Bool(true)));
    assert_eq!(run("(1 = 1) is not false"), Ok(Val::Bool(true)));
    assert_eq!(run("null + 1"), Ok(Val::Null));
    assert_eq!(run("null and true"), Ok(Val::Null));
    assert_eq!(
        int("case when 1 > 2 then 1 when 2 > 1 then 2 else 3 end"),
        2
    );
    assert_eq!(run("case when false then 1 end"), Ok(Val::Null));
    assert_eq!(int("CASE WHEN :t = 17 THEN 1 ELSE 0 END"), 1);
}

#[test]
fn overflow_and_bad_values_are_errors_with_pgbench_words() {
    let err = |s: &str| run(s).expect_err(s);
    assert_eq!(err("9223372036854775807 + 1"), "bigint add out of range");
    assert_eq!(err("-9223372036854775808 - 1"), "bigint sub out of range");
    assert_eq!(err("4611686018427387904 * 2"), "bigint mul out of range");
    assert_eq!(err("-9223372036854775808 / -1"), "bigint div out of range");
    assert_eq!(err("-(-9223372036854775808)"), "bigint sub out of range");
    assert_eq!(err("abs(-9223372036854775808)"), "bigint abs out of range");
    assert_eq!(err("5 / 0"), "division by zero");
    assert_eq!(err("5 % 0"), "division by zero");
    assert!(err("int(1e300)").contains("double to int overflow"));
    assert_eq!(err("1 + true"), "cannot coerce boolean to int");
    assert_eq!(err("not 1"), "cannot coerce int to boolean");
    assert_eq!(err(":nope + 1"), "undefined variable \"nope\"");
    assert_eq!(err(":bad + 1"), "malformed variable \"bad\" value: \"x1\"");
    assert_eq!(err("random(5, 1)"), "empty range given to random");
    assert_eq!(
        err("random(-9223372036854775808, 9223372036854775807)"),
        "random range is too large"
    );
    assert!(err("random_gaussian(1, 10, 1.5)").contains("at least 2"));
    assert!(err("random_zipfian(1, 10, 1.0)").contains("zipfian parameter"));
    assert!(err("random_exponential(1, 10, 0)").contains("greater than zero"));
    assert!(err("permute(1, 0)").contains("greater than zero"));
}

#[test]
fn syntax_errors_name_the_column() {
    let err = |s: &str| expr::parse(s).expect_err(s);
    assert_eq!(
        err("1 +"),
        "syntax error at column 4: the expression ends too early"
    );
    assert_eq!(err("1 + * 2"), "syntax error at column 5: unexpected '*'");
    assert_eq!(err("1 < 2 < 3"), "syntax error at column 7: unexpected '<'");
    assert_eq!(
        err("(1"),
        "syntax error at column 3: the expression ends too early"
    );
    assert_eq!(err("nofunc(1)"), "unknown function \"nofunc\" at column 1");
    assert_eq!(
        err("random(1)"),
        "random() at column 1 takes 2 argument(s), not 1"
    );
    assert_eq!(err("1 $ 2"), "unexpected character '$' at column 3");
    assert!(err("99999999999999999999").contains("out of range"));
    assert_eq!(err(""), "an expression is missing");
    assert!(err(&"(".repeat(1000)).contains("nests deeper"));
}

#[test]
fn hashes_are_pgbench_s() {
    // Reference values computed from pgbench's definitions (FNV-1a over the 8 bytes, and
    // MurmurHash64A of one 8-byte block).
    fn fnv_ref(v: i64, seed: i64) -> i64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed as u64;
        for b in (v as u64).to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        h as i64
    }
    for v in [0, 1, -1, 42, i64::MAX, i64::MIN] {
        assert_eq!(eval::fnv1a(v, 5432), fnv_ref(v, 5432));
    }
    assert_ne!(eval::murmur2(1, 0), eval::murmur2(2, 0));
    assert_ne!(eval::murmur2(1, 0), eval::murmur2(1, 1));
    // hash() is murmur2 with :default_seed.
    assert_eq!(int("hash(10)"), eval::murmur2(10, 42));
    assert_eq!(int("hash_fnv1a(10)"), eval::fnv1a(10, 42));
}

fn script(text: &str) -> Result<Vec<parse::Command>, String> {
    parse::parse("s.sql", text).map_err(|e| e.to_string())
}

#[test]
fn scripts_read_into_commands() {
    let c = script(
        "-- a comment\n\\set aid random(1, 100000 * :scale)\nBEGIN;\nUPDATE t\n  SET v = ';' -- ;\n  WHERE id = :aid;\nSELECT v::int AS v, ':x' FROM t WHERE id = :aid \\gset p_\nEND;\n",
    )
    .unwrap();
    assert_eq!(c.len(), 5);
    assert!(matches!(c[0].body, Body::Set { .. }));
    assert_eq!((c[1].line, c[2].line, c[3].line, c[4].line), (3, 4, 7, 8));
    assert_eq!(c[2].text, "UPDATE t SET v = ';' -- ; WHERE id = :aid");
    let Body::Sql { segs, class, store } = &c[3].body else {
        panic!("{:?}", c[3]);
    };
    assert_eq!(*class, SqlClass::Read);
    assert_eq!(store.as_ref().map(|s| s.prefix.as_str()), Some("p_"));
    assert_eq!(
        segs[..2],
        [
            Seg::Text("SELECT v::int AS v, '".into()),
            Seg::Var {
                name: "x".into(),
                quoted: true
            }
        ]
    );
    assert!(c.iter().all(|c| !c.conditional));
    assert_eq!(
        c[3].text,
        "SELECT v::int AS v, ':x' FROM t WHERE id = :aid \\gset p_"
    );
    let c = script("SELECT 1 AS a\n\\aset\n").unwrap();
    assert_eq!(c[0].text, "SELECT 1 AS a \\aset");
}

#[test]
fn if_chains_jump_to_their_branches() {
    let c =
        script("\\if :a\nSELECT 1;\n\\elif :b\nSELECT 2;\n\\else\nSELECT 3;\n\\endif\nSELECT 4;\n")
            .unwrap();
    assert!(matches!(c[0].body, Body::If { next: 2, .. }));
    assert!(matches!(
        c[2].body,
        Body::Elif {
            next: 4,
            end: 6,
            ..
        }
    ));
    assert!(matches!(c[4].body, Body::Else { end: 6 }));
    assert!(c[1].conditional && c[5].conditional && !c[7].conditional);
}

#[test]
fn bad_scripts_name_file_line_and_what() {
    let err = |t: &str| script(t).expect_err(t);
    assert_eq!(
        err("SELECT 1;\n\n\\foo bar\n"),
        "s.sql:3: unknown command \\foo"
    );
    assert_eq!(
        err("\\set x 1 +\n"),
        "s.sql:1: \\set: syntax error at column 4: the expression ends too early"
    );
    assert!(err("\\setshell x date\n").starts_with("s.sql:1: \\setshell is refused"));
    assert!(err("\\shell ls\n").contains("does not run shell commands"));
    assert!(err("\\startpipeline\n").contains("refused"));
    assert_eq!(
        err("\\gset\n"),
        "s.sql:1: \\gset must follow an SQL command"
    );
    assert_eq!(
        err("\\if true\nSELECT 1;\n"),
        "s.sql:1: \\if without a matching \\endif"
    );
    assert_eq!(err("\\else\n"), "s.sql:1: \\else without a matching \\if");
    assert_eq!(err("\\endif\n"), "s.sql:1: \\endif without a matching \\if");
    assert_eq!(
        err("\\if 1\n\\else\n\\elif 2\n\\endif\n"),
        "s.sql:3: \\elif after \\else"
    );
    assert!(err("\\sleep 1 hours\n").contains("unknown unit"));
    assert!(err("\\sleep x\n").contains("not a whole number"));
    assert!(err("\\set 1x 1\n").contains("invalid variable name"));
    assert!(err("SELECT 'open\n").contains("ends inside a quoted string"));
    assert!(err("SELECT 1 \\; SELECT 2;\n").contains("refused"));
    // An E'' string's backslash-escaped quote does not end it.
    assert_eq!(
        script("SELECT E'it\\'s; e';\nSELECT 2;\n").unwrap().len(),
        2
    );
    assert!(
        Script::parse("e", "e.sql", 1, "-- nothing\n")
            .unwrap_err()
            .contains("no commands")
    );
    // Found by proptest: a comment holding a multi-byte character.
    assert!(err("/*🟠").contains("ends inside a quoted string or comment"));
}

#[test]
fn scripts_say_how_the_server_counts_them() {
    let ends = |name: &str| {
        let (n, t) = builtin::named(name).unwrap();
        Script::parse(n, n, 1, t).unwrap().ends()
    };
    assert_eq!(ends("tpcb-like"), Some(true));
    assert_eq!(ends("simple"), Some(true));
    assert_eq!(ends("select-only"), Some(false));
    let custom = |t: &str| Script::parse("c", "c.sql", 1, t).unwrap().ends();
    assert_eq!(custom("\\if true\nSELECT 1;\n\\endif\n"), None);
    assert_eq!(custom("SELECT 1;\nBEGIN;\nSELECT 2;\nCOMMIT;\n"), None);
    assert_eq!(custom("\\set x 1\n"), Some(false));
    assert_eq!(
        parse::classify("INSERT INTO t SELECT * FROM u"),
        SqlClass::Unsure
    );
    assert_eq!(
        parse::classify("update a, b set a.x = b.x"),
        SqlClass::Unsure
    );
    assert_eq!(
        parse::classify("DELETE FROM t WHERE id IN (1, 2)"),
        SqlClass::Write
    );
    assert!(builtin::named("tpcb").is_ok() && builtin::named("s").is_err());
}

#[test]
fn weights_and_defines_are_checked() {
    assert_eq!(weighted("a.sql@3"), Ok(("a.sql", 3)));
    assert_eq!(weighted("a.sql"), Ok(("a.sql", 1)));
    assert!(
        weighted("a.sql@x")
            .unwrap_err()
            .contains("a.sql@x: the weight 'x'")
    );
    assert!(weighted("a.sql@-1").is_err());
    let e = ScriptSet::load(
        &[],
        &["tpcb-like".into()],
        &["1x=2".into()],
        QueryMode::Simple,
    )
    .unwrap_err();
    assert!(e.contains("-D 1x=2"), "{e}");
    let e = ScriptSet::load(&[], &["tpcb-like@0".into()], &[], QueryMode::Simple).unwrap_err();
    assert!(e.contains("add up to 0"), "{e}");
    let set = ScriptSet::load(
        &[],
        &["tpcb-like".into(), "tpcb-like@2".into()],
        &["scale=3".into()],
        QueryMode::Prepared,
    )
    .unwrap();
    assert_eq!(set.recorded(3)["protocol"], "prepared");
    assert_eq!(set.scripts[1].name, "tpcb-like_2");
    assert_eq!(set.define("scale"), Some("3"));
    assert_eq!(
        set.recorded(3)["scripts"][0]["sha256"]
            .as_str()
            .map(str::len),
        Some(64)
    );
}

#[test]
fn parameters_are_refused_inside_quotes_naming_file_and_line() {
    let dir = std::env::temp_dir().join(format!("txbench-mq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("q.sql");
    std::fs::write(
        &f,
        "\\set id 1\nSELECT ':id', abalance FROM pgbench_accounts WHERE aid = :id;\n",
    )
    .unwrap();
    let files = [f.to_string_lossy().into_owned()];
    let e = ScriptSet::load(&files, &[], &[], QueryMode::Prepared).unwrap_err();
    assert!(
        e.contains("q.sql:2: -M prepared: :id is inside a quoted string"),
        "{e}"
    );
    // The simple protocol puts the value in the text, quotes or not.
    assert!(ScriptSet::load(&files, &[], &[], QueryMode::Simple).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_statement_latencies_merge_weighted_by_count() {
    let st = |count, mean_ms| StatementLatency {
        kind: "a".into(),
        line: 3,
        command: "SELECT 1".into(),
        count,
        mean_ms,
    };
    let report = |s| WorkloadReport {
        headline: Vec::new(),
        scorecard: Vec::new(),
        inputs: None,
        rate: None,
        statements: vec![s],
    };
    let (a, b) = (report(st(100, 1.0)), report(st(300, 2.0)));
    let m = merged_report(&[&a, &b]).unwrap();
    assert_eq!(m.statements, vec![st(400, 1.75)]);
    assert!(merged_report(&[]).is_none());
}

/// Expressions from the language's own tokens, most of them well-formed.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        (-1e6f64..1e6).prop_map(|d| format!("{d:.3}")),
        Just(":t".to_string()),
        Just(":scale".to_string()),
        Just(":nope".to_string()),
        Just("null".to_string()),
        Just("true".to_string()),
    ];
    leaf.prop_recursive(4, 32, 3, |inner| {
        let ops = prop::sample::select(vec![
            "+", "-", "*", "/", "%", "=", "<>", "<", ">=", "&", "|", "#", "<<", ">>", "and", "or",
        ]);
        let funcs = prop::sample::select(vec![
            "abs", "int", "double", "sqrt", "ln", "exp", "hash", "permute",
        ]);
        prop_oneof![
            (inner.clone(), ops, inner.clone()).prop_map(|(a, o, b)| format!("({a} {o} {b})")),
            (funcs, inner.clone()).prop_map(|(f, a)| format!("{f}({a})")),
            inner.clone().prop_map(|a| format!("not {a}")),
            inner.clone().prop_map(|a| format!("-{a}")),
            (inner.clone(), inner.clone(), inner)
                .prop_map(|(a, b, c)| format!("case when {a} then {b} else {c} end")),
        ]
    })
}

proptest! {
    #[test]
    fn parsing_anything_never_panics(s in "\\PC{0,60}") {
        let _ = expr::parse(&s);
        let _ = parse::parse("p.sql", &s);
    }

    #[test]
    fn scripts_of_script_tokens_never_panic(lines in prop::collection::vec(
        prop::sample::select(vec![
            "\\set x 1", "\\if :x", "\\elif false", "\\else", "\\endif", "SELECT :x", ";",
            "\\gset", "\\aset p_", "'", "$$", "/*", "*/", "-- c", "\\sleep :x ms", "\\", "END;",
        ]), 0..12)) {
        let _ = parse::parse("p.sql", &lines.join("\n"));
    }

    #[test]
    fn evaluating_never_panics(s in expression()) {
        if let Ok(e) = expr::parse(&s) {
            let vars = vars();
            let mut rng = worker_rng(1, 2);
            let _ = eval::eval(&e, &mut Env { vars: &vars, rng: &mut rng });
        }
    }

    #[test]
    fn random_functions_stay_in_range(lb in -1_000_000i64..1_000_000, span in 0i64..1_000_000,
                                      seed in any::<u64>(), p in 2.0f64..50.0) {
        let ub = lb + span;
        let vars = vars();
        let mut rng = worker_rng(seed, 0);
        for f in [
            format!("random({lb}, {ub})"),
            format!("random_exponential({lb}, {ub}, {p})"),
            format!("random_gaussian({lb}, {ub}, {p})"),
            format!("random_zipfian({lb}, {ub}, {})", 1.001 + p / 10.0),
        ] {
            let e = expr::parse(&f).unwrap();
            match eval::eval(&e, &mut Env { vars: &vars, rng: &mut rng }) {
                Ok(Val::Int(v)) => prop_assert!(lb <= v && v <= ub, "{f} gave {v}"),
                other => prop_assert!(false, "{f} gave {other:?}"),
            }
        }
    }

    #[test]
    fn permute_is_a_permutation(size in 1i64..300, seed in any::<i64>()) {
        let mut seen = vec![false; size as usize];
        for i in 0..size {
            let p = eval::permute(i, size, seed);
            prop_assert!((0..size).contains(&p));
            prop_assert!(!seen[p as usize] || size == 1, "{p} twice");
            seen[p as usize] = true;
        }
    }

    #[test]
    fn integer_arithmetic_matches_checked_i64(a in any::<i64>(), b in any::<i64>()) {
        for (op, want) in [("+", a.checked_add(b)), ("-", a.checked_sub(b)), ("*", a.checked_mul(b))] {
            let got = run(&format!("({a}) {op} ({b})"));
            match want {
                Some(w) => prop_assert_eq!(got, Ok(Val::Int(w))),
                None => prop_assert!(got.unwrap_err().contains("out of range")),
            }
        }
    }
}

#[test]
fn statement_latencies_are_each_users_own_and_restart_with_the_measured_phase() {
    let set = ScriptSet::load(&[], &["select-only".into()], &[], QueryMode::Simple).unwrap();
    let run = ScriptRun::new(set, 1, 7);
    let (a, b) = (
        run.worker(0, worker_rng(7, 0)),
        run.worker(1, worker_rng(7, 1)),
    );
    let users: Vec<Arc<UserStats>> = run.shared.users.lock().unwrap().clone();
    assert_eq!(users.len(), 2);
    // The warm-up: both users count.
    for u in &users {
        u.of(0, 0)[0].add(1000);
    }
    run.measure_started();
    // The measured phase: the first user counts twice; the second has not run since.
    let phase = run.shared.phase.load(Ordering::Relaxed);
    users[0].of(0, phase)[0].add(30);
    users[0].of(0, phase)[0].add(10);
    let st = run.statements();
    assert_eq!(st[0].count, 2, "{st:?}");
    assert!((st[0].mean_ms - 0.02).abs() < 1e-9, "{st:?}");
    drop((a, b));
}
