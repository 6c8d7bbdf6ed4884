//! The run report in Puppet's report format (version 12), written as JSON,
//! and the short summary Puppet keeps in `last_run_summary.yaml`.

use std::fmt::Write;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Value as Json, json};

/// The time now in Puppet's report form (`2026-11-21T08:20:00.123456789+00:00`).
pub fn now_text() -> String {
    thread_local! {
        /// The last second asked about and its text up to the fraction:
        /// every resource of a run asks, mostly within the same second.
        static SECOND: std::cell::RefCell<(u64, String)> =
            const { std::cell::RefCell::new((u64::MAX, String::new())) };
    }
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    SECOND.with(|second| {
        let mut second = second.borrow_mut();
        if second.0 != since.as_secs() {
            let whole = marionette_values::Timestamp::from_seconds(since.as_secs() as f64)
                .map(|t| timestamp_text(t.parts()))
                .unwrap_or_default();
            // `YYYY-MM-DDTHH:MM:SS.`
            let prefix = whole.get(..20).unwrap_or_default().to_string();
            *second = (since.as_secs(), prefix);
        }
        let mut text = String::with_capacity(35);
        text.push_str(&second.1);
        push_digits(&mut text, since.subsec_nanos().into(), 9);
        text.push_str("+00:00");
        text
    })
}

/// `value`'s last `width` decimal digits, with leading zeros.
fn push_digits(text: &mut String, value: u64, width: u32) {
    for place in (0..width).rev() {
        let digit = value / 10u64.pow(place) % 10;
        text.push(char::from(b'0' + digit as u8));
    }
}

/// `YYYY-MM-DDTHH:MM:SS.NNNNNNNNN+00:00` from a timestamp's parts,
/// written digit by digit rather than through the formatting machinery:
/// every resource of a run gets one.
fn timestamp_text(parts: [i64; 8]) -> String {
    let [year, month, day, hour, minute, second, nanos, _] = parts;
    let mut text = String::with_capacity(35);
    let mut digits = |value: i64, width: u32, after: Option<char>| {
        push_digits(&mut text, value.unsigned_abs(), width);
        if let Some(separator) = after {
            text.push(separator);
        }
    };
    digits(year, 4, Some('-'));
    digits(month, 2, Some('-'));
    digits(day, 2, Some('T'));
    digits(hour, 2, Some(':'));
    digits(minute, 2, Some(':'));
    digits(second, 2, Some('.'));
    digits(nanos, 9, None);
    text.push_str("+00:00");
    text
}

/// The segments of a containment path (`/Stage[main]/Main/File[/tmp/x]`
/// gives `Stage[main]`, `Main` and `File[/tmp/x]`): split at the slashes
/// outside a reference's brackets, since titles may hold slashes.
pub fn path_segments(path: &str) -> impl Iterator<Item = &str> {
    let body = path.strip_prefix('/').unwrap_or(path);
    let mut depth = 0usize;
    body.split(move |c: char| {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '/' if depth == 0 => return true,
            _ => {}
        }
        false
    })
}

/// A resource's containment path, held as its text and written into the
/// report as Puppet's list of segments: thousands of statuses then hold one
/// string each rather than a list of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainmentPath(pub Arc<str>);

impl Serialize for ContainmentPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(path_segments(&self.0))
    }
}

/// Seconds since the epoch.
pub fn now_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[derive(Clone, Debug, Serialize)]
pub struct Log {
    pub level: String,
    pub message: String,
    pub source: String,
    pub tags: Vec<String>,
    pub time: String,
    pub file: Option<String>,
    pub line: Option<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EventReport {
    pub audited: bool,
    /// Empty for an event of the resource rather than of a property (a
    /// failed refresh), which Puppet reports as `null`.
    #[serde(serialize_with = "empty_as_null")]
    pub property: String,
    pub previous_value: Json,
    pub desired_value: Json,
    pub historical_value: Json,
    pub message: String,
    pub name: String,
    pub status: String,
    pub time: String,
    pub redacted: Option<bool>,
    pub corrective_change: bool,
}

fn empty_as_null<S: serde::Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
    if text.is_empty() {
        serializer.serialize_none()
    } else {
        serializer.serialize_str(text)
    }
}

