//! The Forge corpus's real-apply stage: each case's catalog, as Puppet
//! compiled it (`expected.json`), really applied by Marionette, twice, in
//! a disposable Debian 12 root (scripts/test-root: an overlay of one base
//! root, in its own mount, PID, UTS and network namespaces), and compared
//! with what `puppet apply` of the case did to the same root (`CASE/apply/`,
//! recorded by scripts/puppet-record-forge-apply): both runs' exit codes
//! and messages (every change, refresh, error and warning, in order; the
//! second run shows whether the first converged), then the end state:
//! every file the runs left (kind, mode, owner, group, content) and dpkg's
//! packages. Contents that differ between two runs of Puppet itself (keys,
//! generated passwords) are compared by kind, mode and owner alone.
//!
//! A case that differs from its recording and is not a known difference is
//! run through Puppet again in a fresh root here (Debian's packages move),
//! and only a difference from that run counts. Known differences are
//! listed in `tests/forge/apply-known-differences.txt`, with why.
//!
//! The trixie corpus's recorded cases (`tests/forge-trixie/CASE/apply/`)
//! are applied the same way with its newer modules
//! (scripts/forge-trixie-modules), and its known differences are in
//! `tests/forge-trixie/apply-known-differences.txt`.
//!
//! CI applies the cases each corpus's `apply-in-ci.txt` names; the ignored
//! `*every_recorded_case*` tests apply every recorded one.
//!
//! Runs as root (it mounts and chroots), with debootstrap to build the base
//! root once (cached under /var/cache/marionette-test-root); fails saying
//! so otherwise. `MRTEST_APPLY_CASES` (case names, blank-separated) limits
//! the run to those cases; `MRTEST_APPLY_KEEP=DIR` keeps what Marionette's
//! runs printed and left, in DIR/CASE; `MRTEST_APPLY_JOBS` is how many
//! cases run at a time (2).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::corpus::Corpus;
use common::known::{KnownDifferences, Verdict};
use common::runs::{case_args, case_modulepath, first_difference, noop_text, puppet_facts_yaml};
/// How long a daemon a run started gets before it is looked at again:
/// about what Puppet takes to start a run on the machines we record on.
const SETTLE_SECONDS: u32 = 4;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository")
}

fn test_root() -> Command {
    Command::new(repository().join("scripts/test-root"))
}

/// The base root, built once; fails saying what is missing.
fn build_root() {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc_geteuid() };
    assert_eq!(
        uid, 0,
        "the real-apply stage runs as root: it mounts overlays and chroots (run the tests as root)"
    );
    let status = test_root()
        .arg("build")
        .status()
        .expect("scripts/test-root runs");
    assert!(
        status.success(),
        "scripts/test-root build failed (it needs debootstrap: apt-get install -y debootstrap, and Debian's mirror)"
    );
}

unsafe extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

/// Who applies a case.
#[derive(Clone, Copy)]
enum Tool {
    Marionette,
    Puppet,
}

/// What two runs of a case did: their messages, exit codes, and the end
/// state.
#[derive(Debug)]
struct Observed {
    runs: [String; 2],
    codes: String,
    /// path -> kind, mode, uid, gid, digest
    files: BTreeMap<String, [String; 5]>,
    packages: String,
    seconds: f64,
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn files(text: &str) -> BTreeMap<String, [String; 5]> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split('\t').map(str::to_string);
            let path = fields.next()?;
            let mut rest: [String; 5] = Default::default();
            for slot in &mut rest {
                *slot = fields.next().unwrap_or_default();
            }
            Some((path, rest))
        })
        .collect()
}

/// A recording of Puppet's (`CASE/apply/`).
fn recorded(case: &Path) -> Observed {
    let dir = case.join("apply");
    Observed {
        // Recorded as the runs' texts are compared, but for what is
        // timeless only when compared.
        runs: [
            noop_text(&read(&dir.join("run1.out"))),
            noop_text(&read(&dir.join("run2.out"))),
        ],
        codes: read(&dir.join("exitcodes")).trim().to_string(),
        files: files(&read(&dir.join("files"))),
        packages: read(&dir.join("packages")),
        seconds: read(&dir.join("seconds")).trim().parse().unwrap_or(0.0),
    }
}

/// The binary under test, copied once (into Cargo's scratch directory for
/// tests): a build during the run must not change what the later cases
/// apply with. Each test process has a copy of its own, named by its
/// process id (two stages may run at once, and a copy being run cannot
/// be written); copies of processes that ended are removed.
fn marionette() -> &'static Path {
    static COPY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        const PREFIX: &str = "forge-apply-marionette-";
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let ended = name
                .to_str()
                .and_then(|name| name.strip_prefix(PREFIX))
                .is_some_and(|pid| !Path::new("/proc").join(pid).exists());
            if ended {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        let path = dir.join(format!("{PREFIX}{}", std::process::id()));
        std::fs::copy(env!("CARGO_BIN_EXE_marionette"), &path).expect("the binary copied");
        path
    })
}

