//! Several targets in one run: which virtual users each gets, its samplers' verdicts (one
//! target lost is an event while another still serves; all lost, a restart or a lost quorum
//! ends the run), and labels that say which target a note is about.

use super::Targets;
use crate::results::Event;
use crate::sampler::{REFUSED, Report, Sampler, UNREACHABLE, UNRESPONSIVE};
use std::time::{Duration, Instant};

/// How many of `users` (a shard's, or every one) target `i` of `n` gets (user v goes to
/// v mod n).
pub fn dealt(users: &[u32], n: usize, i: usize) -> u32 {
    users.iter().filter(|&&g| g as usize % n == i).count() as u32
}

/// `what` prefixed with the target it is about, when there are several.
pub fn label(targets: &Targets, i: usize, what: String) -> String {
    if targets.urls.len() > 1 {
        format!("target {} ({}): {what}", i + 1, targets.urls[i])
    } else {
        what
    }
}

/// Asks every sampler for a sample, then waits (at most `wait` in all) for them.
pub fn sample_and_wait(samplers: &[Sampler], wait: Duration) {
    let deadline = Instant::now() + wait;
    for s in samplers {
        s.sample_and_wait(deadline.saturating_duration_since(Instant::now()));
    }
}

/// Every sampler's last sample and what it saw, waiting at most `wait` in all.
pub fn finish_all(samplers: Vec<Sampler>, wait: Duration) -> Vec<Report> {
    let deadline = Instant::now() + wait;
    samplers
        .into_iter()
        .map(|s| s.finish(deadline.saturating_duration_since(Instant::now())))
        .collect()
}

/// The samplers' verdicts across intervals.
pub struct Verdicts {
    /// Targets that are unreachable or unresponsive now.
    down: Vec<bool>,
}

/// What the samplers say at an interval's end.
pub struct Verdict {
    /// Targets lost or back (several targets only).
    pub events: Vec<Event>,
    /// A reason to end the run as INVALID, and whether a server is frozen (its virtual
    /// users cannot be waited for).
    pub abort: Option<(String, bool)>,
}

impl Verdicts {
    /// For `n` targets.
    pub fn new(n: usize) -> Verdicts {
        Verdicts {
            down: vec![false; n],
        }
    }

    /// Whether target `i` is lost now (several targets: an event, not the run's end).
    pub fn lost(&self, i: usize) -> bool {
        self.down.get(i).copied().unwrap_or(false)
    }

    /// What the samplers say now (`t_s`: seconds since the run started). With one target
    /// every reason ends the run; with several, a target unreachable or unresponsive is an
    /// event while another one answers.
    pub fn check(&mut self, samplers: &[Sampler], targets: &Targets, t_s: f64) -> Verdict {
        let reasons: Vec<Option<String>> = samplers.iter().map(|s| s.check()).collect();
        judge(&mut self.down, &reasons, targets, t_s)
    }
}

