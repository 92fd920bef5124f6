//! Helpers for tests that run the real `txbench` binary against real sandbox servers.
#![allow(dead_code)]

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// A private state directory ($TXBENCH_HOME) for one test.
pub struct Home {
    pub dir: TempDir,
}

impl Home {
    pub fn new() -> Home {
        Home {
            dir: tempfile::Builder::new()
                .prefix("txb-")
                .tempdir()
                .expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `txbench` with this state directory and no inherited target URL.
    pub fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("txbench").expect("txbench binary");
        // In the temporary directory, so default outputs (runs/…) land there too.
        c.current_dir(self.path())
            .env("TXBENCH_HOME", self.path())
            .env_remove("TXBENCH_URL")
            .env("NO_COLOR", "1")
            .timeout(std::time::Duration::from_secs(300));
        c
    }

    /// The same as [`Home::cmd`] as a plain std Command, for tests that spawn and signal it.
    pub fn std_cmd(&self) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("txbench"));
        c.current_dir(self.path())
            .env("TXBENCH_HOME", self.path())
            .env_remove("TXBENCH_URL");
        c
    }

    /// Starts sandbox `name` (small buffer pool) and returns a guard that stops and removes
    /// it on drop, even when the test fails.
    pub fn start(&self, name: &str, extra: &[&str]) -> Server {
        self.start_with(name, &["--set", "innodb_buffer_pool_size=128M"], extra)
    }

    /// Starts a PostgreSQL sandbox `name` (small shared_buffers), stopped and removed on drop.
    pub fn start_postgres(&self, name: &str, extra: &[&str]) -> Server {
        self.start_with(
            name,
            &["--engine", "postgres", "--set", "shared_buffers=128MB"],
            extra,
        )
    }

    fn start_with(&self, name: &str, base: &[&str], extra: &[&str]) -> Server {
        let out = self
            .cmd()
            .args(["server", "start", "--json", "--name", name])
            .args(base)
            .args(extra)
            .output()
            .expect("run txbench");
        assert!(
            out.status.success(),
            "server start failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        Server {
            home: self.path().to_path_buf(),
            name: name.to_string(),
            url: v["url"].as_str().expect("url").to_string(),
            port: v["port"].as_u64().expect("port") as u16,
            pid: v["pid"].as_i64().expect("pid") as i32,
            json: v,
        }
    }
}

/// A running sandbox; stopped with `--rm` when dropped.
pub struct Server {
    pub home: PathBuf,
    pub name: String,
    pub url: String,
    pub port: u16,
    pub pid: i32,
    pub json: serde_json::Value,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::cargo_bin("txbench")
            .expect("txbench binary")
            .env("TXBENCH_HOME", &self.home)
            .args(["server", "stop", "--rm", &self.name])
            .timeout(std::time::Duration::from_secs(120))
            .output();
    }
}

/// The password of the sandboxes of the state directory `home`.
pub fn secret_of(home: &Path) -> String {
    let s = std::fs::read_to_string(home.join("secret")).expect("the sandboxes' secret");
    s.trim().to_string()
}

/// A sandbox URL as printed (no password), with the password of `home`'s sandboxes.
pub fn login(home: &Path, url: &str) -> txbench::engine::TargetUrl {
    let mut url = txbench::engine::TargetUrl::parse(url).expect("url");
    url.password = Some(secret_of(home));
    url
}

/// stdout and stderr of a finished command as text.
pub fn text(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts a failure printed exactly one `Error: …` line, no panic, with the exit code.
pub fn assert_one_line_error(out: &std::process::Output, code: i32) -> String {
    let (_, err) = text(out);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("Error: ")).collect();
    assert_eq!(lines.len(), 1, "expected one Error line: {err}");
    lines[0].to_string()
}

/// The engines a test runs against: one test body, run per engine where it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Db {
    MariaDb,
    Postgres,
}

impl Home {
    /// Starts a sandbox of `db`: MariaDB with `mariadb_extra`, PostgreSQL with its small
    /// defaults.
    pub fn start_db(&self, db: Db, name: &str, mariadb_extra: &[&str]) -> Server {
        match db {
            Db::MariaDb => self.start(name, mariadb_extra),
            Db::Postgres => self.start_postgres(name, &[]),
        }
    }
}

impl Server {
    /// The benchmark user's URL with the sandboxes' password (from the state directory's
    /// secret, as txbench finds it for a `--url` without one).
    pub fn login_url(&self) -> txbench::engine::TargetUrl {
        login(&self.home, &self.url)
    }

    /// The URL (without its password) of another `database` on this server.
    pub fn url_of_database(&self, database: &str) -> String {
        let mut url = txbench::engine::TargetUrl::parse(&self.url).expect("url");
        url.database = database.into();
        url.to_string()
    }

    /// The sandboxes' password (for pgbench's PGPASSWORD).
    pub fn secret(&self) -> String {
        secret_of(&self.home)
    }