/// The catalog Marionette applies of `case` (staged in `staged`): Puppet's
/// (`expected.json`), but where `puppet catalog compile` wrote deferred
/// calls as text (mysql's password hashes, `Deferred('mysql::password',
/// ...)`). `puppet apply`, which the recording ran, compiles and applies in
/// one process and makes those calls; an agent gets them from its server
/// in rich data and makes them too. Such a case is compiled again by
/// Marionette on this side of the root, keeping the calls in rich data
/// (`--rich-data`), and that catalog is applied: the catalog stage
/// (tests/forge.rs) checks the rest of it is Puppet's.
fn catalog_to_apply(case: &Path, staged: &Path, modules: &str) -> &'static str {
    if !read(&case.join("expected.json")).contains("\"Deferred({") {
        return "expected.json";
    }
    let rich = staged.join("rich.json");
    let output = common::case_compile(case, modules, "../facts.json")
        .arg("--rich-data")
        .arg("--output")
        .arg(&rich)
        .output()
        .expect("marionette runs");
    // A compile that fails here (one that needs what only the machine
    // the corpus was recorded on has) leaves Puppet's catalog to apply,
    // and the catalog stage to say why.
    let compiled = std::fs::read_to_string(&rich).unwrap_or_default();
    if !output.status.success() || !compiled.contains("\"Deferred\"") {
        eprintln!(
            "{}: no catalog with deferred calls from marionette catalog compile --rich-data, \
             Puppet's applied:\n{}",
            case.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        return "expected.json";
    }
    "rich.json"
}

/// The Debian packages the case's users install before the module runs
/// (`CASE/installed-first`, one a line, `#` comments; firewall 8 needs
/// the Resource API gem, which Debian's puppet does not depend on),
/// installed in the root before either tool's first run, as
/// scripts/puppet-record-forge-apply installs them for Puppet's.
fn installed_first(case: &Path) -> Vec<String> {
    std::fs::read_to_string(case.join("installed-first"))
        .unwrap_or_default()
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim().to_string())
        .filter(|package| !package.is_empty())
        .collect()
}

/// `tool` applies the case twice in a fresh root, with `modules` (a
/// module path) bound at the same place.
fn apply(case: &Path, tool: Tool, modules: &str) -> Observed {
    let out = tempfile::tempdir().expect("a temporary directory");
    let scratch = tempfile::tempdir().expect("a temporary directory");
    // The case as the runs read it in the root, links followed: a trixie
    // case's site.pp links to the Debian 12 case's, outside the directory
    // bound.
    let staged = scratch.path().join("case");
    common::copy_tree(case, &staged);
    let mut command = test_root();
    command.arg("run");
    for tree in modules.split(':') {
        command.args(["--modules", tree]);
    }
    command
        .arg("--bind")
        .arg(format!("{}:/mrtest/case:ro", staged.display()));
    for package in installed_first(case) {
        command.args(["--install", &package]);
    }
    // A control repository's node is compiled in its environment, as
    // its certname.
    let (certname, environment) = case_args(case);
    let run = match tool {
        Tool::Marionette => {
            command.arg("--bind").arg(format!(
                "{}:/mrtest/bin/marionette:ro",
                marionette().display()
            ));
            let modulepath = case_modulepath(case, Path::new("/mrtest/case"), modules);
            let catalog = catalog_to_apply(case, &staged, modules);
            format!(
                "NO_COLOR=1 /mrtest/bin/marionette apply --detailed-exitcodes --vardir /mrtest/var \
                 --modulepath {modulepath} --catalog {catalog}"
            )
        }
        Tool::Puppet => {
            let facts = scratch.path().join("facts.yaml");
            std::fs::write(&facts, puppet_facts_yaml(case, &certname)).expect("a facts file");
            command
                .arg("--bind")
                .arg(format!("{}:/mrtest/facts.yaml:ro", facts.display()));
            let manifest = match &environment {
                Some(environment) => format!(
                    "--environmentpath environments --environment {environment} \
                     environments/{environment}/manifests/site.pp"
                ),
                None => format!("--modulepath {modules} site.pp"),
            };
            format!(
                "mkdir -p /mrtest/var/client_yaml/facts \
                 && cp /mrtest/facts.yaml /mrtest/var/client_yaml/facts/{certname}.yaml \
                 && puppet apply --detailed-exitcodes --color=false --vardir /mrtest/var \
                 --ssldir /mrtest/var/ssl --deviceconfdir /mrtest/var/devices \
                 --facts_terminus yaml --certname {certname} {manifest}"
            )
        }
    };
    // A daemon a run started or refreshed gets SETTLE_SECONDS before it
    // is looked at again, with either tool (the recorder too): the second
    // run then asks a daemon that dies seconds after it starts (a JVM that
    // cannot bind its address) when it is dead, whether the tool starts in
    // milliseconds or in seconds, and the end state is the daemons'
    // settled work, not how far they got when the run's process ended.
    let settle = format!(
        "if grep -q \"Service\\[.*\\(ensure changed 'stopped' to 'running'\\|Triggered 'refresh'\\)\" \
         /mrtest/out/run$run.out; then sleep {SETTLE_SECONDS}; fi; "
    );
    // A daemon a run started without a Service resource (a package's
    // postinst: certmonger, with ipa-client) is looked at no sooner than
    // SETTLE_SECONDS after the first run, however quick the second run
    // was: Puppet's second run alone takes that long, and the files such a
    // daemon writes as it starts (certmonger's CA entries) are its work.
    let quiet = format!(
        "if ps -e -o comm= | grep -qvx -e sh -e bash -e socat -e ps -e grep -e test-root; \
         then rest=$((first + {SETTLE_SECONDS} - $(date +%s))); \
         if [ $rest -gt 0 ]; then sleep $rest; fi; fi"
    );
    let script = format!(
        "cd /mrtest/case && for run in 1 2; do {run} >/mrtest/out/run$run.out 2>&1; \
         echo $? >/mrtest/out/run$run.rc; if [ $run = 1 ]; then first=$(date +%s); fi; \
         {settle}done; {quiet}"
    );
    let started = Instant::now();
    let status = command
        .arg(out.path())
        .arg("--")
        .arg(script)
        .status()
        .expect("scripts/test-root runs");
    let seconds = started.elapsed().as_secs_f64();
    assert!(
        status.success(),
        "scripts/test-root run failed for {}",
        case.display()
    );
    let dir = out.path();
    if let (Tool::Marionette, Some(keep)) = (tool, std::env::var_os("MRTEST_APPLY_KEEP")) {
        common::copy_tree(dir, &Path::new(&keep).join(common::case_name(case)));
    }
    Observed {
        runs: [
            noop_text(&String::from_utf8_lossy(
                &std::fs::read(dir.join("run1.out")).unwrap_or_default(),
            )),
            noop_text(&String::from_utf8_lossy(
                &std::fs::read(dir.join("run2.out")).unwrap_or_default(),
            )),
        ],
        codes: format!(
            "{} {}",
            read(&dir.join("run1.rc")).trim(),
            read(&dir.join("run2.rc")).trim()
        ),
        files: files(&read(&dir.join("files"))),
        packages: read(&dir.join("packages")),
        seconds,
    }
}

