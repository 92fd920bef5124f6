//! The container image for `txbench k8s job`: these machines cannot pull base images, so what
//! can be checked without building it is checked here. Every file the Dockerfile copies into
//! the build exists and is let through .dockerignore, the build covers every file the crate
//! includes at compile time, the binary it installs is the one `make build` produces, and the
//! manifest `k8s job` writes matches the image (its command on PATH, its user, its results
//! directory); the Kubernetes page's build command (docs/kubernetes.md) tags this version.

mod common;

use common::*;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The Dockerfile's instructions, continuation lines joined.
fn instructions() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for line in read("Dockerfile").lines() {
        let t = line.trim();
        if t.starts_with('#') || (t.is_empty() && cur.is_empty()) {
            continue;
        }
        if let Some(head) = t.strip_suffix('\\') {
            cur.push_str(head);
            cur.push(' ');
        } else {
            cur.push_str(t);
            if !cur.trim().is_empty() {
                out.push(cur.trim().to_string());
            }
            cur.clear();
        }
    }
    out
}

/// Whether .dockerignore lets `path` into the build context (its rules: `*`, then `!` ones).
fn in_context(path: &str) -> bool {
    let ignore = read(".dockerignore");
    let mut kept = true;
    for rule in ignore.lines().map(str::trim) {
        if rule.is_empty() || rule.starts_with('#') {
            continue;
        }
        let (keep, pat) = match rule.strip_prefix('!') {
            Some(p) => (true, p.trim_end_matches('/')),
            None => (false, rule.trim_end_matches('/')),
        };
        if pat == "*" || path == pat || path.starts_with(&format!("{pat}/")) {
            kept = keep;
        }
    }
    kept
}

#[test]
fn the_dockerfile_copies_what_exists_and_installs_what_make_build_produces() {
    let ins = instructions();
    assert!(
        ins.iter()
            .any(|i| i.starts_with("FROM rust:") && i.contains("bookworm"))
    );
    assert!(ins.iter().any(|i| i == "FROM debian:bookworm-slim"));
    // Every source the build stage copies exists and reaches the build context.
    let copies: Vec<&String> = ins
        .iter()
        .filter(|i| i.starts_with("COPY ") && !i.contains("--from="))
        .collect();
    assert!(copies.len() >= 5, "{copies:?}");
    let mut copied = Vec::new();
    for c in &copies {
        let words: Vec<&str> = c.split_whitespace().skip(1).collect();
        for src in &words[..words.len() - 1] {
            assert!(
                root().join(src).exists(),
                "COPY {src}: not in the repository"
            );
            assert!(in_context(src), "COPY {src}: .dockerignore leaves it out");
            copied.push(src.to_string());
        }
    }
    // The build needs nothing else: Cargo's files, the sources, and every file the crate
    // includes at compile time.
    for needed in ["Cargo.toml", "Cargo.lock", "vendor", "src", "plans"] {
        assert!(copied.iter().any(|c| c == needed), "{needed} is not copied");
    }
    for entry in walk(&root().join("src")) {
        let text = std::fs::read_to_string(&entry).unwrap_or_default();
        for inc in text.split("include_str!(\"").skip(1) {
            let rel = inc.split('"').next().unwrap();
            let file = entry.parent().unwrap().join(rel);
            let file = std::fs::canonicalize(&file).unwrap();
            let rel = file
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert!(
                copied
                    .iter()
                    .any(|c| rel == *c || rel.starts_with(&format!("{c}/"))),
                "{}: includes {rel}, which the Dockerfile does not copy",
                entry.display()
            );
        }
    }
    // The binary is the one `make build` produces: the same cargo build, its output path.
    let makefile = read("Makefile");
    assert!(
        makefile.contains("$(CARGO) build --release --locked"),
        "{makefile}"
    );
    assert!(
        ins.iter()
            .any(|i| i.starts_with("RUN cargo build --release --locked")),
        "{ins:?}"
    );
    assert!(
        ins.contains(
            &"COPY --from=build /src/target/release/txbench /usr/local/bin/txbench".to_string()
        ),
        "{ins:?}"
    );
    assert!(ins.contains(&"ENTRYPOINT [\"txbench\"]".to_string()));
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_job_manifest_matches_the_image() {
    let ins = instructions();
    let uid = txbench::k8s::IMAGE_UID.to_string();
    assert!(
        ins.contains(&format!("USER {uid}:{uid}")),
        "the image's user is not {uid}: {ins:?}"
    );
    // The results directory exists in the image and belongs to that user.
    assert!(
        ins.iter().any(
            |i| i.contains(&format!("mkdir {}", txbench::k8s::RESULTS_MOUNT))
                && i.contains(&format!(
                    "chown {uid}:{uid} {}",
                    txbench::k8s::RESULTS_MOUNT
                ))
        ),
        "{ins:?}"
    );
    let home = Home::new();
    let o = home
        .cmd()
        .args(["k8s", "job", "--shards", "2", "--image"])
        .arg(format!(
            "registry.example/txbench:{}",
            env!("CARGO_PKG_VERSION")
        ))
        .args([
            "--results-claim",
            "r",
            "--url-secret",
            "db",
            "--",
            "oltp_point_select",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let job: serde_json::Value = serde_yaml_ng::from_str(&text(&o).0).unwrap();
    let spec = &job["spec"]["template"]["spec"];
    let c = &spec["containers"][0];
    // `txbench` on the image's PATH: /usr/local/bin, where the Dockerfile puts it.
    assert_eq!(c["command"][0], "txbench");
    assert_eq!(
        c["volumeMounts"][0]["mountPath"],
        txbench::k8s::RESULTS_MOUNT
    );
    let sc = &spec["securityContext"];
    assert_eq!(sc["runAsUser"].to_string(), uid, "{sc}");
    assert_eq!(sc["fsGroup"].to_string(), uid, "{sc}");
    assert_eq!(sc["runAsNonRoot"], true);
    // The Kubernetes page builds and pushes this version's image, and hands it to `k8s job`.
    let readme = read("docs/kubernetes.md");
    let tag = format!("txbench:{}", env!("CARGO_PKG_VERSION"));
    assert!(
        readme.contains(&format!("docker build -t registry.example/{tag} ."))
            && readme.contains(&format!("docker push registry.example/{tag}")),
        "docs/kubernetes.md's build command does not tag {tag}"
    );
    assert!(read("Dockerfile").contains(&format!("REGISTRY/{tag}")));
}
