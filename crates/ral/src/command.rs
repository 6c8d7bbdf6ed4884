//! The one door to processes: every provider runs commands through the
//! [`Runner`], which passes argv without a shell unless asked, sets
//! `LANG=C`, closes or feeds stdin, captures output, enforces a timeout by
//! killing the whole process group, and logs each command at debug level.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::log::{Level, Logger};

/// A command to run.
#[derive(Clone, Debug, Default)]
pub struct CommandSpec {
    /// The program then its arguments. With `shell`, the single element is
    /// the script given to `/bin/sh -c`.
    pub argv: Vec<String>,
    pub shell: bool,
    pub stdin: Option<Vec<u8>>,
    /// Extra environment variables, on top of the runner's own.
    pub env: Vec<(String, String)>,
    pub cwd: Option<PathBuf>,
    pub timeout: Option<Duration>,
    /// When set, a non-zero exit status is an error.
    pub check: bool,
    /// Whether stdin/argv may hold secrets: then they are not logged.
    pub sensitive: bool,
    /// Run as this user and group (needs root).
    pub uid: Option<u32>,
    pub gid: Option<u32>,
    /// The file mode creation mask of the command.
    pub umask: Option<u32>,
}

impl CommandSpec {
    /// A command whose non-zero exit is an error.
    pub fn new<S: AsRef<str>>(argv: &[S]) -> CommandSpec {
        CommandSpec {
            argv: argv.iter().map(|a| a.as_ref().to_string()).collect(),
            check: true,
            ..CommandSpec::default()
        }
    }

    /// A script run by `/bin/sh -c`: only for commands the user wrote as
    /// shell code (exec's `shell` provider), never to join arguments.
    pub fn shell(script: &str) -> CommandSpec {
        CommandSpec {
            argv: vec![script.to_string()],
            shell: true,
            check: true,
            ..CommandSpec::default()
        }
    }

    pub fn stdin(mut self, input: impl Into<Vec<u8>>) -> CommandSpec {
        self.stdin = Some(input.into());
        self
    }

    pub fn unchecked(mut self) -> CommandSpec {
        self.check = false;
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> CommandSpec {
        self.timeout = Some(timeout);
        self
    }

    pub fn env(mut self, name: &str, value: &str) -> CommandSpec {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    pub fn sensitive(mut self) -> CommandSpec {
        self.sensitive = true;
        self
    }

    /// The command as the debug log shows it.
    pub fn display(&self) -> String {
        if self.sensitive {
            return format!(
                "{} [arguments redacted]",
                self.argv.first().map(String::as_str).unwrap_or("")
            );
        }
        if self.shell {
            return format!("/bin/sh -c {}", shell_quote(&self.argv[0]));
        }
        self.argv
            .iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Quotes one word for display, the way a user would type it.
fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// What a finished command gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The exit code; `None` when a signal ended the process.
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn success(&self) -> bool {
        self.status == Some(0)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("Could not find command '{0}'")]
    NotFound(String),
    #[error("Could not run {command}: {message}")]
    Spawn { command: String, message: String },
    #[error("Execution of '{command}' returned {}: {}", .output.status.map_or("a signal".to_string(), |s| s.to_string()), .output.stderr.trim())]
    Failed { command: String, output: Output },
    #[error(
        "Command exceeded timeout: '{command}' ran longer than {seconds} seconds and was killed"
    )]
    Timeout { command: String, seconds: u64 },
}

/// Runs commands for providers.
#[derive(Clone, Default)]
pub struct Runner {
    logger: Logger,
}

impl Runner {
    pub fn new(logger: Logger) -> Runner {
        Runner { logger }
    }

