//! What Puppet and Marionette print while applying, made comparable.

/// What a command printed on its standard output and error, as one stream
/// in the order written.
pub(crate) fn printed_in_order(mut command: std::process::Command) -> String {
    use std::io::Read;
    let (mut reader, writer) = std::io::pipe().expect("a pipe");
    command
        .stdout(writer.try_clone().expect("a pipe"))
        .stderr(writer)
        .stdin(std::process::Stdio::null());
    let mut child = command.spawn().expect("the command starts");
    // The parent's ends of the pipe go, so that reading ends with the child.
    drop(command);
    let mut text = Vec::new();
    reader.read_to_end(&mut text).expect("the output");
    child.wait().expect("the command ends");
    String::from_utf8_lossy(&text).into_owned()
}

/// What a `--noop` run printed, as scripts/puppet-record-forge-noop keeps
/// it: its messages after the catalog was compiled, colours off, Facter's
/// errors with their continuation lines dropped, times as N.
pub(crate) fn noop_text(all: &str) -> String {
    let mut text = String::new();
    let mut in_noise = false;
    for line in all.lines() {
        let line = strip_colours(line);
        if line.starts_with("Error: Facter:") {
            in_noise = true;
            continue;
        }
        if in_noise && (line.is_empty() || line.starts_with(char::is_whitespace)) {
            continue;
        }
        in_noise = false;
        // What compiling said belongs to the compile stage.
        if line.starts_with("Notice: Compiled catalog for ") {
            text.clear();
            continue;
        }
        if !["Error", "Warning", "Notice"]
            .iter()
            .any(|level| line.starts_with(level))
            || raced(&line)
        {
            continue;
        }
        text.push_str(&timeless_line(&line));
        text.push('\n');
    }
    text
}

/// A line that a daemon prints in some runs and not in others, whichever
/// tool runs it: ceph-mon's mkfs warns that no address is in the
/// monitor's network from a log thread that races the daemon's exit
/// (tests/forge's and tests/forge-trixie's 0128, where Puppet's own two
/// runs differ so).
fn raced(line: &str) -> bool {
    line.contains("/Exec[ceph-mon-mkfs-")
        && line.contains(" unable to find any IP address in networks ")
        && line.ends_with(" interfaces ''")
}

pub(crate) fn strip_colours(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find('m').map_or(after.len(), |m| m + 1);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// ` in 0.42 seconds` at the end of a line as ` in N seconds`.
fn timeless_line(line: &str) -> String {
    // A request that failed says how long it tried.
    if let Some((head, rest)) = line.split_once(" failed after ")
        && let Some((time, tail)) = rest.split_once(" seconds")
        && !time.is_empty()
        && time.chars().all(|c| c.is_ascii_digit() || c == '.')
    {
        return timeless_line(&format!("{head} failed after N seconds{tail}"));
    }
    if let Some(body) = line.strip_suffix(" seconds")
        && let Some((head, time)) = body.rsplit_once(" in ")
        && !time.is_empty()
        && time.chars().all(|c| c.is_ascii_digit() || c == '.')
    {
        return format!("{head} in N seconds");
    }
    [
        logdirless,
        resolverless,
        triesless,
        openssl_threadless,
        temporaryless,
        addressless,
        apt_timeless,
        daemon_timeless,
    ]
    .iter()
    .fold(line.to_string(), |line, step| step(&line))
}

/// How many times openstacklib's provider tried a command in its window
/// (`(tried 26, for a total of 300 seconds)`), as `tried N`: the count
/// follows how long each try took on the machine.
fn triesless(line: &str) -> String {
    mask_after(
        line,
        "(tried ",
        |b| b.is_ascii_digit(),
        |count, after| count > 0 && after.starts_with(", for a total of "),
        "N",
    )
}

/// `line` with what follows each `prefix` masked as `mask`: the run of
/// bytes `take` accepts, when `whole` says that run of `count` bytes,
/// followed by `after`, is the part to mask.
fn mask_after(
    line: &str,
    prefix: &str,
    take: fn(u8) -> bool,
    whole: impl Fn(usize, &str) -> bool,
    mask: &str,
) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(prefix) {
        let start = at + prefix.len();
        let count = rest[start..].bytes().take_while(|&b| take(b)).count();
        out.push_str(&rest[..start]);
        if whole(count, &rest[start + count..]) {
            out.push_str(mask);
            rest = &rest[start + count..];
        } else {
            rest = &rest[start..];
        }
    }
    out.push_str(rest);
    out
}

/// Why a name could not be resolved in a root without a resolver, which
/// follows the host's network at the time (`Name or service not known`,
/// `Temporary failure in name resolution`), as `<no resolution>`: in
/// Ruby's words (`getaddrinfo: ...`) and Python's (`[Errno -2] ...`).
fn resolverless(line: &str) -> String {
    let mut line = line.to_string();
    for (code, reason) in [
        (-2, "Name or service not known"),
        (-3, "Temporary failure in name resolution"),
    ] {
        line = line
            .replace(
                &format!("(getaddrinfo: {reason})"),
                "(getaddrinfo: <no resolution>)",
            )
            .replace(&format!("[Errno {code}] {reason}"), "<no resolution>");
    }
    line
}

