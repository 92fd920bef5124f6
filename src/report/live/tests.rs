//! Unit tests of `report/live.rs`: an experiment's progress from its experiment.json.

use super::*;
use crate::experiment::{CellStatus, Experiment, plan};

#[test]
fn an_experiments_time_left_counts_each_cell_once() {
    let text = r#"
baseline = "a"
threads = "2"
repetitions = 2
[[variant]]
name = "a"
[[variant]]
name = "b"
[[workload]]
name = "oltp_point_select"
"#;
    let f = Path::new("t.toml");
    let p = plan::parse(f, text).unwrap().expand(f, None).unwrap();
    let mut e = Experiment::new("t".into(), None, String::new(), p, 1, String::new());
    // Two cells done of four, 60 s each from start to end (a 20 s reset, 15 s of it the
    // restore, within them); the third running.
    for c in e.cells.iter_mut().take(2) {
        c.status = CellStatus::Done;
        c.elapsed_s = Some(60.0);
        c.reset_s = Some(20.0);
        c.restore_s = Some(15.0);
    }
    e.cells[2].status = CellStatus::Running;
    let dir = tempfile::tempdir().unwrap();
    e.write(dir.path()).unwrap();
    let (running, progress, head) = experiment_progress(dir.path()).unwrap();
    // 2 cells left at 60 s each: 2 minutes (not the 3 that counting the reset again made).
    assert_eq!(progress.as_deref(), Some("2 of 4 cells, about 2 min left"));
    assert_eq!(running, Some(dir.path().join(&e.cells[2].dir)));
    assert!(head.unwrap().validity.valid);
}
