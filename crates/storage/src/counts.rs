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
        // Per subject, in the order first met: each status's counted
        // things (resources or nodes), once each. Subjects and counted
        // things are found by their JSON text: a fleet has thousands.
        // Events are counted as they are read, never all in memory.
        let mut subjects: Vec<(Value, Vec<HashSet<String>>)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        self.answer_each("events", ast, &Paging::default(), false, &mut |event| {
            let event = &event;
            let subject = match subject_type {
                "certname" => json!({"title": text(event, "certname")}),
                "resource" => json!({
                    "type": text(event, "resource_type"),
                    "title": text(event, "resource_title"),
                }),
                _ => json!({"title": text(event, "containing_class")}),
            };
            let Some(status) = STATUSES.iter().position(|(status, _)| {
                event.get("status").and_then(Value::as_str) == Some(status)
            }) else {
                return true;
            };
            let counted = match count_by {
                "certname" => text(event, "certname"),
                _ => json!([
                    text(event, "certname"),
                    text(event, "resource_type"),
                    text(event, "resource_title")
                ]),
            };
            let at = *index.entry(subject.to_string()).or_insert_with(|| {
                subjects.push((subject, vec![HashSet::new(); STATUSES.len()]));
                subjects.len() - 1
            });
            subjects[at].1[status].insert(counted.to_string());
            true
        })?;
        let rows: Vec<Row> = subjects
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
