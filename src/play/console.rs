//! The person's side of `ladder play`: lines read from their keyboard (or a
//! script) and text written to their screen, shared by the session and the
//! [`super::human::Human`] bot of each game.
//!
//! Input is read on a thread of its own, so that waiting for the person
//! never blocks a signal: Ctrl-C ends the session like `quit` (the games
//! finished so far are kept), even while nobody types.

use std::{
    io::{self, BufRead, Write},
    sync::{mpsc, Arc, Mutex},
    time::Duration,
};

use crate::{
    external::process::cleanup,
    show::paint::{ColorChoice, Paint},
};

/// How often a wait for input looks for a signal.
const SIGNAL_TICK: Duration = Duration::from_millis(100);

/// Why the session ends before its last game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The person typed `quit`.
    Quit,
    /// The input ended (a script ran out, the terminal closed).
    EndOfInput,
    /// The screen is gone (a closed pipe).
    ClosedOutput,
    /// Ctrl-C, SIGTERM or SIGHUP.
    Signal,
}

impl Stop {
    /// For the session's last line: `you quit`.
    pub fn describe(self) -> &'static str {
        match self {
            Stop::Quit => "you quit",
            Stop::EndOfInput => "the input ended",
            Stop::ClosedOutput => "the output was closed",
            Stop::Signal => "interrupted",
        }
    }
}

/// The person's keyboard and screen.
pub struct Console {
    lines: mpsc::Receiver<io::Result<String>>,
    out: Box<dyn Write + Send>,
    pub paint: Paint,
    /// Write each line read after its prompt: input that is not a terminal
    /// (a script) is not shown by the terminal, and the screen should read
    /// like a session.
    pub echo: bool,
    /// Set once the session must end.
    pub stop: Option<Stop>,
}

/// A console shared by the session and the bots that ask the person.
pub type Shared = Arc<Mutex<Console>>;

impl Console {
    /// Standard input and output, coloured as `color` says of standard
    /// output (`--color`).
    pub fn stdio(color: ColorChoice) -> Console {
        use std::io::IsTerminal;
        let paint = Paint::stdout(color);
        let mut console = Console::new(io::BufReader::new(io::stdin()), io::stdout(), paint);
        console.echo = !io::stdin().is_terminal();
        console
    }

    /// A console reading `input` (on a thread of its own) and writing `out`.
    pub fn new(
        input: impl BufRead + Send + 'static,
        out: impl Write + Send + 'static,
        paint: Paint,
    ) -> Console {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut input = input;
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                // a line that is not UTF-8 (a stray byte, Latin-1 pasted)
                // is read lossily: a bad move, not the end of the input
                let line = match input.read_until(b'\n', &mut bytes) {
                    Ok(0) => return,
                    Ok(_) => {
                        let text = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
                        let text = text.strip_suffix(b"\r").unwrap_or(text);
                        Ok(String::from_utf8_lossy(text).into_owned())
                    }
                    Err(e) => Err(e),
                };
                let ended = line.is_err();
                if tx.send(line).is_err() || ended {
                    return;
                }
            }
        });
        Console {
            lines: rx,
            out: Box::new(out),
            paint,
            echo: false,
            stop: None,
        }
    }

    /// Shares the console.
    pub fn shared(self) -> Shared {
        Arc::new(Mutex::new(self))
    }

    /// Writes `text` as it is; a screen that is gone stops the session.
    pub fn say(&mut self, text: &str) {
        let written = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush());
        if written.is_err() {
            self.stop.get_or_insert(Stop::ClosedOutput);
        }
    }

    /// Writes `prompt` and waits for a line: `None` when the session must
    /// end (the input ended, a signal came, the screen is gone).
    pub fn ask(&mut self, prompt: &str) -> Option<String> {
        self.say(prompt);
        loop {
            if self.stop.is_some() {
                return None;
            }
            if cleanup::interrupted().is_some() {
                self.stop = Some(Stop::Signal);
                return None;
            }
            match self.lines.recv_timeout(SIGNAL_TICK) {
                Ok(Ok(line)) => {
                    if self.echo {
                        let shown = crate::core::error::clip_lines(&line, 200);
                        self.say(&format!("{shown}\n"));
                    }
                    return Some(line);
                }
                Ok(Err(_)) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.say("\n");
                    self.stop.get_or_insert(Stop::EndOfInput);
                    return None;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// Locks a shared console (a thread that panicked holding it leaves it usable).
pub fn lock(console: &Shared) -> std::sync::MutexGuard<'_, Console> {
    console.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose text the test can read.
    #[derive(Clone, Default)]
    struct Screen(Arc<Mutex<Vec<u8>>>);

    impl Write for Screen {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_come_in_order_and_the_end_of_input_stops_the_session() {
        let screen = Screen::default();
        let mut c = Console::new(&b"12\nhelp\n"[..], screen.clone(), Paint::PLAIN);
        assert_eq!(c.ask("bid: ").as_deref(), Some("12"));
        assert_eq!(c.ask("bid: ").as_deref(), Some("help"));
        assert_eq!(c.ask("bid: "), None);
        assert_eq!(c.stop, Some(Stop::EndOfInput));
        let shown = String::from_utf8(screen.0.lock().unwrap().clone()).unwrap();
        assert_eq!(shown, "bid: bid: bid: \n");
    }

    #[test]
    fn an_echoing_console_shows_each_line_after_its_prompt() {
        let screen = Screen::default();
        let mut c = Console::new(&b"12\n"[..], screen.clone(), Paint::PLAIN);
        c.echo = true;
        assert_eq!(c.ask("bid: ").as_deref(), Some("12"));
        let shown = String::from_utf8(screen.0.lock().unwrap().clone()).unwrap();
        assert_eq!(shown, "bid: 12\n");
    }
}
