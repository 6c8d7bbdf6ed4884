//! The one door to processes: every provider runs commands through the
//! [`Runner`], which passes argv without a shell unless asked, sets
//! `LANG=C` (unless the command keeps the agent's locale), starts it as
//! Puppet starts its children (no controlling terminal, without the
//! agent's HOME, USER and LOGNAME, as its user with that user's groups),
//! closes or feeds stdin, captures output, enforces a timeout by killing
//! the whole process group, and logs each command at debug level.

use std::os::fd::{AsRawFd, OwnedFd};
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
    /// With `shell`, the shell's `$0` is `sh`, as Ruby names it when it
    /// hands a command string to the shell (exec's posix provider, whose
    /// errors read `sh: 1: wget: not found`), rather than `/bin/sh`.
    pub as_ruby: bool,
    pub stdin: Option<Vec<u8>>,
    /// Extra environment variables, on top of the runner's own.
    pub env: Vec<(String, String)>,
    /// Variables of this process's environment the command does not
    /// inherit (unless `env` sets them again).
    pub env_remove: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub timeout: Option<Duration>,
    /// When set, a non-zero exit status is an error.
    pub check: bool,
    /// Whether stdin/argv may hold secrets: then they are not logged.
    pub sensitive: bool,
    /// Run as this user and group (needs root). The user's supplementary
    /// groups come with it, as `initgroups` gives them at a login.
    pub uid: Option<u32>,
    pub gid: Option<u32>,
    /// The agent's locale is kept (exec's commands, whose output is the
    /// user's), rather than `LANG=C` and `LC_ALL=C` (what providers run
    /// for themselves and parse).
    pub keep_locale: bool,
    /// The file mode creation mask of the command.
    pub umask: Option<u32>,
    /// Standard error goes to the same pipe as standard output, so
    /// [`Output::stdout`] holds both in the order they were written and
    /// [`Output::stderr`] stays empty.
    pub combine: bool,
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

    /// See [`CommandSpec::as_ruby`].
    pub fn as_ruby(mut self) -> CommandSpec {
        self.as_ruby = true;
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

    pub fn env_remove(mut self, name: &str) -> CommandSpec {
        self.env_remove.push(name.to_string());
        self
    }

    pub fn sensitive(mut self) -> CommandSpec {
        self.sensitive = true;
        self
    }

    pub fn combined(mut self) -> CommandSpec {
        self.combine = true;
        self
    }

    /// The command as the debug log shows it.
    pub fn display(&self) -> String {
        if self.sensitive {
            // A shell command's only element is the whole script, so none
            // of it may be shown.
            if self.shell {
                return "/bin/sh -c [redacted]".to_string();
            }
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
    /// `said` is what the error message shows of the output: standard
    /// error, or both outputs when they were combined (as Puppet shows
    /// them), but never the standard output of a sensitive command.
    #[error("Execution of '{command}' returned {}: {said}", .output.status.map_or("a signal".to_string(), |s| s.to_string()))]
    Failed {
        command: String,
        output: Output,
        said: String,
    },
    #[error(
        "Command exceeded timeout: '{command}' ran longer than {seconds} seconds and was killed"
    )]
    Timeout { command: String, seconds: u64 },
}

/// Who a command runs as, worked out before the fork: after it, only
/// system calls may run. Its privileges are dropped after the working
/// directory is entered, as Puppet does, so a directory only root may
/// enter can still hold a command run as another user.
struct Account {
    uid: Option<libc::uid_t>,
    gid: Option<libc::gid_t>,
    /// The user's groups, as `initgroups` makes them (its groups in the
    /// group database, and its own primary group); none when only the
    /// group changes.
    groups: Option<Vec<libc::gid_t>>,
}

impl Account {
    fn of(uid: Option<u32>, gid: Option<u32>) -> std::io::Result<Account> {
        // Only root may set groups; for anyone else the uid is its own
        // (the exec checked), and its groups stay as they are.
        // SAFETY: geteuid(2) cannot fail or touch memory.
        let root = unsafe { libc::geteuid() } == 0;
        let groups = match uid.filter(|_| root) {
            // A uid no account has (exec takes numbers as they are) keeps
            // only its group.
            Some(uid) => Some(groups_of(uid)?.unwrap_or_else(|| gid.into_iter().collect())),
            None => None,
        };
        Ok(Account { uid, gid, groups })
    }