/// How the two differ, stage by stage: `None` where they agree.
#[derive(Default)]
struct Differences {
    first_run: Option<String>,
    second_run: Option<String>,
    state: Option<String>,
}

impl Differences {
    fn none(&self) -> bool {
        self.first_run.is_none() && self.second_run.is_none() && self.state.is_none()
    }

    fn describe(&self) -> String {
        [
            ("first run", &self.first_run),
            ("second run", &self.second_run),
            ("end state", &self.state),
        ]
        .iter()
        .filter_map(|(stage, problem)| problem.as_ref().map(|p| format!("{stage}: {p}")))
        .collect::<Vec<_>>()
        .join("\n  ")
    }
}

/// A run's text with the case's directory left out of file names: Puppet
/// compiled `/mrtest/case/site.pp`, where the catalog Marionette applies
/// names `site.pp`, as the corpus's recordings do; and apt's progress
/// relayed by an exec in a settled order (see [`apt_progress_settled`]).
fn caseless(text: &str) -> String {
    apt_progress_settled(&text.replace("(file: /mrtest/case/", "(file: "))
}

/// apt's progress lines (`Get:1 URL`, `Hit:2`, `Ign:3`, `Err:4`) relayed
/// by an exec, in order and without their numbers: apt fetches its
/// sources at once and numbers them as they answer, so their order and
/// numbers follow the mirrors' timing. Each run of them is sorted.
fn apt_progress_settled(text: &str) -> String {
    fn progress(line: &str) -> Option<String> {
        let (head, said) = line.split_once("/returns: ")?;
        let (word, rest) = said.split_once(':')?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        (["Get", "Hit", "Ign", "Err"].contains(&word)
            && digits > 0
            && rest[digits..].starts_with(' '))
        .then(|| format!("{head}/returns: {word}:N{}", &rest[digits..]))
    }
    let mut out = Vec::new();
    let mut run: Vec<String> = Vec::new();
    for line in text.lines() {
        match progress(line) {
            Some(settled) => run.push(settled),
            None => {
                run.sort();
                out.append(&mut run);
                out.push(line.to_string());
            }
        }
    }
    run.sort();
    out.append(&mut run);
    let mut settled = out.join("\n");
    if text.ends_with('\n') {
        settled.push('\n');
    }
    settled
}

/// The data directories of the servers the cases install: what a running
/// server writes there (MySQL's buffer pool dump, a database's pages)
/// depends on its timing.
const SERVER_DATA: &[&str] = &[
    "/var/lib/mysql/",
    "/var/lib/postgresql/",
    "/var/lib/rabbitmq/",
    "/var/lib/redis/",
    "/var/lib/mongodb/",
];

/// Whether a file's content is left out of the comparison, whether or not
/// Puppet's two recordings happened to agree on it; its kind, mode and
/// owner are compared as a volatile file's are:
/// - the servers' data ([`SERVER_DATA`]);
/// - a daemon's process id (`master.pid`, postfix's `master.lock`): one
///   that started a moment later in its namespace may have another;
/// - stevedore's cache ([`holds_entry_points`]);
/// - dpkg's status, which holds each package's version, moving with
///   Debian's point releases, so that a recording of a case installing
///   packages would soon differ from every later run of either tool; what
///   a run decides of it (which packages, in which state) is compared in
///   the packages list.
fn content_left_out(path: &str) -> bool {
    SERVER_DATA.iter().any(|dir| path.starts_with(dir))
        || path.ends_with(".pid")
        || path.ends_with(".lock")
        || holds_entry_points(path)
        || path == "/var/lib/dpkg/status"
}

/// Whether the file is stevedore's cache of Python's entry points, which
/// an OpenStack daemon writes as it starts, named after (and holding) the
/// mtimes of Python's path.
fn holds_entry_points(path: &str) -> bool {
    path.contains("/.cache/python-entrypoints/")
}

