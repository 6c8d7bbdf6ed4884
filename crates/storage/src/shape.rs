//! The fields of a node's, a resource's and a fact's answer, from the columns the
//! store reads them from: one table per entity, read two ways. A query
//! the engine filters or projects gets each row as a [`Row`] of values;
//! a query the database alone narrows (a type's resources, a fact's
//! values across the fleet) has each row written straight as the JSON
//! object that [`Row`] would be answered as, with no value made and
//! dropped for it: a fleet's dashboards ask for such answers, megabytes
//! each. Every node's answer and the exported resources' go further:
//! each node's and each exported resource's object is kept whole
//! ([`Kept`]), made from the same fields as [`NODE`]'s and [`RESOURCE`]'s.

use std::io::Write;

use serde_json::Value;

use crate::db::{ColumnRef, Columns};
use crate::row::{Row, WriteJson, kept_json, write_str_bytes};

/// How a field is read from its column.
#[derive(Clone, Copy)]
pub(crate) enum Column {
    /// A text, or null.
    Text(usize),
    /// JSON's `true` or `false` kept as text (read without a parser), or
    /// another JSON document.
    Flag(usize),
    /// An integer, true when not zero.
    Bool(usize),
    /// An integer, or null.
    Int(usize),
    /// A JSON document, answered as it is kept.
    Json(usize),
    /// Always null.
    Null,
}

/// A field of an answer: its name, the JSON that comes before its value
/// in the object (`,"name":`, the comma left out for the first), and how
/// it is read.
pub(crate) struct Field {
    name: &'static str,
    key: &'static str,
    column: Column,
}

/// A [`Field`] named `$name` (the store's own names, with nothing JSON
/// escapes).
macro_rules! field {
    ($name:literal, $column:expr) => {
        Field {
            name: $name,
            key: concat!(",\"", $name, "\":"),
            column: $column,
        }
    };
}

/// A node's fields, from the columns of `store::nodes`'s statement.
pub(crate) const NODE: &[Field] = &[
    field!("certname", Column::Text(0)),
    field!("deactivated", Column::Text(1)),
    field!("expired", Column::Text(2)),
    field!("catalog_timestamp", Column::Text(6)),
    field!("facts_timestamp", Column::Text(3)),
    field!("report_timestamp", Column::Text(8)),
    field!("catalog_environment", Column::Text(7)),
    field!("facts_environment", Column::Text(4)),
    field!("report_environment", Column::Text(9)),
    field!("latest_report_status", Column::Text(10)),
    field!("latest_report_noop", Column::Flag(11)),
    field!("latest_report_noop_pending", Column::Flag(12)),
    field!("latest_report_hash", Column::Text(13)),
    field!("latest_report_job_id", Column::Text(14)),
    // Open-source PuppetDB keeps no corrective changes.
    field!("latest_report_corrective_change", Column::Null),
    field!("cached_catalog_status", Column::Text(15)),
];

/// A resource's fields, from the columns of `store::resources`'s
/// statement.
pub(crate) const RESOURCE: &[Field] = &[
    field!("certname", Column::Text(0)),
    field!("resource", Column::Text(1)),
    field!("type", Column::Text(2)),
    field!("title", Column::Text(3)),
    field!("exported", Column::Bool(4)),
    field!("tags", Column::Json(5)),
    field!("file", Column::Text(6)),
    field!("line", Column::Int(7)),
    field!("environment", Column::Text(8)),
    field!("parameters", Column::Json(9)),
];

/// A fact's fields (a fact of each node, by its name), from the columns
/// of `store::named_facts`' and `store::write_narrowed`'s statements.
pub(crate) const FACT: &[Field] = &[
    field!("certname", Column::Text(0)),
    field!("name", Column::Text(1)),
    field!("value", Column::Json(2)),
    field!("environment", Column::Text(3)),
];

/// The fields as a row, with room for `hidden` more (the store's own).
pub(crate) fn row(fields: &[Field], columns: &dyn Columns, hidden: usize) -> Row {
    let mut row = Row::with_capacity(fields.len() + hidden);
    for &Field { name, column, .. } in fields {
        match column {
            Column::Json(index) => row.push_json(name, text(columns, index).as_deref()),
            column => row.push(name, value(column, columns)),
        }
    }
    row
}