    fn become_it(&self) -> std::io::Result<()> {
        let check = |result: libc::c_int| {
            if result == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        };
        // SAFETY: system calls given plain numbers, and a list that
        // outlives them.
        unsafe {
            if let Some(groups) = &self.groups {
                check(libc::setgroups(groups.len(), groups.as_ptr()))?;
            }
            if let Some(gid) = self.gid {
                check(libc::setgid(gid))?;
            }
            if let Some(uid) = self.uid {
                check(libc::setuid(uid))?;
            }
        }
        Ok(())
    }
}

/// The groups `initgroups(3)` gives the user `uid` (from the name service,
/// as a login gets them), or None when the user is unknown; an error when
/// the name service cannot say (Puppet's command fails then too, rather
/// than run with fewer groups).
fn groups_of(uid: u32) -> Result<Option<Vec<libc::gid_t>>, std::io::Error> {
    let mut buffer = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: passwd is plain data; getpwuid_r fills it with pointers
    // into `buffer`, which outlives every use of them below.
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    loop {
        let status = unsafe {
            libc::getpwuid_r(
                uid,
                &mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &mut found,
            )
        };
        match status {
            0 => break,
            libc::ERANGE if buffer.len() < 1 << 24 => buffer.resize(buffer.len() * 4, 0),
            error => return Err(std::io::Error::from_raw_os_error(error)),
        }
    }
    if found.is_null() {
        return Ok(None);
    }
    let mut count: libc::c_int = 32;
    loop {
        let mut groups = vec![0 as libc::gid_t; count as usize];
        let asked = count;
        // SAFETY: the name is the entry's, NUL-terminated in `buffer`; the
        // list has room for `count` groups, and getgrouplist says how
        // many it needs when that is too few.
        let listed = unsafe {
            libc::getgrouplist(entry.pw_name, entry.pw_gid, groups.as_mut_ptr(), &mut count)
        };
        if listed >= 0 {
            groups.truncate(count as usize);
            return Ok(Some(groups));
        }
        if count <= asked {
            return Err(std::io::Error::other(format!(
                "could not list the groups of uid {uid}"
            )));
        }
    }
}

/// Keeps the descriptors this process was started with (beyond the three
/// standard ones) from every command it runs, as Puppet closes them in
/// each child: a daemon a service starts would otherwise hold the pipes
/// of whatever started the agent (a CI job, a shell's process
/// substitution) open for as long as it lives. Called once, at start-up.
pub fn keep_inherited_descriptors_from_commands() {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let inherited: Vec<libc::c_int> = entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .filter(|fd| *fd > 2)
        .collect();
    for fd in inherited {
        // SAFETY: fcntl(2) on a descriptor number; one that closed since
        // it was listed (the listing's own) only makes it fail.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
            }
        }
    }
}

/// Whether this process has a controlling terminal (`/dev/tty` opens),
/// asked once.
fn has_terminal() -> bool {
    static ANSWER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ANSWER.get_or_init(|| {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOCTTY)
            .open("/dev/tty")
            .is_ok()
    })
}

/// Runs commands for providers.
#[derive(Clone, Default)]
pub struct Runner {
    logger: Logger,
}

