//! The HTTP that `serve` speaks, with the bounds a page server on a shared machine needs and
//! tiny_http (used before) does not have: a fixed pool of worker threads fed by a bounded
//! queue (a connection past it gets 503 at once), a request head of at most 16 KiB read
//! within a timeout, one request per connection, and a Host header that must name this
//! server by address or `localhost` (a page a browser loaded from another site whose name
//! was re-pointed at 127.0.0.1, DNS rebinding, sends that site's name and is refused).
//! hyper would need an async runtime for a read-only page server; this is the part of
//! HTTP/1.1 `serve` uses, GET and HEAD.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// How much a server may take on.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Threads that answer requests (pages are built one per thread at a time).
    pub workers: usize,
    /// Connections waiting for a worker; past that a connection gets 503.
    pub queue: usize,
    /// The request line and headers, bytes.
    pub head_bytes: usize,
    /// How long a client may take to send its request head.
    pub read_timeout: Duration,
    /// How long a client may take to read the answer.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            workers: 4,
            queue: 32,
            head_bytes: 16 << 10,
            read_timeout: Duration::from_secs(5),
            write_timeout: Duration::from_secs(10),
        }
    }
}

/// A request, as far as `serve` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// GET, HEAD, …
    pub method: String,
    /// The path and query.
    pub target: String,
}

/// An answer: status and HTML body.
pub type Answer = (u16, String);

/// Serves `listener` forever, `handle` answering each request the bounds let through.
pub fn serve(
    listener: TcpListener,
    limits: Limits,
    handle: impl Fn(&Request) -> Answer + Send + Sync + 'static,
) {
    let bound = listener.local_addr().ok();
    let handle = Arc::new(handle);
    let (tx, rx) = crossbeam_channel::bounded::<TcpStream>(limits.queue);
    for _ in 0..limits.workers.max(1) {
        let (rx, handle) = (rx.clone(), handle.clone());
        std::thread::spawn(move || {
            for stream in rx {
                answer(stream, &limits, bound, &*handle);
            }
        });
    }
    for stream in listener.incoming().flatten() {
        if let Err(crossbeam_channel::TrySendError::Full(mut s)) = tx.try_send(stream) {
            let _ = s.set_write_timeout(Some(Duration::from_millis(200)));
            let _ = write_answer(&mut s, "GET", &(503, page(503, "busy: try again")));
            // A short linger on the accepting thread: 20 ms at most a refused connection.
            close(s, Duration::from_millis(20));
        }
    }
}

/// Reads one request from `stream` within the limits, answers it, and closes.
fn answer(
    mut stream: TcpStream,
    limits: &Limits,
    bound: Option<SocketAddr>,
    handle: &dyn Fn(&Request) -> Answer,
) {
    let _ = stream.set_read_timeout(Some(limits.read_timeout));
    let _ = stream.set_write_timeout(Some(limits.write_timeout));
    let head = match read_head(&mut stream, limits.head_bytes, limits.read_timeout) {
        Ok(h) => h,
        Err(status) => {
            let _ = write_answer(&mut stream, "GET", &(status, page(status, reason(status))));
            close(stream, Duration::from_millis(500));
            return;
        }
    };
    let answer = match parse(&head, bound) {
        Ok(req) => handle(&req),
        Err((status, line)) => (status, page(status, &line)),
    };
    let method = head.split(' ').next().unwrap_or("GET");
    let _ = write_answer(&mut stream, method, &answer);
    close(stream, Duration::from_millis(500));
}

/// Ends a connection whose answer was written: the writing side first, then what the client
/// still sends is read and dropped for at most `linger` (closing with unread bytes resets
/// the connection, and the client may lose the answer with them).
fn close(mut stream: TcpStream, linger: Duration) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut sink = [0u8; 4096];
    let mut rest = Deadline {
        stream: &mut stream,
        deadline: std::time::Instant::now() + linger,
    };
    let mut reads = 64usize;
    while reads > 0 && matches!(rest.read(&mut sink), Ok(n) if n > 0) {
        reads -= 1;
    }
}