/// A path with each run of hexadecimal digits of its name that holds a
/// decimal one as `#`: a time (certmonger's CA files) or a random serial
/// (easy-rsa's `certs_by_serial`). A dash within a run is part of it:
/// certmonger names the CA files it writes within one second `T`, `T-1`,
/// `T-2`, so the same files are `T`, `T-1`, `T+1`, `T+1-1` when its start
/// spans a second's end.
fn shape(path: &str) -> String {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let mut shaped = String::new();
    let mut run = String::new();
    let end_run = |run: &mut String, shaped: &mut String| {
        if run.chars().any(|c| c.is_ascii_digit()) {
            shaped.push('#');
        } else {
            shaped.push_str(run);
        }
        run.clear();
    };
    for c in name.chars() {
        if c.is_ascii_hexdigit() || (c == '-' && !run.is_empty()) {
            run.push(c);
        } else {
            end_run(&mut run, &mut shaped);
            shaped.push(c);
        }
    }
    end_run(&mut run, &mut shaped);
    format!("{dir}/{shaped}")
}

/// A run's output with the digests of volatile files left out: a file
/// assembled from random keys (openvpn's client configurations) has
/// another content at every run, Puppet's two recordings included.
fn digestless(text: &str, volatile: &BTreeSet<String>) -> String {
    text.lines()
        .map(|line| {
            let names_volatile = volatile
                .iter()
                .any(|path| line.contains(&format!("File[{path}]")));
            if !names_volatile {
                return line.to_string();
            }
            let mut out = String::new();
            let mut rest = line;
            while let Some(at) = rest.find("{sha256}") {
                let (head, tail) = rest.split_at(at + "{sha256}".len());
                out.push_str(head);
                let digits = tail.bytes().take_while(u8::is_ascii_hexdigit).count();
                out.push_str("DIGEST");
                rest = &tail[digits..];
            }
            out.push_str(rest);
            out
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn compare(puppet: &Observed, ours: &Observed, volatile: &BTreeSet<String>) -> Differences {
    let mut found = Differences::default();
    let codes = |o: &Observed, i: usize| o.codes.split(' ').nth(i).unwrap_or("").to_string();
    for (i, slot) in [&mut found.first_run, &mut found.second_run]
        .into_iter()
        .enumerate()
    {
        if codes(puppet, i) != codes(ours, i) {
            *slot = Some(format!(
                "exit code {} where Puppet's is {}",
                codes(ours, i),
                codes(puppet, i)
            ));
        } else {
            let (theirs, mine) = (
                digestless(&caseless(&puppet.runs[i]), volatile),
                digestless(&caseless(&ours.runs[i]), volatile),
            );
            if theirs != mine {
                *slot = Some(first_difference(&theirs, &mine));
            }
        }
    }
    let mut state = Vec::new();
    // A file a daemon names after the time (certmonger's CA files) has
    // another name at every run: one Puppet left under such a name, which
    // differs between its recordings, pairs with one Marionette's run left
    // under the same name but for its digits, compared but for its content.
    // A name is of that kind when a recorded one of its shape was
    // volatile, or when it is stevedore's cache (named after the mtimes of
    // Python's path, which two recordings may happen to share): Puppet run
    // again here (a case that differed) names such a file anew too.
    let volatile_shapes: BTreeSet<String> = volatile.iter().map(|path| shape(path)).collect();
    let mut renamed: BTreeMap<String, (Vec<&String>, Vec<&String>)> = BTreeMap::new();
    for path in puppet.files.keys() {
        if (volatile_shapes.contains(&shape(path)) || holds_entry_points(path))
            && !ours.files.contains_key(path)
            && shape(path) != *path
        {
            renamed.entry(shape(path)).or_default().0.push(path);
        }
    }
    for path in ours.files.keys() {
        if !puppet.files.contains_key(path)
            && let Some((_, mine)) = renamed.get_mut(&shape(path))
        {
            mine.push(path);
        }
    }
    let mut paired = BTreeSet::new();
    for (theirs, mine) in renamed.values() {
        for (a, b) in theirs.iter().zip(mine) {
            if puppet.files[*a][..4] == ours.files[*b][..4] {
                paired.extend([*a, *b]);
            }
        }
    }
    let paths: BTreeSet<&String> = puppet.files.keys().chain(ours.files.keys()).collect();
    for path in paths.into_iter().filter(|path| !paired.contains(path)) {
        match (puppet.files.get(path), ours.files.get(path)) {
            (Some(a), Some(b)) => {
                let volatile = volatile.contains(path) || content_left_out(path);
                let same = a[..4] == b[..4] && (volatile || a[4] == b[4]);
                if !same {
                    state.push(format!(
                        "{path}: {} where Puppet's is {}",
                        b.join(" "),
                        a.join(" ")
                    ));
                }
            }
            (Some(a), None) => state.push(format!(
                "{path}: untouched where Puppet's is {}",
                a.join(" ")
            )),
            (None, Some(b)) => state.push(format!("{path}: {} where Puppet left it", b.join(" "))),
            (None, None) => {}
        }
    }
    if puppet.packages != ours.packages {
        state.push(format!(
            "packages: {}",
            first_difference(&puppet.packages, &ours.packages)
        ));
    }
    if !state.is_empty() {
        let more = state.len().saturating_sub(5);
        state.truncate(5);
        if more > 0 {
            state.push(format!("and {more} more"));
        }
        found.state = Some(state.join("\n    "));
    }
    found
}

fn mark(problem: &Option<String>) -> &'static str {
    if problem.is_none() { "same" } else { "DIFFERS" }
}

/// The Debian corpus's cases that CI applies, those of
/// `tests/forge/apply-in-ci.txt`: the OpenStack cases take longer than
/// CI's budget, and `forge_every_recorded_case_really_applies_as_with_puppet`
/// runs them all.
#[test]
fn forge_catalogs_really_apply_as_with_puppet() {
    in_ci(&Corpus::debian12());
}

/// Every recorded case of the Debian corpus (run by name, before an issue
/// is resolved).
#[test]
#[ignore = "every recorded case of the Debian corpus, longer than CI's budget"]
fn forge_every_recorded_case_really_applies_as_with_puppet() {
    let corpus = Corpus::debian12();
    stage(&corpus.root, &corpus.modules, None);
}

/// The trixie corpus's cases that CI applies, those of
/// `tests/forge-trixie/apply-in-ci.txt`: every recorded case takes longer
/// than CI's budget, and
/// `forge_trixie_every_recorded_case_really_applies_as_with_puppet` runs
/// them all.
#[test]
fn forge_trixie_catalogs_really_apply_as_with_puppet() {
    in_ci(&Corpus::trixie());
}

/// Every recorded case of the trixie corpus (run by name, before an issue
/// is resolved: about 15 minutes for each 50 cases).
#[test]
#[ignore = "every recorded case of the trixie corpus, longer than CI's budget"]
fn forge_trixie_every_recorded_case_really_applies_as_with_puppet() {
    let corpus = Corpus::trixie();
    stage(&corpus.root, &corpus.modules, None);
}

/// The recorded cases of `corpus` that its `apply-in-ci.txt` names (one a
/// line, `#` starting a comment), each of which must have a recording.
fn in_ci(corpus: &Corpus) {
    let root = &corpus.root;
    let in_ci: BTreeSet<String> = read(&root.join("apply-in-ci.txt"))
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim().to_string())
        .filter(|name| !name.is_empty())
        .collect();
    for name in &in_ci {
        assert!(
            root.join(name).join("apply").is_dir(),
            "{} names {name}, which has no apply/ recording",
            root.join("apply-in-ci.txt").display()
        );
    }
    stage(root, &corpus.modules, Some(&in_ci));
}

/// Every recorded case of the GitHub corpus (`tests/forge-github`), whose
/// modules are fetched rather than committed (scripts/forge-github-vendor,
/// before the trixie tree on the module path): run by name, as that
/// corpus's other stages are.
#[test]
#[ignore = "the GitHub corpus's modules are not committed: scripts/forge-github-vendor"]
fn forge_github_every_recorded_case_really_applies_as_with_puppet() {
    let corpus = Corpus::github();
    stage(&corpus.root, &corpus.modules, None);
}

/// The recorded cases of the corpus at `root` (those of `selection` when
/// given), applied with `modules`.
fn stage(root: &Path, modules: &str, selection: Option<&BTreeSet<String>>) {
    // One corpus at a time: the runs start daemons and wait for them, so
    // no more of them may share the machine than the stage's jobs.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    build_root();
    let only: Option<BTreeSet<String>> = std::env::var("MRTEST_APPLY_CASES")
        .ok()
        .map(|names| names.split_whitespace().map(str::to_string).collect());
    let cases: Vec<PathBuf> = common::case_dirs(root, &["apply"])
        .into_iter()
        .filter(|case| {
            let name = common::case_name(case);
            only.as_ref().is_none_or(|names| names.contains(&name))
                && selection.is_none_or(|names| names.contains(&name))
        })
        .collect();
    assert!(
        !cases.is_empty(),
        "no recorded real applies under {}",
        root.display()
    );
    let known = KnownDifferences::load(&root.join("apply-known-differences.txt"), 1);
    let mut verdict = Verdict::new(&known);
    let mut table = vec![format!(
        "{:<38} {:>9} {:>12} {:>9} {:>10} {:>9}",
        "case", "Puppet s", "Marionette s", "first run", "second run", "end state"
    )];
    // Each root has its own network, so cases may run side by side: as
    // many at a time as MRTEST_APPLY_JOBS says (2 by default, the cores CI
    // has), each case's results kept in the corpus's order.
    // Each case says how it went as it ends, so that a run stopped part
    // way (every case of a corpus takes hours) still leaves its verdicts.
    let done = common::in_parallel(&cases, common::jobs("MRTEST_APPLY_JOBS", 2), |case| {
        let applied = apply_case(case, modules, &known);
        let how = if applied.found.none() {
            "matches at every stage".to_string()
        } else {
            format!("differs: {}", common::first_line(&applied.found.describe()))
        };
        eprintln!(
            "real apply {}: {how} (Puppet {:.1} s, Marionette {:.1} s)",
            common::case_name(case),
            applied.puppet.seconds,
            applied.ours.seconds
        );
        applied
    });
    let (mut puppet_total, mut ours_total) = (0.0, 0.0);
    // The rows of the cases that differ, the ones the log shows.
    let mut differing = Vec::new();
    let mut rerun = Vec::new();
    let mut found_by_case = Vec::new();
    for (case, applied) in cases.iter().zip(done) {
        let name = common::case_name(case);
        let Applied {
            puppet,
            ours,
            found,
            ran_puppet,
        } = applied;
        if ran_puppet {
            rerun.push(name.clone());
        }
        puppet_total += puppet.seconds;
        ours_total += ours.seconds;
        let same = |ok: bool| if ok { "same" } else { "differs" }.to_string();
        found_by_case.push((
            name.clone(),
            vec![
                same(found.first_run.is_none() && found.state.is_none()),
                same(found.second_run.is_none()),
                format!("{:.1}", puppet.seconds),
                format!("{:.1}", ours.seconds),
            ],
        ));
        let row = format!(
            "{name:<38} {:>9.1} {:>12.1} {:>9} {:>10} {:>9}",
            puppet.seconds,
            ours.seconds,
            mark(&found.first_run),
            mark(&found.second_run),
            mark(&found.state)
        );
        if !found.none() {
            differing.push(row.clone());
        }
        table.push(row);
        let outcome = if found.none() {
            Ok(())
        } else {
            Err(found.describe())
        };
        let why = outcome
            .as_ref()
            .err()
            .map(|p| common::first_line(p).to_string())
            .unwrap_or_default();
        verdict.record(&name, &why, outcome);
    }
    table.push(format!(
        "{:<38} {puppet_total:>9.1} {ours_total:>12.1}",
        format!("{} cases", cases.len())
    ));
    // The whole table goes to a file; the log shows the cases that differ,
    // so that a failure's reasons, printed after it, stay in a short log.
    let kept = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "real-applies-{}.txt",
        root.file_name().unwrap_or_default().to_string_lossy()
    ));
    let whole = table.join("\n") + "\n";
    let kept = match std::fs::write(&kept, &whole) {
        Ok(()) => format!("every case's times: {}", kept.display()),
        Err(e) => format!("every case's times were not kept ({e}):\n{whole}"),
    };
    let (header, totals) = (&table[0], &table[table.len() - 1]);
    eprintln!(
        "{header}\n{}{totals}\n{} of {} cases match at every stage; {kept}",
        differing
            .iter()
            .map(|row| format!("{row}\n"))
            .collect::<String>(),
        cases.len() - differing.len(),
        cases.len()
    );
    eprintln!(
        "{} differed from their recording and were run through Puppet again: {rerun:?}",
        rerun.len()
    );
    common::stages::keep(root, "apply", &found_by_case);
    eprintln!("{}", common::stages::summary(root, modules));
    verdict.finish("real applies");
}

