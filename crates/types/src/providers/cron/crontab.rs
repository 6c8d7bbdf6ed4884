//! `cron` through the `crontab` command: each user's crontab is read with
//! `crontab -l -u USER` and written back with `crontab -u USER -`, so cron
//! notices the change and the file keeps the owner and mode cron wants.
//!
//! A managed job is three parts, as Puppet writes them: a
//! `# Puppet Name: NAME` line, the job's `NAME=value` environment lines,
//! and the job line. Every other line is kept as it was.

use std::path::Path;

use marionette_ral::attribute::value_text;
use marionette_ral::{
    CommandSpec, Context, Instance, PropertyHash, PropertyProvider, ProviderDef, ProviderError,
};
use marionette_values::Value;

use crate::types::cron::{FIELDS, field_text};

const NAME_MARK: &str = "# Puppet Name: ";

struct Crontab;

/// A crontab's lines: jobs (named or not) and everything else.
#[derive(Debug)]
enum Block {
    Text(String),
    Job(Job),
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Job {
    name: Option<String>,
    environment: Vec<String>,
    special: Option<String>,
    fields: [String; 5],
    command: String,
}

fn text(value: &str) -> Value {
    Value::String(value.into())
}

fn is_environment(line: &str) -> bool {
    let trimmed = line.trim_start();
    !trimmed.starts_with('#')
        && trimmed
            .split_once('=')
            .is_some_and(|(name, _)| !name.is_empty() && !name.contains(char::is_whitespace))
}

/// A job line: `@special command`, or five time fields and a command.
fn parse_job(line: &str) -> Option<Job> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') || is_environment(trimmed) {
        return None;
    }
    if let Some(rest) = trimmed.strip_prefix('@') {
        let (special, command) = rest.split_once(char::is_whitespace)?;
        return Some(Job {
            special: Some(special.to_string()),
            fields: Default::default(),
            command: command.trim().to_string(),
            ..Job::default()
        });
    }
    let mut rest = trimmed;
    let mut fields: [String; 5] = Default::default();
    for field in &mut fields {
        let (word, tail) = rest.split_once(char::is_whitespace)?;
        *field = word.to_string();
        rest = tail.trim_start();
    }
    Some(Job {
        fields,
        command: rest.to_string(),
        ..Job::default()
    })
}

fn parse(crontab: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = crontab.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(name) = line.strip_prefix(NAME_MARK) else {
            blocks.push(match parse_job(line) {
                Some(job) => Block::Job(job),
                None => Block::Text(line.to_string()),
            });
            continue;
        };
        let mut environment = Vec::new();
        while let Some(next) = lines.peek() {
            if !is_environment(next) {
                break;
            }
            environment.push(next.trim().to_string());
            lines.next();
        }
        match lines.next().and_then(parse_job) {
            Some(mut job) => {
                job.name = Some(name.trim().to_string());
                job.environment = environment;
                blocks.push(Block::Job(job));
            }
            // A name line without a job: keep what was there.
            None => {
                blocks.push(Block::Text(line.to_string()));
                blocks.extend(environment.into_iter().map(Block::Text));
            }
        }
    }
    blocks
}

fn render(job: &Job) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(name) = &job.name {
        lines.push(format!("{NAME_MARK}{name}"));
    }
    lines.extend(job.environment.iter().cloned());
    lines.push(match &job.special {
        Some(special) => format!("@{special} {}", job.command),
        None => format!("{} {}", job.fields.join(" "), job.command),
    });
    lines
}

fn to_hash(job: &Job, user: &str, index: usize) -> PropertyHash {
    let name = job
        .name
        .clone()
        .unwrap_or_else(|| format!("unmanaged:{}-{index}", job.command));
    let mut hash = PropertyHash::from([
        ("name".to_string(), text(&name)),
        ("ensure".to_string(), text("present")),
        ("command".to_string(), text(&job.command)),
        ("user".to_string(), text(user)),
    ]);
    match &job.special {
        Some(special) => {
            hash.insert("special".into(), text(special));
        }
        None => {
            for ((field, ..), value) in FIELDS.iter().zip(&job.fields) {
                hash.insert(field.to_string(), text(value));
            }
        }
    }
    if !job.environment.is_empty() {
        let values: Vec<Value> = job.environment.iter().map(|e| text(e)).collect();
        hash.insert("environment".into(), Value::Array(values.into()));
    }
    hash
}

/// The crontab's user: `target`, else `user`.
fn owner(instance: &Instance<'_>) -> String {
    instance
        .resource
        .text("target")
        .or_else(|| instance.resource.text("user"))
        .unwrap_or_else(|| "root".to_string())
}

fn read(cx: &Context, user: &str) -> Result<String, ProviderError> {
    let output = cx.run(&CommandSpec::new(&["crontab", "-l", "-u", user]).unchecked())?;
    if output.success() {
        return Ok(output.stdout);
    }
    if output.stderr.contains("no crontab") {
        return Ok(String::new());
    }
    Err(ProviderError::new(format!(
        "Could not read the crontab of {user}: {}",
        output.stderr.trim()
    )))
}

fn write(cx: &Context, user: &str, crontab: &str) -> Result<(), ProviderError> {
    cx.run(&CommandSpec::new(&["crontab", "-u", user, "-"]).stdin(crontab))?;
    Ok(())
}