    /// Runs a command to the end and returns its output.
    pub fn run(&self, spec: &CommandSpec) -> Result<Output, CommandError> {
        let shown = spec.display();
        self.logger
            .log(Level::Debug, "Exec", &format!("Executing: '{shown}'"));
        let Some(program) = spec.argv.first() else {
            return Err(CommandError::NotFound(String::new()));
        };
        let mut command = if spec.shell {
            let mut c = Command::new("/bin/sh");
            c.arg("-c").arg(program);
            c
        } else {
            let resolved = which(program).ok_or_else(|| CommandError::NotFound(program.clone()))?;
            let mut c = Command::new(resolved);
            c.args(&spec.argv[1..]);
            c
        };
        command
            .env("LANG", "C")
            .env("LC_ALL", "C")
            .stdin(if spec.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group, so a timeout can kill every child too.
            .process_group(0);
        for (name, value) in &spec.env {
            command.env(name, value);
        }
        if let Some(gid) = spec.gid {
            command.gid(gid);
        }
        if let Some(uid) = spec.uid {
            command.uid(uid);
        }
        if let Some(mask) = spec.umask {
            // SAFETY: umask(2) only changes the child's own mask; it is
            // async-signal-safe, as a pre_exec hook requires.
            unsafe {
                command.pre_exec(move || {
                    libc::umask(mask as libc::mode_t);
                    Ok(())
                });
            }
        }
        if let Some(cwd) = &spec.cwd {
            command.current_dir(cwd);
        }
        let mut child = command.spawn().map_err(|e| CommandError::Spawn {
            command: shown.clone(),
            message: e.to_string(),
        })?;
        // Read and write on threads: a child that fills its stdout pipe
        // while we are still writing its stdin would otherwise deadlock.
        let stdin_thread = match (child.stdin.take(), spec.stdin.clone()) {
            (Some(mut pipe), Some(input)) => Some(std::thread::spawn(move || {
                let _ = pipe.write_all(&input);
            })),
            _ => None,
        };
        let stdout_thread = child.stdout.take().map(|mut pipe| {
            std::thread::spawn(move || {
                let mut buffer = Vec::new();
                let _ = pipe.read_to_end(&mut buffer);
                buffer
            })
        });
        let stderr_thread = child.stderr.take().map(|mut pipe| {
            std::thread::spawn(move || {
                let mut buffer = Vec::new();
                let _ = pipe.read_to_end(&mut buffer);
                buffer
            })
        });
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) => {}
                Err(e) => {
                    return Err(CommandError::Spawn {
                        command: shown,
                        message: e.to_string(),
                    });
                }
            }
            if let Some(limit) = spec.timeout
                && started.elapsed() >= limit
            {
                // SAFETY: kill(2) with the negative id of the group the
                // child leads; it cannot touch memory.
                unsafe {
                    libc::kill(-(child.id() as i32), libc::SIGKILL);
                }
                let _ = child.wait();
                return Err(CommandError::Timeout {
                    command: shown,
                    seconds: limit.as_secs(),
                });
            }
            std::thread::sleep(poll_interval(started.elapsed()));
        };
        if let Some(thread) = stdin_thread {
            let _ = thread.join();
        }
        let text = |thread: Option<std::thread::JoinHandle<Vec<u8>>>| {
            thread
                .and_then(|t| t.join().ok())
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_default()
        };
        let output = Output {
            status: status.code(),
            stdout: text(stdout_thread),
            stderr: text(stderr_thread),
        };
        if spec.check && !output.success() {
            return Err(CommandError::Failed {
                command: shown,
                output,
            });
        }
        Ok(output)
    }
}

/// Short commands finish in a few milliseconds: poll fast at first, then
/// back off so a long command does not cost a busy loop.
fn poll_interval(elapsed: Duration) -> Duration {
    if elapsed < Duration::from_millis(50) {
        Duration::from_micros(500)
    } else {
        Duration::from_millis(10)
    }
}

/// Finds a command: an absolute path must exist and be executable; a bare
/// name is searched on `PATH` (plus the sbin directories, which `PATH`
/// often lacks for non-root users).
pub fn which(command: &str) -> Option<PathBuf> {
    let path = Path::new(command);
    if command.contains('/') {
        return is_executable(path).then(|| path.to_path_buf());
    }
    let search = std::env::var("PATH").unwrap_or_default();
    search
        .split(':')
        .filter(|dir| !dir.is_empty())
        .chain(["/usr/local/sbin", "/usr/sbin", "/sbin"])
        .map(|dir| Path::new(dir).join(command))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_passed_without_a_shell() {
        let runner = Runner::default();
        let output = runner
            .run(&CommandSpec::new(&["echo", "$HOME; rm -rf /"]))
            .unwrap();
        assert_eq!(output.stdout, "$HOME; rm -rf /\n");
    }

    #[test]
    fn stdin_is_fed_and_failures_carry_stderr() {
        let runner = Runner::default();
        let output = runner
            .run(&CommandSpec::new(&["cat"]).stdin("hello"))
            .unwrap();
        assert_eq!(output.stdout, "hello");
        let error = runner
            .run(&CommandSpec::shell("echo oops >&2; exit 3"))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "Execution of '/bin/sh -c 'echo oops >&2; exit 3'' returned 3: oops"
        );
    }

    #[test]
    fn a_timeout_kills_the_whole_process_group() {
        let runner = Runner::default();
        let started = Instant::now();
        let error = runner
            .run(&CommandSpec::shell("sleep 30 & sleep 30").timeout(Duration::from_millis(200)))
            .unwrap_err();
        assert!(matches!(error, CommandError::Timeout { .. }), "{error}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn missing_commands_are_reported_by_name() {
        let error = Runner::default()
            .run(&CommandSpec::new(&["mrtest-no-such-command"]))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "Could not find command 'mrtest-no-such-command'"
        );
    }
}
