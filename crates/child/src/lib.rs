//! A child process spoken to in lines, as plugins and the Ruby host are:
//! one door, [`Child`].
//!
//! The process runs in a process group of its own, so that stopping it
//! stops everything it started. Its standard output is read by the thread
//! that waits for a line, with `poll(2)` for the deadline: a conversation
//! of many small requests pays no hand-over between threads for each
//! answer. Its standard error is read by a thread of its own, which keeps
//! the last lines for messages about why it stopped.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read as _, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How many lines of standard error are kept for messages.
const STDERR_LINES: usize = 20;

/// How much of each standard error line is kept: the rest of a longer
/// line is read and dropped.
const STDERR_LINE_BYTES: usize = 4096;

/// The longest line read from standard output. A longer one is a broken
/// child (or a hostile one): reading stops there instead of growing
/// memory for as long as it writes.
pub const MAX_LINE_BYTES: usize = 128 << 20;

/// How much of standard output one read takes.
const CHUNK: usize = 64 << 10;

/// The longest time limit a request may be given: a day. Longer (up to
/// `1e19` seconds, which no clock can add) is taken as a day.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// A time limit of `seconds`, as a plugin's handshake or a setting gives
/// it: at most [`MAX_TIMEOUT`]; `None` unless it is a positive number.
pub fn timeout_of(seconds: f64) -> Option<Duration> {
    (seconds > 0.0 && seconds.is_finite())
        .then(|| Duration::try_from_secs_f64(seconds).map_or(MAX_TIMEOUT, |d| d.min(MAX_TIMEOUT)))
}

/// Why no line was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoLine {
    /// The process closed its standard output (it exited, most likely).
    Closed,
    /// Nothing came before the deadline.
    Timeout,
    /// It wrote a line longer than [`MAX_LINE_BYTES`].
    TooLong,
}

/// A running child process.
pub struct Child {
    child: std::process::Child,
    stdin: Option<ChildStdin>,
    lines: Mutex<Lines>,
    stderr: Arc<Mutex<Stderr>>,
}

/// What is kept of standard error.
#[derive(Default)]
struct Stderr {
    /// The last lines before any crash report.
    tail: VecDeque<String>,
    /// The first line of the interpreter's crash report, and the signal it
    /// reports: the lines after it (registers, backtraces, the memory map)
    /// are not kept.
    report: Option<(i32, String)>,
}