/// What became of one case: Puppet's recording (or, when Marionette
/// differs from it and the case is not a known difference, Puppet's run
/// here), Marionette's run, and how they differ.
struct Applied {
    puppet: Observed,
    ours: Observed,
    found: Differences,
    ran_puppet: bool,
}

/// Applies a case with Marionette and compares it with Puppet's
/// recording; a case that differs and is not a known difference is run
/// through Puppet again (Debian's packages move), and only a difference
/// from that run counts.
fn apply_case(case: &Path, modules: &str, known: &KnownDifferences) -> Applied {
    let name = common::case_name(case);
    let volatile: BTreeSet<String> = read(&case.join("apply/volatile"))
        .lines()
        .map(str::to_string)
        .collect();
    let puppet = recorded(case);
    let ours = apply(case, Tool::Marionette, modules);
    let mut found = compare(&puppet, &ours, &volatile);
    // Rewriting the list follows a fresh recording: Puppet is not run
    // again.
    let updating = std::env::var_os("UPDATE_KNOWN_DIFFERENCES").is_some();
    let ran_puppet = !found.none() && !known.contains(&name) && !updating;
    if ran_puppet {
        eprintln!(
            "real apply {name}: differs from its recording ({}); running Puppet again",
            common::first_line(&found.describe())
        );
        found = compare(&apply(case, Tool::Puppet, modules), &ours, &volatile);
    }
    Applied {
        puppet,
        ours,
        found,
        ran_puppet,
    }
}

