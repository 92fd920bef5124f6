//! `txbench serve`: the results store browsed in a web browser. A local, read-only web
//! server (http.rs: bounded workers, queue, request size and time, Host checked): the stored
//! runs with filters, each benchmark's history with its change points, every run's report.
//! It binds to 127.0.0.1 unless `--listen` names another address; it answers GET and HEAD
//! only, opens the store read-only, and serves a run's report only for a directory the
//! store holds. Runs in progress (live.rs) are found by the markers they write beside the
//! store, and shown as they go.

mod http;
mod live;

use super::Output;
use crate::analysis::history;
use crate::error::{EXIT_OK, Failure};
use crate::report::browse::{self, Form};
use crate::store::{self, Filter, Store};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

/// The listing shows at most this many runs (the filters narrow it).
const RUNS_SHOWN: usize = 500;

/// Where to listen: `--listen ADDR[:PORT]`, else 127.0.0.1 at `port`.
pub fn bind_address(port: u16, listen: Option<&str>) -> Result<SocketAddr> {
    let Some(l) = listen else {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    };
    if let Ok(a) = l.parse::<SocketAddr>() {
        return Ok(a);
    }
    match l
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
    {
        Ok(ip) => Ok(SocketAddr::new(ip, port)),
        Err(_) => Err(Failure::Usage(format!(
            "--listen {l}: expected an address (0.0.0.0, ::, 192.0.2.7) or ADDRESS:PORT"
        ))
        .into()),
    }
}

/// `txbench serve`.
pub fn serve(out: &Output, port: u16, listen: Option<&str>) -> Result<i32> {
    let path = super::store::existing_store(out)?;
    Store::open_read_only(&path)?;
    let addr = bind_address(port, listen)?;
    let listener = std::net::TcpListener::bind(addr)
        .map_err(|e| anyhow::anyhow!("--port {}: cannot listen on {addr}: {e}", addr.port()))?;
    let shown = listener
        .local_addr()
        .map_or(addr.to_string(), |a| a.to_string());
    if !addr.ip().is_loopback() {
        out.note(&format!(
            "--listen {addr}: not loopback; anyone who can reach this host can read the store's runs (no password is stored in them)"
        ));
    }
    // The address is the one line a script waits for (`--port 0` picks a free port).
    println!(
        "serving {} on http://{shown}/ (read-only; Ctrl-C stops)",
        path.display()
    );
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    http::serve(listener, http::Limits::default(), move |req| {
        respond(&path, &req.target)
    });
    Ok(EXIT_OK)
}

/// The status and page for a GET of `url` (http.rs refused every other method).
fn respond(store: &Path, url: &str) -> (u16, String) {
    let (route, query) = url.split_once('?').unwrap_or((url, ""));
    let q: HashMap<String, String> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let result = match route {
        "/" => runs(store, &q),
        "/history" => history_of(store, &q),
        "/run" => run(store, &q),
        "/live" => live::list(store),
        "/live/view" => live::view(store, &q),
        "/live/data" => live::data(store, &q),
        _ => return (404, browse::message_page("Not found", url)),
    };
    match result {
        Ok(page) => (200, page),
        Err((status, line)) => (status, browse::message_page("Cannot show it", &line)),
    }
}

type Page = std::result::Result<String, (u16, String)>;

/// The runs `f` selects, the store opened read-only for this request (runs recorded since
/// the last one appear).
fn query(store: &Path, f: &Filter) -> std::result::Result<Vec<store::Entry>, (u16, String)> {
    Store::open_read_only(store)
        .and_then(|s| s.query(f))
        .map_err(|e| (500, crate::error::one_line(&e)))
}