/// Tells the first line of an interpreter's own report of a fatal signal,
/// and which signal it reports. Such an interpreter (Ruby) catches the
/// signal, prints pages about its state and ends by another (SIGABRT):
/// knowing the report, the reason names the signal that happened, and the
/// report stays out of the message.
pub type CrashReport = fn(&str) -> Option<i32>;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Child {
    /// Starts `command` with its three standard streams piped, in a
    /// process group of its own.
    pub fn spawn(command: &mut Command) -> std::io::Result<Child> {
        Child::spawn_reporting(command, |_| None)
    }

    /// [`Child::spawn`] for an interpreter whose crash reports `report`
    /// tells.
    pub fn spawn_reporting(command: &mut Command, report: CrashReport) -> std::io::Result<Child> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_group(&mut child);
            return Err(std::io::Error::other(
                "its standard streams could not be opened",
            ));
        };
        let kept = Arc::new(Mutex::new(Stderr::default()));
        let tail = kept.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            loop {
                let mut line = Vec::new();
                let text = match read_bounded(&mut reader, &mut line, STDERR_LINE_BYTES) {
                    Ok(Read::Line) => String::from_utf8_lossy(&line).trim_end().to_string(),
                    Ok(Read::TooLong) => {
                        // Keep the start, and drop the rest up to the line
                        // break, however long it is.
                        if reader.skip_until(b'\n').is_err() {
                            return;
                        }
                        format!("{}...", String::from_utf8_lossy(&line))
                    }
                    Ok(Read::End) | Err(_) => return,
                };
                let mut kept = lock(&tail);
                if kept.report.is_some() {
                    continue;
                }
                if let Some(signal) = report(&text) {
                    kept.report = Some((signal, text));
                    continue;
                }
                if kept.tail.len() == STDERR_LINES {
                    kept.tail.pop_front();
                }
                kept.tail.push_back(text);
            }
        });
        Ok(Child {
            child,
            stdin: Some(stdin),
            lines: Mutex::new(Lines {
                stdout,
                buffer: Vec::new(),
                scanned: 0,
                done: None,
            }),
            stderr: kept,
        })
    }

    /// Writes one line (the line break is added) and flushes it.
    pub fn write_line(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("its standard input is closed"))?;
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        stdin.write_all(text.as_bytes())?;
        stdin.flush()
    }

    /// The next line of its standard output (with its line break), waiting
    /// at most `timeout`.
    pub fn read_line(&self, timeout: Duration) -> Result<String, NoLine> {
        lock(&self.lines).next(Instant::now() + timeout)
    }

    /// Closes its standard input, telling it to stop.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Whether it exits within `time`.
    pub fn exits_within(&mut self, time: Duration) -> bool {
        let deadline = Instant::now() + time;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        false
    }

    /// Why it stopped answering, for a message: its exit status (`exited
    /// with status 3`, `was killed by signal 9 (SIGKILL)`) and the last
    /// lines of its standard error, with the first line of a crash report
    /// (whose signal it names) but nothing after it.
    pub fn exit_reason(&mut self) -> String {
        // It closed its output; give it a moment to finish exiting and its
        // last error lines a moment to arrive.
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut status = None;
        while Instant::now() < deadline {
            if let Ok(Some(found)) = self.child.try_wait() {
                status = Some(found);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(20));
        let kept = lock(&self.stderr);
        let how = match status {
            Some(status) => match (status.code(), status.signal()) {
                (Some(code), _) => format!("exited with status {code}"),
                // The signal its own report names, not the abort that
                // followed it.
                (None, Some(signal)) => {
                    let signal = kept.report.as_ref().map_or(signal, |(s, _)| *s);
                    format!("was killed by signal {signal}{}", signal_name(signal))
                }
                (None, None) => format!("ended ({status})"),
            },
            None => "closed its output".to_string(),
        };
        let mut last: Vec<&str> = kept
            .tail
            .iter()
            .map(String::as_str)
            .filter(|l| !l.trim().is_empty())
            .collect();
        last.drain(..last.len().saturating_sub(3));
        last.extend(kept.report.as_ref().map(|(_, line)| line.as_str()));
        match last.len() {
            0 => how,
            _ => format!("{how}: {}", last.join(" / ")),
        }
    }

    /// Stops it and everything it started.
    pub fn kill(mut self) {
        kill_group(&mut self.child);
    }
}

/// Standard output, read as far as a line needs: what was read past the
/// line handed out waits in `buffer` for the next.
struct Lines {
    stdout: ChildStdout,
    buffer: Vec<u8>,
    /// How much of `buffer` is known to hold no line break.
    scanned: usize,
    /// Why no more lines come: the stream ended, or a line was too long
    /// (the rest of the output is not read then).
    done: Option<NoLine>,
}

impl Lines {
    fn next(&mut self, deadline: Instant) -> Result<String, NoLine> {
        loop {
            if let Some(at) = self.buffer[self.scanned..].iter().position(|b| *b == b'\n') {
                let end = self.scanned + at + 1;
                self.scanned = 0;
                let line = String::from_utf8_lossy(&self.buffer[..end]).into_owned();
                self.buffer.drain(..end);
                return Ok(line);
            }
            self.scanned = self.buffer.len();
            match self.done {
                // The last line may lack its line break.
                Some(NoLine::Closed) if !self.buffer.is_empty() => {
                    self.scanned = 0;
                    let line = String::from_utf8_lossy(&self.buffer).into_owned();
                    self.buffer.clear();
                    return Ok(line);
                }
                Some(why) => return Err(why),
                None => {}
            }
            if self.buffer.len() >= MAX_LINE_BYTES {
                self.buffer = Vec::new();
                self.scanned = 0;
                self.done = Some(NoLine::TooLong);
                return Err(NoLine::TooLong);
            }
            if !self.readable(deadline) {
                return Err(NoLine::Timeout);
            }
            let start = self.buffer.len();
            let room = CHUNK.min(MAX_LINE_BYTES - start);
            self.buffer.resize(start + room, 0);
            let read = self.stdout.read(&mut self.buffer[start..]);
            self.buffer.truncate(start + *read.as_ref().unwrap_or(&0));
            match read {
                Ok(0) => self.done = Some(NoLine::Closed),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => self.done = Some(NoLine::Closed),
            }
        }
    }

