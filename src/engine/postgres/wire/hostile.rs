//! The wire client against a fake backend on a socket pair: malformed, truncated, oversized
//! and out-of-order messages, a SCRAM downgrade, and thousands of random frames. Every
//! case ends in a clear error or a clean reply, never a panic or an allocation past the
//! bounds.

use super::startup::negotiate;
use super::*;
use std::os::unix::net::UnixStream;

/// A backend message: tag, length (itself included), body.
fn msg(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut m = vec![tag];
    m.extend_from_slice(&(body.len() as i32 + 4).to_be_bytes());
    m.extend_from_slice(body);
    m
}

fn auth(code: i32, rest: &[u8]) -> Vec<u8> {
    let mut b = code.to_be_bytes().to_vec();
    b.extend_from_slice(rest);
    msg(b'R', &b)
}

fn ok() -> Vec<u8> {
    auth(0, &[])
}

fn ready() -> Vec<u8> {
    msg(b'Z', b"I")
}

/// Reads one frontend message: the startup (length first) or a typed one.
fn read_frontend(s: &mut UnixStream, startup: bool) -> io::Result<Vec<u8>> {
    let mut head = vec![0u8; if startup { 4 } else { 5 }];
    s.read_exact(&mut head)?;
    let at = head.len() - 4;
    let len = i32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]) as usize;
    let mut body = vec![0u8; len.saturating_sub(4)];
    s.read_exact(&mut body)?;
    Ok(body)
}

/// Connects a client to a fake backend that reads the startup message, then runs `script`.
fn against(
    url: &str,
    script: impl FnOnce(&mut UnixStream) -> io::Result<()> + Send + 'static,
) -> Result<Client, Error> {
    let (client, mut server) = UnixStream::pair().unwrap();
    let fake = std::thread::spawn(move || {
        if read_frontend(&mut server, true).is_ok() {
            let _ = script(&mut server);
        }
    });
    let url = TargetUrl::parse(url).unwrap();
    let c = Client::over(Stream::Unix(client), &url, "test", Duration::from_secs(5));
    let _ = fake.join();
    c
}

const LOCAL: &str = "postgres://u:pw@127.0.0.1:5432/db";