    /// The administrator's URL: root (MariaDB's unix_socket) or postgres (peer), through
    /// the socket, as txbench manages the sandbox.
    pub fn admin_url(&self) -> txbench::engine::TargetUrl {
        let record: serde_json::Value = serde_json::from_slice(
            &std::fs::read(
                self.home
                    .join("servers")
                    .join(&self.name)
                    .join("server.json"),
            )
            .expect("server.json"),
        )
        .expect("server.json");
        let mut url = txbench::engine::TargetUrl::parse(&self.url).expect("url");
        url.socket = Some(record["socket"].as_str().expect("socket").into());
        url.user = "root".into();
        if self.db() == Db::Postgres {
            url.user = "postgres".into();
            url.database = "postgres".into();
        }
        url
    }

    /// A direct connection to the sandbox (for setting up stalls, locks, kills).
    pub fn conn(&self) -> mysql::Conn {
        txbench::engine::mysql::connect(&self.login_url()).expect("connect")
    }

    /// The administrator's connection (to make users, grant, and what the benchmark user
    /// may not do).
    pub fn admin_conn(&self) -> mysql::Conn {
        txbench::engine::mysql::connect(&self.admin_url()).expect("connect as root")
    }

    /// The sandbox's engine.
    pub fn db(&self) -> Db {
        if self.url.starts_with("postgres") {
            Db::Postgres
        } else {
            Db::MariaDb
        }
    }

    /// A connection through txbench's engine seam, whichever the engine.
    pub fn engine_conn(&self) -> txbench::engine::Conn {
        txbench::engine::connect(&self.login_url()).expect("connect")
    }

    /// Runs statements as the administrator (root through MariaDB's socket, postgres
    /// through PostgreSQL's): what the benchmark user may not do (roles, reloads).
    pub fn admin_exec(&self, stmts: &[&str]) {
        let mut c = txbench::engine::connect(&self.admin_url()).expect("connect as admin");
        for stmt in stmts {
            c.query_drop(*stmt)
                .unwrap_or_else(|e| panic!("{stmt}: {e}"));
        }
    }

    /// The rows of a query.
    pub fn sql<T: txbench::engine::FromRow>(&self, stmt: &str) -> Vec<T> {
        self.engine_conn()
            .query(stmt)
            .unwrap_or_else(|e| panic!("{stmt}: {e}"))
    }

    /// Runs statements (each separately), panicking with the statement on an error.
    pub fn exec(&self, stmts: &[&str]) {
        let mut c = self.engine_conn();
        for stmt in stmts {
            c.query_drop(*stmt)
                .unwrap_or_else(|e| panic!("{stmt}: {e}"));
        }
    }

    /// The one number a query returns (a COUNT, a SUM).
    pub fn count(&self, stmt: &str) -> u64 {
        self.engine_conn()
            .query_first::<u64>(stmt)
            .unwrap_or_else(|e| panic!("{stmt}: {e}"))
            .unwrap_or(0)
    }
}