/// The resource statuses of a run by reference, in the order evaluated.
/// References are hashed with the fast hash: a run inserts thousands.
pub type Statuses = IndexMap<Arc<str>, ResourceStatus, marionette_values::fasthash::FastBuild>;

#[derive(Clone, Debug, Serialize)]
pub struct ResourceStatus {
    /// The title, the reference and the type are shared with the resource
    /// (the reference also keys the status in the report).
    pub title: Arc<str>,
    /// Shared with the catalog, as are the tags.
    pub file: Option<Arc<str>>,
    pub line: Option<u32>,
    pub resource: Arc<str>,
    pub resource_type: Arc<str>,
    pub provider_used: Option<String>,
    pub containment_path: ContainmentPath,
    pub evaluation_time: f64,
    pub tags: Arc<[String]>,
    pub time: String,
    pub failed: bool,
    pub failed_to_restart: bool,
    pub changed: bool,
    pub out_of_sync: bool,
    pub skipped: bool,
    pub change_count: usize,
    pub out_of_sync_count: usize,
    pub events: Vec<EventReport>,
    pub corrective_change: bool,
}

impl ResourceStatus {
    /// A resource's status before its evaluation: who and where it is,
    /// evaluated now, nothing done yet.
    pub fn new(
        resource: Arc<str>,
        title: Arc<str>,
        resource_type: Arc<str>,
        containment_path: ContainmentPath,
        (file, line): (Option<Arc<str>>, Option<u32>),
        tags: Arc<[String]>,
    ) -> ResourceStatus {
        ResourceStatus {
            title,
            file,
            line,
            resource,
            resource_type,
            provider_used: None,
            containment_path,
            evaluation_time: 0.0,
            tags,
            time: now_text(),
            failed: false,
            failed_to_restart: false,
            changed: false,
            out_of_sync: false,
            skipped: false,
            change_count: 0,
            out_of_sync_count: 0,
            events: Vec::new(),
            corrective_change: false,
        }
    }
}

/// Counts for the metrics and the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub total: usize,
    pub skipped: usize,
    pub failed: usize,
    pub failed_to_restart: usize,
    pub restarted: usize,
    pub changed: usize,
    pub out_of_sync: usize,
    pub scheduled: usize,
    pub events_success: usize,
    pub events_failure: usize,
    pub events_noop: usize,
    pub events_audit: usize,
    pub changes: usize,
}

impl Counts {
    pub fn events_total(&self) -> usize {
        self.events_audit + self.events_failure + self.events_noop + self.events_success
    }

    /// The events by status as Puppet counts them: failures, successes
    /// and the total always, audits and noops only in runs that had some.
    fn event_counts(&self) -> Vec<(&'static str, usize)> {
        let mut counts = Vec::with_capacity(5);
        if self.events_audit > 0 {
            counts.push(("audit", self.events_audit));
        }
        counts.push(("failure", self.events_failure));
        if self.events_noop > 0 {
            counts.push(("noop", self.events_noop));
        }
        counts.push(("success", self.events_success));
        counts.push(("total", self.events_total()));
        counts
    }
}

/// One value of the run summary.
#[derive(Clone, Debug, PartialEq)]
pub enum SummaryValue {
    Count(u64),
    Seconds(f64),
    Text(String),
}

impl SummaryValue {
    /// The value as Ruby prints it (`to_s`): Puppet sorts the summary it
    /// prints by these texts.
    fn ruby_text(&self) -> String {
        match self {
            SummaryValue::Count(count) => count.to_string(),
            SummaryValue::Seconds(seconds) => ruby_float(*seconds),
            SummaryValue::Text(text) => text.clone(),
        }
    }
}

