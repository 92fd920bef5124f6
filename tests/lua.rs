//! The `lua` workload: sysbench 1.0's own scripts (Debian's /usr/share/sysbench, and
//! sysbench-tpcc from /work/shared/peers, read where they are) run unchanged against real
//! sandbox servers; bad scripts and options refused before anything runs.

mod common;
#[path = "lua/preparing.rs"]
mod preparing;
#[path = "lua/reports.rs"]
mod reports;
#[path = "lua/statements.rs"]
mod statements;
use common::*;
use std::path::{Path, PathBuf};

const SYSBENCH: &str = "/usr/share/sysbench";
const TPCC: &str = "/work/shared/peers/sysbench-tpcc";

/// Debian's sysbench scripts, installed by scripts/install-deps.sh when missing; false
/// (with the reason printed) only when they are absent and cannot be installed.
fn sysbench_scripts() -> bool {
    let have = || Path::new(SYSBENCH).join("oltp_common.lua").is_file();
    if !have() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let _ = std::process::Command::new(root.join("scripts/install-deps.sh"))
            .arg("sysbench")
            .status();
    }
    if !have() {
        eprintln!(
            "skipped: {SYSBENCH}/oltp_common.lua is absent and sysbench cannot be installed here"
        );
    }
    have()
}

fn txbench(home: &Home, url: &str, args: &[&str]) -> std::process::Output {
    home.cmd().args(["--url", url]).args(args).output().unwrap()
}

fn ok(out: &std::process::Output, what: &str) -> String {
    assert!(out.status.success(), "{what}: {:?}", text(out));
    text(out).0
}

/// A command that fails (an assertion) unless results behave as sysbench's.
const LUA_RESULTS: &str = r#"
local function results()
   local con = sysbench.sql.driver():connect()
   assert(con:query("CREATE TABLE lua_results (a INT, b VARCHAR(10))") == nil, "DDL: no result")
   assert(con:query("INSERT INTO lua_results VALUES (1, 'x'), (2, NULL), (3, 'z')") == nil,
      "a write returns no result, as sysbench's")
   local rs = con:query("SELECT a, b FROM lua_results ORDER BY a")
   assert(rs.nrows == 3 and rs.nfields == 2, "3 rows of 2")
   local r = rs:fetch_row()
   assert(r[1] == "1" and r[2] == "x", "first row as strings")
   r = rs:fetch_row()
   assert(r[1] == "2" and r[2] == nil, "NULL is nil")
   local stmt = con:prepare("SELECT b FROM lua_results WHERE a = ?")
   local p = stmt:bind_create(sysbench.sql.type.INT)
   stmt:bind_param(p)
   p:set(3)
   local rs2 = stmt:execute()
   assert(rs2 == rs, "one result object per connection")
   assert(rs2.nrows == 1 and rs2.nfields == 1, "the statement's result")
   assert(rs2:fetch_row()[1] == "z", "the statement's row")
   assert(rs2:fetch_row() == nil, "nothing after the last row")
   rs = con:query("SELECT a FROM lua_results WHERE a > 10")
   assert(rs.nrows == 0 and rs:fetch_row() == nil, "an empty result")
   rs = con:query("SELECT a FROM lua_results")
   rs:free()
   assert(rs:fetch_row() == nil, "nothing after free()")
   assert(con:query_row("SELECT MAX(a) FROM lua_results") == "3", "query_row")
   local long, none, seven = con:query_row("SELECT REPEAT('a', 300), NULL, 7")
   assert(long == string.rep("a", 300) and none == nil and seven == "7", "a long cell, NULL, a number")
   -- A double parameter and a double cell; an SQL error as sysbench's fatal message; txbench's
   -- own refusals (bytes that are not UTF-8, a closed statement) raised as errors.
   local q = con:prepare("SELECT ? * 1e0")
   local v = q:bind_create(sysbench.sql.type.DOUBLE)
   q:bind_param(v)
   v:set(0.25)
   assert(q:execute():fetch_row()[1] == "0.25", "a double both ways")
   local ok, e = pcall(con.query, con, "SELECT nope FROM lua_results")
   assert(not ok and tostring(e):match("errno = 1054"), "an SQL error: " .. tostring(e))
   local t = con:prepare("SELECT ?")
   local tv = t:bind_create(sysbench.sql.type.VARCHAR, 10)
   t:bind_param(tv)
   tv:set("\255")
   ok, e = pcall(t.execute, t)
   assert(not ok and tostring(e):match("not UTF%-8"), "not UTF-8: " .. tostring(e))
   ok, e = pcall(con.query, con, "SELECT '\255'")
   assert(not ok and tostring(e):match("not UTF%-8"), "a query not UTF-8: " .. tostring(e))
   local two = con:prepare("SELECT ?, ?")
   local p1, p2 = two:bind_create(sysbench.sql.type.INT), two:bind_create(sysbench.sql.type.VARCHAR, 10)
   two:bind_param(p1, p2)
   p1:set(1)
   p2:set("\255")
   assert(not pcall(two.execute, two), "a second parameter refused")
   local plain = con:prepare("SELECT 1")
   assert(plain:execute():fetch_row()[1] == "1", "no parameters after a list abandoned half-way")
   tv:set("fine")
   assert(t:execute():fetch_row()[1] == "fine", "the next execute is whole")
   t:close()
   ok, e = pcall(t.execute, t)
   assert(not ok and tostring(e):match("closed"), "closed: " .. tostring(e))
   -- Many rows, several reads' worth, each whole; an error the server sends after rows
   -- (row 500 of 1,000-byte rows) raised, not a shorter result: a text query and a statement.
   rs = con:query("SELECT seq, REPEAT(CHAR(65 + seq % 26), 1000) FROM seq_1_to_600")
   assert(rs.nrows == 600 and rs.nfields == 2, "600 rows")
   for i = 1, 600 do
      local row = rs:fetch_row()
      assert(row[1] == tostring(i) and row[2] == string.rep(string.char(65 + i % 26), 1000),
         "row " .. i)
   end
   local late_sql = "SELECT IF(seq = ?, (SELECT 1 UNION SELECT 2), REPEAT('a', 1000)) FROM seq_1_to_600"
   ok, e = pcall(con.query, con, (late_sql:gsub("%?", "500")))
   assert(not ok and tostring(e):match("errno = 1242"), "an error after rows: " .. tostring(e))
   local late = con:prepare(late_sql)
   local at = late:bind_create(sysbench.sql.type.INT)
   late:bind_param(at)
   at:set(500)
   ok, e = pcall(late.execute, late)
   assert(not ok and tostring(e):match("errno = 1242"), "after a statement's rows: " .. tostring(e))
   at:set(0)
   assert(late:execute().nrows == 600, "the connection reads on after the error")
   con:query("DROP TABLE lua_results")
   print("results as sysbench's")