    /// Whether standard output has something to read (or has ended)
    /// before the deadline.
    fn readable(&self, deadline: Instant) -> bool {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            // Rounded up, so that a deadline less than a millisecond away
            // is still waited for.
            let millis = i32::try_from(left.as_micros().div_ceil(1000)).unwrap_or(i32::MAX);
            let mut poll = libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, for a descriptor this owns.
            let ready = unsafe { libc::poll(&mut poll, 1, millis) };
            match ready {
                // Readable, or hung up or failed: the read tells which.
                1.. => return true,
                0 if millis == 0 => return false,
                0 => {}
                _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
                _ => return true,
            }
            if Instant::now() >= deadline {
                return false;
            }
        }
    }
}

/// What [`read_bounded`] read.
enum Read {
    /// A whole line, with its line break (none at the very end).
    Line,
    /// The limit was reached before the line's end: the line holds the
    /// first `limit` bytes, the rest is still unread.
    TooLong,
    /// Nothing more: the stream ended.
    End,
}

/// Reads one line into `line`, never more than `limit` bytes of it.
fn read_bounded(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Read> {
    let read = std::io::Read::take(&mut *reader, limit as u64).read_until(b'\n', line)?;
    Ok(if read == 0 {
        Read::End
    } else if read == limit && line.last() != Some(&b'\n') {
        Read::TooLong
    } else {
        Read::Line
    })
}

/// A signal's name for a message (` (SIGSEGV)`), for the signals that
/// end processes; nothing for others.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGHUP => " (SIGHUP)",
        libc::SIGINT => " (SIGINT)",
        libc::SIGQUIT => " (SIGQUIT)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGTRAP => " (SIGTRAP)",
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGUSR1 => " (SIGUSR1)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGUSR2 => " (SIGUSR2)",
        libc::SIGPIPE => " (SIGPIPE)",
        libc::SIGALRM => " (SIGALRM)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGXCPU => " (SIGXCPU)",
        libc::SIGXFSZ => " (SIGXFSZ)",
        libc::SIGSYS => " (SIGSYS)",
        _ => "",
    }
}

