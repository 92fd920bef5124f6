//! The commands' output: text for people, `--json` for programs, `--quiet` for scripts.

pub mod compare;
pub mod confirm;
pub mod experiment;
mod live;
pub(crate) mod names;
pub mod replay;
pub mod serve;
pub mod shards;
pub mod store;
pub mod workload;

use crate::cli::ServerCommand;
use crate::engine::{self, TargetUrl};
use crate::server::{self, StateDir, cnf::Setting};
use anyhow::{Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};

/// How to print.
pub struct Output {
    /// `--quiet`: only the result.
    pub quiet: bool,
    /// `--json`: JSON objects.
    pub json: bool,
    /// `--store`: the results store (None: `$TXBENCH_HOME/store.sqlite`).
    pub store: Option<std::path::PathBuf>,
}

impl Output {
    /// A progress or note line for people (stderr, so stdout stays the result).
    pub fn note(&self, line: &str) {
        if !self.quiet && !self.json {
            eprintln!("{line}");
        }
    }
}

fn print_json(v: &serde_json::Value) {
    println!("{v}");
}

/// The target a command should use: `--url`/`TXBENCH_URL`, else the 'default' sandbox.
/// The one `--url` of a command that takes one target (only `run` takes several).
pub fn single_url(urls: &[String]) -> Result<Option<&str>> {
    match urls {
        [] => Ok(None),
        [one] => Ok(Some(one.as_str())),
        _ => Err(crate::error::Failure::Usage(format!(
            "--url: this command takes one target ({} given); only `run` takes several",
            urls.len()
        ))
        .into()),
    }
}

/// The targets of `run`: the `--server` sandboxes (each must be running), else every
/// `--url`, else the default sandbox.
pub fn resolve_targets(
    out: &Output,
    urls: &[String],
    servers: &[String],
) -> Result<Vec<TargetUrl>> {
    if !servers.is_empty() {
        if !urls.is_empty() {
            return Err(crate::error::Failure::Usage(
                "--server and --url: give the targets one way".into(),
            )
            .into());
        }
        let home = StateDir::from_env()?;
        let mut out = Vec::new();
        for name in servers {
            let s = server::get(&home, name).with_context(|| format!("--server {name}"))?;
            if !matches!(s.state, server::State::Running { .. }) {
                anyhow::bail!(
                    "--server {name}: the server is {} (start it with `txbench server start {name}`)",
                    s.state.word()
                );
            }
            out.push(s.record.login_url());
        }
        return dedup_targets(out);
    }
    if urls.len() > 1 {
        let parsed = urls
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let what = format!("--url (the {}.)", i + 1);
                server::secret::sandbox_login(TargetUrl::parse(u).with_context(|| what.clone())?)
                    .context(what)
            })
            .collect::<Result<Vec<_>>>()?;
        return dedup_targets(parsed);
    }
    Ok(vec![resolve_target(out, urls.first().map(String::as_str))?])
}

fn dedup_targets(targets: Vec<TargetUrl>) -> Result<Vec<TargetUrl>> {
    for (i, t) in targets.iter().enumerate() {
        if targets[..i].iter().any(|o| o.to_string() == t.to_string()) {
            return Err(crate::error::Failure::Usage(format!(
                "{t} is given twice: each target once (more virtual users come from --threads)"
            ))
            .into());
        }
    }
    Ok(targets)
}

pub fn resolve_target(out: &Output, url: Option<&str>) -> Result<TargetUrl> {
    if let Some(raw) = url {
        return server::secret::sandbox_login(TargetUrl::parse(raw).context("--url")?)
            .context("--url");
    }
    let (url, note) = server::default_target(&StateDir::from_env()?)?;
    if let Some(note) = note {
        out.note(&note);
    }
    Ok(url)
}

/// `txbench info`.
pub fn info(out: &Output, url: Option<&str>) -> Result<i32> {
    let url = resolve_target(out, url)?;
    let mut conn = engine::connect(&url)?;
    let pf = engine::preflight(&mut conn)?;
    if out.json {
        print_json(&json!({"url": url.to_string(), "preflight": pf}));
    } else {
        println!("{url}\n{}", pf.render());
    }
    Ok(0)
}

