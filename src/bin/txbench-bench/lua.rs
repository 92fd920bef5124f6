//! sysbench's own Lua scripts under `txbench run lua` against sysbench running them:
//! client CPU per transaction on the same sandbox, same options, ABBA order.

use super::*;

/// Debian's oltp_read_write.lua and sysbench-tpcc's tpcc.lua.
const OLTP_RW: &str = "/usr/share/sysbench/oltp_read_write.lua";
const TPCC_LUA: &str = "/work/shared/peers/sysbench-tpcc/tpcc.lua";

/// One script's case: its path and the options both tools pass it.
struct Case {
    label: &'static str,
    script: &'static str,
    options: &'static [&'static str],
}

/// A `PATH` whose first `sleep` returns at once: sysbench-tpcc's prepare waits 30 s with
/// os.execute("sleep 30") between its tables and its rows.
fn quick_sleep_path() -> Result<String> {
    let bin = bench_root().join("bin");
    std::fs::create_dir_all(&bin)?;
    std::fs::write(bin.join("sleep"), "#!/bin/sh\nexit 0\n")?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("sleep"), std::fs::Permissions::from_mode(0o755))?;
    Ok(format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    ))
}

/// A timed run of `case` by sysbench (`sysbench SCRIPT OPTIONS run`).
fn sysbench_lua(url: &TargetUrl, case: &Case, threads: u32, secs: u32) -> Result<Sample> {
    let mut args = vec![case.script.to_string()];
    args.extend(case.options.iter().map(|o| o.to_string()));
    args.extend([
        format!("--threads={threads}"),
        format!("--time={secs}"),
        "--report-interval=0".into(),
        "run".into(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut cmd = sysbench_cmd(url, "txbench", &args)?;
    // sysbench finds a script's modules (sysbench-tpcc's tpcc_common.lua) in the current
    // directory only.
    if let Some(dir) = Path::new(case.script).parent() {
        cmd.current_dir(dir);
    }
    sysbench_sample(cmd)
}

/// The same run by `txbench run lua SCRIPT OPTIONS`, with txbench's defaults (server
/// metrics on).
fn txbench_lua(
    bin: &Path,
    url: &TargetUrl,
    case: &Case,
    threads: u32,
    secs: u32,
) -> Result<Sample> {
    let mut args = vec!["lua", case.script];
    args.extend_from_slice(case.options);
    txbench_run(bin, url, &args, threads, secs)
}

/// One line: `case` at `threads`, rounds of sysbench, txbench, txbench, sysbench.
fn side_by_side(bin: &Path, url: &TargetUrl, case: &Case, threads: u32, secs: u32) -> Result<()> {
    let r = super::rounds::side_by_side(
        super::rounds::rounds("BENCH_LUA_ROUNDS"),
        || sysbench_lua(url, case, threads, secs),
        || txbench_lua(bin, url, case, threads, secs),
    )?;
    use super::rounds::{cpu_per_1000, tps};
    println!(
        "  {:>7}  {:>10.1} {:>10.1}   {:>12.3} s {:>12.3} s {:>14}",
        threads,
        tps(&r.theirs, secs),
        tps(&r.ours, secs),
        cpu_per_1000(&r.theirs),
        cpu_per_1000(&r.ours),
        r.ratio()
    );
    Ok(())
}

/// Client CPU per transaction of sysbench's scripts, sysbench against txbench.
pub(super) fn lua(home: &StateDir) -> Result<()> {
    let secs = bench_seconds();
    let bin = txbench_bin()?;
    let url = bench_server(home, "bench-lua", "2G")?;
    let url_s = url.to_string();
    let cases = [
        Case {
            label: "oltp_read_write.lua, 4 x 100,000",
            script: OLTP_RW,
            options: &["--tables=4", "--table-size=100000"],
        },
        Case {
            label: "sysbench-tpcc tpcc.lua, 1 table set, scale 1",
            script: TPCC_LUA,
            options: &["--tables=1", "--scale=1"],
        },
    ];
    println!(
        "\n== sysbench's Lua scripts: txbench run lua against sysbench, same sandbox and options"
    );
    for case in &cases {
        if !Path::new(case.script).is_file() {
            println!("  {}: {} is absent, skipped", case.label, case.script);
            continue;
        }
        let mut prepare = txbench_cmd(&bin, &url_s, &["prepare", "lua", case.script]);
        prepare.args(case.options).env("PATH", quick_sleep_path()?);
        let m = measure(prepare)?;
        println!("  {}: txbench prepare lua {:.1} s", case.label, m.wall_s);
        println!(
            "  {:>7}  {:>10} {:>10}   {:>14} {:>14} {:>14}",
            "threads", "sb tps", "tx tps", "sb cpu/1000tx", "tx cpu/1000tx", "tx/sb"
        );
        for threads in [4u32, 16] {
            side_by_side(&bin, &url, case, threads, secs)?;
        }
    }
    println!(
        "  (tx/sb: the mean of the rounds' ratios with its 95 % confidence half-width; a round is sysbench, txbench, txbench, sysbench, {} rounds (BENCH_LUA_ROUNDS or BENCH_ROUNDS); tps and cpu: all rounds added up; target tx/sb <= 1.00)",
        super::rounds::rounds("BENCH_LUA_ROUNDS")
    );
    server::stop(home, "bench-lua", true)?;
    Ok(())
}
