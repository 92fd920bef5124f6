//! PostgreSQL over TLS against a real sandbox with `ssl=on`: each `sslmode` does what
//! libpq's does, a certificate from another authority or for another name is refused in
//! one line, and a run over TLS is measured and cross-checked as one without.

mod common;
use common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// An authority, and a server certificate it signed for the address 127.0.0.1 only (not
/// for `localhost`, so that verify-full to that name is a mismatch and verify-ca is not).
fn certificates(dir: &Path) {
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl")
            .current_dir(dir)
            .args(args)
            .output()
            .expect("openssl (Debian package openssl)");
        assert!(out.status.success(), "openssl {args:?}: {out:?}");
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    for ca in ["ca", "other-ca"] {
        openssl(
            &[
                &["req", "-x509"][..],
                &ec,
                &["-days", "1", "-subj", &format!("/CN=txbench {ca}")],
                &[
                    "-keyout",
                    &format!("{ca}.key"),
                    "-out",
                    &format!("{ca}.pem"),
                ],
            ]
            .concat(),
        );
    }
    openssl(
        &[
            &["req"][..],
            &ec,
            &[
                "-subj",
                "/CN=sandbox",
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
            ],
        ]
        .concat(),
    );
    std::fs::write(dir.join("san.ext"), "subjectAltName=IP:127.0.0.1\n").unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "1",
        "-extfile",
        "san.ext",
        "-out",
        "server.pem",
    ]);
    // The server reads its key as its own account, and only if no one else may.
    if unsafe { libc::geteuid() } == 0 {
        let pg = Command::new("id")
            .args(["-u", "postgres"])
            .output()
            .unwrap();
        let uid: u32 = String::from_utf8_lossy(&pg.stdout).trim().parse().unwrap();
        std::os::unix::fs::chown(dir.join("server.key"), Some(uid), None).unwrap();
    }
    std::fs::set_permissions(
        dir.join("server.key"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Whether the session on `url` is encrypted, as the server sees it.
fn encrypted(home: &Path, url: &str) -> Result<bool, String> {
    let url = login(home, url);
    let mut c = txbench::engine::connect(&url).map_err(|e| format!("{e:#}"))?;
    let n: Option<u64> = c
        .query_first("SELECT count(*) FROM pg_stat_ssl WHERE pid = pg_backend_pid() AND ssl")
        .map_err(|e| format!("{e:#}"))?;
    Ok(n == Some(1))
}

#[test]
fn each_sslmode_does_what_libpqs_does() {
    let h = Home::new();
    let certs = tempfile::Builder::new()
        .prefix("txb-tls-")
        .tempdir()
        .unwrap();
    certificates(certs.path());
    let file = |f: &str| certs.path().join(f).display().to_string();
    let s = h.start_postgres(
        "tls",
        &[
            "--set",
            "ssl=on",
            "--set",
            &format!("ssl_cert_file={}", file("server.pem")),
            "--set",
            &format!("ssl_key_file={}", file("server.key")),
        ],
    );
    let at =
        |host: &str, params: &str| format!("postgres://txbench@{host}:{}/txbench?{params}", s.port);
    let ca = file("ca.pem");
    // Encrypted where asked, plain where not (prefer is the default, as libpq's).
    assert_eq!(
        encrypted(h.path(), &at("127.0.0.1", "sslmode=disable")),
        Ok(false)
    );
    assert_eq!(encrypted(h.path(), &s.url), Ok(true));
    assert_eq!(
        encrypted(h.path(), &at("127.0.0.1", "sslmode=require")),
        Ok(true)
    );
    let verify_ca = at("127.0.0.1", &format!("sslmode=verify-ca&sslrootcert={ca}"));
    assert_eq!(encrypted(h.path(), &verify_ca), Ok(true));
    let full = at(
        "127.0.0.1",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    );
    assert_eq!(encrypted(h.path(), &full), Ok(true));

    // Refused: the certificate is not for the address asked (verify-full), or comes from
    // another authority; each in one line, exit 1.
    let mismatch = at(
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    );
    let other = at(
        "127.0.0.1",
        &format!("sslmode=verify-ca&sslrootcert={}", file("other-ca.pem")),
    );
    for (url, host, why) in [
        (&mismatch, "localhost", "not valid for"),
        (&other, "127.0.0.1", "certificate"),
    ] {
        let out = h.cmd().args(["--url", url, "info"]).output().unwrap();
        let line = assert_one_line_error(&out, 1);
        assert!(
            line.contains(&format!("TLS handshake with {host} failed")),
            "{line}"
        );
        assert!(line.contains(why), "{line}");
        assert!(!line.contains(&s.secret()), "{line}");
    }
    // A bad sslmode is named.
    let out = h
        .cmd()
        .args(["--url", &at("127.0.0.1", "sslmode=sometimes"), "info"])
        .output()
        .unwrap();
    let line = assert_one_line_error(&out, 1);
    assert!(
        line.contains("sslmode=sometimes: use disable, prefer"),
        "{line}"
    );

    // A run over verified TLS: measured and cross-checked as any other.
    let out = h
        .cmd()
        .args(["--url", &full, "prepare", "tpcb", "--scale", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let dir = h.path().join("run");
    let out = h
        .cmd()
        .args(["--url", &full, "run", "tpcb", "--scale", "1"])
        .args(["--threads", "4", "--time", "3", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", text(&out));
    let r = result_json(&dir);
    assert_eq!(r["validity"]["valid"], true, "{}", r["validity"]);
    assert_eq!(r["summary"]["server"]["cross_checks"][0]["agrees"], true);
    // The URL is stored with its TLS settings and without the password.
    let stored = std::fs::read_to_string(dir.join("result.json")).unwrap();
    assert!(stored.contains("sslmode=verify-full"), "{stored}");
    assert!(!stored.contains(&s.secret()));
}
