//! Providers of the `service` type, and what they share.
//!
//! Every provider answers the same questions (does the service run, start
//! it, stop it, restart it, does it start at boot) in the same order of
//! preference that Puppet uses: a command the user gave (`start`, `stop`,
//! `status`, `restart`) first, then the provider's own command, then a
//! fallback (the process table for the status and the stop, a stop and a
//! start for the restart). [`Service`] holds that logic once; a provider
//! only says what its own commands are, through [`Flavor`].

pub mod base;
pub mod debian;
pub mod systemd;

use std::path::Path;
use std::time::{Duration, Instant};

use marionette_ral::attribute::{insync, value_text};
use marionette_ral::{
    CommandError, CommandSpec, Context, Instance, Level, Output, PropertyHash, PropertyProvider,
    ProviderError, Resource,
};
use marionette_values::{Regex, Value};

/// The four things done to a service with a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    Start,
    Stop,
    Status,
    Restart,
}

impl Action {
    /// The name of the action, which is also the attribute holding the
    /// user's command for it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Action::Start => "start",
            Action::Stop => "stop",
            Action::Status => "status",
            Action::Restart => "restart",
        }
    }
}

/// One resource's commands during one provider call: the context, the
/// resource and its time limit.
pub(crate) struct Job<'a> {
    pub(crate) cx: &'a Context,
    pub(crate) resource: &'a Resource,
    source: String,
    timeout: Option<Duration>,
}

impl<'a> Job<'a> {
    pub(crate) fn new(cx: &'a Context, resource: &'a Resource) -> Job<'a> {
        let timeout = match resource.get("timeout") {
            Some(Value::Integer(seconds)) if *seconds > 0 => {
                Some(Duration::from_secs(*seconds as u64))
            }
            _ => None,
        };
        Job {
            cx,
            resource,
            source: resource.path(),
            timeout,
        }
    }

    /// The service's name, as the system knows it.
    pub(crate) fn name(&self) -> String {
        self.resource.name()
    }

    pub(crate) fn debug(&self, message: &str) {
        self.cx.logger.log(Level::Debug, &self.source, message);
    }

    pub(crate) fn info(&self, message: &str) {
        self.cx.logger.log(Level::Info, &self.source, message);
    }

    /// The command the user gave for an action: a string is shell code
    /// (Puppet hands such strings to a shell as well, which is what lets
    /// `start => '/usr/sbin/daemon &'` work), an array is a program and its
    /// arguments.
    fn user_command(&self, action: Action) -> Option<CommandSpec> {
        match self.resource.get(action.name())? {
            Value::Array(items) => {
                let argv: Vec<String> = items.iter().map(value_text).collect();
                Some(CommandSpec::new(&argv))
            }
            other => Some(CommandSpec::shell(&value_text(other))),
        }
    }

    /// Runs a command with the resource's time limit, standard output and
    /// error together, whatever its exit status.
    pub(crate) fn run(&self, spec: CommandSpec) -> Result<Output, CommandError> {
        let mut spec = spec.unchecked().combined();
        spec.timeout = self.timeout;
        self.cx.run(&spec)
    }

    /// Runs the command of an action, which must succeed; a failure names
    /// the action and the resource, with the command's output.
    pub(crate) fn perform(&self, action: Action, spec: CommandSpec) -> Result<(), ProviderError> {
        // The user's shell command is shown as written, as Puppet does,
        // not wrapped in the `/bin/sh -c` that runs it.
        let shown = match spec.argv.as_slice() {
            [script] if spec.shell => script.clone(),
            _ => spec.display(),
        };
        let failed = |detail: String| {
            ProviderError::new(format!(
                "Could not {} {}: {detail}",
                action.name(),
                self.resource.reference()
            ))
        };
        let output = self.run(spec).map_err(|e| failed(e.to_string()))?;
        if output.success() {
            return Ok(());
        }
        let status = output
            .status
            .map_or("a signal".to_string(), |code| code.to_string());
        Err(failed(format!(
            "Execution of '{shown}' returned {status}: {}",
            output.stdout.trim()
        )))
    }

    /// Whether a command exits with 0 (a status check).
    pub(crate) fn succeeds(&self, spec: CommandSpec) -> Result<bool, ProviderError> {
        let shown = spec.display();
        let output = self.run(spec).map_err(|e| {
            ProviderError::new(format!(
                "Could not get the status of {}: {e}",
                self.resource.reference()
            ))
        })?;
        if !output.stdout.trim().is_empty() {
            self.debug(&format!("'{shown}' said: {}", output.stdout.trim()));
        }
        Ok(output.success())
    }

    /// The pattern that finds the service's processes.
    fn pattern(&self) -> Result<Regex, ProviderError> {
        let text = self
            .resource
            .text("pattern")
            .unwrap_or_else(|| crate::types::service::escape_regex(&self.name()));
        Regex::new(&text).map_err(|e| ProviderError::new(format!("Invalid pattern '{text}': {e}")))
    }

    /// The processes the pattern finds.
    fn processes(&self) -> Result<Vec<i32>, ProviderError> {
        let pattern = self.pattern()?;
        let found = matching_processes(Path::new("/proc"), &pattern);
        if !found.is_empty() {
            self.debug(&format!(
                "Processes matching /{}/: {}",
                pattern.source(),
                join(&found)
            ));
        }
        Ok(found)
    }
}