/// `txbench server …`.
pub fn server(out: &Output, cmd: ServerCommand) -> Result<i32> {
    let home = StateDir::from_env()?;
    match cmd {
        ServerCommand::Start {
            server_name,
            name,
            sets,
            config,
            port,
            binary,
            cpus,
            numa_node,
            replicas,
            semisync,
            galera,
            engine,
        } => server_start(
            out,
            &home,
            StartArgs {
                name: server_name.or(name).unwrap_or_else(|| "default".into()),
                sets,
                config,
                port,
                binary,
                cpus,
                numa_node,
                replicas,
                semisync,
                galera,
                engine,
            },
        ),
        ServerCommand::Stop { name, rm } => server_stop(out, &home, &name, rm),
        ServerCommand::Status { name } => server_status(out, &home, &name),
        ServerCommand::List => server_list(out, &home),
        ServerCommand::Logs { name, lines } => server_logs(&home, &name, lines),
    }
}

/// `txbench server start`'s options as the command line gave them (the name defaulted).
struct StartArgs {
    /// The server's name.
    name: String,
    /// `--set KEY=VALUE`, not parsed yet.
    sets: Vec<String>,
    /// `--config`.
    config: Option<PathBuf>,
    /// `--port`.
    port: Option<u16>,
    /// `--binary`.
    binary: Option<PathBuf>,
    /// `--cpus`, not parsed yet.
    cpus: Option<String>,
    /// `--numa-node`.
    numa_node: Option<u32>,
    /// `--replicas`.
    replicas: Option<u32>,
    /// `--semisync`.
    semisync: bool,
    /// `--galera`.
    galera: Option<u32>,
    /// `--engine`, as written.
    engine: Option<String>,
}

impl StartArgs {
    /// The start options and topology they ask for, checked: PostgreSQL takes no topology,
    /// then the CPUs and the settings parsed.
    fn checked(self) -> Result<(server::StartOptions, server::cluster::Request)> {
        let engine = self.engine.map(|e| match e.as_str() {
            "postgres" | "postgresql" => engine::Engine::Postgres,
            _ => engine::Engine::Mysql,
        });
        if engine == Some(engine::Engine::Postgres)
            && (self.replicas.is_some() || self.galera.is_some() || self.numa_node.is_some())
        {
            anyhow::bail!(
                "--engine postgres: --replicas, --galera and --numa-node are MariaDB sandboxes' (PostgreSQL's standbys are not built)"
            );
        }
        let cpus = self
            .cpus
            .map(|c| server::placement::parse_cpus(&c, "--cpus"))
            .transpose()?;
        let sets = self
            .sets
            .iter()
            .map(|s| Setting::parse(s))
            .collect::<Result<Vec<_>>>()?;
        let opts = server::StartOptions {
            name: self.name,
            sets,
            config: self.config,
            port: self.port,
            binary: self.binary,
            cpus,
            numa_node: self.numa_node,
            engine,
            ..Default::default()
        };
        let request = server::cluster::Request {
            replicas: self.replicas,
            semisync: self.semisync,
            galera: self.galera,
        };
        Ok((opts, request))
    }
}

/// `txbench server start`: the options checked, the server (and its replicas or Galera
/// nodes) started, each printed.
fn server_start(out: &Output, home: &StateDir, args: StartArgs) -> Result<i32> {
    let (opts, request) = args.checked()?;
    let members = server::cluster::start(home, &opts, request)?;
    print_members(out, &members);
    Ok(0)
}

/// The started servers: their notes, then as JSON (one object, the others its
/// `members`), their URLs (`--quiet`) or in words.
fn print_members(out: &Output, members: &[server::Started]) {
    let mut json_rows = Vec::new();
    for s in members {
        for n in &s.notes {
            out.note(n);
        }
        let r = &s.record;
        if out.json {
            json_rows.push(started_json(s));
        } else if out.quiet {
            println!("{}", r.url());
        } else {
            print_started(s);
        }
    }
    if out.json {
        let mut first = json_rows.remove(0);
        if !json_rows.is_empty() {
            first["members"] = json!(json_rows);
        }
        print_json(&first);
    }
}

/// A started server as JSON.
fn started_json(s: &server::Started) -> serde_json::Value {
    let r = &s.record;
    json!({
        "name": r.name, "url": r.url().to_string(), "pid": s.pid,
        "started": s.started, "port": r.port, "socket": r.socket,
        "cnf": r.cnf(), "error_log": r.error_log(), "role": r.role,
        "bootstrap_seconds": s.bootstrap_seconds, "start_seconds": s.start_seconds,
        "binary": r.binary, "binary_version": r.binary_version,
        "binary_sha256": r.binary_sha256, "cpus": server::placement::cpus_allowed(s.pid),
        "preflight": s.preflight,
    })
}