/// The request head (up to the empty line), or the status to refuse it with: 431 when
/// longer than `max` bytes, 408 when the client is too slow, 400 when it is not text.
fn read_head(stream: &mut TcpStream, max: usize, within: Duration) -> Result<String, u16> {
    let deadline = std::time::Instant::now() + within;
    let mut r = BufReader::new(Deadline { stream, deadline }.take(max as u64 + 1));
    let mut head = Vec::new();
    loop {
        let before = head.len();
        match r.read_until(b'\n', &mut head) {
            Ok(0) => return Err(400),
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(408);
            }
            Err(_) => return Err(400),
        }
        if head.len() > max {
            return Err(431);
        }
        if !head.ends_with(b"\n") {
            return Err(400);
        }
        let line = &head[before..];
        if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    String::from_utf8(head).map_err(|_| 400)
}

/// A stream read until a deadline: each read may wait only for the time left, so a client
/// sending a byte now and then cannot hold a worker past it.
struct Deadline<'a> {
    stream: &'a mut TcpStream,
    deadline: std::time::Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self
            .deadline
            .saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// The request in `head`, or the answer refusing it: only GET and HEAD (405), a Host
/// header naming this server (421), a target that starts with `/` (400).
pub fn parse(head: &str, bound: Option<SocketAddr>) -> Result<Request, Answer> {
    let mut lines = head.lines();
    let mut first = lines.next().unwrap_or("").split(' ');
    let (method, target) = (first.next().unwrap_or(""), first.next().unwrap_or(""));
    if !matches!(method, "GET" | "HEAD") {
        return Err((405, "this server is read-only: GET only".into()));
    }
    if !target.starts_with('/') {
        return Err((400, "the request names no path".into()));
    }
    let host = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("host"))
        .map(|(_, v)| v.trim());
    if !host.is_some_and(|h| host_allowed(h, bound)) {
        return Err((
            421,
            format!(
                "Host {}: this server answers to its address or localhost only",
                host.unwrap_or("(none)")
            ),
        ));
    }
    Ok(Request {
        method: method.into(),
        target: target.into(),
    })
}

/// Whether a Host header names this server: an IP address (no name to re-point) or
/// `localhost`, at the port it listens on.
pub fn host_allowed(host: &str, bound: Option<SocketAddr>) -> bool {
    let port = bound.map_or(80, |b| b.port());
    let (name, p) = match host.rsplit_once(':') {
        Some((n, p)) if !n.is_empty() && !p.contains(']') => (n, p.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    if p != Some(port) {
        return false;
    }
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok()
}

/// A refusal's page: `line` (which may hold what the client sent) escaped.
fn page(status: u16, line: &str) -> String {
    crate::report::browse::message_page(reason(status), line)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

fn write_answer(
    stream: &mut TcpStream,
    method: &str,
    (status, body): &Answer,
) -> std::io::Result<()> {
    // Every page starts with <!DOCTYPE html>; a JSON object is the live view's data.
    let kind = if body.starts_with('{') {
        "application/json"
    } else {
        "text/html; charset=utf-8"
    };
    let mut out = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        reason(*status),
        body.len()
    )
    .into_bytes();
    if method != "HEAD" {
        out.extend_from_slice(body.as_bytes());
    }
    stream.write_all(&out)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound() -> Option<SocketAddr> {
        Some("127.0.0.1:8340".parse().unwrap())
    }

    #[test]
    fn only_this_servers_address_or_localhost_is_answered() {
        for ok in [
            "127.0.0.1:8340",
            "localhost:8340",
            "LOCALHOST:8340",
            "[::1]:8340",
        ] {
            assert!(host_allowed(ok, bound()), "{ok}");
        }
        for bad in [
            "evil.example:8340",
            "127.0.0.1.nip.io:8340",
            "localhost:80",
            "localhost",
            "127.0.0.1:8341",
            "",
        ] {
            assert!(!host_allowed(bad, bound()), "{bad}");
        }
        let get = |host: &str| parse(&format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n"), bound());
        assert!(get("localhost:8340").is_ok());
        assert_eq!(get("rebound.example:8340").unwrap_err().0, 421);
        assert_eq!(parse("GET / HTTP/1.0\r\n\r\n", bound()).unwrap_err().0, 421);
        assert_eq!(
            parse("POST / HTTP/1.1\r\nHost: localhost:8340\r\n\r\n", bound())
                .unwrap_err()
                .0,
            405
        );
        assert_eq!(
            parse(
                "GET http://x/ HTTP/1.1\r\nHost: localhost:8340\r\n\r\n",
                bound()
            )
            .unwrap_err()
            .0,
            400
        );
    }
}