fn join(pids: &[i32]) -> String {
    pids.iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What each provider says about a service in its own way.
pub(crate) trait Flavor: Send + Sync {
    /// The provider's own command for an action, as argv, or `None` when
    /// it has none (then the shared fallback applies).
    fn command(&self, job: &Job<'_>, action: Action) -> Result<Option<Vec<String>>, ProviderError>;

    /// Runs before the provider's own start or restart command
    /// (systemd reloads changed unit files and unmasks).
    fn before_start(&self, job: &Job<'_>) -> Result<(), ProviderError> {
        let _ = job;
        Ok(())
    }

    /// Whether the service starts at boot (`true`, `false`, `mask`), or
    /// `None` when the provider cannot tell.
    fn enabled(&self, job: &Job<'_>) -> Result<Option<Value>, ProviderError> {
        let _ = job;
        Ok(None)
    }

    /// Makes the service start at boot (`true`), or not (`false`, `mask`).
    fn set_enabled(&self, job: &Job<'_>, value: &str) -> Result<(), ProviderError> {
        let _ = (job, value);
        Err(ProviderError::new(
            "this provider cannot enable or disable services",
        ))
    }

    /// Every service the provider can list, with `ensure` and `enable`.
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let _ = cx;
        Ok(Vec::new())
    }

    /// Adds what went wrong according to the system's own logs to a
    /// failed start or restart (systemd's journal).
    fn explain_failure(&self, job: &Job<'_>, error: ProviderError) -> ProviderError {
        let _ = job;
        error
    }
}

/// A service provider: the shared logic over one [`Flavor`].
pub(crate) struct Service<F: Flavor>(pub(crate) F);

pub(crate) fn text(value: &str) -> Value {
    Value::String(value.into())
}

impl<F: Flavor> Service<F> {
    /// Whether the service runs: the user's status command, the provider's,
    /// or the process table.
    pub(crate) fn running(&self, job: &Job<'_>) -> Result<bool, ProviderError> {
        if let Some(spec) = job.user_command(Action::Status) {
            return job.succeeds(spec);
        }
        if let Some(argv) = self.0.command(job, Action::Status)? {
            return job.succeeds(CommandSpec::new(&argv));
        }
        Ok(!job.processes()?.is_empty())
    }

    fn start(&self, job: &Job<'_>) -> Result<(), ProviderError> {
        if let Some(spec) = job.user_command(Action::Start) {
            return job.perform(Action::Start, spec);
        }
        match self.0.command(job, Action::Start)? {
            Some(argv) => {
                self.0.before_start(job)?;
                job.perform(Action::Start, CommandSpec::new(&argv))
                    .map_err(|e| self.0.explain_failure(job, e))
            }
            None => Err(ProviderError::new(
                "Services must specify a start command or a binary",
            )),
        }
    }

    fn stop(&self, job: &Job<'_>) -> Result<(), ProviderError> {
        if let Some(spec) = job.user_command(Action::Stop) {
            return job.perform(Action::Stop, spec);
        }
        if let Some(argv) = self.0.command(job, Action::Stop)? {
            return job.perform(Action::Stop, CommandSpec::new(&argv));
        }
        let found = job.processes()?;
        if found.is_empty() {
            job.info(&format!("{} is not running", job.name()));
            return Ok(());
        }
        terminate(job, &found)
    }

    fn restart(&self, job: &Job<'_>) -> Result<(), ProviderError> {
        if let Some(spec) = job.user_command(Action::Restart) {
            return job.perform(Action::Restart, spec);
        }
        if let Some(argv) = self.0.command(job, Action::Restart)? {
            self.0.before_start(job)?;
            return job
                .perform(Action::Restart, CommandSpec::new(&argv))
                .map_err(|e| self.0.explain_failure(job, e));
        }
        self.stop(job)?;
        self.start(job)
    }

    /// Brings `enable` in line, as part of syncing `ensure`: Puppet does
    /// both in one step, so a service that is started is also enabled in
    /// the same run, without an event of its own.
    fn sync_enable(&self, job: &Job<'_>) -> Result<(), ProviderError> {
        let resource = job.resource;
        let (Some(attr), Some(desired)) = (
            resource.type_def().attribute("enable"),
            resource.get("enable"),
        ) else {
            return Ok(());
        };
        let Some(current) = self.0.enabled(job)? else {
            return Ok(());
        };
        if insync(attr, resource, &current, desired) {
            return Ok(());
        }
        let target = marionette_ral::attribute::sync_value(attr, desired);
        self.0.set_enabled(job, &value_text(&target))
    }
}

impl<F: Flavor> PropertyProvider for Service<F> {
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        self.0.instances(cx)
    }

    /// Nothing is read ahead: whether a service runs can change during the
    /// run (installing a package may start it), so it is asked when the
    /// resource is evaluated. This also keeps the default prefetch from
    /// listing every service on the system.
    fn prefetch(
        &self,
        _cx: &Context,
        _instances: &mut [Instance<'_>],
    ) -> Result<(), ProviderError> {
        Ok(())
    }

    /// A service is always there to ask about; a missing one fails when
    /// its commands run.
    fn exists(&self, _cx: &Context, _instance: &Instance<'_>) -> Result<bool, ProviderError> {
        Ok(true)
    }

    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        let job = Job::new(cx, instance.resource);
        match attr {
            "ensure" => Ok(Some(text(if self.running(&job)? {
                "running"
            } else {
                "stopped"
            }))),
            "enable" => self.0.enabled(&job),
            _ => Ok(None),
        }
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        let job = Job::new(cx, instance.resource);
        // A failed `ensure` is also logged on its own, without a source,
        // before the failed change is, as Puppet reports it.
        let reported = |result: Result<(), ProviderError>| {
            if let Err(e) = &result {
                cx.logger.log(Level::Err, "", &e.0);
            }
            result
        };
        match (attr, value_text(value).as_str()) {
            ("ensure", "running") => {
                reported(self.start(&job).and_then(|()| self.sync_enable(&job)))
            }
            ("ensure", "stopped") => {
                reported(self.stop(&job).and_then(|()| self.sync_enable(&job)))
            }
            ("enable", wanted) => self.0.set_enabled(&job, wanted),
            (attr, wanted) => Err(ProviderError::new(format!(
                "cannot set {attr} to '{wanted}' on a service"
            ))),
        }
    }

    /// A refresh restarts the service when it runs; a stopped service, or
    /// one that should be stopped, is left alone.
    fn refresh(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let job = Job::new(cx, instance.resource);
        if instance.resource.text("ensure").as_deref() == Some("stopped") || !self.running(&job)? {
            job.debug("Skipping restart; service is not running");
            return Ok(());
        }
        self.restart(&job)
    }
}

