//! Experiments' reset: restoring a snapshot of a 10-warehouse TPC-C data directory against
//! reloading it (cleanup + prepare), on one sandbox; restore and reload alternate, three
//! times each.

use super::*;
use txbench::server::snapshot;

fn timed(mut cmd: Command) -> Result<f64> {
    let t = Instant::now();
    let status = cmd.stdout(Stdio::null()).status()?;
    if !status.success() {
        bail!("{cmd:?} failed");
    }
    Ok(t.elapsed().as_secs_f64())
}

pub fn snapshot_vs_reload(home: &StateDir) -> Result<()> {
    const N: usize = 3;
    let bin = txbench_bin()?;
    let name = "bench-snapshot";
    let url = bench_server(home, name, "1G")?.to_string();
    let prepare = || {
        let mut c = Command::new(&bin);
        c.args(["--url", &url, "prepare", "tpcc", "--warehouses", "10", "-q"]);
        c
    };
    let cleanup = || {
        let mut c = Command::new(&bin);
        c.args(["--url", &url, "cleanup", "tpcc", "-q"]);
        c
    };
    timed(prepare())?;
    server::stop(home, name, false)?;
    let rec = server::get(home, name)?.record;
    let (save_s, bytes) = snapshot::save(&rec)?;
    let opts = StartOptions {
        name: name.into(),
        sets: vec![Setting::parse("innodb_buffer_pool_size=1G")?],
        ..Default::default()
    };
    let (mut restore, mut reload) = (Vec::new(), Vec::new());
    for _ in 0..N {
        let t = Instant::now();
        server::stop(home, name, false)?;
        snapshot::restore(&rec)?;
        server::start(home, &opts)?;
        restore.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        timed(cleanup())?;
        timed(prepare())?;
        reload.push(t.elapsed().as_secs_f64());
    }
    server::stop(home, name, true)?;
    println!(
        "== experiment reset, TPC-C 10 warehouses ({:.0} MiB data directory), seconds, median of {N}",
        bytes as f64 / 1048576.0
    );
    line("snapshot saved once", &[save_s]);
    line("restore: stop + copy back + start", &restore);
    line("reload: cleanup + prepare", &reload);
    println!(
        "  reload / restore                           {:>7.1}",
        median(reload) / median(restore)
    );
    Ok(())
}
