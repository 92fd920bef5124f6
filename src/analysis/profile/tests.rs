//! Unit tests of profile shares, findings and differences.

use super::*;

const FOLDED: &str = "\
mariadbd;do_command;dispatch_command;mysql_parse;mysql_execute_command;ha_innobase::write_row;ut_delay 30
mariadbd;do_command;dispatch_command;mysql_parse;mysql_execute_command;Item_func::val_int 20
mariadbd;do_command;dispatch_command;my_convert;my_mb_wc_utf8mb4 10
mariadbd;do_command;my_net_read;__sys_recvfrom_[k];tcp_recvmsg_[k] 15
mariadbd;[unknown];[unknown] 5
mariadbd;log_write_up_to;fdatasync;ext4_sync_file_[k] 20
not a folded line
";

#[test]
fn self_total_and_subsystems_add_up() {
    let s = shares(FOLDED, true);
    assert_eq!(s.samples, 100);
    assert_eq!(s.bad_lines, 1);
    assert_eq!(s.unknown, 5);
    assert_eq!(s.by_self["ut_delay"], 30);
    // Kernel frames lose their annotation; a function counts once per stack.
    assert_eq!(s.by_self["tcp_recvmsg"], 15);
    assert_eq!(s.by_total["dispatch_command"], 60);
    assert_eq!(s.by_total["do_command"], 75);
    // From the leaf up, the first frame that names a subsystem decides.
    assert_eq!(s.by_subsystem["latches and spinning (InnoDB, LWLocks)"], 30);
    assert_eq!(s.by_subsystem["the SQL layer"], 20);
    assert_eq!(s.by_subsystem["character-set conversion"], 10);
    assert_eq!(s.by_subsystem["networking"], 15);
    assert_eq!(s.by_subsystem["kernel I/O and fsync"], 20);
    assert_eq!(s.by_subsystem["other"], 5);
    let mut p = Profile::default();
    s.fill(&mut p);
    assert_eq!(p.top_self[0].name, "ut_delay");
    assert!((p.top_self[0].pct - 30.0).abs() < 1e-9);
    assert_eq!(p.top_total[0].name, "do_command");
    assert!((p.unresolved_pct - 5.0).abs() < 1e-9);
    let f = findings(&p, Some("innodb_flush_log_at_trx_commit=1"));
    assert_eq!(f.len(), 3, "{f:?}");
    assert!(
        !f.iter().any(|l| l.contains("could not name")),
        "5 % unresolved is fine"
    );
    assert!(
        f[0].starts_with("30.0 % of the server's CPU went to latches"),
        "{f:?}"
    );
    assert!(f[0].contains("ut_delay 30.0 %"), "{f:?}");
    assert!(
        f[1].starts_with("10.0 % of the server's CPU converted"),
        "{f:?}"
    );
    assert!(
        f[2].starts_with("20.0 % of the server's CPU was in the kernel"),
        "{f:?}"
    );
    assert!(
        f[2].contains("(this run: innodb_flush_log_at_trx_commit=1)"),
        "{f:?}"
    );
    // Below 10 % the kernel's I/O path is no finding.
    let quiet = shares(
        "mariadbd;do_command;dispatch_command 91\nmariadbd;fdatasync;ext4_sync_file_[k] 9\n",
        true,
    );
    quiet.fill(&mut p);
    assert!(findings(&p, None).is_empty(), "{:?}", findings(&p, None));
}