/// The job a resource wants, from what the system had (when it exists) and
/// what was set.
fn desired_job(instance: &Instance<'_>, old: Option<&Job>) -> Job {
    let resource = instance.resource;
    let mut job = old.cloned().unwrap_or_else(|| Job {
        fields: std::array::from_fn(|_| "*".to_string()),
        ..Job::default()
    });
    job.name = Some(resource.name());
    let value = |attr: &str| {
        instance.property_hash.get(attr).or_else(|| {
            // A new job takes every desired value; an existing one only what
            // changed (recorded in the property hash by the setters).
            old.is_none().then(|| resource.get(attr)).flatten()
        })
    };
    if let Some(command) = value("command") {
        job.command = value_text(command);
    }
    if let Some(special) = value("special") {
        let special = value_text(special);
        job.special = (special != "absent").then_some(special);
    }
    for (i, (field, ..)) in FIELDS.iter().enumerate() {
        if let Some(v) = value(field) {
            job.fields[i] = field_text(v);
            job.special = None;
        }
    }
    if let Some(environment) = value("environment") {
        job.environment = match environment {
            Value::Array(items) => items
                .iter()
                .map(value_text)
                .filter(|e| e != "absent")
                .collect(),
            other => vec![value_text(other)]
                .into_iter()
                .filter(|e| e != "absent")
                .collect(),
        };
    }
    job
}

impl PropertyProvider for Crontab {
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let mut users = vec!["root".to_string()];
        if let Ok(entries) = std::fs::read_dir(Path::new("/var/spool/cron/crontabs")) {
            for entry in entries.flatten() {
                let user = entry.file_name().to_string_lossy().into_owned();
                if !users.contains(&user) {
                    users.push(user);
                }
            }
        }
        let mut found = Vec::new();
        for user in users {
            let crontab = read(cx, &user)?;
            for (index, block) in parse(&crontab).iter().enumerate() {
                if let Block::Job(job) = block {
                    found.push(to_hash(job, &user, index));
                }
            }
        }
        Ok(found)
    }

    /// Reads each user's crontab once.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let mut crontabs: Vec<(String, Vec<Block>)> = Vec::new();
        for instance in instances {
            let user = owner(instance);
            if !crontabs.iter().any(|(u, _)| *u == user) {
                let blocks = parse(&read(cx, &user)?);
                crontabs.push((user.clone(), blocks));
            }
            let blocks = &crontabs
                .iter()
                .find(|(u, _)| *u == user)
                .expect("read above")
                .1;
            let name = instance.resource.name();
            instance.property_hash = blocks
                .iter()
                .enumerate()
                .find_map(|(index, block)| match block {
                    Block::Job(job) if job.name.as_deref() == Some(name.as_str()) => {
                        Some(to_hash(job, &user, index))
                    }
                    _ => None,
                })
                .unwrap_or_else(|| PropertyHash::from([("ensure".to_string(), text("absent"))]));
        }
        Ok(())
    }

    fn create(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        instance.property_hash = PropertyHash::from([("ensure".to_string(), text("present"))]);
        Ok(())
    }

    /// Writes the job into its user's crontab, read afresh: replaced where
    /// it was, appended when new, dropped when absent.
    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let user = owner(instance);
        let name = instance.resource.name();
        let mut blocks = parse(&read(cx, &user)?);
        let position = blocks.iter().position(
            |b| matches!(b, Block::Job(job) if job.name.as_deref() == Some(name.as_str())),
        );
        let old = position.and_then(|p| match &blocks[p] {
            Block::Job(job) => Some(job.clone()),
            Block::Text(_) => None,
        });
        let replacement = instance
            .present_in_hash()
            .then(|| desired_job(instance, old.as_ref()));
        match (position, replacement) {
            (Some(at), Some(job)) => blocks[at] = Block::Job(job),
            (Some(at), None) => {
                blocks.remove(at);
            }
            (None, Some(job)) => blocks.push(Block::Job(job)),
            (None, None) => return Ok(()),
        }
        let mut crontab = String::new();
        for block in &blocks {
            let lines = match block {
                Block::Text(line) => vec![line.clone()],
                Block::Job(job) => render(job),
            };
            for line in lines {
                crontab.push_str(&line);
                crontab.push('\n');
            }
        }
        write(cx, &user, &crontab)
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("cron", "crontab", Crontab)
        .doc(
            "Edits users' crontabs with the `crontab` command; jobs are recognized by
            their `# Puppet Name:` line.",
        )
        .command("crontab", "crontab")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crontabs_parse_and_render_back() {
        let crontab = "# a comment\nMAILTO=root\n# Puppet Name: backup\nPATH=/bin\n0 2 * * * /usr/bin/backup\n@reboot /bin/boot-task\n";
        let blocks = parse(crontab);
        assert_eq!(blocks.len(), 4);
        let Block::Job(backup) = &blocks[2] else {
            panic!("{blocks:?}")
        };
        assert_eq!(backup.name.as_deref(), Some("backup"));
        assert_eq!(backup.environment, ["PATH=/bin"]);
        assert_eq!(backup.fields[1], "2");
        assert_eq!(
            render(backup),
            [
                "# Puppet Name: backup",
                "PATH=/bin",
                "0 2 * * * /usr/bin/backup"
            ]
        );
        let Block::Job(boot) = &blocks[3] else {
            panic!()
        };
        assert_eq!(boot.special.as_deref(), Some("reboot"));
        assert_eq!(render(boot), ["@reboot /bin/boot-task"]);
    }
}