fn kill_group(child: &mut std::process::Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: killpg(2) only sends a signal; the group is the child's
        // own (it was started with process_group(0)).
        unsafe {
            libc::killpg(pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Why a child that wrote a line longer than [`MAX_LINE_BYTES`] was
/// stopped, for a message about it.
pub fn too_long() -> String {
    format!(
        "printed a line longer than {} MiB; it was stopped",
        MAX_LINE_BYTES >> 20
    )
}

/// A line that breaks a protocol, quoted for a message: at most 200
/// characters, then `...`.
pub fn quote(line: &str) -> String {
    let line = line.trim_end();
    let shown: String = line.chars().take(200).collect();
    let more = if shown.len() < line.len() { "..." } else { "" };
    format!("{shown:?}{more}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_back_and_the_end_is_explained() {
        let mut child = Child::spawn(Command::new("sh").args([
            "-c",
            "read line; echo \"got $line\"; echo 'bad news' >&2; exit 3",
        ]))
        .unwrap();
        child.write_line("hello").unwrap();
        assert_eq!(
            child.read_line(Duration::from_secs(5)),
            Ok("got hello\n".into())
        );
        assert_eq!(child.read_line(Duration::from_secs(5)), Err(NoLine::Closed));
        assert_eq!(child.exit_reason(), "exited with status 3: bad news");
    }

    #[test]
    fn a_signal_is_named_and_a_crash_report_is_left_out_but_its_first_line() {
        let mut child =
            Child::spawn(Command::new("sh").args(["-c", "echo dying >&2; kill -SEGV $$"])).unwrap();
        assert_eq!(child.read_line(Duration::from_secs(5)), Err(NoLine::Closed));
        assert_eq!(
            child.exit_reason(),
            "was killed by signal 11 (SIGSEGV): dying"
        );
        // An interpreter that reports the segfault itself and aborts.
        let mut child = Child::spawn_reporting(
            Command::new("sh").args([
                "-c",
                "echo before >&2; echo 'x.rb:3: [BUG] Segmentation fault at 0x0' >&2; \
                 for i in 1 2 3 4 5; do echo \"7f00-7f01 r-xp /lib/$i.so\" >&2; done; kill -ABRT $$",
            ]),
            |line| line.contains("[BUG] Segmentation fault").then_some(libc::SIGSEGV),
        )
        .unwrap();
        assert_eq!(child.read_line(Duration::from_secs(5)), Err(NoLine::Closed));
        assert_eq!(
            child.exit_reason(),
            "was killed by signal 11 (SIGSEGV): before / x.rb:3: [BUG] Segmentation fault at 0x0"
        );
    }

    #[test]
    fn a_silent_child_times_out_and_is_killed_with_its_group() {
        let child = Child::spawn(Command::new("sh").args(["-c", "sleep 30 & sleep 30"])).unwrap();
        let started = Instant::now();
        assert_eq!(
            child.read_line(Duration::from_millis(100)),
            Err(NoLine::Timeout)
        );
        child.kill();
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// A child that writes an endless line (or a flood of error output)
    /// is cut off at a bound, not read into memory for as long as it
    /// writes.
    #[test]
    fn endless_lines_are_bounded() {
        let child = Child::spawn(Command::new("sh").args(["-c", "cat /dev/zero"])).unwrap();
        let started = Instant::now();
        assert_eq!(
            child.read_line(Duration::from_secs(60)),
            Err(NoLine::TooLong)
        );
        assert!(started.elapsed() < Duration::from_secs(30));
        child.kill();

        // 64 MiB of standard error without a line break, then a line on
        // each stream: the line arrives and the error kept is short.
        let mut child = Child::spawn(Command::new("sh").args([
            "-c",
            "head -c 67108864 /dev/zero | tr '\\0' e >&2; echo >&2; echo tail >&2; echo done; exit 4",
        ]))
        .unwrap();
        assert_eq!(
            child.read_line(Duration::from_secs(60)),
            Ok("done\n".into())
        );
        let reason = child.exit_reason();
        assert!(
            reason.starts_with("exited with status 4: eee"),
            "{}",
            quote(&reason)
        );
        assert!(
            reason.ends_with("... / tail"),
            "{}",
            reason.replace("eeee", "")
        );
        assert!(reason.len() < 2 * STDERR_LINE_BYTES, "{}", reason.len());
    }

    #[test]
    fn bounded_reads_split_where_they_should() {
        let mut input: &[u8] = b"ab\ncdefg\nh";
        let mut line = Vec::new();
        assert!(matches!(
            read_bounded(&mut input, &mut line, 4),
            Ok(Read::Line)
        ));
        assert_eq!(line, b"ab\n");
        line.clear();
        assert!(matches!(
            read_bounded(&mut input, &mut line, 4),
            Ok(Read::TooLong)
        ));
        assert_eq!(line, b"cdef");
        input.skip_until(b'\n').unwrap();
        line.clear();
        assert!(matches!(
            read_bounded(&mut input, &mut line, 4),
            Ok(Read::Line)
        ));
        assert_eq!(line, b"h");
        line.clear();
        assert!(matches!(
            read_bounded(&mut input, &mut line, 4),
            Ok(Read::End)
        ));
    }

    #[test]
    fn time_limits_are_positive_and_capped() {
        assert_eq!(timeout_of(1.5), Some(Duration::from_millis(1500)));
        assert_eq!(timeout_of(1e19), Some(MAX_TIMEOUT));
        assert_eq!(timeout_of(f64::MAX), Some(MAX_TIMEOUT));
        for refused in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(timeout_of(refused), None, "{refused}");
        }
    }

    #[test]
    fn long_lines_are_quoted_short() {
        assert_eq!(quote("abc\n"), "\"abc\"");
        assert!(quote(&"x".repeat(300)).ends_with("\"..."));
    }
}