fn error_of(r: Result<Client, Error>) -> String {
    match r {
        Ok(_) => panic!("the client accepted a hostile server"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_oversized_length_is_refused_before_anything_is_reserved() {
    let e = error_of(against(LOCAL, |s| {
        let mut m = vec![b'R'];
        m.extend_from_slice(&i32::MAX.to_be_bytes());
        m.extend_from_slice(&[0; 16]);
        s.write_all(&m)?;
        // Held open: a client that waited for 2 GiB would time out instead of refusing.
        std::thread::sleep(Duration::from_millis(200));
        Ok(())
    }));
    assert!(e.contains("of 2147483647 bytes"), "{e}");
    assert!(e.contains("at most 64 MiB"), "{e}");
}

#[test]
fn a_length_shorter_than_its_own_field_is_refused() {
    let e = error_of(against(LOCAL, |s| {
        let mut m = vec![b'R'];
        m.extend_from_slice(&(-5i32).to_be_bytes());
        s.write_all(&m)
    }));
    assert!(e.contains("of -5 bytes"), "{e}");
}

#[test]
fn a_truncated_message_is_a_closed_connection() {
    let e = error_of(against(LOCAL, |s| {
        let m = auth(0, &[]);
        s.write_all(&m[..6])
    }));
    assert!(e.contains("the server closed the connection"), "{e}");
}

#[test]
fn out_of_order_messages_are_refused() {
    let e = error_of(against(LOCAL, |s| {
        s.write_all(&msg(b'D', &[0, 0]))?;
        s.write_all(&ready())
    }));
    assert!(e.contains("unexpected message during startup"), "{e}");
}

#[test]
fn scram_without_its_final_message_is_a_downgrade() {
    let e = error_of(against(LOCAL, |s| {
        s.write_all(&auth(10, b"SCRAM-SHA-256\0\0"))?;
        read_frontend(s, false)?;
        // No SASLContinue, no SASLFinal: straight to "authenticated".
        s.write_all(&ok())?;
        s.write_all(&ready())
    }));
    assert!(e.contains("without its final message"), "{e}");
}

#[test]
fn a_clear_text_request_after_scram_began_is_refused() {
    let e = error_of(against(LOCAL, |s| {
        s.write_all(&auth(10, b"SCRAM-SHA-256\0\0"))?;
        read_frontend(s, false)?;
        s.write_all(&auth(3, &[]))?;
        // Whatever the client sends now would be the password.
        let leaked = read_frontend(s, false).unwrap_or_default();
        assert!(!String::from_utf8_lossy(&leaked).contains("pw"));
        Ok(())
    }));
    assert!(e.contains("after SCRAM began"), "{e}");
}

#[test]
fn passwords_cross_no_network_in_the_clear() {
    for (code, rest, what) in [
        (3, &[][..], "a clear-text password"),
        (5, &[1, 2, 3, 4][..], "an MD5 password hash"),
    ] {
        let e = error_of(against(
            "postgres://u:pw@db.example.com:5432/db",
            move |s| {
                s.write_all(&auth(code, rest))?;
                let sent = read_frontend(s, false).unwrap_or_default();
                assert!(sent.is_empty(), "the client sent {sent:?}");
                Ok(())
            },
        ));
        assert!(e.contains(&format!("asks for {what}")), "{e}");
        // Over loopback they are sent (the sandboxes' md5 and password roles).
        let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = sent.clone();
        let c = against(LOCAL, move |s| {
            s.write_all(&auth(code, rest))?;
            *seen.lock().unwrap() = read_frontend(s, false)?;
            s.write_all(&ok())?;
            s.write_all(&ready())
        });
        assert!(c.is_ok(), "{what}");
        assert!(!sent.lock().unwrap().is_empty());
    }
}

#[test]
fn a_reply_without_end_is_cut_off_at_its_bound() {
    let mut c = against(LOCAL, |s| {
        s.write_all(&ok())?;
        s.write_all(&ready())
    })
    .unwrap();
    let (mine, mut server) = UnixStream::pair().unwrap();
    c.stream = Stream::Unix(mine);
    let fake = std::thread::spawn(move || {
        // One text column, then 4 MiB rows until the client hangs up.
        let mut desc = 1i16.to_be_bytes().to_vec();
        desc.extend_from_slice(b"c\0");
        desc.extend_from_slice(&0i32.to_be_bytes());
        desc.extend_from_slice(&0i16.to_be_bytes());
        desc.extend_from_slice(&25i32.to_be_bytes());
        desc.extend_from_slice(&(-1i16).to_be_bytes());
        desc.extend_from_slice(&(-1i32).to_be_bytes());
        desc.extend_from_slice(&1i16.to_be_bytes());
        let cell = vec![b'x'; 4 << 20];
        let mut row = 1i16.to_be_bytes().to_vec();
        row.extend_from_slice(&(cell.len() as i32).to_be_bytes());
        row.extend_from_slice(&cell);
        let row = msg(b'D', &row);
        let _ = server.write_all(&msg(b'T', &desc));
        let mut sent = 0usize;
        while sent < 2 * MAX_REPLY && server.write_all(&row).is_ok() {
            sent += row.len();
        }
    });
    let e = match c.execute_once("SELECT c FROM t", &[]) {
        Ok(_) => panic!("endless rows were accepted"),
        Err(e) => e.to_string(),
    };
    drop(c);
    fake.join().unwrap();
    assert!(e.contains("more than 256 MiB of rows"), "{e}");
}

mod random {
    use super::*;
    use proptest::prelude::*;

    /// A frame: a tag from the backend's alphabet or any byte, a body, and sometimes a
    /// length that lies.
    fn frame() -> impl Strategy<Value = Vec<u8>> {
        let tags = prop_oneof![
            prop::sample::select(b"RSKZTDCEINnstG12c3dHAW".to_vec()),
            any::<u8>()
        ];
        (
            tags,
            prop::collection::vec(any::<u8>(), 0..64),
            prop::option::weighted(0.2, any::<i32>()),
        )
            .prop_map(|(tag, body, lie)| {
                let mut m = msg(tag, &body);
                if let Some(len) = lie {
                    m[1..5].copy_from_slice(&len.to_be_bytes());
                }
                m
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random frames during the startup: a session or a clear error, never a panic.
        #[test]
        fn random_frames_at_startup(frames in prop::collection::vec(frame(), 1..8)) {
            let r = against(LOCAL, move |s| {
                for f in frames {
                    s.write_all(&f)?;
                }
                Ok(())
            });
            if let Err(e) = r {
                prop_assert!(!e.to_string().is_empty());
            }
        }

        /// Random frames as a query's reply after a clean startup.
        #[test]
        fn random_frames_as_a_reply(frames in prop::collection::vec(frame(), 1..8)) {
            let (mine, mut server) = UnixStream::pair().unwrap();
            let fake = std::thread::spawn(move || {
                let _ = read_frontend(&mut server, true);
                let _ = server.write_all(&ok());
                let _ = server.write_all(&ready());
                let _ = read_frontend(&mut server, false);
                for f in frames {
                    let _ = server.write_all(&f);
                }
            });
            let url = TargetUrl::parse(LOCAL).unwrap();
            let mut c = Client::over(Stream::Unix(mine), &url, "test", Duration::from_secs(5)).unwrap();
            c.stream.set_timeouts(Some(Duration::from_secs(5))).unwrap();
            let r = c.batch_execute("SELECT 1");
            fake.join().unwrap();
            if let Err(e) = r {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}

/// Runs `negotiate` against a fake backend that reads the 8-byte SSLRequest and answers
/// with `answer`, then whatever `more` writes.
fn negotiate_against(url: &str, answer: &'static [u8]) -> Result<(Stream, Security), Error> {
    let (client, mut server) = UnixStream::pair().unwrap();
    let fake = std::thread::spawn(move || {
        let mut req = [0u8; 8];
        if server.read_exact(&mut req).is_ok() {
            // The SSLRequest: length 8, code 80877103.
            assert_eq!(req, [0, 0, 0, 8, 4, 210, 22, 47]);
            let _ = server.write_all(answer);
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    let url = TargetUrl::parse(url).unwrap();
    let r = negotiate(
        Stream::Unix(client),
        &url,
        url.sslmode,
        Duration::from_secs(5),
    );
    let _ = fake.join();
    r
}

#[test]
fn a_server_without_tls_is_refused_where_the_mode_requires_it() {
    // A real authority file, so that the verify modes' refusal is the server's and not the
    // file's.
    let dir = tempfile::tempdir().unwrap();
    let pem = dir.path().join("ca.pem");
    let made = std::process::Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"])
        .args(["-subj", "/CN=t", "-keyout"])
        .arg(dir.path().join("ca.key"))
        .arg("-out")
        .arg(&pem)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    for mode in ["require", "verify-ca", "verify-full"] {
        let root = if mode == "require" {
            String::new()
        } else {
            format!("&sslrootcert={}", pem.display())
        };
        let url = format!("postgres://u:pw@db.example.com:5432/db?sslmode={mode}{root}");
        let e = negotiate_against(&url, b"N")
            .err()
            .expect("refused")
            .to_string();
        assert!(e.contains("does not offer TLS") && e.contains(mode), "{e}");
    }
    // prefer and disable go on without it.
    let r = negotiate_against("postgres://u:pw@db.example.com:5432/db", b"N");
    assert!(matches!(r, Ok((_, Security::Plain))));
}

#[test]
fn a_bad_answer_to_the_tls_request_is_a_clear_error() {
    let url = "postgres://u:pw@db.example.com:5432/db?sslmode=require";
    let e = negotiate_against(url, b"X").err().unwrap().to_string();
    assert!(e.contains("answered the TLS request with byte 0x58"), "{e}");
    // Yes, then plain bytes where the handshake should be (an injected ErrorResponse).
    let e = negotiate_against(url, b"SE\0\0\0\x08abcd")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.starts_with("TLS handshake with db.example.com failed"),
        "{e}"
    );
    // Yes, then nothing.
    let e = negotiate_against(url, b"S").err().unwrap().to_string();
    assert!(
        e.starts_with("TLS handshake with db.example.com failed"),
        "{e}"
    );
}

#[test]
fn a_verify_mode_needs_a_readable_authority_file() {
    let url = "postgres://u:pw@db.example.com:5432/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem";
    let e = negotiate_against(url, b"S").err().unwrap().to_string();
    assert!(
        e.starts_with("sslrootcert=/nonexistent/ca.pem: cannot read it"),
        "{e}"
    );
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pem");
    std::fs::write(&empty, "not a certificate\n").unwrap();
    let url = format!(
        "postgres://u:pw@db.example.com:5432/db?sslmode=verify-ca&sslrootcert={}",
        empty.display()
    );
    let e = negotiate_against(&url, b"S").err().unwrap().to_string();
    assert!(e.contains("holds no certificate"), "{e}");
}

#[test]
fn a_password_crosses_the_network_only_to_a_verified_server() {
    let remote = TargetUrl::parse("postgres://u:pw@db.example.com:5432/db").unwrap();
    for (security, sent_ok) in [
        (Security::Plain, false),
        (Security::Encrypted, false),
        (Security::Verified, true),
    ] {
        let (client, mut server) = UnixStream::pair().unwrap();
        let fake = std::thread::spawn(move || -> io::Result<Vec<u8>> {
            read_frontend(&mut server, true)?;
            server.write_all(&auth(3, &[]))?;
            let sent = read_frontend(&mut server, false).unwrap_or_default();
            if !sent.is_empty() {
                server.write_all(&ok())?;
                server.write_all(&ready())?;
            }
            Ok(sent)
        });
        let r = Client::start(
            Stream::Unix(client),
            security,
            &remote,
            "test",
            Duration::from_secs(5),
        );
        let sent = fake.join().unwrap().unwrap_or_default();
        assert_eq!(r.is_ok(), sent_ok, "{security:?}");
        assert_eq!(!sent.is_empty(), sent_ok, "{security:?}");
        if let Err(e) = r {
            assert!(e.to_string().contains("sslmode=verify-full"), "{e}");
        }
    }
}

#[test]
fn a_sandbox_password_goes_by_scram_only() {
    // Whoever asks a sandbox's URL for a clear-text or MD5 password is not the sandbox
    // (another user listening where it should be): refused even on loopback.
    let mut url = TargetUrl::parse(LOCAL).unwrap();
    url.sandbox_login = true;
    for code in [3, 5] {
        let (client, mut server) = UnixStream::pair().unwrap();
        let fake = std::thread::spawn(move || -> io::Result<Vec<u8>> {
            read_frontend(&mut server, true)?;
            let rest: &[u8] = if code == 5 { &[1, 2, 3, 4] } else { &[] };
            server.write_all(&auth(code, rest))?;
            Ok(read_frontend(&mut server, false).unwrap_or_default())
        });
        let r = Client::start(
            Stream::Unix(client),
            Security::Plain,
            &url,
            "test",
            Duration::from_secs(5),
        );
        let sent = fake.join().unwrap().unwrap_or_default();
        let e = error_of(r);
        assert!(e.contains("sandboxes use SCRAM only"), "{e}");
        assert!(sent.is_empty(), "the client sent {sent:?}");
    }
}