#[test]
fn a_nameless_frame_is_unresolved_and_the_frames_below_it_still_count() {
    // Debian's mariadbd without its debug symbols: "[mariadbd]" between named frames.
    let s = shares(
        "mariadbd;start_thread;[mariadbd];do_command;dispatch_command;[mariadbd] 40\nmariadbd;start_thread;do_command;my_net_read 60\n",
        true,
    );
    assert_eq!(s.unknown, 40);
    assert_eq!(s.by_total["dispatch_command"], 40);
    assert_eq!(s.by_total["do_command"], 100);
    let mut p = Profile {
        seconds: 1.0,
        hz: 99,
        ..Profile::default()
    };
    s.fill(&mut p);
    // Where the CPU was: 40 % in a nameless leaf, and 40 % of the stacks through one.
    assert!((p.unresolved_pct - 40.0).abs() < 1e-9);
    assert!((p.unresolved_stacks_pct - 40.0).abs() < 1e-9);
    let s = shares(
        "mariadbd;[mariadbd];do_command;dispatch_command 70\nmariadbd;do_command;[mariadbd] 30\n",
        true,
    );
    s.fill(&mut p);
    assert!((p.unresolved_pct - 30.0).abs() < 1e-9);
    assert!((p.unresolved_stacks_pct - 100.0).abs() < 1e-9);
    let f = findings(&p, None);
    assert!(
        f[0].starts_with("30 % of the server's CPU is in functions perf could not name, and 100 % of its stacks pass through one"),
        "{f:?}"
    );
    // 100 plain samples at 99 Hz: about 1 s of CPU; cpu-clock's ns are ns.
    assert!(
        (p.cpu_ms - 100.0 * 1000.0 / 99.0).abs() < 1e-6,
        "{}",
        p.cpu_ms
    );
    let s = shares("mariadbd;f 1500000000\n", true);
    s.fill(&mut p);
    assert!((p.cpu_ms - 1500.0).abs() < 1e-6, "{}", p.cpu_ms);
}

#[test]
fn a_client_that_eats_a_shared_host_is_named() {
    let mut p = Profile {
        what: "client".into(),
        ..Profile::default()
    };
    shares(
        "txbench;main;run;encode 30\ntxbench;main;run;read 10\n",
        true,
    )
    .fill(&mut p);
    let f = client_finding(&p, 48.0, true).unwrap();
    assert!(
        f.starts_with("the client (txbench) used 48 % of this host's CPUs"),
        "{f}"
    );
    assert!(f.contains("encode 75.0 %, read 25.0 %"), "{f}");
    assert!(client_finding(&p, 48.0, false).is_none(), "another host");
    assert!(client_finding(&p, 10.0, true).is_none(), "a light client");
    p.what = "server".into();
    assert!(client_finding(&p, 48.0, true).is_none());
}

#[test]
fn hostile_lines_are_counted_not_trusted() {
    for bad in [
        "",
        " 5",
        "a;b",
        "a;b -3",
        "a;b 0",
        "a;b 1.5",
        "a;b 99999999999999999999",
    ] {
        assert!(parse_line(bad).is_none(), "{bad:?}");
    }
    let s = shares("x 1\n;; 2\n", false);
    assert_eq!(s.samples, 3);
    assert!(
        findings(
            &{
                let mut p = Profile::default();
                s.fill(&mut p);
                p
            },
            None
        )
        .is_empty()
    );
    // No samples: shares are zero, not NaN.
    let mut p = Profile::default();
    shares("", true).fill(&mut p);
    assert_eq!(p.unresolved_pct, 0.0);
}

#[test]
fn a_difference_names_the_subsystems_that_moved_and_the_functions() {
    let base = shares(
        "mariadbd;do_command;dispatch_command 60\nmariadbd;log_write_up_to;fdatasync;ext4_sync_file_[k] 40\n",
        true,
    );
    let new = shares("mariadbd;do_command;dispatch_command 100\n", true);
    let d = ProfileDiff::of(&base, &new, Some(2.0), Some(1.0), 12);
    // Largest change first: the kernel's I/O path went from 40 % to none.
    assert_eq!(d.subsystems[0].name, "kernel I/O and fsync");
    assert_eq!(d.subsystems[0].base_pct, 40.0);
    assert_eq!(d.subsystems[0].new_pct, 0.0);
    assert_eq!(d.subsystems[0].base_ms, Some(0.8));
    assert_eq!(d.functions[0].name, "dispatch_command");
    let lines = d.text_lines();
    assert_eq!(
        lines[0],
        "  subsystems: kernel I/O and fsync 40.0 % → 0.0 %, the SQL layer 60.0 % → 100.0 %"
    );
    assert!(lines[1].contains("dispatch_command") && lines[1].ends_with(" ms/txn"));
    // Nothing moved: said so.
    let same = ProfileDiff::of(&new, &new, None, None, 12);
    assert_eq!(
        same.text_lines()[0],
        "  subsystems: none moved by a point or more"
    );
}