#[test]
fn names_made_of_a_time_have_one_shape() {
    for name in ["20261201170802", "20261201170803-1", "20261201170803-12"] {
        assert_eq!(
            shape(&format!("/var/lib/certmonger/cas/{name}")),
            "/var/lib/certmonger/cas/#"
        );
    }
    assert_eq!(shape("/etc/x/ca-cert-01.pem"), "/etc/x/ca-cert-#.pem");
    assert_eq!(shape("/etc/x/foo-bar"), "/etc/x/foo-bar");
}

#[test]
fn a_case_is_of_the_longest_module_its_name_starts_with() {
    use common::stages::module_of;
    let modules: BTreeSet<String> = ["host", "host_core", "openstack_extras", "openstacklib"]
        .map(str::to_string)
        .into();
    assert_eq!(module_of("0058_host_core_host", &modules), "host_core");
    assert_eq!(
        module_of("0103_openstack_extras_auth_file", &modules),
        "openstack_extras"
    );
    assert_eq!(
        module_of("0084_openstacklib_db_policy", &modules),
        "openstacklib"
    );
    assert_eq!(
        module_of("0151_control_acme_web01", &modules),
        "control repository acme"
    );
    assert_eq!(module_of("0012_ntp_servers", &modules), "ntp");
}

/// A file named anew at every run (stevedore's cache, named after the
/// mtimes of Python's path) pairs with Puppet's of the same shape when a
/// recorded name of that shape was volatile, whether Puppet's is one of
/// the recorded names or one its run here gave; any other file of
/// another name is a difference. That cache's content is its daemon's.
#[test]
fn files_named_anew_at_every_run_pair_by_their_shape() {
    let dir = "/var/lib/glance/.cache/python-entrypoints";
    let observed = |files: &[(&str, &str)]| Observed {
        runs: [String::new(), String::new()],
        codes: "2 0".into(),
        files: files
            .iter()
            .map(|(path, digest)| {
                let fields = ["f", "644", "64062", "64062", digest].map(str::to_string);
                (path.to_string(), fields)
            })
            .collect(),
        packages: String::new(),
        seconds: 0.0,
    };
    let volatile: BTreeSet<String> = [format!("{dir}/8d11e26f"), format!("{dir}/880cb8de")].into();
    let rerun = observed(&[(&format!("{dir}/2b816909"), "a")]);
    let ours = observed(&[(&format!("{dir}/4f0e1d77"), "b")]);
    assert!(compare(&rerun, &ours, &volatile).none());
    // Stevedore's cache pairs even when the recordings shared a name.
    assert!(compare(&rerun, &ours, &BTreeSet::new()).none());
    // Another file named after a time pairs only when recorded volatile.
    let cas = "/var/lib/certmonger/cas";
    let rerun = observed(&[(&format!("{cas}/20261201170802"), "a")]);
    let ours = observed(&[(&format!("{cas}/20261201170807"), "a")]);
    assert!(!compare(&rerun, &ours, &BTreeSet::new()).none());
    let recorded: BTreeSet<String> = [format!("{cas}/20261130101010")].into();
    assert!(compare(&rerun, &ours, &recorded).none());
    // The same name, another content: only stevedore's cache is kept as
    // its daemon wrote it.
    let theirs = observed(&[(&format!("{dir}/2b816909"), "a")]);
    let mine = observed(&[(&format!("{dir}/2b816909"), "b")]);
    assert!(compare(&theirs, &mine, &BTreeSet::new()).none());
    let elsewhere = |digest| observed(&[("/etc/glance/glance-api.conf", digest)]);
    assert!(!compare(&elsewhere("a"), &elsewhere("b"), &BTreeSet::new()).none());
    // Another kind of file of that shape: a difference.
    let rerun = observed(&[(&format!("{dir}/2b816909"), "a")]);
    let mut other = observed(&[(&format!("{dir}/4f0e1d77"), "b")]);
    other
        .files
        .values_mut()
        .for_each(|fields| fields[1] = "600".into());
    assert!(!compare(&rerun, &other, &volatile).none());
}

