//! The validity rules that fired in a run, causes before their effects: a server that died
//! also fails transactions, and which of the two rules notices first depends on the
//! machine's speed. The user reads every rule that fired, the server's fate first.

/// The rules that fired so far, each once.
#[derive(Debug, Default)]
pub struct Fired {
    /// What happened to the server (unreachable, frozen, restarted) or to the driver.
    causes: Vec<String>,
    /// What the run measured going wrong (failed transactions, a queue that overflowed).
    effects: Vec<String>,
}

impl Fired {
    /// Something happened to the server or the driver.
    pub fn cause(&mut self, reason: String) {
        if !self.causes.contains(&reason) {
            self.causes.push(reason);
        }
    }

    /// A rule over what the run measured fired.
    pub fn effect(&mut self, reason: String) {
        if !self.effects.contains(&reason) {
            self.effects.push(reason);
        }
    }

    /// Whether any rule fired.
    pub fn any(&self) -> bool {
        !self.causes.is_empty() || !self.effects.is_empty()
    }

    /// Whether a cause is known.
    pub fn has_cause(&self) -> bool {
        !self.causes.is_empty()
    }

    /// Every reason, causes first.
    pub fn reasons(&self) -> impl Iterator<Item = &String> {
        self.causes.iter().chain(&self.effects)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_come_first_and_each_reason_once() {
        let mut f = Fired::default();
        assert!(!f.any());
        f.effect("2 of 55 New-Order transactions failed".into());
        f.effect("2 of 55 New-Order transactions failed".into());
        assert!(f.any() && !f.has_cause());
        f.cause("the server has been unreachable for 1.2 s".into());
        let r: Vec<&String> = f.reasons().collect();
        assert_eq!(
            r,
            [
                "the server has been unreachable for 1.2 s",
                "2 of 55 New-Order transactions failed"
            ]
        );
    }
}