/// `txbench server stop`: stops the server (and its members), says how each stopped.
fn server_stop(out: &Output, home: &StateDir, name: &str, rm: bool) -> Result<i32> {
    let all = server::cluster::stop(home, name, rm)?;
    if out.json {
        let mut v = serde_json::to_value(all.last())?;
        if all.len() > 1 {
            v["members"] = serde_json::to_value(&all[..all.len() - 1])?;
        }
        print_json(&v);
        return Ok(0);
    }
    for s in &all {
        let name = &s.name;
        if out.quiet {
            break;
        }
        let removed = if s.removed { "; data removed" } else { "" };
        match s.method {
            server::StopMethod::NotRunning => {
                println!("server '{name}' is not running ({}){removed}", s.was)
            }
            m => println!(
                "server '{name}' stopped in {:.2} s ({}){removed}",
                s.seconds,
                match m {
                    server::StopMethod::Shutdown => "SQL shutdown",
                    server::StopMethod::Sigterm => "SIGTERM after the SQL shutdown timed out",
                    _ => "SIGKILL after SIGTERM timed out",
                }
            ),
        }
    }
    Ok(0)
}

/// `txbench server status`.
fn server_status(out: &Output, home: &StateDir, name: &str) -> Result<i32> {
    let s = server::get(home, name)?;
    print_servers(out, &[s], true);
    Ok(0)
}

/// `txbench server list`.
fn server_list(out: &Output, home: &StateDir) -> Result<i32> {
    let all = server::list(home)?;
    if all.is_empty() && !out.json {
        out.note(&format!("no servers in {}", home.root().display()));
    }
    print_servers(out, &all, false);
    Ok(0)
}

/// `txbench server logs`.
fn server_logs(home: &StateDir, name: &str, lines: usize) -> Result<i32> {
    print!("{}", server::logs(home, name, lines)?);
    Ok(0)
}

fn print_started(s: &server::Started) {
    let r = &s.record;
    if s.started {
        let created = if s.bootstrap_seconds > 0.0 {
            format!(" (data directory created in {:.2} s)", s.bootstrap_seconds)
        } else {
            String::new()
        };
        println!(
            "server '{}' started in {:.2} s{created}, pid {}",
            r.name, s.start_seconds, s.pid
        );
    } else {
        println!("server '{}' is already running, pid {}", r.name, s.pid);
    }
    if r.role != server::cluster::Role::Standalone {
        println!("  role    {}", r.role.describe());
    }
    println!("  url     {}", r.url());
    println!("  socket  {}", r.socket.display());
    println!("  config  {}", r.cnf().display());
    println!(
        "  binary  {} (sha256 {})",
        r.binary.display(),
        r.binary_sha256.as_deref().unwrap_or("?")
    );
    if let Some(c) = server::placement::cpus_allowed(s.pid) {
        println!("  cpus    {c}");
    }
    println!("pre-flight:\n{}", s.preflight.render());
}