/// `/`: the runs the form's filters select.
fn runs(store: &Path, q: &HashMap<String, String>) -> Page {
    let get = |k: &str| q.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let form = Form {
        workload: get("workload"),
        threads: get("threads"),
        engine: get("engine"),
        label: get("label"),
        since: get("since"),
    };
    let mut f = Filter::default();
    let mut error = None;
    for (k, v) in [
        ("workload", &form.workload),
        ("threads", &form.threads),
        ("engine", &form.engine),
    ] {
        if !v.is_empty()
            && let Err(e) = f.field(&format!("{k}={v}"))
        {
            error = Some(e.to_string());
        }
    }
    if !form.label.is_empty()
        && let Err(e) = f.label(&form.label)
    {
        error = Some(e.to_string());
    }
    if !form.since.is_empty() {
        f.since = Some(form.since.clone());
    }
    let entries = query(store, &f)?;
    Ok(browse::runs_page(
        &entries,
        &form,
        error.as_deref(),
        RUNS_SHOWN,
    ))
}

/// `/history?identity=…&figure=…&by=…`.
fn history_of(store: &Path, q: &HashMap<String, String>) -> Page {
    let Some(id) = q.get("identity") else {
        return Err((400, "no identity: follow a benchmark's link".into()));
    };
    let mut f = Filter::default();
    f.field(&format!("identity={id}"))
        .map_err(|e| (400, e.to_string()))?;
    let mut entries = query(store, &f)?;
    entries.retain(|e| history::in_series(e, false, false));
    let Some(first) = entries.first() else {
        return Err((404, format!("no stored run has the identity {id}")));
    };
    let mut figures: Vec<String> = entries
        .iter()
        .flat_map(|e| e.figures.keys().cloned())
        .collect();
    figures.sort();
    figures.dedup();
    let figure = q
        .get("figure")
        .filter(|f| !f.is_empty())
        .cloned()
        .unwrap_or_else(|| history::default_figure(&first.workload).to_string());
    if !figures.contains(&figure) {
        return Err((
            400,
            format!(
                "figure {figure}: no run of this benchmark has it (they have {})",
                figures.join(", ")
            ),
        ));
    }
    let by = q.get("by").map(|s| s.trim()).filter(|s| !s.is_empty());
    let h =
        history::history(&entries, &figure, by).map_err(|e| (400, crate::error::one_line(&e)))?;
    Ok(browse::history_page(&h, &figures, by.unwrap_or("")))
}

/// `/run?dir=…`: the report of a run the store holds, built from its directory.
fn run(store: &Path, q: &HashMap<String, String>) -> Page {
    let Some(dir) = q.get("dir") else {
        return Err((400, "no dir: follow a run's link".into()));
    };
    let mut f = Filter::default();
    f.field(&format!("dir={dir}"))
        .map_err(|e| (400, e.to_string()))?;
    // Only a directory the store holds: the page never reads a path a visitor makes up.
    let known = query(store, &f)?;
    if known.is_empty() {
        return Err((404, format!("{dir}: not a run in the store")));
    }
    let path = PathBuf::from(dir);
    let report = (|| -> Result<String> {
        let stored = crate::results::Stored::load(&path)
            .with_context(|| format!("{}: the run directory", path.display()))?;
        let input = crate::report::html::Input {
            stored,
            path: path.clone(),
            label: None,
            cell: None,
        };
        let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        Ok(crate::report::html::build(&[input], &[], &now)?.html)
    })();
    report.map_err(|e| (500, crate::error::one_line(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_binds_to_loopback_unless_listen_names_an_address() {
        assert_eq!(
            bind_address(8340, None).unwrap().to_string(),
            "127.0.0.1:8340"
        );
        assert_eq!(
            bind_address(8340, Some("0.0.0.0")).unwrap().to_string(),
            "0.0.0.0:8340"
        );
        assert_eq!(
            bind_address(1, Some("[::1]:9000")).unwrap().to_string(),
            "[::1]:9000"
        );
        let e = bind_address(1, Some("example.org"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--listen example.org: expected an address"),
            "{e}"
        );
    }

    #[test]
    fn unknown_paths_are_404() {
        let store = Path::new("/nonexistent/store.sqlite");
        assert_eq!(respond(store, "/etc/passwd").0, 404);
        assert_eq!(respond(store, "/run").0, 400);
    }
}
