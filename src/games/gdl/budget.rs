//! What loading a GDL description may cost, in steps and in seconds, and
//! what it says on stderr while it takes long: past the first second, once
//! a second, what it is doing (grounding which rule, how many atoms).

use std::time::{Duration, Instant};

use super::kif::Pos;

/// How much work loading a description may do.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Steps of grounding: every fact a rule's literal is tried against,
    /// and every instance it yields, is one.
    pub steps: u64,
    /// Seconds of loading (grounding and building the reasoner).
    pub seconds: u64,
}

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spent {
    Steps,
    Time,
}

/// One load's clock and step count, and its reports on stderr: past the
/// first second, once a second, what it is doing.
pub struct Watch {
    name: String,
    start: Instant,
    budget: Budget,
    left: u64,
    spent: Option<Spent>,
    reported: Option<Instant>,
    /// What it is doing, for the reports: the phase, the rule being
    /// grounded, the atoms found so far.
    phase: &'static str,
    /// Whether it reports on stderr (a load does; a state's reasoning,
    /// [`Watch::quiet`], does not).
    report: bool,
    pub(super) rule: Option<Pos>,
    pub(super) atoms: usize,
    /// The rules grounding has taken up, each once a round it joins it:
    /// what a round costs beside its steps.
    pub(super) rules_tried: u64,
    /// Whether the atom or ground-rule limit was passed.
    pub(super) over_limit: bool,
}

impl Watch {
    /// The watch of loading the description named `name`.
    pub fn new(name: &str, budget: Budget) -> Watch {
        Watch {
            name: name.to_string(),
            start: Instant::now(),
            budget,
            left: budget.steps,
            spent: None,
            reported: None,
            phase: "reading",
            report: true,
            rule: None,
            atoms: 0,
            rules_tried: 0,
            over_limit: false,
        }
    }

    /// A watch of `steps` steps and no clock, that says nothing: one
    /// state's reasoning (`prover.rs`), whose outcome must not depend on
    /// the machine's speed.
    pub fn quiet(steps: u64) -> Watch {
        Watch {
            report: false,
            ..Watch::new(
                "",
                Budget {
                    steps,
                    seconds: u64::MAX,
                },
            )
        }
    }

    /// One step; false once a budget is spent.
    #[inline]
    pub(super) fn spend(&mut self) -> bool {
        if self.left == 0 {
            self.spent.get_or_insert(Spent::Steps);
            return false;
        }
        self.left -= 1;
        if self.left & 0xFFFF == 0 {
            return self.tick();
        }
        true
    }

    /// Gives back `n` steps spent: work that is about to be done again and
    /// charged then (a join's count before it makes its bindings).
    pub(super) fn give_back(&mut self, n: u64) {
        self.left = (self.left + n).min(self.budget.steps);
    }

    /// `n` steps at once; false once a budget is spent.
    pub(super) fn spend_many(&mut self, n: u64) -> bool {
        if self.left < n {
            self.left = 0;
            self.spent.get_or_insert(Spent::Steps);
            return false;
        }
        let before = self.left;
        self.left -= n;
        if before >> 16 != self.left >> 16 {
            return self.tick();
        }
        true
    }

    /// Enters a phase of loading (`"building the reasoner"`), and checks
    /// the clock.
    pub fn phase(&mut self, phase: &'static str) -> Result<(), String> {
        self.phase = phase;
        self.rule = None;
        if self.tick() {
            Ok(())
        } else {
            Err(self.error(None))
        }
    }

    /// Checks the clock: false past the time budget. Reports what it is
    /// doing once a second after the first.
    fn tick(&mut self) -> bool {
        if self.spent.is_some() {
            return false;
        }
        if !self.report {
            return true;
        }
        let now = Instant::now();
        let spent = now - self.start;
        if spent > Duration::from_secs(self.budget.seconds) {
            self.spent = Some(Spent::Time);
            return false;
        }
        let due = self.reported.map_or(spent >= Duration::from_secs(1), |t| {
            now - t >= Duration::from_secs(1)
        });
        if due {
            let rule = self
                .rule
                .map(|p| format!(" the rule at {p}"))
                .unwrap_or_default();
            // a phase that finds no atoms (working out what the rules
            // ask) does not count them
            let atoms = match self.atoms {
                0 => String::new(),
                n => format!(", {n} atoms so far"),
            };
            eprintln!(
                "ladder: loading {}: {}{rule}{atoms} ({:.0} s of {} s)",
                self.name,
                self.phase,
                spent.as_secs_f64(),
                self.budget.seconds
            );
            self.reported = Some(now);
        }
        true
    }

    /// The steps spent so far.
    pub(super) fn spent_steps(&self) -> u64 {
        self.budget.steps - self.left
    }

    /// Whether the last failure was the game's size: the steps spent, or
    /// the atom or ground-rule limit passed (not the clock).
    pub fn too_large(&self) -> bool {
        self.over_limit || self.spent == Some(Spent::Steps)
    }

    /// The steps budget afresh (the clock goes on): for a second way of
    /// loading after the first was too large. What it reports starts
    /// afresh too: the first way's atoms are not the second's.
    pub fn fresh_steps(&mut self) {
        self.left = self.budget.steps;
        self.spent = None;
        self.over_limit = false;
        self.atoms = 0;
        self.rule = None;
    }

    /// A watch for a second way of loading tried while this one pauses
    /// (or after it failed): the same clock and reports, and at most
    /// `steps` steps of its own, for a try that must cost less than the
    /// way it would save (this watch's are left as they are).
    pub fn beside(&self, steps: u64) -> Watch {
        Watch {
            name: self.name.clone(),
            left: self.budget.steps.min(steps),
            spent: None,
            phase: self.phase,
            rule: None,
            atoms: 0,
            rules_tried: 0,
            over_limit: false,
            ..*self
        }
    }

    /// The error for a spent budget, naming the rule being grounded.
    pub(super) fn error(&self, rule: Option<Pos>) -> String {
        let at = rule.map(|p| format!("{p}: ")).unwrap_or_default();
        match self.spent {
            Some(Spent::Steps) | None => format!(
                "{at}grounding this rule takes more than {} steps (the grounding budget, \
                 `ground_steps` among the game's parameters)",
                self.budget.steps
            ),
            Some(Spent::Time) => format!(
                "{at}loading the description ({}) takes more than {} s (the loading time \
                 budget, `ground_seconds` among the game's parameters)",
                self.phase, self.budget.seconds
            ),
        }
    }
}