end
sysbench.cmdline.commands = { results = { results } }
"#;

#[test]
fn oltp_scripts_run_unchanged_on_mariadb() {
    if !sysbench_scripts() {
        return;
    }
    let home = Home::new();
    let s = home.start_db(Db::MariaDb, "lua", &[]);
    let rw = format!("{SYSBENCH}/oltp_read_write.lua");
    let size = ["--tables", "2", "--table-size=1000"];
    ok(
        &txbench(
            &home,
            &s.url,
            &[&["prepare", "lua", &rw][..], &size].concat(),
        ),
        "prepare",
    );
    assert_eq!(s.count("SELECT COUNT(*) FROM sbtest2"), 1000);

    // sysbench's spellings of the driver's options, after the script's.
    let dir = home.path().join("rw");
    let run = [
        &["run", "lua", &rw][..],
        &size,
        &[
            "--threads=2",
            "--time=3",
            "--report-interval=1",
            "--json",
            "--out",
        ],
        &[dir.to_str().unwrap()],
    ]
    .concat();
    let closed = || {
        s.count("SELECT CAST(VARIABLE_VALUE AS UNSIGNED) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'COM_STMT_CLOSE'")
    };
    let closed_before = closed();
    ok(&txbench(&home, &s.url, &run), "run oltp_read_write.lua");
    // thread_done() closed each thread's statements, as sysbench's does: 9 per table, BEGIN
    // and COMMIT.
    assert!(
        closed() >= closed_before + 2 * (2 * 9 + 2),
        "{closed_before} {}",
        closed()
    );
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    assert_eq!(r["config"]["threads"], 2);
    let w = &r["config"]["workload_options"];
    assert_eq!(w["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(w["options"]["tables"], 2.0);
    assert!(
        w["modules"][0]
            .as_str()
            .unwrap()
            .ends_with("oltp_common.lua"),
        "{w}"
    );
    let sum = &r["summary"];
    assert_eq!(sum["kinds"][0]["name"], "oltp_read_write");
    let t = sum["transactions"].as_f64().unwrap();
    assert!(t > 50.0, "{sum}");
    // sysbench's event: 14 SELECTs, 4 writes, BEGIN and COMMIT (retries may add some).
    let per = |k: &str| sum["stmts"][k].as_f64().unwrap() / t;
    assert!((per("reads") - 14.0).abs() < 0.3, "{}", sum["stmts"]);
    assert!((per("writes") - 4.0).abs() < 0.1, "{}", sum["stmts"]);
    let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2, "{checks:?}");
    assert!(checks.iter().all(|c| c["agrees"] == true), "{checks:?}");

    // An autocommitting script on the same tables: one SELECT per event, cross-checked.
    let dir = home.path().join("ps");
    let ps = format!("{SYSBENCH}/oltp_point_select.lua");
    let run = [
        &["run", "lua", &ps][..],
        &size,
        &["--threads", "2", "--time", "2", "--json", "--out"],
        &[dir.to_str().unwrap()],
    ]
    .concat();
    ok(&txbench(&home, &s.url, &run), "run oltp_point_select.lua");
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
    assert!(checks.iter().all(|c| c["agrees"] == true), "{checks:?}");

    // A Lua error inside event(): an error of its kind with file:line, the run INVALID.
    let bad = home.path().join("boom.lua");
    std::fs::write(&bad, "function event()\n  error('boom')\nend\n").unwrap();
    let dir = home.path().join("boom");
    let out = txbench(
        &home,
        &s.url,
        &[
            "run",
            "lua",
            bad.to_str().unwrap(),
            "--time",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
    let r = result_json(&dir);
    let top = r["summary"]["top_errors"].to_string();
    assert!(top.contains("boom.lua:2: boom"), "{top}");

    // An event() that returns true ends its thread's run; when every thread has, the run
    // ends, and each thread's thread_done() still runs (its SELECT counted).
    let own = home.path().join("own_end.lua");
    std::fs::write(
        &own,
        "local con\nfunction thread_init() con = sysbench.sql.driver():connect() end\n\
         local n = 0\nfunction event() n = n + 1 return n >= 5 end\n\
         function thread_done() con:query('SELECT 1') con:disconnect() end\n",
    )
    .unwrap();
    let dir = home.path().join("own");
    let started = std::time::Instant::now();
    let args = [
        "run",
        "lua",
        own.to_str().unwrap(),
        "--threads",
        "2",
        "--time",
        "60",
    ];
    ok(
        &txbench(
            &home,
            &s.url,
            &[&args[..], &["--out", dir.to_str().unwrap()]].concat(),
        ),
        "run own_end.lua",
    );
    assert!(started.elapsed().as_secs() < 30);
    let r = result_json(&dir);
    assert_eq!(r["status"], "completed", "{}", r["status"]);
    assert_eq!(r["summary"]["transactions"], 10, "{}", r["summary"]);
    assert_eq!(
        r["summary"]["stmts"]["reads"], 2,
        "{}",
        r["summary"]["stmts"]
    );

    // sysbench's result sets: none for a statement without one, one object per connection
    // that the next statement refills (sysbench's con->rs), rows as strings, NULL a nil,
    // nothing after the last row or after rs:free().
    let api = home.path().join("api.lua");
    std::fs::write(&api, LUA_RESULTS).unwrap();
    let said = ok(
        &txbench(
            &home,
            &s.url,
            &["lua-command", api.to_str().unwrap(), "results"],
        ),
        "lua-command results",
    );
    assert!(said.contains("results as sysbench's"), "{said}");
    preparing::still_preparing_is_found(&home, &s);
    statements::same_statements_per_event_as_sysbench(&home, &s);
    reports::report_hooks_print_the_intervals_and_the_run(&home, &s);
    reports::a_hook_that_never_returns_is_left(&home, &s);

    ok(
        &txbench(
            &home,
            &s.url,
            &[&["cleanup", "lua", &rw][..], &size].concat(),
        ),
        "cleanup",
    );
    assert_eq!(
        s.count("SELECT COUNT(*) FROM information_schema.tables WHERE table_name LIKE 'sbtest%'"),
        0
    );
}

#[test]
fn sysbench_tpcc_prepares_runs_and_checks() {
    let tpcc = PathBuf::from(TPCC).join("tpcc.lua");
    if !tpcc.is_file() {
        eprintln!("skipped: {} is absent", tpcc.display());
        return;
    }
    let home = Home::new();
    let s = home.start_db(Db::MariaDb, "tpcc", &[]);
    let tpcc = tpcc.to_str().unwrap();
    // Two table sets of two warehouses each, as the issue's acceptance runs it.
    let size = ["--tables", "2", "--scale", "2"];
    // Its prepare waits 30 s with os.execute("sleep 30") between the tables and the data:
    // a `sleep` that returns at once, first on PATH, keeps the test short.
    let bin = home.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("sleep"), "#!/bin/sh\nexit 0\n").unwrap();
    let mode = <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755);
    std::fs::set_permissions(bin.join("sleep"), mode).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = home
        .cmd()
        .env("PATH", path)
        .args(["--url", &s.url, "prepare", "lua", tpcc])
        .args(size)
        .output()
        .unwrap();
    ok(&out, "prepare tpcc.lua");
    assert_eq!(s.count("SELECT COUNT(*) FROM warehouse2"), 2);
    let orders = "SELECT (SELECT COUNT(*) FROM orders1) + (SELECT COUNT(*) FROM orders2)";
    let orders_before = s.count(orders);

    let dir = home.path().join("run");
    let run = [
        &["run", "lua", tpcc][..],
        &size,
        &[
            "--threads",
            "2",
            "--time",
            "3",
            "--out",
            dir.to_str().unwrap(),
        ],
    ]
    .concat();
    ok(&txbench(&home, &s.url, &run), "run tpcc.lua");
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    // Each event is counted as the transaction it ran; no event ran none.
    let kinds = r["summary"]["kinds"].as_array().unwrap();
    let names: Vec<&str> = kinds.iter().map(|k| k["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "new_order",
            "payment",
            "order_status",
            "delivery",
            "stock_level",
            "purge",
            "tpcc"
        ]
    );
    assert_eq!(kinds[6]["completed"], 0, "{kinds:?}");
    assert!(
        kinds[..5].iter().all(|k| k["completed"].as_u64() > Some(0)),
        "{kinds:?}"
    );
    // txbench's New-Orders are the rows its orders tables gained, and NOPM is reported.
    let new_orders = kinds[0]["committed"].as_u64().unwrap();
    assert!(new_orders > 0);
    assert_eq!(s.count(orders) - orders_before, new_orders, "{kinds:?}");
    assert_eq!(r["workload_report"]["rate"]["kind"], "new_order");
    assert!(r["workload_report"]["rate"]["per_minute"].as_f64() > Some(0.0));
    let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
    assert!(checks.iter().all(|c| c["agrees"] == true), "{checks:?}");
    assert!(
        checks.iter().any(|c| c["what"]
            .as_str()
            .is_some_and(|n| n.starts_with("New-Orders"))),
        "{checks:?}"
    );

    // The same script's users as fibers on one thread (--client-threads): LuaJIT's calls
    // into txbench yield the thread mid-script; the New-Orders are still the rows gained.
    let dir = home.path().join("fibers");
    let before = s.count(orders);
    let run = [
        &["run", "lua", tpcc][..],
        &size,
        &["--threads", "4", "--client-threads", "1", "--time", "3"],
        &["--out", dir.to_str().unwrap()],
    ]
    .concat();
    ok(&txbench(&home, &s.url, &run), "run tpcc.lua on fibers");
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    let kinds = r["summary"]["kinds"].as_array().unwrap();
    let new_orders = kinds[0]["committed"].as_u64().unwrap();
    assert!(new_orders > 0, "{kinds:?}");
    assert_eq!(s.count(orders) - before, new_orders, "{kinds:?}");
    let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
    assert!(checks.iter().all(|c| c["agrees"] == true), "{checks:?}");

    // Its own check command, by either spelling.
    for verb in [
        &["check", "lua", tpcc][..],
        &["lua-command", tpcc, "check"][..],
    ] {
        let printed = ok(&txbench(&home, &s.url, &[verb, &size].concat()), "check");
        // Its ten checks on each table set.
        assert_eq!(printed.matches("PASSED").count(), 20, "{printed}");
        assert!(!printed.contains("FAILED"), "{printed}");
    }
    new_orders_that_are_not(&home, &s);
}

/// A TPC-C script whose New-Order commits without writing one (seed 001's broken DBT2
/// reported New-Orders that never happened) is INVALID by the districts' count; one whose
/// New-Order silently ends with ROLLBACK is counted rolled back, not as a New-Order.
fn new_orders_that_are_not(home: &Home, s: &common::Server) {
    for end in ["COMMIT", "ROLLBACK"] {
        let file = home.path().join(format!("fake_{end}.lua"));
        std::fs::write(&file, FAKE_TPCC.replace("NEW_ORDER_END", end)).unwrap();
        let dir = home.path().join(format!("fake-{end}"));
        let out = txbench(
            home,
            &s.url,
            &[
                "run",
                "lua",
                file.to_str().unwrap(),
                "--threads",
                "2",
                "--time",
                "2",
                "--out",
                dir.to_str().unwrap(),
            ],
        );
        let r = result_json(&dir);
        let new_order = &r["summary"]["kinds"][0];
        assert_eq!(new_order["name"], "new_order", "{new_order}");
        if end == "COMMIT" {
            assert_eq!(out.status.code(), Some(3), "{:?}", text(&out));
            let reasons = r["validity"]["reasons"].to_string();
            assert!(
                reasons.contains("New-Orders (SUM(D_NEXT_O_ID))"),
                "{reasons}"
            );
        } else {
            assert!(out.status.success(), "{:?}", text(&out));
            assert_eq!(new_order["committed"], 0, "{new_order}");
            assert!(new_order["rolled_back"].as_u64() > Some(0), "{new_order}");
            assert_eq!(r["workload_report"]["rate"]["per_minute"], 0.0);
        }
    }
}

/// TPC-C's five transactions by name, none of which writes a New-Order; the New-Order ends
/// with NEW_ORDER_END.
const FAKE_TPCC: &str = r#"
function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
end
local function txn(last)
  con:query("BEGIN")
  con:query("SELECT d_next_o_id FROM district1 WHERE d_w_id = 1 AND d_id = 1")
  con:query(last)
end
function new_order() txn("NEW_ORDER_END") end
function payment() txn("COMMIT") end
function orderstatus() txn("COMMIT") end
function delivery() txn("COMMIT") end
function stocklevel() txn("COMMIT") end
function event()
  if sysbench.rand.uniform(1, 2) == 1 then new_order() else payment() end
end
"#;

#[test]
fn bad_scripts_and_options_are_usage_errors() {
    let home = Home::new();
    // Nothing listens there: every refusal comes before a connection.
    let url = "mysql://nobody@127.0.0.1:1/none";
    let dir = home.path();
    let syntax = dir.join("syntax.lua");
    std::fs::write(&syntax, "function event()\n  local x = = 1\nend\n").unwrap();
    let s = syntax.to_str().unwrap();
    for verb in ["prepare", "run", "cleanup"] {
        let e = assert_one_line_error(&txbench(&home, url, &[verb, "lua", s]), 2);
        assert!(e.contains(&format!("{s}:2:")), "{e}");
    }
    let fine = dir.join("fine.lua");
    std::fs::write(
        &fine,
        "sysbench.cmdline.options = { rows = {'Rows', 10} }\nfunction event() end\n",
    )
    .unwrap();
    let f = fine.to_str().unwrap();
    let e = assert_one_line_error(&txbench(&home, url, &["run", "lua", f, "--nope", "1"]), 2);
    assert!(e.contains("--nope") && e.contains(f), "{e}");
    let e = assert_one_line_error(&txbench(&home, url, &["run", "lua", f, "--rows=many"]), 2);
    assert!(e.contains("--rows takes a number"), "{e}");
    let e = assert_one_line_error(&txbench(&home, url, &["lua-command", f, "check"]), 2);
    assert!(e.contains("has no command 'check'"), "{e}");
    let missing = dir.join("missing.lua");
    let e = assert_one_line_error(
        &txbench(&home, url, &["run", "lua", missing.to_str().unwrap()]),
        2,
    );
    assert!(e.contains("missing.lua: cannot read the script"), "{e}");
    // --help lists the script's options and does nothing else.
    let out = txbench(&home, url, &["run", "lua", f, "--help"]);
    assert!(
        ok(&out, "--help").contains("--rows=Rows [10]"),
        "{:?}",
        text(&out)
    );
}

#[test]
fn an_experiment_runs_a_lua_script_over_two_variants() {
    if !sysbench_scripts() {
        return;
    }
    let home = Home::new();
    let _c = Cleanup(&home);
    let plan = home.path().join("lua.toml");
    std::fs::write(
        &plan,
        format!(
            "baseline = \"durable\"\nthreads = \"2\"\nwarmup = 0\nduration = 2\nrepetitions = 1\n\
             [[variant]]\nname = \"durable\"\n\
             set = {{ innodb_buffer_pool_size = \"128M\", innodb_flush_log_at_trx_commit = 1 }}\n\
             [[variant]]\nname = \"lazy\"\n\
             set = {{ innodb_buffer_pool_size = \"128M\", innodb_flush_log_at_trx_commit = 2 }}\n\
             [[workload]]\nname = \"lua\"\nscript = \"{SYSBENCH}/oltp_point_select.lua\"\n\
             prepare = [\"--tables\", \"1\", \"--table-size\", \"100\"]\n\
             run = [\"--tables\", \"1\", \"--table-size\", \"100\"]\n"
        ),
    )
    .unwrap();
    let dir = home.path().join("x");
    let (_, _, e) = experiment_ok(&home, &plan, &dir, &[], &[]);
    assert_eq!(e["status"], "completed");
    let cells = e["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2);
    for c in cells {
        assert_eq!(c["status"], "done", "{c}");
        assert_eq!(c["workload"], "oltp_point_select", "{c}");
        assert!(c["tps"].as_f64().unwrap() > 0.0, "{c}");
    }
    // Both cells are in the results store.
    let out = home
        .cmd()
        .args(["--json", "runs", "--label", "experiment=lua"])
        .output()
        .unwrap();
    let stored: serde_json::Value = serde_json::from_slice(&ok(&out, "runs").into_bytes()).unwrap();
    assert_eq!(stored.as_array().unwrap().len(), 2, "{stored}");
}

#[test]
fn oltp_read_write_runs_unchanged_on_postgres() {
    if !sysbench_scripts() {
        return;
    }
    let home = Home::new();
    // oltp_read_write's transactions deadlock now and then on 1,000 rows; PostgreSQL finds
    // a deadlock after deadlock_timeout (1 s), which is half of this 2-s run: every user
    // blocked for half of it is INVALID, rightly. Found sooner, one deadlock is a retry.
    let s = home.start_postgres("lua-pg", &["--set", "deadlock_timeout=100ms"]);
    let rw = format!("{SYSBENCH}/oltp_read_write.lua");
    let size = ["--tables", "1", "--table-size", "1000"];
    let verb = |v: &'static str| [&[v, "lua", &rw][..], &size].concat();
    ok(&txbench(&home, &s.url, &verb("prepare")), "prepare");
    assert_eq!(s.count("SELECT COUNT(*) FROM sbtest1"), 1000);
    let dir = home.path().join("rw");
    let run = [
        &verb("run")[..],
        &[
            "--threads",
            "2",
            "--time",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ],
    ]
    .concat();
    ok(&txbench(&home, &s.url, &run), "run oltp_read_write.lua");
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    assert!(r["summary"]["transactions"].as_f64().unwrap() > 20.0);
    let checks = r["summary"]["server"]["cross_checks"].as_array().unwrap();
    assert!(!checks.is_empty());
    assert!(checks.iter().all(|c| c["agrees"] == true), "{checks:?}");
    ok(&txbench(&home, &s.url, &verb("cleanup")), "cleanup");
    assert_eq!(
        s.count("SELECT COUNT(*) FROM pg_tables WHERE tablename LIKE 'sbtest%'"),
        0
    );
}
