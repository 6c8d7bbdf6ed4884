//! `marionette-fuzz`: runs the random-input targets of `marionette_fuzz`.
//!
//! ```text
//! marionette-fuzz TARGET|all [--runs N] [--seed S] [--batch B] [--from I]
//! marionette-fuzz TARGET --replay FILE
//! ```
//!
//! Inputs run in child processes, `B` at a time (this program again, with
//! `--worker`), so that a panic, an abort or a stack overflow ends one
//! child, not the search. A child that fails has its range split until
//! the single input that fails is found; it is written to the target's
//! `regressions/` directory, which the test suite replays. The counts of
//! inputs run are printed at the end. Exit status: 0 when nothing was
//! found, 1 when something was, or on a usage error.

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use marionette_fuzz::{Target, input, regressions, targets};

fn usage() -> ExitCode {
    let names: Vec<&str> = targets().iter().map(|t| t.name).collect();
    eprintln!(
        "usage: marionette-fuzz TARGET|all [--runs N] [--seed S] [--batch B] [--from I]\n       marionette-fuzz TARGET --replay FILE\ntargets: {}",
        names.join(", ")
    );
    ExitCode::FAILURE
}

struct Options {
    target: String,
    runs: u64,
    seed: u64,
    batch: u64,
    /// The first input's number (`--from`), to go on with a search.
    from: u64,
    /// `--worker FROM TO`: run that range in this process.
    worker: Option<(u64, u64)>,
    /// `--replay FILE`: run that input in this process.
    replay: Option<std::path::PathBuf>,
}

fn options() -> Option<Options> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        target: String::new(),
        runs: 100_000,
        seed: 1,
        batch: 20_000,
        from: 0,
        worker: None,
        replay: None,
    };
    while let Some(arg) = args.next() {
        let mut number = || args.next()?.replace('_', "").parse::<u64>().ok();
        match arg.as_str() {
            "--runs" => options.runs = number()?,
            "--seed" => options.seed = number()?,
            "--batch" => options.batch = number()?.max(1),
            "--from" => options.from = number()?,
            "--worker" => options.worker = Some((number()?, number()?)),
            "--replay" => options.replay = Some(args.next()?.into()),
            name if !name.starts_with('-') && options.target.is_empty() => {
                options.target = name.to_string()
            }
            _ => return None,
        }
    }
    (!options.target.is_empty()).then_some(options)
}

fn main() -> ExitCode {
    let Some(options) = options() else {
        return usage();
    };
    let chosen: Vec<&Target> = targets()
        .iter()
        .filter(|t| options.target == "all" || t.name == options.target)
        .collect();
    if chosen.is_empty() {
        return usage();
    }
    if let Some(path) = &options.replay {
        let Ok(bytes) = std::fs::read(path) else {
            eprintln!("marionette-fuzz: cannot read {}", path.display());
            return ExitCode::FAILURE;
        };
        chosen[0].run(&bytes);
        return ExitCode::SUCCESS;
    }
    if let Some((from, to)) = options.worker {
        let target = chosen[0];
        let corpus = target.corpus();
        for index in from..to {
            target.run(&input(target, &corpus, options.seed, index));
        }
        return ExitCode::SUCCESS;
    }
    // Children run a private copy of this program, so that rebuilding it
    // during a long search cannot make every later child fail.
    let program = std::env::temp_dir().join(format!("marionette-fuzz-{}", std::process::id()));
    let copied = std::env::current_exe().and_then(|exe| std::fs::copy(exe, &program));
    if let Err(e) = copied {
        eprintln!(
            "marionette-fuzz: cannot copy itself to {}: {e}",
            program.display()
        );
        return ExitCode::FAILURE;
    }
    let mut found = false;
    for target in chosen {
        found |= search(&program, target, &options);
    }
    let _ = std::fs::remove_file(&program);
    if found {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `options.runs` inputs of `target` in batches; true when one
/// failed.
fn search(program: &Path, target: &Target, options: &Options) -> bool {
    let started = Instant::now();
    let corpus = target.corpus();
    let mut found = false;
    let end = options.from.saturating_add(options.runs);
    let mut from = options.from;
    while from < end {
        let to = (from + options.batch).min(end);
        if !passes(program, target, options.seed, from, to) {
            let index = culprit(program, target, options.seed, from, to);
            // The search assumes the half it did not run fails; a batch
            // that failed only once (its deadline passed on a loaded
            // machine) leads to an input that passes alone.
            if passes(program, target, options.seed, index, index + 1) {
                eprintln!(
                    "{}: inputs {from}..{to} failed together once but not alone (a deadline on a loaded machine?); not kept",
                    target.name
                );
                from = to;
                continue;
            }
            found = true;
            let path = regressions(target.name).join(format!("seed{}-input{index}", options.seed));
            let bytes = input(target, &corpus, options.seed, index);
            let saved = std::fs::create_dir_all(path.parent().unwrap_or(&path))
                .and_then(|()| std::fs::write(&path, &bytes));
            match saved {
                Ok(()) => eprintln!(
                    "{}: input {index} fails; kept as {}",
                    target.name,
                    path.display()
                ),
                Err(e) => eprintln!(
                    "{}: input {index} fails; could not keep it: {e}",
                    target.name
                ),
            }
        }
        from = to;
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{}: {} inputs (seed {}) in {seconds:.0} s, {:.0} per second, {} corpus files: {}",
        target.name,
        options.runs,
        options.seed,
        options.runs as f64 / seconds.max(1e-9),
        corpus.len(),
        if found {
            "FAILURES FOUND"
        } else {
            "no failure"
        }
    );
    found
}

/// The memory a child may map: more is a finding (an input that makes a
/// reader take gigabytes), not a reason to stop the machine. The
/// evaluator's deep stack (1 GiB, mostly untouched) fits well inside.
const CHILD_MEMORY: u64 = 6 << 30;

/// Whether inputs `from..to` all pass, run in a child process within its
/// memory and time: 30 seconds, and a millisecond per input on top
/// (inputs take microseconds; one that takes seconds is a finding).
fn passes(program: &Path, target: &Target, seed: u64, from: u64, to: u64) -> bool {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(program);
    command
        .arg(target.name)
        .args([
            "--seed",
            &seed.to_string(),
            "--worker",
            &from.to_string(),
            &to.to_string(),
        ])
        .stderr(std::process::Stdio::null());
    // SAFETY: setrlimit(2) is async-signal-safe and only limits the child.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: CHILD_MEMORY,
                rlim_max: CHILD_MEMORY,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let Ok(mut child) = command.spawn() else {
        return false;
    };
    let deadline = Instant::now() + Duration::from_secs(30) + Duration::from_millis(to - from);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status.success(),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return false;
            }
        }
    }
}

/// The first failing input in `from..to`, which fails as a whole.
fn culprit(program: &Path, target: &Target, seed: u64, mut from: u64, mut to: u64) -> u64 {
    while to - from > 1 {
        let middle = from + (to - from) / 2;
        if passes(program, target, seed, from, middle) {
            from = middle;
        } else {
            to = middle;
        }
    }
    from
}