/// A float as Ruby's `Float#to_s` writes it: always with a fraction, and
/// in scientific notation below 1e-4 and from 1e16 (`2.9514e-05`).
fn ruby_float(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let magnitude = value.abs();
    if magnitude != 0.0 && !(1e-4..1e16).contains(&magnitude) {
        let text = format!("{value:e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = if mantissa.contains('.') {
            mantissa.to_string()
        } else {
            format!("{mantissa}.0")
        };
        let (sign, digits) = match exponent.strip_prefix('-') {
            Some(digits) => ('-', digits),
            None => ('+', exponent),
        };
        return format!("{mantissa}e{sign}{digits:0>2}");
    }
    let text = value.to_string();
    if text.contains('.') {
        text
    } else {
        format!("{text}.0")
    }
}

/// The run summary: sections of named values, in the order Puppet keeps
/// them in `last_run_summary.yaml`.
pub type Summary = Vec<(&'static str, Vec<(String, SummaryValue)>)>;

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub host: String,
    pub time: String,
    pub configuration_version: u64,
    pub transaction_uuid: String,
    pub report_format: u32,
    pub puppet_version: String,
    pub status: String,
    pub transaction_completed: bool,
    pub noop: bool,
    pub noop_pending: bool,
    pub environment: String,
    pub logs: Vec<Log>,
    pub metrics: Json,
    pub resource_statuses: Statuses,
    pub corrective_change: bool,
    pub cached_catalog_status: String,
    pub catalog_uuid: String,
    pub code_id: Option<String>,
    pub job_id: Option<String>,
    pub master_used: Option<String>,
    pub server_used: Option<String>,
    pub kind: String,
    #[serde(skip)]
    pub counts: Counts,
    /// Whether something failed that `--detailed-exitcodes` counts: a
    /// resource, a refresh, or what no resource can be blamed for (a
    /// provider's deferred changes); not a failed generator, which fails
    /// the run's status alone, as Puppet's exit code leaves it out.
    #[serde(skip)]
    pub failures: bool,
    /// Seconds per resource type, then `total`.
    #[serde(skip)]
    pub times: IndexMap<String, f64>,
}

/// How many resource statuses are written to JSON at a time.
const STATUS_BATCH: usize = 1024;

impl Report {
    /// Fills `metrics` from the counts and times.
    pub fn finish_metrics(&mut self) {
        let c = &self.counts;
        let entry = |name: &str, label: &str, value: Json| json!([name, label, value]);
        let event_entries: Vec<Json> = c
            .event_counts()
            .into_iter()
            .map(|(name, count)| entry(name, &label(name), count.into()))
            .collect();
        let resources = vec![
            entry("changed", "Changed", c.changed.into()),
            entry("corrective_change", "Corrective change", 0.into()),
            entry("failed", "Failed", c.failed.into()),
            entry(
                "failed_to_restart",
                "Failed to restart",
                c.failed_to_restart.into(),
            ),
            entry("out_of_sync", "Out of sync", c.out_of_sync.into()),
            entry("restarted", "Restarted", c.restarted.into()),
            entry("scheduled", "Scheduled", c.scheduled.into()),
            entry("skipped", "Skipped", c.skipped.into()),
            entry("total", "Total", c.total.into()),
        ];
        let time: Vec<Json> = self
            .times
            .iter()
            .map(|(name, seconds)| entry(name, &label(name), json!(seconds)))
            .collect();
        self.metrics = json!({
            "resources": {"name": "resources", "label": "Resources", "values": resources},
            "time": {"name": "time", "label": "Time", "values": time},
            "changes": {"name": "changes", "label": "Changes", "values": [entry("total", "Total", c.changes.into())]},
            "events": {"name": "events", "label": "Events", "values": event_entries},
        });
    }

