//! `cron` through the `crontab` command, on the parsed-file framework
//! (`marionette_ral::parsedfile`): each user's crontab is a target, read
//! with `crontab -l -u USER` and written back with `crontab -u USER -`, so
//! cron notices the change and the file keeps the owner and mode cron
//! wants.
//!
//! A managed job is three parts, as Puppet writes them: a
//! `# Puppet Name: NAME` line, the job's `NAME=value` environment lines,
//! and the job line. Jobs without a name line are listed as
//! `unmanaged:COMMAND-N`; every other line is kept as it was.

use std::path::Path;

use marionette_ral::attribute::value_text;
use marionette_ral::parsedfile::{Chunk, ParsedFile, RecordFormat};
use marionette_ral::{CommandSpec, Context, PropertyHash, ProviderDef, ProviderError, Resource};
use marionette_values::Value;

use crate::types::cron::{FIELDS, field_text};

const NAME_MARK: &str = "# Puppet Name: ";

/// Users' crontabs as the framework's targets.
struct Crontab;

/// One job as the crontab holds it.
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

/// A crontab's jobs (named or not, each with its lines as they were) and
/// everything else, line by line.
fn parse(crontab: &str) -> Vec<(Vec<String>, Option<Job>)> {
    let mut blocks = Vec::new();
    let mut lines = crontab.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(name) = line.strip_prefix(NAME_MARK) else {
            blocks.push((vec![line.to_string()], parse_job(line)));
            continue;
        };
        let mut environment = Vec::new();
        while let Some(next) = lines.peek() {
            if !is_environment(next) {
                break;
            }
            environment.push(next.to_string());
            lines.next();
        }
        let job_line = lines.peek().copied();
        match job_line.and_then(parse_job) {
            Some(mut job) => {
                lines.next();
                job.name = Some(name.trim().to_string());
                job.environment = environment.iter().map(|e| e.trim().to_string()).collect();
                let mut text = vec![line.to_string()];
                text.extend(environment);
                text.extend(job_line.map(str::to_string));
                blocks.push((text, Some(job)));
            }
            // A name line without a job: keep what was there.
            None => {
                blocks.push((vec![line.to_string()], None));
                blocks.extend(environment.into_iter().map(|e| (vec![e], None)));
            }
        }
    }
    blocks
}

fn render_job(job: &Job) -> Vec<String> {
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
        ("command".to_string(), text(&job.command)),
        ("user".to_string(), text(user)),
    ]);
    match &job.special {
        Some(special) => {
            hash.insert("special".into(), text(special));
        }
        None => {
            // As Puppet reads them: a list of the comma-separated
            // elements, and `*` as no value at all.
            for ((field, ..), value) in FIELDS.iter().zip(&job.fields) {
                if value != "*" {
                    let items: Vec<Value> = value.split(',').map(text).collect();
                    hash.insert(field.to_string(), Value::Array(items.into()));
                }
            }
        }
    }
    if !job.environment.is_empty() {
        let values: Vec<Value> = job.environment.iter().map(|e| text(e)).collect();
        hash.insert("environment".into(), Value::Array(values.into()));
    }
    hash
}

/// The job a record describes: the framework's merge of what the crontab
/// had, what changed and, for a new job, every desired value. Time fields
/// not given are `*`; `absent` clears a value.
fn from_hash(record: &PropertyHash) -> Result<Job, String> {
    let get = |attr: &str| record.get(attr).filter(|v| value_text(v) != "absent");
    let mut job = Job {
        name: get("name").map(value_text),
        command: get("command")
            .map(value_text)
            .ok_or("no command specified, cannot create")?,
        special: get("special").map(value_text),
        fields: std::array::from_fn(|_| "*".to_string()),
        ..Job::default()
    };
    for (i, (field, ..)) in FIELDS.iter().enumerate() {
        if let Some(value) = record.get(*field) {
            job.fields[i] = field_text(value);
        }
    }
    job.environment = match record.get("environment") {
        Some(Value::Array(items)) => items.iter().map(value_text).collect(),
        Some(other) => vec![value_text(other)],
        None => Vec::new(),
    };
    job.environment.retain(|e| e != "absent");
    Ok(job)
}

/// Whether an attribute is one of the five time fields.
fn is_time_field(attr: &str) -> bool {
    FIELDS.iter().any(|(field, ..)| *field == attr)
}