/// A signal the process received that the command under way should get
/// too (0: none). Commands run in process groups of their own, so a
/// terminal's Ctrl-C and a service manager's TERM reach only Marionette;
/// it passes them on, and the command ends as it would have run alone.
static PASSED_ON: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// Passes `signal` on to the command under way and to any later one of
/// this run. Safe to call from a signal handler.
pub fn pass_on(signal: i32) {
    PASSED_ON.store(signal, std::sync::atomic::Ordering::SeqCst);
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
            if spec.as_ruby {
                std::os::unix::process::CommandExt::arg0(&mut c, "sh");
            }
            c.arg("-c").arg(program);
            c
        } else {
            let resolved = which(program).ok_or_else(|| CommandError::NotFound(program.clone()))?;
            let mut c = Command::new(resolved);
            c.args(&spec.argv[1..]);
            c
        };
        if !spec.keep_locale {
            command.env("LANG", "C").env("LC_ALL", "C");
        }
        command.stdin(if spec.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        // A process group of its own, so a timeout can kill every child
        // too. With a terminal, a session of its own, as Puppet starts
        // every command: no controlling terminal to prompt on (ssh,
        // debconf). Without one (a daemon, CI), the group is the same
        // thing, and lets the command start without a fork of this
        // process (a hook forces one: 0.7 ms a command).
        if has_terminal() {
            // SAFETY: setsid(2) is a system call, async-signal-safe as a
            // pre_exec hook requires; the forked child leads no group yet.
            unsafe {
                command.pre_exec(|| {
                    if libc::setsid() < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        } else {
            command.process_group(0);
        }
        let spawn_error = |e: std::io::Error| CommandError::Spawn {
            command: shown.clone(),
            message: e.to_string(),
        };
        let combined = if spec.combine {
            let (reader, writer) = std::io::pipe().map_err(spawn_error)?;
            command
                .stdout(writer.try_clone().map_err(spawn_error)?)
                .stderr(writer);
            Some(reader)
        } else {
            command.stdout(Stdio::piped()).stderr(Stdio::piped());
            None
        };
        // Like Puppet, no command inherits the agent's idea of the user:
        // one run as another account, or a daemon a service starts, would
        // otherwise take root's home directory for its own.
        for name in ["HOME", "USER", "LOGNAME"]
            .iter()
            .copied()
            .chain(spec.env_remove.iter().map(String::as_str))
        {
            command.env_remove(name);
        }
        for (name, value) in &spec.env {
            command.env(name, value);
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
        if spec.uid.is_some() || spec.gid.is_some() {
            let account = Account::of(spec.uid, spec.gid).map_err(spawn_error)?;
            // SAFETY: setgroups(2), setgid(2) and setuid(2) are system
            // calls, async-signal-safe as a pre_exec hook requires; the
            // list they read was made before the fork.
            unsafe {
                command.pre_exec(move || account.become_it());
            }
        }
        let mut child = command.spawn().map_err(spawn_error)?;
        // The command keeps the parent's copies of the combined pipe's
        // write end; they must be closed for the reader to see the end.
        drop(command);
        let stdout = match combined {
            Some(reader) => Some(OwnedFd::from(reader)),
            None => child.stdout.take().map(OwnedFd::from),
        };
        let mut streams = Streams {
            input: child.stdin.take().map(OwnedFd::from),
            to_write: spec.stdin.as_deref().unwrap_or_default(),
            outputs: [stdout, child.stderr.take().map(OwnedFd::from)].map(|pipe| Stream {
                pipe,
                bytes: Vec::new(),
            }),
        };
        streams.nonblocking().map_err(spawn_error)?;
        let started = Instant::now();
        let mut signalled = false;
        let exit = ExitWatch::new(&child);
        // One thread feeds stdin and reads both outputs while it waits for
        // the exit, so a child that fills its stdout pipe while its stdin
        // is still being written cannot deadlock, and no thread is started
        // per command (a provider may run thousands).
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
            let pending = PASSED_ON.load(std::sync::atomic::Ordering::SeqCst);
            if pending != 0 && !signalled {
                // SAFETY: kill(2) with the negative id of the group the
                // child leads; it cannot touch memory.
                unsafe {
                    libc::kill(-(child.id() as i32), pending);
                }
                signalled = true;
            }
            let mut wait = exit.interval(started.elapsed());
            if let Some(limit) = spec.timeout {
                let elapsed = started.elapsed();
                if elapsed >= limit {
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
                wait = wait.min(limit - elapsed);
            }
            streams.serve(exit.fd(), wait);
        };
        // A background process the command started may hold the pipes open
        // long after the command itself exited (`daemon &`): wait a moment
        // for the end of the output, then take what has arrived.
        streams.input = None;
        let deadline = Instant::now() + OUTPUT_GRACE;
        while streams.reading() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            streams.serve(None, left);
        }
        let [stdout, stderr] = streams
            .outputs
            .map(|o| String::from_utf8_lossy(&o.bytes).into_owned());
        let output = Output {
            status: status.code(),
            stdout,
            stderr,
        };
        if spec.check && !output.success() {
            let said = if spec.combine && !spec.sensitive {
                output.stdout.trim()
            } else {
                output.stderr.trim()
            }
            .to_string();
            return Err(CommandError::Failed {
                command: shown,
                output,
                said,
            });
        }
        Ok(output)
    }
}

/// How long output is still awaited after the command exited, for the
/// case where a process it left in the background keeps the pipe open.
const OUTPUT_GRACE: Duration = Duration::from_millis(250);

/// A command's pipes, seen from this side: its stdin while there is input
/// left to give, and its two outputs (the second unused when combined)
/// until each ends.
struct Streams<'a> {
    input: Option<OwnedFd>,
    to_write: &'a [u8],
    outputs: [Stream; 2],
}

struct Stream {
    pipe: Option<OwnedFd>,
    bytes: Vec<u8>,
}

impl Streams<'_> {
    /// Makes this side's ends non-blocking (the child's ends are other
    /// open files and stay as they are), and closes stdin at once when
    /// there is nothing to give.
    fn nonblocking(&mut self) -> std::io::Result<()> {
        if self.to_write.is_empty() {
            self.input = None;
        }
        let ends = self.outputs.iter().filter_map(|o| o.pipe.as_ref());
        for fd in self.input.iter().chain(ends) {
            // SAFETY: fcntl(2) on a descriptor this owns; it changes only
            // the descriptor's flags.
            let done = unsafe {
                let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
                flags >= 0
                    && libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) >= 0
            };
            if !done {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }

    fn reading(&self) -> bool {
        self.outputs.iter().any(|o| o.pipe.is_some())
    }

    /// Waits up to `limit` for a pipe to be ready or for `exit` (a
    /// process descriptor) to say the child ended, then moves what it
    /// can: an interrupted wait returns early, which every caller's loop
    /// allows.
    fn serve(&mut self, exit: Option<&OwnedFd>, limit: Duration) {
        let mut polls = Vec::with_capacity(4);
        let watch = |fd: &OwnedFd, events| libc::pollfd {
            fd: fd.as_raw_fd(),
            events,
            revents: 0,
        };
        if let Some(fd) = &self.input {
            polls.push(watch(fd, libc::POLLOUT));
        }
        for output in &self.outputs {
            if let Some(fd) = &output.pipe {
                polls.push(watch(fd, libc::POLLIN));
            }
        }
        if let Some(fd) = exit {
            polls.push(watch(fd, libc::POLLIN));
        }
        let millis = i32::try_from(limit.as_micros().div_ceil(1000)).unwrap_or(i32::MAX);
        // SAFETY: valid pollfds for descriptors this owns, as many as
        // given.
        let ready = unsafe { libc::poll(polls.as_mut_ptr(), polls.len() as libc::nfds_t, millis) };
        if ready <= 0 {
            return;
        }
        let mut polled = polls.iter();
        if let Some(fd) = &self.input
            && polled.next().is_some_and(|p| p.revents != 0)
        {
            // SAFETY: write(2) from a slice of the given length.
            let written = unsafe {
                libc::write(
                    fd.as_raw_fd(),
                    self.to_write.as_ptr().cast(),
                    self.to_write.len(),
                )
            };
            match usize::try_from(written) {
                Ok(written) => self.to_write = &self.to_write[written..],
                Err(_) => match std::io::Error::last_os_error().kind() {
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted => {}
                    // The child closed its stdin (or it broke): it reads
                    // no more.
                    _ => self.to_write = &[],
                },
            }
            if self.to_write.is_empty() {
                self.input = None;
            }
        }
        for output in &mut self.outputs {
            let Some(fd) = &output.pipe else { continue };
            if polled.next().is_none_or(|p| p.revents == 0) {
                continue;
            }
            let mut chunk = [0u8; 8192];
            loop {
                // SAFETY: read(2) into a buffer of the given length.
                let read =
                    unsafe { libc::read(fd.as_raw_fd(), chunk.as_mut_ptr().cast(), chunk.len()) };
                match read {
                    0 => {
                        output.pipe = None;
                        break;
                    }
                    n if n > 0 => output.bytes.extend_from_slice(&chunk[..n as usize]),
                    _ => {
                        let error = std::io::Error::last_os_error();
                        match error.kind() {
                            std::io::ErrorKind::Interrupted => {}
                            std::io::ErrorKind::WouldBlock => break,
                            _ => {
                                output.pipe = None;
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A child's exit, seen through a descriptor of the process
/// (`pidfd_open(2)`, Linux 5.3 and later), which wakes a wait the moment
/// it exits; without one, waits are short sleeps. Either way each wait is
/// bounded, so that a signal to pass on or a timeout is noticed.
struct ExitWatch(Option<OwnedFd>);

impl ExitWatch {
    fn new(child: &std::process::Child) -> ExitWatch {
        use std::os::fd::FromRawFd;
        // SAFETY: pidfd_open(2) only returns a new descriptor (or -1); the
        // process is our unwaited child, so its id cannot be reused yet.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id(), 0) };
        ExitWatch(
            i32::try_from(fd)
                .ok()
                .filter(|fd| *fd >= 0)
                // SAFETY: a descriptor just opened, owned by nothing else.
                .map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }),
        )
    }

    fn fd(&self) -> Option<&OwnedFd> {
        self.0.as_ref()
    }

    /// How long one wait may last: the descriptor wakes it at the exit, so
    /// only a passed-on signal needs it short.
    fn interval(&self, elapsed: Duration) -> Duration {
        match self.0 {
            Some(_) => Duration::from_millis(10),
            None => poll_interval(elapsed),
        }
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
    fn a_command_that_writes_while_its_input_is_fed_does_not_deadlock() {
        // Far more than a pipe holds, each way at once.
        let input: Vec<u8> = (0..4 << 20).map(|i| b'a' + (i % 26) as u8).collect();
        let output = Runner::default()
            .run(&CommandSpec::new(&["cat"]).stdin(input.clone()))
            .unwrap();
        assert_eq!(output.stdout.as_bytes(), &input[..]);
        let stopped = Runner::default()
            .run(&CommandSpec::shell("head -c 10").stdin(input))
            .unwrap();
        assert_eq!(stopped.stdout, "abcdefghij");
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
    fn a_command_leads_its_group_without_a_terminal() {
        // The fields of /proc/PID/stat after the command's name: state,
        // parent, group, session; then whether /dev/tty opens.
        let output = Runner::default()
            .run(&CommandSpec::shell(
                "stat=$(cat /proc/$$/stat); set -- ${stat##*) }; echo \"$$ $3\"; \
                 if (: </dev/tty) 2>/dev/null; then echo terminal; else echo none; fi",
            ))
            .unwrap();
        let mut lines = output.stdout.lines();
        let ids: Vec<&str> = lines
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        assert!(ids.len() == 2 && ids[0] == ids[1], "{}", output.stdout);
        assert_eq!(lines.next(), Some("none"), "{}", output.stdout);
    }

    #[test]
    fn the_agents_user_variables_are_never_inherited() {
        let output = Runner::default()
            .run(&CommandSpec::shell(
                "echo \"${HOME-unset} ${USER-unset} ${LOGNAME-unset}\"",
            ))
            .unwrap();
        assert_eq!(output.stdout, "unset unset unset\n");
    }

    #[test]
    fn removed_variables_are_not_inherited_unless_set_again() {
        let output = Runner::default()
            .run(
                &CommandSpec::shell("echo \"${HOME-unset} ${USER-unset}\"")
                    .env_remove("HOME")
                    .env_remove("USER")
                    .env("USER", "someone"),
            )
            .unwrap();
        assert_eq!(output.stdout, "unset someone\n");
    }

    #[test]
    fn a_background_process_holding_the_pipe_does_not_hold_the_run() {
        let started = Instant::now();
        let output = Runner::default()
            .run(&CommandSpec::shell("sleep 3 & echo started"))
            .unwrap();
        assert_eq!(output.stdout, "started\n");
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn combined_output_keeps_the_order_of_writes() {
        let output = Runner::default()
            .run(&CommandSpec::shell("echo one; echo two >&2; echo three").combined())
            .unwrap();
        assert_eq!(output.stdout, "one\ntwo\nthree\n");
        assert_eq!(output.stderr, "");
    }

    #[test]
    fn a_sensitive_shell_script_is_never_shown() {
        let spec = CommandSpec::shell("echo secret").sensitive();
        assert_eq!(spec.display(), "/bin/sh -c [redacted]");
        let error = Runner::default()
            .run(&CommandSpec::shell("echo secret; exit 2").sensitive())
            .unwrap_err();
        assert!(!error.to_string().contains("secret"), "{error}");
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