    /// The run's summary, as Puppet's `raw_summary`. `run_mode` is
    /// Puppet's name for the command (`user` for `apply`).
    pub fn summary(&self, run_mode: &str) -> Summary {
        use SummaryValue::{Count, Seconds, Text};
        let c = &self.counts;
        let count = |name: &str, value: usize| (name.to_string(), Count(value as u64));
        let mut time: Vec<(String, SummaryValue)> = self
            .times
            .iter()
            .map(|(name, seconds)| (name.clone(), Seconds(*seconds)))
            .collect();
        time.push(("last_run".into(), Count(now_seconds())));
        vec![
            (
                "version",
                vec![
                    ("config".into(), Count(self.configuration_version)),
                    ("puppet".into(), Text(self.puppet_version.clone())),
                ],
            ),
            (
                "application",
                vec![
                    ("run_mode".into(), Text(run_mode.into())),
                    ("initial_environment".into(), Text(self.environment.clone())),
                    (
                        "converged_environment".into(),
                        Text(self.environment.clone()),
                    ),
                ],
            ),
            (
                "resources",
                vec![
                    count("changed", c.changed),
                    count("corrective_change", 0),
                    count("failed", c.failed),
                    count("failed_to_restart", c.failed_to_restart),
                    count("out_of_sync", c.out_of_sync),
                    count("restarted", c.restarted),
                    count("scheduled", c.scheduled),
                    count("skipped", c.skipped),
                    count("total", c.total),
                ],
            ),
            ("time", time),
            ("changes", vec![count("total", c.changes)]),
            (
                "events",
                c.event_counts()
                    .into_iter()
                    .map(|(name, value)| count(name, value))
                    .collect(),
            ),
        ]
    }

    /// `last_run_summary.yaml`, in Puppet's layout.
    pub fn summary_yaml(&self, run_mode: &str) -> String {
        let mut out = String::from("---\n");
        for (section, values) in self.summary(run_mode) {
            let _ = writeln!(out, "{section}:");
            for (name, value) in values {
                let text = match value {
                    SummaryValue::Text(text) => yaml_string(&text),
                    other => other.ruby_text(),
                };
                let _ = writeln!(out, "  {name}: {text}");
            }
        }
        out
    }

    /// The summary `--summarize` prints, as Puppet prints it: sections in
    /// name order, each one's values ordered by their text with the total
    /// last, zeros left out, seconds to two places.
    pub fn summary_text(&self, run_mode: &str) -> String {
        let mut sections = self.summary(run_mode);
        sections.sort_by_key(|(section, _)| *section);
        let mut out = String::new();
        for (section, mut values) in sections {
            let _ = writeln!(out, "{}:", label(section));
            // Puppet's sort is not stable; equal texts keep their order
            // here, as they happened to in Puppet's output compared.
            values.sort_by_cached_key(|(name, value)| (name == "total", value.ruby_text()));
            for (name, value) in values {
                let text = match value {
                    SummaryValue::Count(0) => continue,
                    SummaryValue::Seconds(0.0) => continue,
                    SummaryValue::Seconds(seconds) => format!("{seconds:.2}"),
                    other => other.ruby_text(),
                };
                let _ = writeln!(out, "   {:>15} {text}", format!("{}:", label(&name)));
            }
        }
        out
    }

    /// Drops the statuses of resources that were in sync and neither
    /// failed nor were skipped, as Puppet's `exclude_unchanged_resources`
    /// does. The counts and metrics still cover every resource.
    pub fn exclude_unchanged_resources(&mut self) {
        self.resource_statuses
            .retain(|_, s| s.failed || s.failed_to_restart || s.out_of_sync || s.skipped);
    }

    /// Writes the report as compact JSON, as serializing it does, with the
    /// statuses written in batches on several threads. A run of thousands
    /// of resources has a report of megabytes, nearly all of it statuses.
    /// Batches keep the memory this takes small: a first run's statuses,
    /// with their events, are twice the size of a second run's.
    pub fn write_json(&mut self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        // The rest of the report is written with the statuses left out,
        // and they go where their empty object was. The key cannot be
        // found anywhere else: a quote inside a JSON string is escaped.
        let statuses = std::mem::take(&mut self.resource_statuses);
        let shell = serde_json::to_vec(&*self);
        self.resource_statuses = statuses;
        let shell = shell.map_err(std::io::Error::other)?;
        const EMPTY: &[u8] = b",\"resource_statuses\":{}";
        let Some(at) = shell.windows(EMPTY.len()).position(|w| w == EMPTY) else {
            return Err(std::io::Error::other("the report has no statuses to fill"));
        };
        let inside = at + EMPTY.len() - 1;
        out.write_all(&shell[..inside])?;
        let entries = self.resource_statuses.as_slice();
        let mut first = true;
        for start in (0..entries.len()).step_by(STATUS_BATCH) {
            let batch = &entries[start..(start + STATUS_BATCH).min(entries.len())];
            // Each thread writes its consecutive statuses into one buffer.
            let parts = marionette_values::parallel::chunks(batch.len(), |range| {
                let mut part = Vec::with_capacity(range.len() * 640);
                for (reference, status) in &batch[range] {
                    if !part.is_empty() {
                        part.push(b',');
                    }
                    serde_json::to_writer(&mut part, reference)?;
                    part.push(b':');
                    serde_json::to_writer(&mut part, status)?;
                }
                Ok::<_, serde_json::Error>(part)
            });
            for part in parts {
                let part = part.map_err(std::io::Error::other)?;
                if part.is_empty() {
                    continue;
                }
                if !first {
                    out.write_all(b",")?;
                }
                first = false;
                out.write_all(&part)?;
            }
        }
        out.write_all(&shell[inside..])
    }
}