/// A field's value (but a JSON document's: [`row`]).
fn value(column: Column, columns: &dyn Columns) -> Value {
    match column {
        Column::Text(index) => text(columns, index).map_or(Value::Null, |t| t.into_owned().into()),
        Column::Flag(index) => match text(columns, index).as_deref() {
            Some("true") => Value::Bool(true),
            Some("false") => Value::Bool(false),
            Some(other) => serde_json::from_str(other).unwrap_or(Value::Null),
            None => Value::Null,
        },
        Column::Bool(index) => Value::Bool(columns.column(index).int().is_some_and(|n| n != 0)),
        Column::Int(index) => columns.column(index).int().map_or(Value::Null, Value::from),
        Column::Json(index) => text(columns, index)
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null),
        Column::Null => Value::Null,
    }
}

/// A column as text, a number written out, or nothing when null.
fn text(columns: &dyn Columns, index: usize) -> Option<std::borrow::Cow<'_, str>> {
    match columns.column(index) {
        ColumnRef::Text(text) => Some(text),
        ColumnRef::Int(n) => Some(n.to_string().into()),
        ColumnRef::Null => None,
    }
}

/// Whether the node a row is of is active: neither of its columns that
/// say when it was deactivated and when it expired holds a time.
pub(crate) fn active(columns: &dyn Columns, deactivated: usize, expired: usize) -> bool {
    [deactivated, expired]
        .iter()
        .all(|&index| matches!(columns.column(index), ColumnRef::Null))
}

/// A row's columns with one read elsewhere: column `.1` is `.2` (a
/// merge join's, [`crate::db::Db::query_each_columns_merged`]).
pub(crate) struct With<'a>(
    pub(crate) &'a dyn Columns,
    pub(crate) usize,
    pub(crate) Option<&'a [u8]>,
);

impl Columns for With<'_> {
    fn column(&self, index: usize) -> ColumnRef<'_> {
        match (index == self.1, self.2) {
            (false, _) => self.0.column(index),
            (true, Some(text)) => ColumnRef::Text(String::from_utf8_lossy(text)),
            (true, None) => ColumnRef::Null,
        }
    }

    fn bytes(&self, index: usize) -> Option<std::borrow::Cow<'_, [u8]>> {
        match index == self.1 {
            false => self.0.bytes(index),
            true => self.2.map(std::borrow::Cow::Borrowed),
        }
    }
}

/// A row written as the JSON object its [`row`] is answered as.
pub(crate) struct Fields<'a>(pub(crate) &'a [Field], pub(crate) &'a dyn Columns);

impl WriteJson for Fields<'_> {
    fn write_json<W: Write>(&self, out: &mut W) -> std::io::Result<()> {
        let Fields(fields, columns) = self;
        out.write_all(b"{")?;
        for (index, &Field { key, column, .. }) in fields.iter().enumerate() {
            // Written whole: a fleet's answer has a key for each field of
            // each of its thousands of rows.
            let key = if index == 0 { &key[1..] } else { key };
            out.write_all(key.as_bytes())?;
            match column {
                Column::Text(index) => match columns.bytes(index) {
                    Some(text) => write_str_bytes(out, &text)?,
                    None => out.write_all(b"null")?,
                },
                // A flag is nearly always one of JSON's two words, kept
                // as such: written as it is, with no value made for it.
                Column::Flag(index)
                    if let Some(word) = columns.bytes(index)
                        && matches!(&*word, b"true" | b"false") =>
                {
                    out.write_all(&word)?
                }
                Column::Json(index) => {
                    let kept = text(*columns, index);
                    match kept.as_deref().and_then(kept_json) {
                        Some(raw) => out.write_all(raw.as_bytes())?,
                        None => out.write_all(b"null")?,
                    }
                }
                column => serde_json::to_writer(&mut *out, &value(column, *columns))?,
            }
        }
        out.write_all(b"}")
    }
}

/// A JSON document a column keeps (a node's or an exported resource's
/// answer, migration 8),
/// written as it is kept; null when the column is.
pub(crate) struct Kept<'a>(pub(crate) &'a dyn Columns, pub(crate) usize);

impl WriteJson for Kept<'_> {
    fn write_json<W: Write>(&self, out: &mut W) -> std::io::Result<()> {
        match self.0.bytes(self.1) {
            Some(json) => out.write_all(&json),
            None => out.write_all(b"null"),
        }
    }
}