/// The JSON lines a `--json` command printed.
pub fn json_lines(out: &std::process::Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The `{"type":"summary"}` object of a `run --json`.
pub fn summary_of(out: &std::process::Output) -> serde_json::Value {
    json_lines(out)
        .into_iter()
        .find(|v| v["type"] == "summary")
        .unwrap_or_else(|| panic!("no summary line: {:?}", text(out)))
}

/// Waits until the run writing `dir` has written `n` intervals to its intervals.csv, however
/// slowly a loaded machine starts it; fails the test after 50 s.
pub fn wait_for_intervals(dir: &Path, n: usize) {
    let t = std::time::Instant::now();
    while std::fs::read_to_string(dir.join("intervals.csv")).map_or(0, |c| c.lines().count()) <= n {
        assert!(
            t.elapsed() < std::time::Duration::from_secs(50),
            "no {n} interval(s) in {} within 50 s",
            dir.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Reads a run directory's result.json.
pub fn result_json(dir: &Path) -> serde_json::Value {
    let bytes = std::fs::read(dir.join("result.json")).expect("result.json");
    serde_json::from_slice(&bytes).expect("result.json is JSON")
}

/// Asserts a result.json satisfies docs/result.schema.json.
pub fn assert_schema_valid(v: &serde_json::Value) {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/result.schema.json");
    let schema: serde_json::Value =
        serde_json::from_slice(&std::fs::read(schema_path).expect("schema")).expect("schema JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = validator
        .iter_errors(v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "result.json breaks the schema: {errors:#?}"
    );
}

/// Starts sandbox `name` with 1,000 rows of oltp_point_select prepared.
#[allow(dead_code)]
pub fn point_select_server(home: &Home, name: &str) -> Server {
    point_select_server_on(Db::MariaDb, home, name)
}

/// [`point_select_server`] on `db`.
#[allow(dead_code)]
pub fn point_select_server_on(db: Db, home: &Home, name: &str) -> Server {
    let s = home.start_db(db, name, &[]);
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "prepare",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    s
}

/// A quiet oltp_point_select sweep over `threads` into `dir`, `time` seconds per level at
/// `interval`-second report intervals; asserts it succeeded.
#[allow(dead_code)]
pub fn quiet_sweep(home: &Home, s: &Server, dir: &Path, threads: &str, time: &str, interval: &str) {
    let out = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
            "-q",
        ])
        .args([
            "--threads",
            threads,
            "--time",
            time,
            "--report-interval",
            interval,
        ])
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    // The story last, where the terminal leaves it in view.
    assert!(
        text(&out).0.contains("summary:\n  Peak: "),
        "no story: {:?}",
        text(&out)
    );
}

/// Headless Chromium on `url` with `extra` arguments, a profile of its own (a Chromium still
/// closing hands a new page over to itself): its stdout, and its console messages.
fn chromium(extra: &[String], url: String) -> (String, Vec<String>) {
    let profile = TempDir::new().unwrap();
    let out = std::process::Command::new("chromium")
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium is installed by `make test` (scripts/install-deps.sh chromium)");
    let (stdout, log) = text(&out);
    assert!(out.status.success(), "chromium: {log}");
    let console = log
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect();
    (stdout, console)
}

/// Chromium's console messages while it renders `page` into `shot` (a PNG).
#[allow(dead_code)]
pub fn chromium_console(page: &Path, shot: &Path) -> Vec<String> {
    chromium_shot(&format!("file://{}", page.display()), shot)
}

/// Chromium's console messages while it renders `url` into `shot` (a PNG).
#[allow(dead_code)]
pub fn chromium_shot(url: &str, shot: &Path) -> Vec<String> {
    let extra = [
        "--hide-scrollbars".to_string(),
        "--window-size=1100,1600".to_string(),
        format!("--screenshot={}", shot.display()),
    ];
    chromium(&extra, url.to_string()).1
}

/// The DOM of `file` after Chromium ran its scripts, opened with `query` (e.g. `?s=term`,
/// which an inferno flame graph searches for on load), and the console messages.
#[allow(dead_code)]
pub fn chromium_dom(file: &Path, query: &str) -> (String, Vec<String>) {
    chromium_dom_of(&format!("file://{}{query}", file.display()))
}

/// The DOM of `url` after Chromium loaded it, and the console messages.
#[allow(dead_code)]
pub fn chromium_dom_of(url: &str) -> (String, Vec<String>) {
    let (dom, console) = chromium(&["--dump-dom".to_string()], url.to_string());
    assert!(!dom.is_empty(), "chromium dumped no DOM of {url}");
    (dom, console)
}

/// The DOM of `url` after Chromium ran its scripts for `ms` milliseconds of virtual time
/// (timers fire, fetches complete), and the console messages.
#[allow(dead_code)]
pub fn chromium_dom_after(url: &str, ms: u32) -> (String, Vec<String>) {
    let extra = [
        "--dump-dom".to_string(),
        format!("--virtual-time-budget={ms}"),
    ];
    let (dom, console) = chromium(&extra, url.to_string());
    assert!(!dom.is_empty(), "chromium dumped no DOM of {url}");
    (dom, console)
}

/// `experiment run PLAN --out DIR ARGS…` with `env` set, which must succeed: its stdout,
/// stderr and experiment.json.
#[allow(dead_code)]
pub fn experiment_ok(
    home: &Home,
    plan: &Path,
    dir: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (String, String, serde_json::Value) {
    let out = home
        .cmd()
        .envs(env.iter().copied())
        .args(["experiment", "run"])
        .arg(plan)
        .arg("--out")
        .arg(dir)
        .args(args)
        .output()
        .expect("run txbench");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let e = serde_json::from_slice(&std::fs::read(dir.join("experiment.json")).unwrap())
        .expect("experiment.json");
    (stdout, stderr, e)
}

/// Runs that read CPU figures, count statements or plant a slowdown must not share the machine
/// with another test's run in the same test binary: each such test holds this.
#[allow(dead_code)]
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// `txbench serve` until dropped.
pub struct Served {
    pub child: std::process::Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn serve(home: &Home) -> Served {
    use std::io::BufRead;
    let mut child = home
        .std_cmd()
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("serve said: {line}"))
        .trim_end_matches('/')
        .to_string();
    Served { child, base }
}

/// Sandboxes an experiment made, stopped and removed when the test ends.
pub struct Cleanup<'a>(pub &'a Home);

impl Drop for Cleanup<'_> {
    fn drop(&mut self) {
        if let Ok(entries) = std::fs::read_dir(self.0.path().join("servers")) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let _ = self
                    .0
                    .cmd()
                    .args(["server", "stop", "--rm", &name])
                    .output();
            }
        }
    }
}
