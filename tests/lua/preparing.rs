//! tests/lua.rs's finding of users still preparing, on its MariaDB server (a sibling file:
//! lua.rs is long enough).

use super::common::{self, Home, result_json};
use super::{ok, txbench};

/// Each thread prepares a statement in each of its first 100 events and none after (at 100
/// events a second in all, the first 2 s of 6): the server's prepares fall over the measured
/// phase, and the run says its users were still preparing. With every event preparing and
/// closing, the rate is steady, the workload's own, and nothing is said. With every event
/// preparing a statement it keeps (a new one each time, as thousands of terminals meet theirs
/// over minutes), the rate is steady too, but the statements the sessions keep prepared
/// (Prepared_stmt_count) rise by as many: still preparing.
pub(super) fn still_preparing_is_found(home: &Home, s: &common::Server) {
    let script = home.path().join("preparing.lua");
    std::fs::write(
        &script,
        "sysbench.cmdline.options = { preparing_events = \
         { 'events per thread that prepare a statement (0: all)', 100 }, \
         keep = { 'keep the statements prepared (1) or close them (0)', 0 } }\n\
         local con, n\n\
         function thread_init() con = sysbench.sql.driver():connect() n = 0 end\n\
         function event()\n\
           n = n + 1\n\
           local limit = sysbench.opt.preparing_events\n\
           if limit == 0 or n <= limit then\n\
             local st = con:prepare('SELECT ' .. n) st:execute()\n\
             if sysbench.opt.keep == 0 then st:close() end\n\
           else con:query('SELECT 1') end\n\
         end\n\
         function thread_done() con:disconnect() end\n",
    )
    .unwrap();
    for (events, keep, found) in [("100", "0", true), ("0", "0", false), ("0", "1", true)] {
        let dir = home.path().join(format!("preparing-{events}-{keep}"));
        let out = txbench(
            home,
            &s.url,
            &[
                "run",
                "lua",
                script.to_str().unwrap(),
                "--preparing-events",
                events,
                "--keep",
                keep,
                "--threads",
                "2",
                "--rate",
                "100",
                "--time",
                "6",
                "--report-interval",
                "1",
                "--out",
                dir.to_str().unwrap(),
            ],
        );
        ok(&out, "run preparing.lua");
        let r = result_json(&dir);
        let f = r["findings"].to_string();
        assert_eq!(f.contains("still_preparing"), found, "{events} {keep}: {f}");
        if found {
            assert!(f.contains("were still preparing the statements"), "{f}");
        }
        if keep == "1" {
            assert!(f.contains("and the sessions kept"), "{f}");
        }
    }
}
