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

/// `txbench serve` on `home`'s store, which a first short run on `s` makes (serve reads an
/// existing store).
fn serve_after_a_run(home: &Home, s: &Server) -> Served {
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
    serve(home)
}

/// The live page of what `/live` at `base` lists first, once it is listed (as it starts).
fn listed(base: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let page = get(base, "/live");
        if let Some(at) = page.find("/live/view?id=") {
            let rest = &page[at + "/live/view?id=".len()..];
            return format!("{base}/live/view?id={}", &rest[..rest.find('"').unwrap()]);
        }
        assert!(Instant::now() < deadline, "nothing appeared: {page}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The text of element `id` in a dumped DOM.
fn text_of<'a>(dom: &'a str, id: &str) -> &'a str {
    let from = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in {dom}"));
    let text = &dom[from..];
    let start = text.find('>').unwrap() + 1;
    &text[start..start + text[start..].find('<').unwrap()]
}

#[test]
fn a_run_in_progress_is_shown_live_and_ends_with_its_verdict() {
    let home = Home::new();
    let s = point_select_server(&home, "live");
    let served = serve_after_a_run(&home, &s);
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
    let url = listed(&served.base);
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

#[test]
fn a_sweep_in_progress_shows_its_levels_done_and_ends_with_its_verdict() {
    let home = Home::new();
    let s = point_select_server(&home, "livesweep");
    let served = serve_after_a_run(&home, &s);
    let dir = home.path().join("livesweep");
    let mut sweep = home
        .std_cmd()
        .args([
            "--url",
            &s.url,
            "run",
            "oltp_point_select",
            "--table-size",
            "1000",
        ])
        .args([
            "--threads",
            "1,2",
            // 8 s a level: a headless Chromium's poll took seconds in a loaded CI, and 5-s
            // levels let the second one pass between two polls.
            "--time",
            "8",
            "--report-interval",
            "1",
            "-q",
            "--out",
        ])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let url = listed(&served.base);
    // The levels done and left while it goes, the current level's counter with them.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (dom, console) = chromium_dom_after(&url, 1500);
        assert!(console.is_empty(), "{console:?}");
        if text_of(&dom, "done") == "1 of 2 levels" && number_in(&dom, "tx") > 0 {
            assert!(dom.contains(">running<"), "{dom}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "never at its second level: {dom}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    assert!(sweep.wait().unwrap().success());
    let (end, console) = chromium_dom_after(&url, 1500);
    assert!(console.is_empty(), "{console:?}");
    assert_eq!(text_of(&end, "done"), "2 of 2 levels", "{end}");
    assert!(
        end.contains("id=\"verdict\" class=\"valid\">VALID<"),
        "{end}"
    );
    assert!(end.contains(">completed<"), "{end}");
}