/// The thread id OpenSSL 3 starts each line of its errors with
/// (`40E7C415447F0000:error:16000069:STORE routines:...`), relayed by an
/// exec, as `<thread>`.
fn openssl_threadless(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(":error:") {
        let head = &rest[..at];
        let digits = head
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_hexdigit() && !b.is_ascii_lowercase())
            .count();
        let start = at - digits;
        let whole = start == 0 || head.as_bytes()[start - 1] == b' ';
        if digits >= 8 && whole {
            out.push_str(&head[..start]);
            out.push_str("<thread>");
        } else {
            out.push_str(head);
        }
        out.push_str(":error:");
        rest = &rest[at + ":error:".len()..];
    }
    out.push_str(rest);
    out
}

/// The directory certbot makes for its log with Python's `mkdtemp`
/// (`/tmp/certbot-log-cu15skjm/log`), named in the error it prints, as
/// `certbot-log-<random>`: its eight characters are random.
fn logdirless(line: &str) -> String {
    mask_after(
        line,
        "/tmp/certbot-log-",
        |b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_',
        |count, _| count == 8,
        "<random>",
    )
}

/// The part Ruby's temporary files add to a name (`sshd_config20261130-31-
/// 1aspgjs`: the date, the process id and a random number), which Puppet
/// names in the error of a file it could not write, as `<temporary>`. The
/// name may end in a digit (`RPM-GPG-KEY-EPEL-9`).
fn temporaryless(line: &str) -> String {
    let bytes = line.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut out = String::with_capacity(line.len());
    let (mut from, mut at) = (0, 1);
    while at + 8 < bytes.len() {
        let starts = bytes[at..].starts_with(b"20")
            && !bytes[at - 1].is_ascii_whitespace()
            && digits(at) == 8
            && bytes[at + 8] == b'-';
        let pid = if starts { digits(at + 9) } else { 0 };
        let random = if pid > 0 && bytes.get(at + 9 + pid) == Some(&b'-') {
            bytes[at + 10 + pid..]
                .iter()
                .take_while(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
                .count()
        } else {
            0
        };
        if random > 0 {
            out.push_str(&line[from..at]);
            out.push_str("<temporary>");
            at += 10 + pid + random;
            from = at;
        } else {
            at += 1;
        }
    }
    out.push_str(&line[from..]);
    out
}

/// An object's address that a relayed Python message prints (`Exception
/// ignored in: <function _removeHandlerRef at 0x7f8619719580>`, from
/// keystone-manage's exit; urllib3's connection objects) as `0x<address>`:
/// it differs from run to run.
fn addressless(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(" at 0x") {
        let start = at + " at 0x".len();
        let digits = rest[start..]
            .bytes()
            .take_while(u8::is_ascii_hexdigit)
            .count();
        out.push_str(&rest[..start]);
        if digits > 0 {
            out.push_str("<address>");
        }
        rest = &rest[start + digits..];
    }
    out.push_str(rest);
    out
}

/// apt's `Fetched 241 kB in 7s (34.4 kB/s)`, relayed by an exec, with its
/// time and rate as `Ns (N/s)`: they follow the mirror's speed.
fn apt_timeless(line: &str) -> String {
    let Some(at) = line.find("Fetched ") else {
        return line.to_string();
    };
    let rest = &line[at..];
    let Some((head, tail)) = rest.split_once(" in ") else {
        return line.to_string();
    };
    let seconds = tail.bytes().take_while(u8::is_ascii_digit).count();
    let after = &tail[seconds..];
    match after.strip_prefix("s (").and_then(|r| r.split_once("/s)")) {
        Some((rate, end)) if seconds > 0 && !rate.is_empty() && !rate.contains(')') => {
            format!("{}{head} in Ns (N/s){end}", &line[..at])
        }
        _ => line.to_string(),
    }
}

/// A line with what a daemon's own log put in it (fail2ban's
/// `2026-11-30 19:11:13,595 fail2ban.configreader [532]:`, relayed by a
/// failed start; oslo.log's `2026-12-01 03:15:00.123 6414 WARNING`, relayed
/// by an exec) made timeless: its timestamps as `<time>` and, on such a
/// line, a bracketed number as `[<pid>]` and a number right after a time as
/// `<pid>`.
fn daemon_timeless(line: &str) -> String {
    let shape = |b: &[u8]| {
        b.len() >= 19
            && b[..19].iter().enumerate().all(|(i, c)| match i {
                4 | 7 => *c == b'-',
                10 => *c == b' ' || *c == b'T',
                13 | 16 => *c == b':',
                _ => c.is_ascii_digit(),
            })
    };
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let (mut at, mut from, mut timed) = (0, 0, false);
    while at < bytes.len() {
        if shape(&bytes[at..]) {
            out.push_str(&line[from..at]);
            out.push_str("<time>");
            at += 19;
            if bytes.get(at).is_some_and(|c| *c == b',' || *c == b'.') {
                let digits = bytes[at + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                if digits > 0 {
                    at += 1 + digits;
                }
            }
            // Ceph's give a zone, then the thread's id in hex:
            // `2026-12-02T10:57:33.133+0000 7feab0da5640 -1 ...`.
            if let Some(zone) = bytes[at..].strip_prefix(b"+")
                && zone.len() > 4
                && zone[..4].iter().all(u8::is_ascii_digit)
            {
                out.push_str(&line[at..at + 5]);
                at += 5;
                let hex = bytes[at..].strip_prefix(b" ").map_or(0, |rest| {
                    rest.iter().take_while(|c| c.is_ascii_hexdigit()).count()
                });
                if hex >= 8 && bytes.get(at + 1 + hex) == Some(&b' ') {
                    out.push_str(" <thread>");
                    at += 1 + hex;
                }
            }
            // oslo.log's lines give the process id after the time:
            // `2026-12-01 03:15:00.123 6414 WARNING ...`.
            let digits = bytes[at..].strip_prefix(b" ").map_or(0, |rest| {
                rest.iter().take_while(|c| c.is_ascii_digit()).count()
            });
            if digits > 0 && bytes.get(at + 1 + digits) == Some(&b' ') {
                out.push_str(" <pid>");
                at += 1 + digits;
            }
            from = at;
            timed = true;
        } else {
            at += 1;
        }
    }
    out.push_str(&line[from..]);
    let out = level_pidless(&out);
    if !timed {
        return out;
    }
    let mut pidless = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(open) = rest.find('[') {
        pidless.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with(']') {
            pidless.push_str("<pid>");
            rest = &rest[digits..];
        }
    }
    pidless.push_str(rest);
    pidless
}

/// A line with what haproxy's log put in it (`haproxy[NOTICE]   (3114) :`,
/// relayed by a failed start) with the process id, after a bracketed
/// level, as `(<pid>)`.
fn level_pidless(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(close) = rest.find(']') {
        out.push_str(&rest[..=close]);
        rest = &rest[close + 1..];
        let blanks = rest.len() - rest.trim_start_matches(' ').len();
        let after = &rest[blanks..];
        if let Some(number) = after.strip_prefix('(') {
            let digits = number.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && number[digits..].starts_with(") :") {
                out.push_str(&rest[..blanks]);
                out.push_str("(<pid>");
                rest = &number[digits..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The first line where two noop texts differ, both sides.
pub(crate) fn first_difference(puppets: &str, ours: &str) -> String {
    let (mut a, mut b) = (puppets.lines(), ours.lines());
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return "the same".to_string(),
            (x, y) => {
                return format!(
                    "puppet: {}\n  marionette: {}",
                    x.unwrap_or("(nothing more)"),
                    y.unwrap_or("(nothing more)")
                );
            }
        }
    }
}

/// The facts of a forge case (its own `facts.json`, or the corpus's) as
/// Puppet's yaml facts terminus reads them for `certname`.
pub(crate) fn puppet_facts_yaml(case: &std::path::Path, certname: &str) -> String {
    let facts = ["facts.json", "../facts.json"]
        .iter()
        .map(|f| case.join(f))
        .find(|f| f.exists())
        .expect("the case's facts");
    let facts: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(facts).expect("facts")).expect("JSON facts");
    let mut yaml = format!("--- !ruby/object:Puppet::Node::Facts\nname: {certname:?}\nvalues:\n");
    for (name, value) in facts["values"].as_object().into_iter().flatten() {
        // JSON is YAML's flow syntax.
        yaml.push_str(&format!(
            "  {}: {value}\n",
            serde_json::Value::from(name.as_str())
        ));
    }
    yaml
}

/// The certname of a case that names none.
pub(crate) const CERTNAME: &str = "mrtest.example.com";

/// A case's certname and environment, from its `args` (a control
/// repository's node: `--environment production --certname NODE`), as
/// scripts/puppet-record-catalogs reads them.
pub(crate) fn case_args(case: &std::path::Path) -> (String, Option<String>) {
    let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
    let words: Vec<&str> = args.split_whitespace().collect();
    let after = |option: &str| {
        words
            .iter()
            .position(|w| *w == option)
            .and_then(|at| words.get(at + 1))
            .map(|w| w.to_string())
    };
    (
        after("--certname").unwrap_or_else(|| CERTNAME.to_string()),
        after("--environment"),
    )
}

/// The module path a case's catalog is applied with, the case being read
/// at `seen_at` (where a disposable root binds it, or `case`): a control
/// repository's node has its environment's own modules first, as its
/// environment.conf says.
pub(crate) fn case_modulepath(
    case: &std::path::Path,
    seen_at: &std::path::Path,
    modulepath: &str,
) -> String {
    match case_args(case).1 {
        Some(environment) => format!(
            "{}:{modulepath}",
            seen_at
                .join("environments")
                .join(environment)
                .join("site-modules")
                .display()
        ),
        None => modulepath.to_string(),
    }
}