/// `catalog_application` → `Catalog application`.
fn label(name: &str) -> String {
    let spaced = name.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn yaml_string(text: &str) -> String {
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c))
    {
        text.to_string()
    } else {
        format!("{text:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_times_are_written_in_full() {
        assert_eq!(
            timestamp_text([2026, 11, 21, 8, 5, 3, 12_345, 6]),
            "2026-11-21T08:05:03.000012345+00:00"
        );
        assert_eq!(
            timestamp_text(
                marionette_values::Timestamp::from_seconds(0.0)
                    .unwrap()
                    .parts()
            ),
            "1970-01-01T00:00:00.000000000+00:00"
        );
    }

    #[test]
    fn the_time_now_is_written_whole_and_goes_forward() {
        let first = now_text();
        let second = now_text();
        for text in [&first, &second] {
            assert_eq!(text.len(), 35, "{text}");
            assert!(
                text.ends_with("+00:00") && text.as_bytes()[19] == b'.',
                "{text}"
            );
        }
        // Fixed width: comparing the texts compares the times.
        assert!(first <= second, "{first} {second}");
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let whole = marionette_values::Timestamp::from_seconds(now as f64)
            .map(|t| timestamp_text(t.parts()))
            .unwrap();
        let later = now_text();
        assert!(later[..19] >= whole[..19], "{later} {whole}");
    }

    #[test]
    fn containment_paths_split_outside_titles() {
        fn segments(path: &str) -> Vec<&str> {
            path_segments(path).collect()
        }
        assert_eq!(
            segments("/Stage[main]/Web::Site[/srv/a]/File[/srv/a/b]"),
            ["Stage[main]", "Web::Site[/srv/a]", "File[/srv/a/b]"]
        );
        assert_eq!(
            segments("/Stage[main]/Main/Notify[x]"),
            ["Stage[main]", "Main", "Notify[x]"]
        );
        assert_eq!(
            serde_json::to_value(ContainmentPath("/Stage[main]/Main/Notify[a/b]".into())).unwrap(),
            serde_json::json!(["Stage[main]", "Main", "Notify[a/b]"])
        );
    }

    fn status(i: usize) -> ResourceStatus {
        let mut status = ResourceStatus::new(
            format!("File[/tmp/\"{i}\"]").into(),
            format!("/tmp/\"{i}\"").into(),
            "File".into(),
            ContainmentPath(format!("/Stage[main]/Main/File[/tmp/{i}]").into()),
            (Some("site.pp".into()), Some(u32::try_from(i).unwrap())),
            ["file".to_string(), "class".to_string()].into(),
        );
        status.provider_used = Some("posix".into());
        status.evaluation_time = 0.25;
        status.changed = i.is_multiple_of(3);
        status
    }

    #[test]
    fn floats_are_written_as_ruby_writes_them() {
        for (value, text) in [
            (0.0, "0.0"),
            (1.0, "1.0"),
            (0.040513048, "0.040513048"),
            (2.9514e-05, "2.9514e-05"),
            (0.0001, "0.0001"),
            (1e16, "1.0e+16"),
            (12.5, "12.5"),
        ] {
            assert_eq!(ruby_float(value), text);
        }
    }

    #[test]
    fn the_printed_summary_is_ordered_as_puppets() {
        let mut report = report_with(0);
        report.counts = Counts {
            total: 8,
            changed: 1,
            out_of_sync: 1,
            events_success: 1,
            changes: 1,
            ..Counts::default()
        };
        report.configuration_version = 1795511329;
        report.puppet_version = "7.23.0".into();
        report.times = [
            ("catalog_application", 0.008550239999749465),
            ("config_retrieval", 0.040513048),
            ("filebucket", 2.9514e-05),
            ("notify", 0.000791207),
            ("schedule", 0.000120129),
            ("total", 0.013379634),
            ("transaction_evaluation", 0.0027617580017249566),
        ]
        .into_iter()
        .map(|(name, seconds)| (name.to_string(), seconds))
        .collect();
        let text = report.summary_text("user");
        // The last run is the time now: its line is compared apart.
        let (text, last_run) = {
            let at = text.find("Last run: ").unwrap() + "Last run: ".len();
            let end = at + text[at..].find('\n').unwrap();
            let seconds: u64 = text[at..end].parse().unwrap();
            assert!(seconds.abs_diff(now_seconds()) <= 2, "{text}");
            (format!("{}N{}", &text[..at], &text[end..]), "N")
        };
        // Puppet 7.23's `puppet apply --summarize -e 'notify{x:}'`, the
        // last run's second aside.
        let expected = format!(
            "Application:
   Initial environment: production
   Converged environment: production
         Run mode: user
Changes:
            Total: 1
Events:
          Success: 1
            Total: 1
Resources:
          Changed: 1
      Out of sync: 1
            Total: 8
Time:
         Schedule: 0.00
           Notify: 0.00
   Transaction evaluation: 0.00
   Catalog application: 0.01
   Config retrieval: 0.04
         Last run: {last_run}
       Filebucket: 0.00
            Total: 0.01
Version:
           Config: 1795511329
           Puppet: 7.23.0
"
        );
        assert_eq!(text, expected);
        let yaml = report.summary_yaml("user");
        assert!(
            yaml.starts_with(
                "---\nversion:\n  config: 1795511329\n  puppet: 7.23.0\napplication:\n  run_mode: user\n"
            ),
            "{yaml}"
        );
        assert!(
            yaml.contains("\n  filebucket: 2.9514e-05\n")
                && yaml.ends_with("events:\n  failure: 0\n  success: 1\n  total: 1\n"),
            "{yaml}"
        );
    }

    fn report_with(count: usize) -> Report {
        Report {
            host: "mrtest.example.com".into(),
            time: now_text(),
            configuration_version: 1,
            transaction_uuid: "u".into(),
            report_format: 12,
            puppet_version: "marionette".into(),
            status: "unchanged".into(),
            transaction_completed: true,
            noop: false,
            noop_pending: false,
            environment: "production".into(),
            logs: vec![Log {
                level: "notice".into(),
                message: r#","resource_statuses":{}"#.into(),
                source: "Puppet".into(),
                tags: vec!["notice".into()],
                time: now_text(),
                file: None,
                line: None,
            }],
            metrics: Json::Null,
            resource_statuses: (0..count)
                .map(|i| {
                    let status = status(i);
                    (status.resource.clone(), status)
                })
                .collect(),
            corrective_change: false,
            cached_catalog_status: "not_used".into(),
            catalog_uuid: "c".into(),
            code_id: None,
            job_id: None,
            master_used: None,
            server_used: None,
            kind: "apply".into(),
            counts: Counts::default(),
            failures: false,
            times: IndexMap::new(),
        }
    }

    #[test]
    fn the_report_written_in_batches_is_the_report_serialized() {
        for count in [0, 1, 700, 2 * STATUS_BATCH + 3] {
            let mut report = report_with(count);
            report.finish_metrics();
            let mut written = Vec::new();
            report.write_json(&mut written).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                serde_json::to_string(&report).unwrap(),
                "{count} statuses"
            );
            assert_eq!(report.resource_statuses.len(), count);
        }
    }
}