impl RecordFormat for Crontab {
    /// Jobs are records; one without a name line is named
    /// `unmanaged:COMMAND-N` by its position, as Puppet lists such jobs.
    /// Everything else is kept as text.
    fn split(&self, target: &str, text: &str) -> Vec<Chunk> {
        parse(text)
            .into_iter()
            .enumerate()
            .map(|(index, (lines, job))| Chunk {
                text: lines.join("\n"),
                record: job.map(|job| to_hash(&job, target, index)),
            })
            .collect()
    }

    fn render(&self, record: &PropertyHash) -> Result<String, String> {
        Ok(render_job(&from_hash(record)?).join("\n"))
    }

    fn default_target(&self) -> String {
        "root".to_string()
    }

    /// The crontab's user: `target`, else `user`.
    fn target(&self, resource: &Resource) -> String {
        resource
            .text("target")
            .or_else(|| resource.text("user"))
            .unwrap_or_else(|| self.default_target())
    }

    /// root's crontab and every crontab in cron's spool.
    fn listed_targets(&self, _cx: &Context) -> Vec<String> {
        let mut users = vec![self.default_target()];
        if let Ok(entries) = std::fs::read_dir(Path::new("/var/spool/cron/crontabs")) {
            let mut found: Vec<String> = entries
                .flatten()
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect();
            found.sort();
            for user in found {
                if !users.contains(&user) {
                    users.push(user);
                }
            }
        }
        users
    }

    /// A time field replaces a `special` schedule, and a `special`
    /// schedule the time fields: the crontab line has one or the other.
    fn update(&self, record: &mut PropertyHash, key: &str, value: &Value) {
        if is_time_field(key) {
            record.shift_remove("special");
        }
        record.insert(key.to_string(), value.clone());
    }

    fn read(&self, cx: &Context, user: &str) -> Result<Option<String>, ProviderError> {
        let output = cx.run(&CommandSpec::new(&["crontab", "-l", "-u", user]).unchecked())?;
        if output.success() {
            return Ok(Some(output.stdout));
        }
        if output.stderr.contains("no crontab") {
            return Ok(None);
        }
        Err(ProviderError::new(format!(
            "Could not read the crontab of {user}: {}",
            output.stderr.trim()
        )))
    }

    fn write(&self, cx: &Context, user: &str, crontab: &str) -> Result<(), ProviderError> {
        cx.run(&CommandSpec::new(&["crontab", "-u", user, "-"]).stdin(crontab))?;
        Ok(())
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("cron", "crontab", ParsedFile { format: Crontab })
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
        let chunks = Crontab.split("root", crontab);
        assert_eq!(chunks.len(), 4);
        assert_eq!(chunks[0].record, None);
        assert_eq!(
            chunks[2].text,
            "# Puppet Name: backup\nPATH=/bin\n0 2 * * * /usr/bin/backup"
        );
        let backup = chunks[2].record.as_ref().unwrap();
        assert_eq!(backup["name"], text("backup"));
        assert_eq!(backup["hour"], Value::Array(vec![text("2")].into()));
        assert!(
            backup.get("minute").is_some() && backup.get("month").is_none(),
            "`*` is no value"
        );
        assert_eq!(backup["user"], text("root"));
        assert_eq!(Crontab.render(backup).unwrap(), chunks[2].text);
        let boot = chunks[3].record.as_ref().unwrap();
        assert_eq!(boot["name"], text("unmanaged:/bin/boot-task-3"));
        assert_eq!(boot["special"], text("reboot"));
        let mut boot = boot.clone();
        boot.shift_remove("name");
        assert_eq!(Crontab.render(&boot).unwrap(), "@reboot /bin/boot-task");
    }

    #[test]
    fn a_time_field_replaces_a_special_schedule() {
        let mut record = Crontab.split("root", "# Puppet Name: boot\n@reboot /bin/boot\n")[0]
            .record
            .clone()
            .unwrap();
        Crontab.update(&mut record, "hour", &text("4"));
        assert_eq!(
            Crontab.render(&record).unwrap(),
            "# Puppet Name: boot\n* 4 * * * /bin/boot"
        );
        assert!(Crontab.render(&PropertyHash::new()).is_err());
    }

    #[test]
    fn a_name_line_without_a_job_is_kept_as_text() {
        let chunks = Crontab.split("root", "# Puppet Name: lost\nA=1\n# end\n");
        assert!(chunks.iter().all(|c| c.record.is_none()));
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["# Puppet Name: lost", "A=1", "# end"]);
    }
}
