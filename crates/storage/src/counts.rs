//! PuppetDB's summaries of events: `event-counts` (per node, resource or
//! containing class, how many succeeded, failed, were noops or skipped)
//! and `aggregate-event-counts` (those summed over the subjects), over
//! the events an `events` query finds. Puppetboard's overview and radiator
//! read a node's status from them.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::query::{self, Extract, Paging};
use crate::row::Row;
use crate::{Store, StoreError};

/// What to count, as `event-counts`' parameters say.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventCounts {
    /// `certname`, `resource` or `containing_class`: what each count is
    /// of (`aggregate-event-counts` takes several, comma-separated).
    pub summarize_by: String,
    /// `resource` (the default) or `certname`: what is counted.
    pub count_by: Option<String>,
    /// A condition on the counts (`[">", "failures", 0]`).
    pub counts_filter: Option<Value>,
}

const SUBJECTS: &[&str] = &["certname", "resource", "containing_class"];

/// The counts' fields, by the statuses they count.
const STATUSES: &[(&str, &str)] = &[
    ("success", "successes"),
    ("failure", "failures"),
    ("noop", "noops"),
    ("skipped", "skips"),
];

fn bad(message: String) -> StoreError {
    StoreError::Query(message)
}

fn text(event: &Row, key: &str) -> Value {
    event.get(key).cloned().unwrap_or(Value::Null)
}

/// What an event is counted by: its fields the counts read.
#[derive(serde::Deserialize)]
struct Counted {
    #[serde(default)]
    status: Value,
    #[serde(default)]
    resource_type: Value,
    #[serde(default)]
    resource_title: Value,
    #[serde(default)]
    containing_class: Value,
}

/// Per subject, in the order first met: each status's counted things
/// (resources or nodes), once each. Subjects and counted things are
/// found by their JSON text: a fleet has thousands.
#[derive(Default)]
struct Tally {
    subjects: Vec<(Value, Vec<HashSet<String>>)>,
    index: HashMap<String, usize>,
}

impl Tally {
    /// Counts a node's event, its subject of `subject_type`, what is
    /// counted `count_by`.
    fn add(&mut self, subject_type: &str, count_by: &str, certname: &Value, event: &Counted) {
        let Some(status) = STATUSES
            .iter()
            .position(|(status, _)| event.status.as_str() == Some(status))
        else {
            return;
        };
        let subject = match subject_type {
            "certname" => json!({"title": certname}),
            "resource" => json!({"type": event.resource_type, "title": event.resource_title}),
            _ => json!({"title": event.containing_class}),
        };
        let counted = match count_by {
            "certname" => certname.to_string(),
            _ => json!([certname, event.resource_type, event.resource_title]).to_string(),
        };
        let subjects = &mut self.subjects;
        let at = *self.index.entry(subject.to_string()).or_insert_with(|| {
            subjects.push((subject, vec![HashSet::new(); STATUSES.len()]));
            subjects.len() - 1
        });
        subjects[at].1[status].insert(counted);
    }
}

impl Store {
    /// `event-counts`: per subject, the events of each status the events
    /// query finds.
    pub fn event_counts(
        &self,
        ast: Option<&Value>,
        counts: &EventCounts,
        paging: &Paging,
    ) -> Result<Vec<Value>, StoreError> {
        let subject_type = counts.summarize_by.as_str();
        if !SUBJECTS.contains(&subject_type) {
            // PuppetDB's words; the values are certname, resource and
            // containing_class.
            return Err(bad(format!(
                "Unsupported value for 'summarize_by': '{subject_type}'"
            )));
        }
        let count_by = counts.count_by.as_deref().unwrap_or("resource");
        if !matches!(count_by, "resource" | "certname") {
            return Err(bad(format!(
                "Unsupported value for 'count_by': '{count_by}'"
            )));
        }
        let filter = counts
            .counts_filter
            .as_ref()
            .map(|f| query::parse("event-counts", Some(f)))
            .transpose()?
            .and_then(|extract| extract.filter);
        // Events are counted as they are read, never all in memory.
        let mut tally = Tally::default();
        if ast == Some(&json!(["=", "latest_report?", true])) {
            // Puppetboard's overview: the latest reports' events, read
            // for the four fields counted, not made into rows of `events`.
            // The store writes each list; one it cannot read counts
            // nothing, as `events` answers no rows of it.
            self.latest_events(&mut |certname, events| {
                let certname = Value::from(certname);
                let events: Vec<Counted> = serde_json::from_str(events).unwrap_or_default();
                for event in &events {
                    tally.add(subject_type, count_by, &certname, event);
                }
                true
            })?;
        } else {
            self.answer_each("events", ast, &Paging::default(), false, &mut |row| {
                let event = Counted {
                    status: text(&row, "status"),
                    resource_type: text(&row, "resource_type"),
                    resource_title: text(&row, "resource_title"),
                    containing_class: text(&row, "containing_class"),
                };
                tally.add(subject_type, count_by, &text(&row, "certname"), &event);
                true
            })?;
        }
        let rows: Vec<Row> = tally
            .subjects
            .into_iter()
            .map(|(subject, seen)| {
                let mut row = Row::new();
                row.insert("subject_type", json!(subject_type));
                row.insert("subject", subject);
                for ((_, field), things) in STATUSES.iter().zip(&seen) {
                    row.insert(*field, json!(things.len()));
                }
                row
            })
            .filter(|row| filter.as_ref().is_none_or(|f| f.matches(row)))
            .collect();
        let whole = Extract {
            entity: "event-counts".into(),
            fields: None,
            filter: None,
            group_by: Vec::new(),
            paging: Paging::default(),
            computed: Vec::new(),
        };
        Ok(query::finish(&whole, rows, paging))
    }

    /// `aggregate-event-counts`: for each kind of subject, how many
    /// subjects had events of each status, and how many had any.
    pub fn aggregate_event_counts(
        &self,
        ast: Option<&Value>,
        counts: &EventCounts,
    ) -> Result<Vec<Value>, StoreError> {
        let mut out = Vec::new();
        for subject_type in counts.summarize_by.split(',').map(str::trim) {
            let one = EventCounts {
                summarize_by: subject_type.to_string(),
                ..counts.clone()
            };
            let per_subject = self.event_counts(ast, &one, &Paging::default())?;
            let mut row = Map::new();
            row.insert("summarize_by".into(), json!(subject_type));
            for (_, field) in STATUSES {
                let with = per_subject
                    .iter()
                    .filter(|s| s.get(*field).and_then(Value::as_u64).unwrap_or(0) > 0)
                    .count();
                row.insert((*field).into(), json!(with));
            }
            row.insert("total".into(), json!(per_subject.len()));
            out.push(Value::Object(row));
        }
        Ok(out)
    }
}