/// dpkg's status is compared through the packages list: its content
/// (versions) moves with Debian's point releases; a package's state does
/// not go unseen.
#[test]
fn dpkg_status_is_compared_through_the_packages_list() {
    let observed = |digest: &str, packages: &str| Observed {
        runs: [String::new(), String::new()],
        codes: "2 0".into(),
        files: [(
            "/var/lib/dpkg/status".to_string(),
            ["f", "644", "0", "0", digest].map(str::to_string),
        )]
        .into(),
        packages: packages.into(),
        seconds: 0.0,
    };
    let none = BTreeSet::new();
    let recorded = observed("a", "mariadb-server\tii \n");
    assert!(compare(&recorded, &observed("b", "mariadb-server\tii \n"), &none).none());
    assert!(!compare(&recorded, &observed("b", "mariadb-server\trc \n"), &none).none());
}

/// ceph-mon's warning from a log thread racing its exit is left out of
/// either tool's runs; the command's other lines stay.
#[test]
fn a_daemons_raced_warning_is_left_out() {
    let runs = "Notice: /Stage[main]/Main/Ceph::Mon[mrtest]/Exec[ceph-mon-mkfs-mrtest]/returns: \
                + mkdir -p /var/lib/ceph/mon/ceph-mrtest\n\
                Notice: /Stage[main]/Main/Ceph::Mon[mrtest]/Exec[ceph-mon-mkfs-mrtest]/returns: \
                2026-12-02T10:57:33.133+0000 7feab0da5640 -1 unable to find any IP address in \
                networks '192.0.2.0/24' interfaces ''\n";
    assert_eq!(
        noop_text(runs),
        "Notice: /Stage[main]/Main/Ceph::Mon[mrtest]/Exec[ceph-mon-mkfs-mrtest]/returns: \
         + mkdir -p /var/lib/ceph/mon/ceph-mrtest\n"
    );
}

