//! The live view of `txbench serve`, in headless Chromium against a real run: a run in
//! progress is listed as it starts, its page's transaction counter advances while it goes
//! (the page fetches its figures itself, without a reload), and it ends with the run's
//! verdict.

mod common;

use common::*;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// The body of GET `path` from the serve at `base` (`http://127.0.0.1:PORT`).
fn get(base: &str, path: &str) -> String {
    let addr = base.trim_start_matches("http://");
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    write!(
        c,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    c.read_to_string(&mut answer).unwrap();
    answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default()
}

/// The number in the element `id` of a dumped DOM (digits and thousands separators).
fn number_in(dom: &str, id: &str) -> u64 {
    let from = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in {dom}"));
    let text = &dom[from..];
    let start = text.find('>').unwrap() + 1;
    let end = start + text[start..].find('<').unwrap();
    text[start..end]
        .replace(',', "")
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("#{id} holds {:?}", &text[start..end]))
}

#[test]
fn a_run_in_progress_is_shown_live_and_ends_with_its_verdict() {
    let home = Home::new();
    let s = point_select_server(&home, "live");
    // serve reads an existing store: a first short run makes it.
    let first = home
        .cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--time",
            "1",
            "-q",
        ])
        .args(["--out"])
        .arg(home.path().join("first"))
        .output()
        .unwrap();
    assert!(first.status.success(), "{:?}", text(&first));
    let served = serve(&home);
    assert!(get(&served.base, "/live").contains("id=\"none\""));

    let dir = home.path().join("liverun");
    let mut run = home
        .std_cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--threads",
            "4",
        ])
        .args(["--time", "14", "--report-interval", "1", "-q", "--out"])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Listed as it starts.
    let deadline = Instant::now() + Duration::from_secs(20);
    let id = loop {
        let page = get(&served.base, "/live");
        if let Some(at) = page.find("/live/view?id=") {
            let rest = &page[at + "/live/view?id=".len()..];
            break rest[..rest.find('"').unwrap()].to_string();
        }
        assert!(Instant::now() < deadline, "the run never appeared: {page}");
        std::thread::sleep(Duration::from_millis(200));
    };
    let url = format!("{}/live/view?id={id}", served.base);
    // The counter advances while the run goes on.
    std::thread::sleep(Duration::from_secs(3));
    let (early, console) = chromium_dom_after(&url, 1500);
    assert!(console.is_empty(), "{console:?}");
    assert!(early.contains(">running<"), "{early}");
    let a = number_in(&early, "tx");
    std::thread::sleep(Duration::from_secs(3));
    let (later, _) = chromium_dom_after(&url, 1500);
    let b = number_in(&later, "tx");
    assert!(a > 0 && b > a, "the counter went from {a} to {b}");

    // It stops with the run's verdict and its final count.
    assert!(run.wait().unwrap().success());
    let (end, console) = chromium_dom_after(&url, 1500);
    assert!(console.is_empty(), "{console:?}");
    assert!(
        end.contains("id=\"verdict\" class=\"valid\">VALID<"),
        "{end}"
    );
    assert!(end.contains(">completed<"), "{end}");
    let r = result_json(&dir);
    let total = r["summary"]["transactions"].as_u64().unwrap();
    assert_eq!(number_in(&end, "tx"), total);
    // No longer listed as in progress.
    assert!(get(&served.base, "/live").contains("id=\"none\""));
    // A marker that is not one is refused, not read.
    assert!(get(&served.base, "/live/data?id=../store").contains("not a marker"));
}
