//! The progress line a person at a terminal sees during a run: which
//! resource of how many is under way, which one, and for how long the run
//! has gone. It appears for runs of more than 100 resources, and for any
//! resource that takes more than a second (a slow package or command),
//! kept live by a thread that redraws it; and, before a run, for a step
//! that takes more than a second ([`while_doing`]: the custom fact being
//! resolved). Console messages erase it first ([`around_output`]); pipes
//! and log files never get it.

use std::io::IsTerminal;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use marionette_transaction::apply::Progress;

/// Runs of more resources than this show the line from the start.
const LONG_RUN: usize = 100;
/// A resource taking longer than this shows the line, whatever the run.
const SLOW: Duration = Duration::from_secs(1);
/// How often the line is redrawn, at most.
const REDRAW: Duration = Duration::from_millis(100);
/// How often the thread that keeps the line live looks.
const TICK: Duration = Duration::from_millis(250);

struct State {
    started: Instant,
    done: usize,
    total: usize,
    /// The resource under way, and since when.
    current: Option<(String, Instant)>,
    /// Whether the line is on the terminal now, and its text.
    shown: bool,
    text: String,
    drawn: Option<Instant>,
}

impl State {
    fn new() -> State {
        State {
            started: Instant::now(),
            done: 0,
            total: 0,
            current: None,
            shown: false,
            text: String::new(),
            drawn: None,
        }
    }
}

/// The run's line; `None` when there is none (not a terminal, no run).
static LINE: Mutex<Option<State>> = Mutex::new(None);

fn lock() -> MutexGuard<'static, Option<State>> {
    LINE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Prints with the progress line out of the way: it is erased, and drawn
/// again by the next update. Holding the line meanwhile keeps the thread
/// that redraws it from writing into the middle of the output.
pub(crate) fn around_output(print: impl FnOnce()) {
    let mut line = lock();
    if let Some(state) = line.as_mut()
        && state.shown
    {
        err!("\r\x1b[K");
        state.shown = false;
    }
    print();
}

/// The transaction's progress hook for a run on a terminal, or `None`.
pub(crate) fn for_run() -> Option<Progress> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    *lock() = Some(State::new());
    // One thread for the process: an agent's later runs reuse it.
    static TICKER: std::sync::Once = std::sync::Once::new();
    TICKER.call_once(|| {
        let _ = std::thread::Builder::new()
            .name("progress".into())
            .spawn(|| {
                loop {
                    std::thread::sleep(TICK);
                    if let Some(state) = lock().as_mut() {
                        draw(state);
                    }
                }
            });
    });
    Some(std::sync::Arc::new(|done, total, current: Option<&str>| {
        let mut line = lock();
        let Some(state) = line.as_mut() else { return };
        state.done = done;
        state.total = total;
        match current {
            Some(resource) => {
                state.current = Some((resource.to_string(), Instant::now()));
                draw(state);
            }
            // The run is over: the line goes.
            None => {
                if state.shown {
                    err!("\r\x1b[K");
                }
                *line = None;
            }
        }
    }))
}

/// Runs `work` with, on a terminal, a line naming what it is doing once
/// one thing has taken more than a second: `doing` says what that is now
/// (None between things), asked from another thread four times a second.
/// For steps before a run, such as resolving custom facts.
pub(crate) fn while_doing<T>(
    doing: impl Fn() -> Option<String> + Sync,
    work: impl FnOnce() -> T,
) -> T {
    if !std::io::stderr().is_terminal() || lock().is_some() {
        return work();
    }
    *lock() = Some(State::new());
    let finished = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut current: Option<(String, Instant)> = None;
            while !finished.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(TICK);
                let now = doing();
                if current.as_ref().map(|(what, _)| what) != now.as_ref() {
                    current = now.map(|what| (what, Instant::now()));
                }
                let mut line = lock();
                let Some(state) = line.as_mut() else { break };
                match &current {
                    Some((what, since)) if since.elapsed() >= SLOW => {
                        let text = fit(format!("{what} (running {} s)", since.elapsed().as_secs()));
                        if !state.shown || text != state.text {
                            err!("\r\x1b[K{text}");
                            state.shown = true;
                            state.text = text;
                        }
                    }
                    _ if state.shown => {
                        err!("\r\x1b[K");
                        state.shown = false;
                    }
                    _ => {}
                }
            }
        });
        let result = work();
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    });
    let mut line = lock();
    if line.as_ref().is_some_and(|state| state.shown) {
        err!("\r\x1b[K");
    }
    *line = None;
    result
}

/// `text` cut to one terminal line: a longer one would wrap and never be
/// erased.
fn fit(text: String) -> String {
    let width = terminal_width().saturating_sub(1);
    if text.chars().count() > width {
        text.chars().take(width).collect()
    } else {
        text
    }
}

fn draw(state: &mut State) {
    let running = state.current.as_ref().map(|(_, since)| since.elapsed());
    let slow = running.is_some_and(|time| time >= SLOW);
    if (state.total <= LONG_RUN && !slow) || state.drawn.is_some_and(|at| at.elapsed() < REDRAW) {
        return;
    }
    let Some((resource, _)) = &state.current else {
        return;
    };
    let mut text = format!(
        "[{}/{}, {} s] {resource}",
        state.done + 1,
        state.total,
        state.started.elapsed().as_secs()
    );
    if let Some(time) = running.filter(|_| slow) {
        text.push_str(&format!(" (running {} s)", time.as_secs()));
    }
    let text = fit(text);
    if state.shown && text == state.text {
        return;
    }
    err!("\r\x1b[K{text}");
    state.shown = true;
    state.text = text;
    state.drawn = Some(Instant::now());
}

fn terminal_width() -> usize {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ fills the winsize it is given, nothing else.
    let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    if ok && size.ws_col > 0 {
        usize::from(size.ws_col)
    } else {
        80
    }
}