fn judge(down: &mut [bool], reasons: &[Option<String>], targets: &Targets, t_s: f64) -> Verdict {
    let mut v = Verdict {
        events: Vec::new(),
        abort: None,
    };
    // A target that refuses the monitor is up, serving its users: not lost (the run cannot
    // watch it, and ends INVALID as with one target).
    let lost = |r: &str| {
        r.starts_with(UNRESPONSIVE) || (r.starts_with(UNREACHABLE) && !r.contains(REFUSED))
    };
    for (i, reason) in reasons.iter().enumerate() {
        match reason {
            Some(r) if targets.urls.len() == 1 || !lost(r) => {
                v.abort
                    .get_or_insert((label(targets, i, r.clone()), r.starts_with(UNRESPONSIVE)));
            }
            Some(r) if !down[i] => {
                down[i] = true;
                v.events.push(Event {
                    t_s,
                    what: label(
                        targets,
                        i,
                        format!("{r}; its virtual users move to the other targets"),
                    ),
                });
            }
            Some(_) => {}
            None if down[i] => {
                down[i] = false;
                v.events.push(Event {
                    t_s,
                    what: label(targets, i, "answers again".into()),
                });
            }
            None => {}
        }
    }
    if v.abort.is_none() && !down.is_empty() && down.iter().all(|d| *d) {
        let frozen = reasons
            .iter()
            .flatten()
            .any(|r| r.starts_with(UNRESPONSIVE));
        v.abort = Some((
            format!(
                "every target was lost: {}",
                reasons
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| r.as_ref().map(|r| label(targets, i, r.clone())))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            frozen,
        ));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::TargetUrl;

    fn targets(n: usize) -> Targets {
        Targets {
            urls: (0..n)
                .map(|i| TargetUrl::parse(&format!("mysql://u@127.0.0.1:{}/db", 3306 + i)).unwrap())
                .collect(),
            shared_data: false,
            galera: vec![false; n],
        }
    }

    #[test]
    fn virtual_users_are_dealt_round_robin() {
        let all: Vec<u32> = (0..8).collect();
        assert_eq!(
            (0..3).map(|i| dealt(&all, 3, i)).collect::<Vec<_>>(),
            [3, 3, 2]
        );
        assert_eq!(dealt(&all[..4], 1, 0), 4);
        // A shard's users 1, 4, 7 on 3 targets all go to the second.
        assert_eq!(dealt(&[1, 4, 7], 3, 1), 3);
    }

    #[test]
    fn one_target_lost_is_an_event_all_lost_ends_the_run() {
        let t = targets(2);
        let mut down = vec![false; 2];
        let gone = Some(format!("{UNREACHABLE} 10 s (it died or restarts)"));
        let v = judge(&mut down, &[gone.clone(), None], &t, 12.0);
        assert!(v.abort.is_none());
        assert_eq!(v.events.len(), 1);
        assert!(
            v.events[0]
                .what
                .starts_with("target 1 (mysql://u@127.0.0.1:3306/db)")
        );
        // Said once.
        assert!(
            judge(&mut down, &[gone.clone(), None], &t, 13.0)
                .events
                .is_empty()
        );
        let v = judge(&mut down, &[gone.clone(), gone.clone()], &t, 14.0);
        let (reason, frozen) = v.abort.unwrap();
        assert!(reason.starts_with("every target was lost"), "{reason}");
        assert!(!frozen);
    }

    #[test]
    fn a_restart_or_a_lost_quorum_ends_the_run_even_with_other_targets() {
        let t = targets(3);
        let mut down = vec![false; 3];
        let v = judge(
            &mut down,
            &[None, Some("the Galera cluster lost quorum: …".into()), None],
            &t,
            5.0,
        );
        assert!(v.abort.unwrap().0.contains("lost quorum"));
        // One target: being unreachable ends the run.
        let one = targets(1);
        let mut down = vec![false];
        let v = judge(
            &mut down,
            &[Some(format!("{UNRESPONSIVE} 10 s"))],
            &one,
            5.0,
        );
        assert!(v.abort.unwrap().1);
        // A target that refuses the monitor is up: not lost, and the run cannot watch it.
        let mut down = vec![false; 3];
        let refused = format!("{UNREACHABLE} 10 s ({REFUSED}: Too many connections (1040))");
        let v = judge(&mut down, &[None, Some(refused), None], &t, 5.0);
        let (reason, frozen) = v.abort.unwrap();
        assert!(reason.contains(REFUSED) && !frozen, "{reason}");
        assert!(v.events.is_empty() && !down[1]);
    }

    #[test]
    fn a_target_that_answers_again_is_an_event() {
        let t = targets(2);
        let mut down = vec![true, false];
        let v = judge(&mut down, &[None, None], &t, 30.0);
        assert_eq!(v.events.len(), 1);
        assert!(v.events[0].what.ends_with("answers again"));
    }
}