/// How long stopped processes get to exit when the resource sets no
/// timeout.
const STOP_GRACE: Duration = Duration::from_secs(10);

/// Sends SIGTERM to the processes and waits until they are gone.
fn terminate(job: &Job<'_>, pids: &[i32]) -> Result<(), ProviderError> {
    for pid in pids {
        job.debug(&format!("Sending SIGTERM to {pid}"));
        // SAFETY: kill(2) takes plain integers and touches no memory; a
        // process that ended in the meantime only makes it fail.
        let result = unsafe { libc::kill(*pid, libc::SIGTERM) };
        if result != 0 {
            let error = std::io::Error::last_os_error();
            if error.raw_os_error() != Some(libc::ESRCH) {
                return Err(ProviderError::new(format!(
                    "Could not stop {}: could not signal process {pid}: {error}",
                    job.resource.reference()
                )));
            }
        }
    }
    // Waiting makes a stop followed by a start (a restart) reliable: the
    // old process must not be found, or still hold its resources, when the
    // new one starts.
    let limit = job.timeout.unwrap_or(STOP_GRACE);
    let started = Instant::now();
    loop {
        let left: Vec<i32> = pids
            .iter()
            .copied()
            .filter(|pid| command_line(Path::new("/proc"), *pid).is_some())
            .collect();
        if left.is_empty() {
            return Ok(());
        }
        if started.elapsed() >= limit {
            return Err(ProviderError::new(format!(
                "Could not stop {}: process {} still runs {} seconds after SIGTERM",
                job.resource.reference(),
                join(&left),
                limit.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A process's command line, its arguments joined by blanks; `None` for a
/// process that is gone, a zombie, or a kernel thread (none has one).
fn command_line(proc: &Path, pid: i32) -> Option<String> {
    let bytes = std::fs::read(proc.join(pid.to_string()).join("cmdline")).ok()?;
    let trimmed = bytes.strip_suffix(b"\0").unwrap_or(&bytes);
    if trimmed.is_empty() {
        return None;
    }
    let text: Vec<u8> = trimmed
        .iter()
        .map(|&b| if b == 0 { b' ' } else { b })
        .collect();
    Some(String::from_utf8_lossy(&text).into_owned())
}

/// The parent of a process, from `/proc/PID/stat`.
fn parent(proc: &Path, pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(proc.join(pid.to_string()).join("stat")).ok()?;
    // The command name, in parentheses, may hold blanks and parentheses:
    // the fields after it start after the last closing one.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// This process and its ancestors: they must never match a pattern, or
/// `marionette resource service mydaemon ensure=stopped` run from a shell
/// or through sudo would find, and stop, its own caller.
fn own_lineage(proc: &Path) -> Vec<i32> {
    let mut lineage = vec![std::process::id() as i32];
    while let Some(&last) = lineage.last() {
        match parent(proc, last) {
            Some(up) if up > 1 && !lineage.contains(&up) => lineage.push(up),
            _ => break,
        }
    }
    lineage
}

/// The processes whose command line the pattern matches, in pid order.
fn matching_processes(proc: &Path, pattern: &Regex) -> Vec<i32> {
    let excluded = own_lineage(proc);
    let Ok(entries) = std::fs::read_dir(proc) else {
        return Vec::new();
    };
    let mut found: Vec<i32> = entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| !excluded.contains(pid))
        .filter(|pid| command_line(proc, *pid).is_some_and(|line| pattern.is_match(&line)))
        .collect();
    found.sort_unstable();
    found
}

/// Runs `work` on each item with a few threads, keeping the order: listing
/// services means one status command per service.
pub(crate) fn parallel_map<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() < 2 {
        return items.iter().map(&work).collect();
    }
    // Status scripts mostly keep a processor busy starting a shell: one
    // thread more than there are processors keeps them all working, and
    // more threads only compete for them.
    let threads = marionette_values::parallel::cores()
        .saturating_add(1)
        .min(8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: std::sync::Mutex<Vec<Option<R>>> =
        std::sync::Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(items.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(index) else {
                        break;
                    };
                    let result = work(item);
                    results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(result);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_own_process_is_never_matched() {
        let line = command_line(Path::new("/proc"), std::process::id() as i32).unwrap();
        let pattern = Regex::new(&crate::types::service::escape_regex(&line)).unwrap();
        let found = matching_processes(Path::new("/proc"), &pattern);
        assert!(!found.contains(&(std::process::id() as i32)), "{found:?}");
        assert!(own_lineage(Path::new("/proc")).len() >= 2);
    }

    #[test]
    fn command_lines_join_arguments_with_blanks() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("42")).unwrap();
        std::fs::write(
            dir.path().join("42/cmdline"),
            b"/bin/sh\0/opt/my daemon\0-x\0",
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("43")).unwrap();
        std::fs::write(dir.path().join("43/cmdline"), b"").unwrap();
        assert_eq!(
            command_line(dir.path(), 42).as_deref(),
            Some("/bin/sh /opt/my daemon -x")
        );
        assert_eq!(command_line(dir.path(), 43), None);
        let pattern = Regex::new("my daemon").unwrap();
        assert_eq!(matching_processes(dir.path(), &pattern), [42]);
    }

    #[test]
    fn parents_are_read_after_the_command_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("7")).unwrap();
        std::fs::write(dir.path().join("7/stat"), "7 (a) b (c) S 5 7 7 0").unwrap();
        assert_eq!(parent(dir.path(), 7), Some(5));
    }

    #[test]
    fn parallel_work_keeps_the_order() {
        let items: Vec<u32> = (0..50).collect();
        assert_eq!(
            parallel_map(&items, |n| n * 2),
            (0..50).map(|n| n * 2).collect::<Vec<_>>()
        );
    }
}