fn print_servers(out: &Output, servers: &[server::Server], detail: bool) {
    if out.json {
        let rows: Vec<_> = servers
            .iter()
            .map(|s| {
                let mut v = json!({
                    "name": s.record.name, "state": s.state, "url": s.record.url().to_string(),
                    "port": s.record.port, "socket": s.record.socket, "dir": s.record.dir,
                    "version": s.record.binary_version, "role": s.record.role,
                });
                if detail {
                    v["topology"] = json!(topology_now(s));
                }
                v
            })
            .collect();
        print_json(&if detail { rows[0].clone() } else { json!(rows) });
        return;
    }
    if detail {
        let s = &servers[0];
        let pid = s
            .state
            .pid()
            .map(|p| format!(", pid {p}"))
            .unwrap_or_default();
        println!("server '{}': {}{pid}", s.record.name, s.state.word());
        if let server::State::Died { reason } = &s.state {
            println!("  why     {reason}");
            println!(
                "  log     {}",
                server::log_excerpt(&s.record.error_log(), 0)
            );
        }
        println!("  url     {}", s.record.url());
        println!("  dir     {}", s.record.dir.display());
        println!("  server  {}", s.record.binary_version);
        if s.record.role != server::cluster::Role::Standalone {
            println!("  role    {}", s.record.role.describe());
        }
        for (k, v) in topology_now(s) {
            if k != "role" {
                println!("  {k:<7} {v}");
            }
        }
        return;
    }
    if servers.is_empty() {
        return;
    }
    println!(
        "{:<16} {:<15} {:>8} {:>6}  {:<38} ROLE",
        "NAME", "STATE", "PID", "PORT", "URL"
    );
    for s in servers {
        let pid = s.state.pid().map(|p| p.to_string()).unwrap_or("-".into());
        let mut role = s.record.role.describe();
        if let Some(lag) = topology_now(s).get("replication") {
            role.push_str(&format!(": {lag}"));
        }
        println!(
            "{:<16} {:<15} {:>8} {:>6}  {:<38} {role}",
            s.record.name,
            s.state.word(),
            pid,
            s.record.port,
            s.record.url().to_string(),
        );
    }
}

/// What a running sandbox says of its topology now (replicas and their lag, Galera).
fn topology_now(s: &server::Server) -> std::collections::BTreeMap<String, String> {
    if s.record.role == server::cluster::Role::Standalone || s.state.pid().is_none() {
        return Default::default();
    }
    let url = s.record.login_url();
    match engine::connect(&url) {
        Ok(mut c) => crate::topology::at_start(&mut c, &url).0,
        Err(_) => Default::default(),
    }
}

/// `txbench report`: reads every directory (refusing what is not a run or sweep), writes
/// the HTML and, with `--png`, every chart as a PNG.
pub fn report(
    out: &Output,
    dirs: &[PathBuf],
    output: Option<&Path>,
    png: Option<&Path>,
) -> Result<i32> {
    use crate::report::{charts, html};
    let mut inputs: Vec<html::Input> = Vec::new();
    let mut experiments = Vec::new();
    for p in dirs {
        if p.join(crate::experiment::FILE).is_file() {
            // An experiment: its tables and charts, then every finished cell's run.
            let mut e = crate::experiment::Experiment::load(p)?;
            experiment::fill_server_figures(&mut e, p);
            for c in &e.cells {
                let run = p.join(&c.dir).join("run");
                if run.join("result.json").is_file() {
                    inputs.push(html::Input {
                        stored: crate::results::Stored::load(&run)?,
                        path: run,
                        label: Some(format!(
                            "cell {}: {} {} t={} rep {}",
                            c.order, c.variant, c.workload, c.threads, c.repetition
                        )),
                        cell: Some((experiments.len(), c.order)),
                    });
                }
            }
            experiments.push(e);
            continue;
        }
        inputs.push(html::Input {
            path: p.clone(),
            stored: crate::results::Stored::load(p)?,
            label: None,
            cell: None,
        });
    }
    let fonts = match png {
        Some(_) => Some(charts::system_fonts()?),
        None => None,
    };
    let file = match output {
        Some(f) => f.to_path_buf(),
        None if dirs.len() == 1 => dirs[0].join("report.html"),
        None => PathBuf::from("report.html"),
    };
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let rep = html::build(&inputs, &experiments, &now)?;
    crate::owned::write(&file, &rep.html).with_context(|| format!("-o {}", file.display()))?;
    let mut pngs = Vec::new();
    if let (Some(dir), Some(fonts)) = (png, &fonts) {
        crate::owned::make_dir(dir, "--png")?;
        for (i, c) in rep.charts.iter().enumerate() {
            let path = dir.join(format!("{:02}-{}.png", i + 1, c.id));
            let bytes = charts::png(&charts::svg(c)?, fonts)?;
            crate::owned::write(&path, bytes)?;
            pngs.push(path);
        }
    }
    if out.json {
        print_json(&json!({"report": file, "charts": rep.charts.len(), "png": pngs}));
    } else {
        println!("{}", file.display());
        if !out.quiet {
            eprintln!(
                "report of {} director{} with {} chart(s){}",
                dirs.len(),
                if dirs.len() == 1 { "y" } else { "ies" },
                rep.charts.len(),
                png.map_or(String::new(), |d| format!(", PNGs in {}", d.display()))
            );
        }
    }
    Ok(0)
}