/// What a failed daemon start or a command relays of its own log is
/// compared without its times, rates and process ids, which differ from
/// run to run.
#[test]
fn relayed_daemon_logs_are_compared_without_times_and_pids() {
    let fail2ban = "Error: Could not start Service[fail2ban]: 2026-11-30 19:11:13,595 \
                    fail2ban.configreader [532]: ERROR No file(s) found\n";
    let haproxy = "Error: Could not start Service[haproxy]: Execution of '/etc/init.d/haproxy \
                   start' returned 2: Starting haproxy: haproxy[NOTICE]   (3114) : haproxy \
                   version is 2.6.12-1+deb12u4\n";
    assert_eq!(
        noop_text(fail2ban),
        "Error: Could not start Service[fail2ban]: <time> fail2ban.configreader [<pid>]: \
         ERROR No file(s) found\n"
    );
    assert_eq!(
        noop_text(haproxy),
        "Error: Could not start Service[haproxy]: Execution of '/etc/init.d/haproxy start' \
         returned 2: Starting haproxy: haproxy[NOTICE]   (<pid>) : haproxy version is \
         2.6.12-1+deb12u4\n"
    );
    let oslo = "Notice: /Stage[main]/Barbican::Db::Sync/Exec[barbican-db-manage]/returns: \
                2026-12-01 03:15:00.123 6414 WARNING barbican.model.migration.commands [-] x\n";
    assert_eq!(
        noop_text(oslo),
        "Notice: /Stage[main]/Barbican::Db::Sync/Exec[barbican-db-manage]/returns: <time> <pid> \
         WARNING barbican.model.migration.commands [-] x\n"
    );
    let apt = "Notice: /Stage[main]/X/Exec[keyring]/returns: Fetched 241 kB in 7s (34.4 kB/s)\n";
    assert_eq!(
        noop_text(apt),
        "Notice: /Stage[main]/X/Exec[keyring]/returns: Fetched 241 kB in Ns (N/s)\n"
    );
    let python = "Notice: /Stage[main]/Keystone::Db::Sync/Exec[keystone-manage db_sync]/returns: \
                  Exception ignored in: <function _removeHandlerRef at 0x7f8619719580>\n";
    assert_eq!(
        noop_text(python),
        "Notice: /Stage[main]/Keystone::Db::Sync/Exec[keystone-manage db_sync]/returns: \
         Exception ignored in: <function _removeHandlerRef at 0x<address>>\n"
    );
    let ceph = "Notice: /Stage[main]/Main/Ceph::Mon[mrtest]/Exec[ceph-mon-mkfs-mrtest]/returns: \
                2026-12-02T10:57:33.133+0000 7feab0da5640 -1 unable to find any IP address\n";
    assert_eq!(
        noop_text(ceph),
        "Notice: /Stage[main]/Main/Ceph::Mon[mrtest]/Exec[ceph-mon-mkfs-mrtest]/returns: \
         <time>+0000 <thread> -1 unable to find any IP address\n"
    );
    let ruby = "Error: Could not set 'file' on ensure: No such file or directory - A directory \
                component in /etc/ssh/sshd_config20261130-31-1aspgjs.lock does not exist\n";
    assert_eq!(
        noop_text(ruby),
        "Error: Could not set 'file' on ensure: No such file or directory - A directory \
         component in /etc/ssh/sshd_config<temporary>.lock does not exist\n"
    );
    let epel = "Error: x in /etc/pki/RPM-GPG-KEY-EPEL-920261130-34-1mpd33x.lock does\n";
    assert_eq!(
        noop_text(epel),
        "Error: x in /etc/pki/RPM-GPG-KEY-EPEL-9<temporary>.lock does\n"
    );
    let certbot = "Notice: /Stage[main]/X/Exec[certbot]/returns: See the logfile \
                   /tmp/certbot-log-cu15skjm/log or re-run Certbot with -v\n";
    assert_eq!(
        noop_text(certbot),
        "Notice: /Stage[main]/X/Exec[certbot]/returns: See the logfile \
         /tmp/certbot-log-<random>/log or re-run Certbot with -v\n"
    );
    let wget = "Error: Execution of 'wget https://a.example/k.tgz -O /tmp/k.tgz_20261130-31-l3poz6 \
                --max-redirect=5' returned 4: --2026-11-30 16:30:32--  https://a.example/k.tgz\n";
    assert_eq!(
        noop_text(wget),
        "Error: Execution of 'wget https://a.example/k.tgz -O /tmp/k.tgz_<temporary> \
         --max-redirect=5' returned 4: --<time>--  https://a.example/k.tgz\n"
    );
    let openssl = "Notice: /Stage[main]/X/Exec[export]/returns: 40E7C415447F0000:error:16000069:\
                   STORE routines\n";
    assert_eq!(
        noop_text(openssl),
        "Notice: /Stage[main]/X/Exec[export]/returns: <thread>:error:16000069:STORE routines\n"
    );
    for reason in [
        "Name or service not known",
        "Temporary failure in name resolution",
    ] {
        let resolving = format!(
            "Error: Failed to open TCP connection to github.com:443 (getaddrinfo: {reason})\n"
        );
        assert_eq!(
            noop_text(&resolving),
            "Error: Failed to open TCP connection to github.com:443 (getaddrinfo: <no resolution>)\n"
        );
    }
    let python = "Notice: /Stage[main]/X/Exec[certbot]/returns: Failed to establish a new \
                  connection: [Errno -3] Temporary failure in name resolution'))\n";
    assert_eq!(
        noop_text(python),
        "Notice: /Stage[main]/X/Exec[certbot]/returns: Failed to establish a new connection: \
         <no resolution>'))\n"
    );
    let tries = "Error: Could not prefetch keystone_role provider 'openstack': x (tried 26, for a \
                 total of 300 seconds)\n";
    assert_eq!(
        noop_text(tries),
        "Error: Could not prefetch keystone_role provider 'openstack': x (tried N, for a total of \
         300 seconds)\n"
    );
    // A number in brackets or parentheses elsewhere is kept, and a date
    // that is no temporary name.
    let kept = "Notice: /Stage[main]/Main/Exec[echo (42) : x]/returns: executed successfully\n";
    assert_eq!(noop_text(kept), kept);
    let dated = "Notice: /Stage[main]/Main/File[/var/backups/db-20261130-1]/ensure: created\n";
    assert_eq!(noop_text(dated), dated);
}

/// apt's progress relayed by an exec is compared in a settled order,
/// without the numbers apt gives its sources as they answer.
#[test]
fn apt_progress_is_compared_in_a_settled_order() {
    let exec = "Notice: /Stage[main]/X/Exec[update]/returns:";
    let one = format!(
        "{exec} Ign:1 http://b.example bookworm InRelease\n{exec} Get:2 http://a.example bookworm InRelease [151 kB]\n{exec} Reading package lists...\n"
    );
    let other = format!(
        "{exec} Get:1 http://a.example bookworm InRelease [151 kB]\n{exec} Ign:2 http://b.example bookworm InRelease\n{exec} Reading package lists...\n"
    );
    assert_eq!(caseless(&one), caseless(&other));
    assert!(caseless(&one).contains("Get:N http://a.example"));
    // Another source fetched is another run.
    let third = other.replace("b.example", "c.example");
    assert_ne!(caseless(&one), caseless(&third));
}
