//! PuppetDB's v4 query language (its JSON AST): parsed, checked against
//! the entity's fields, and evaluated over the entity's rows.
//!
//! Rows are JSON objects with PuppetDB's field names. Keys that start
//! with `_` are the store's own (the node's facts, whether it is active)
//! and never reach an answer.

use std::cmp::Ordering;

use marionette_values::time::Timestamp;
use regex::Regex;
use serde_json::{Map, Value};

use crate::StoreError;

/// Which part of an answer to give, in which order.
#[derive(Clone, Debug, Default)]
pub struct Paging {
    pub limit: Option<usize>,
    pub offset: usize,
    /// Fields to sort by, each ascending unless `true` (descending).
    pub order_by: Vec<(String, bool)>,
}

/// A field of a row: a plain one, a resource's parameter, or a node's fact.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Field {
    Plain(String),
    Parameter(String),
    Fact(String),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A condition on rows.
#[derive(Clone, Debug)]
pub(crate) enum Expr {
    Compare(Op, Field, Value),
    Regex(Field, Regex),
    Null(Field, bool),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
    /// The row's fields, as a tuple, are among these tuples.
    In(Vec<Field>, Vec<Vec<Value>>),
    /// Not yet run: rows whose fields are among what another query of
    /// another entity extracts (`["in", F, ["extract", G, ["select_E", Q]]]`).
    InQuery(Vec<Field>, Box<Extract>),
}

/// What to project from the matching rows.
#[derive(Clone, Debug)]
pub(crate) enum Projection {
    Field(String),
    Count,
}

/// `["extract", fields, query, ["group_by", ...]]`, or a plain query
/// (every field).
#[derive(Clone, Debug)]
pub(crate) struct Extract {
    pub(crate) entity: String,
    pub(crate) fields: Option<Vec<Projection>>,
    pub(crate) filter: Option<Expr>,
    pub(crate) group_by: Vec<String>,
}

/// The fields each entity answers with and may be queried by.
pub(crate) fn fields_of(entity: &str) -> Option<&'static [&'static str]> {
    Some(match entity {
        "nodes" => &[
            "certname",
            "deactivated",
            "expired",
            "catalog_timestamp",
            "facts_timestamp",
            "report_timestamp",
            "catalog_environment",
            "facts_environment",
            "report_environment",
            "latest_report_status",
            "latest_report_hash",
            "latest_report_noop",
            "latest_report_noop_pending",
            "latest_report_corrective_change",
            "latest_report_job_id",
            "cached_catalog_status",
            "node_state",
        ],
        "facts" => &["certname", "environment", "name", "value", "node_state"],
        "fact-names" => &["name"],
        "environments" => &["name"],
        "resources" => &[
            "certname",
            "environment",
            "exported",
            "file",
            "line",
            "parameters",
            "resource",
            "tag",
            "tags",
            "title",
            "type",
            "node_state",
        ],
        "catalogs" => &[
            "certname",
            "version",
            "transaction_uuid",
            "catalog_uuid",
            "code_id",
            "job_id",
            "producer_timestamp",
            "producer",
            "hash",
            "environment",
            "edges",
            "resources",
            "node_state",
        ],
        "reports" => &[
            "hash",
            "certname",
            "puppet_version",
            "receive_time",
            "report_format",
            "start_time",
            "end_time",
            "producer_timestamp",
            "producer",
            "transaction_uuid",
            "status",
            "noop",
            "noop_pending",
            "environment",
            "configuration_version",
            "corrective_change",
            "cached_catalog_status",
            "catalog_uuid",
            "code_id",
            "job_id",
            "type",
            "latest_report?",
            "resource_events",
            "metrics",
            "logs",
        ],
        "events" => &[
            "certname",
            "report",
            "status",
            "timestamp",
            "run_start_time",
            "run_end_time",
            "report_receive_time",
            "resource_type",
            "resource_title",
            "property",
            "name",
            "new_value",
            "old_value",
            "message",
            "file",
            "line",
            "containment_path",
            "containing_class",
            "environment",
            "configuration_version",
            "corrective_change",
            "latest_report?",
        ],
        _ => return None,
    })
}

/// Whether rows of the entity belong to nodes, and so are of active
/// nodes only unless the query asks about `node_state`.
pub(crate) fn follows_node_state(entity: &str) -> bool {
    matches!(entity, "nodes" | "facts" | "resources" | "catalogs")
}

fn bad(message: impl Into<String>) -> StoreError {
    StoreError::Query(message.into())
}

/// Parses a whole query for `entity`: a plain condition, or an extract.
pub(crate) fn parse(entity: &str, ast: Option<&Value>) -> Result<Extract, StoreError> {
    let Some(ast) = ast else {
        return Ok(Extract {
            entity: entity.to_string(),
            fields: None,
            filter: None,
            group_by: Vec::new(),
        });
    };
    let items = ast
        .as_array()
        .ok_or_else(|| bad(format!("The query must be a JSON array, not {ast}")))?;
    if items.first().and_then(Value::as_str) == Some("extract") {
        return parse_extract(entity, &items[1..]);
    }
    Ok(Extract {
        entity: entity.to_string(),
        fields: None,
        filter: Some(parse_expr(entity, ast)?),
        group_by: Vec::new(),
    })
}

fn parse_extract(entity: &str, args: &[Value]) -> Result<Extract, StoreError> {
    let fields = match args.first() {
        Some(Value::String(field)) => vec![Value::String(field.clone())],
        Some(Value::Array(fields)) => fields.clone(),
        _ => return Err(bad("'extract' takes a field or a list of fields")),
    };
    let mut projections = Vec::new();
    for field in fields {
        match &field {
            Value::String(name) => {
                check_field(entity, name)?;
                projections.push(Projection::Field(name.clone()));
            }
            Value::Array(call)
                if call.first().and_then(Value::as_str) == Some("function")
                    && call.get(1).and_then(Value::as_str) == Some("count") =>
            {
                projections.push(Projection::Count)
            }
            other => return Err(bad(format!("Can't extract {other}"))),
        }
    }
    let mut filter = None;
    let mut group_by = Vec::new();
    for arg in &args[1..] {
        let items = arg.as_array().ok_or_else(|| bad("Malformed 'extract'"))?;
        if items.first().and_then(Value::as_str) == Some("group_by") {
            for field in &items[1..] {
                let name = field.as_str().ok_or_else(|| bad("Malformed 'group_by'"))?;
                check_field(entity, name)?;
                group_by.push(name.to_string());
            }
        } else if !items.is_empty() {
            filter = Some(parse_expr(entity, arg)?);
        }
    }
    Ok(Extract {
        entity: entity.to_string(),
        fields: Some(projections),
        filter,
        group_by,
    })
}

fn check_field(entity: &str, name: &str) -> Result<(), StoreError> {
    let known = fields_of(entity).unwrap_or(&[]);
    if known.contains(&name) {
        return Ok(());
    }
    let mut listed: Vec<String> = known
        .iter()
        .filter(|f| !matches!(**f, "node_state" | "tags" | "latest_report?"))
        .map(|f| format!("'{f}'"))
        .collect();
    listed.sort_unstable();
    // PuppetDB lists them as a sentence: 'a', 'b', and 'c'.
    let listed = match listed.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{}, and {last}", rest.join(", ")),
        _ => listed.join(""),
    };
    Err(bad(format!(
        "'{name}' is not a queryable object for {entity}. Known queryable objects are {listed}"
    )))
}

fn parse_field(entity: &str, value: &Value) -> Result<Field, StoreError> {
    match value {
        Value::String(name) => {
            check_field(entity, name)?;
            Ok(Field::Plain(name.clone()))
        }
        Value::Array(path) => match (path.first().and_then(Value::as_str), path.get(1)) {
            (Some("parameter"), Some(Value::String(name))) if entity == "resources" => {
                Ok(Field::Parameter(name.clone()))
            }
            (Some("fact"), Some(Value::String(name))) if entity == "nodes" => {
                Ok(Field::Fact(name.clone()))
            }
            _ => Err(bad(format!(
                "{value} is not a queryable object for {entity}"
            ))),
        },
        _ => Err(bad(format!(
            "{value} is not a queryable object for {entity}"
        ))),
    }
}

fn arg<'a>(items: &'a [Value], index: usize, operator: &str) -> Result<&'a Value, StoreError> {
    items.get(index).ok_or_else(|| {
        bad(format!(
            "'{operator}' takes {} arguments, but {} were given",
            index,
            items.len() - 1
        ))
    })
}

fn parse_expr(entity: &str, ast: &Value) -> Result<Expr, StoreError> {
    let items = ast
        .as_array()
        .ok_or_else(|| bad(format!("{ast} is not a query")))?;
    let operator = items
        .first()
        .and_then(Value::as_str)
        .ok_or_else(|| bad(format!("{ast} is not a query: it names no operator")))?;
    let compare = |op: Op| -> Result<Expr, StoreError> {
        if items.len() != 3 {
            return Err(bad(format!(
                "{operator} requires exactly two arguments, but {} were supplied",
                items.len() - 1
            )));
        }
        Ok(Expr::Compare(
            op,
            parse_field(entity, &items[1])?,
            items[2].clone(),
        ))
    };
    match operator {
        "=" => compare(Op::Eq),
        "<" => compare(Op::Lt),
        "<=" => compare(Op::Le),
        ">" => compare(Op::Gt),
        ">=" => compare(Op::Ge),
        "~" => {
            let field = parse_field(entity, arg(items, 1, operator)?)?;
            let pattern = arg(items, 2, operator)?
                .as_str()
                .ok_or_else(|| bad("'~' takes a regular expression as a string"))?;
            let regex = Regex::new(pattern)
                .map_err(|e| bad(format!("Invalid regular expression '{pattern}': {e}")))?;
            Ok(Expr::Regex(field, regex))
        }
        "null?" => {
            let field = parse_field(entity, arg(items, 1, operator)?)?;
            let is_null = arg(items, 2, operator)?
                .as_bool()
                .ok_or_else(|| bad("'null?' takes true or false"))?;
            Ok(Expr::Null(field, is_null))
        }
        "and" | "or" => {
            let parts = items[1..]
                .iter()
                .map(|item| parse_expr(entity, item))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(if operator == "and" {
                Expr::And(parts)
            } else {
                Expr::Or(parts)
            })
        }
        "not" => {
            if items.len() != 2 {
                return Err(bad("'not' takes exactly one argument"));
            }
            Ok(Expr::Not(Box::new(parse_expr(entity, &items[1])?)))
        }
        "in" => {
            let fields = match arg(items, 1, operator)? {
                Value::Array(list) if !list.is_empty() && list.iter().all(Value::is_string) => list
                    .iter()
                    .map(|f| parse_field(entity, f))
                    .collect::<Result<Vec<_>, _>>()?,
                single => vec![parse_field(entity, single)?],
            };
            let source = arg(items, 2, operator)?
                .as_array()
                .ok_or_else(|| bad("'in' takes an 'array' or an 'extract'"))?;
            match source.first().and_then(Value::as_str) {
                Some("array") => {
                    let values = source
                        .get(1)
                        .and_then(Value::as_array)
                        .ok_or_else(|| bad("'array' takes a list of values"))?;
                    Ok(Expr::In(
                        fields,
                        values.iter().map(|v| vec![v.clone()]).collect(),
                    ))
                }
                Some("extract") => {
                    let (sub_entity, sub_query) = select(source.get(2))?;
                    let mut extract = parse_extract(&sub_entity, &source[1..2])?;
                    extract.filter = sub_query.map(|q| parse_expr(&sub_entity, q)).transpose()?;
                    Ok(Expr::InQuery(fields, Box::new(extract)))
                }
                _ => Err(bad("'in' takes an 'array' or an 'extract'")),
            }
        }
        "subquery" => {
            // An implicit subquery joins on the node.
            let sub_entity = arg(items, 1, operator)?
                .as_str()
                .ok_or_else(|| bad("'subquery' names an entity"))?;
            if fields_of(sub_entity).is_none() {
                return Err(StoreError::UnknownEntity(sub_entity.to_string()));
            }
            let filter = items
                .get(2)
                .map(|q| parse_expr(sub_entity, q))
                .transpose()?;
            let key = if entity == "environments" {
                "environment"
            } else {
                "certname"
            };
            Ok(Expr::InQuery(
                vec![Field::Plain(if entity == "environments" {
                    "name".into()
                } else {
                    key.into()
                })],
                Box::new(Extract {
                    entity: sub_entity.to_string(),
                    fields: Some(vec![Projection::Field(key.into())]),
                    filter,
                    group_by: Vec::new(),
                }),
            ))
        }
        other => Err(bad(format!("'{other}' is not a valid operator"))),
    }
}

/// `["select_facts", QUERY]`: the entity and its condition.
fn select(value: Option<&Value>) -> Result<(String, Option<&Value>), StoreError> {
    let items = value
        .and_then(Value::as_array)
        .ok_or_else(|| bad("A subquery's 'extract' needs a 'select_<entity>'"))?;
    let entity = items
        .first()
        .and_then(Value::as_str)
        .and_then(|s| s.strip_prefix("select_"))
        .ok_or_else(|| bad("A subquery's 'extract' needs a 'select_<entity>'"))?
        .replace('_', "-");
    if fields_of(&entity).is_none() {
        return Err(StoreError::UnknownEntity(entity));
    }
    Ok((entity, items.get(1)))
}

impl Expr {
    /// Whether the condition names `node_state`: such a query chooses
    /// which nodes' rows it sees.
    pub(crate) fn mentions_node_state(&self) -> bool {
        let named = |f: &Field| *f == Field::Plain("node_state".into());
        match self {
            Expr::Compare(_, f, _) | Expr::Regex(f, _) | Expr::Null(f, _) => named(f),
            Expr::And(parts) | Expr::Or(parts) => parts.iter().any(Expr::mentions_node_state),
            Expr::Not(inner) => inner.mentions_node_state(),
            Expr::In(fields, _) | Expr::InQuery(fields, _) => fields.iter().any(named),
        }
    }

    /// The value a top-level conjunction requires of a plain field, for
    /// the store to narrow what it reads.
    pub(crate) fn required(&self, field: &str) -> Option<&Value> {
        match self {
            Expr::Compare(Op::Eq, Field::Plain(name), value) if name == field => Some(value),
            Expr::And(parts) => parts.iter().find_map(|p| p.required(field)),
            _ => None,
        }
    }

    /// Runs the subqueries with `run`, leaving plain lists.
    pub(crate) fn resolve(
        &mut self,
        run: &mut dyn FnMut(&Extract) -> Result<Vec<Value>, StoreError>,
    ) -> Result<(), StoreError> {
        match self {
            Expr::And(parts) | Expr::Or(parts) => {
                for part in parts {
                    part.resolve(run)?;
                }
            }
            Expr::Not(inner) => inner.resolve(run)?,
            Expr::InQuery(fields, extract) => {
                let rows = run(extract)?;
                let names: Vec<String> = match &extract.fields {
                    Some(projections) => projections
                        .iter()
                        .filter_map(|p| match p {
                            Projection::Field(name) => Some(name.clone()),
                            Projection::Count => None,
                        })
                        .collect(),
                    None => Vec::new(),
                };
                let tuples = rows
                    .iter()
                    .map(|row| {
                        names
                            .iter()
                            .map(|n| row.get(n).cloned().unwrap_or(Value::Null))
                            .collect()
                    })
                    .collect();
                *self = Expr::In(std::mem::take(fields), tuples);
            }
            _ => {}
        }
        Ok(())
    }

    pub(crate) fn matches(&self, row: &Map<String, Value>) -> bool {
        match self {
            Expr::Compare(Op::Eq, Field::Plain(name), Value::String(state))
                if name == "node_state" && state == "any" =>
            {
                true
            }
            Expr::Compare(op, field, wanted) => {
                values_of(row, field).any(|found| compare(*op, found, wanted))
            }
            Expr::Regex(field, regex) => values_of(row, field).any(|found| match found {
                Value::String(text) => regex.is_match(text),
                Value::Number(n) => regex.is_match(&n.to_string()),
                _ => false,
            }),
            Expr::Null(field, is_null) => {
                let null = value_of(row, field).is_none_or(Value::is_null);
                null == *is_null
            }
            Expr::And(parts) => parts.iter().all(|p| p.matches(row)),
            Expr::Or(parts) => parts.iter().any(|p| p.matches(row)),
            Expr::Not(inner) => !inner.matches(row),
            Expr::In(fields, tuples) => {
                let mine: Vec<&Value> = fields
                    .iter()
                    .map(|f| value_of(row, f).unwrap_or(&Value::Null))
                    .collect();
                tuples.iter().any(|tuple| {
                    tuple.len() == mine.len()
                        && tuple.iter().zip(&mine).all(|(a, b)| compare(Op::Eq, b, a))
                })
            }
            // Resolved before rows are matched.
            Expr::InQuery(..) => false,
        }
    }
}

fn value_of<'a>(row: &'a Map<String, Value>, field: &Field) -> Option<&'a Value> {
    match field {
        Field::Plain(name) if name == "tag" => row.get("tags"),
        Field::Plain(name) if name == "node_state" => row.get("_node_state"),
        Field::Plain(name) if name == "latest_report?" => row.get("_latest_report?"),
        Field::Plain(name) => row.get(name.as_str()),
        Field::Parameter(name) => row.get("parameters")?.get(name.as_str()),
        Field::Fact(name) => row.get("_facts")?.get(name.as_str()),
    }
}

/// The values a condition on `field` tests: each tag for `tag`, the
/// value itself otherwise.
fn values_of<'a>(
    row: &'a Map<String, Value>,
    field: &Field,
) -> Box<dyn Iterator<Item = &'a Value> + 'a> {
    match (field, value_of(row, field)) {
        (Field::Plain(name), Some(Value::Array(tags))) if name == "tag" => Box::new(tags.iter()),
        (_, Some(value)) => Box::new(std::iter::once(value)),
        (_, None) => Box::new(std::iter::empty()),
    }
}

fn compare(op: Op, found: &Value, wanted: &Value) -> bool {
    let ordering = match (found, wanted) {
        (Value::Number(a), Value::Number(b)) => a.as_f64().partial_cmp(&b.as_f64()),
        // PuppetDB reads a number given as a string for numeric fields.
        (Value::Number(a), Value::String(b)) if op != Op::Eq => b
            .parse::<f64>()
            .ok()
            .and_then(|b| a.as_f64()?.partial_cmp(&b)),
        (Value::String(a), Value::String(b)) => match (timestamp(a), timestamp(b)) {
            (Some(a), Some(b)) => Some(a.cmp(&b)),
            _ if op == Op::Eq => Some(a.cmp(b)),
            _ => None,
        },
        (a, b) if op == Op::Eq => return a == b,
        _ => None,
    };
    let Some(ordering) = ordering else {
        return false;
    };
    match op {
        Op::Eq => ordering == Ordering::Equal,
        Op::Lt => ordering == Ordering::Less,
        Op::Le => ordering != Ordering::Greater,
        Op::Gt => ordering == Ordering::Greater,
        Op::Ge => ordering != Ordering::Less,
    }
}

/// A string that is a full ISO 8601 time, as PuppetDB compares them.
fn timestamp(text: &str) -> Option<i64> {
    if text.len() < 19 || text.as_bytes().get(10) != Some(&b'T') {
        return None;
    }
    Timestamp::parse(text).map(|t| t.0)
}

/// Orders JSON values as PuppetDB sorts a column: nulls last, numbers by
/// value, strings by text.
pub(crate) fn order(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Greater,
        (_, Value::Null) => Ordering::Less,
        (Value::Number(a), Value::Number(b)) => a
            .as_f64()
            .partial_cmp(&b.as_f64())
            .unwrap_or(Ordering::Equal),
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
        (a, b) => a.to_string().cmp(&b.to_string()),
    }
}

/// Projects, groups, sorts and pages the matching rows.
pub(crate) fn finish(
    extract: &Extract,
    rows: Vec<Map<String, Value>>,
    paging: &Paging,
) -> Vec<Value> {
    let mut rows: Vec<Map<String, Value>> = match &extract.fields {
        None => rows
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .filter(|(k, _)| !k.starts_with('_'))
                    .collect()
            })
            .collect(),
        Some(projections) if projections.iter().any(|p| matches!(p, Projection::Count)) => {
            // Counts, per group when grouped.
            let mut groups: Vec<(Vec<Value>, usize)> = Vec::new();
            for row in &rows {
                let key: Vec<Value> = extract
                    .group_by
                    .iter()
                    .map(|f| row.get(f).cloned().unwrap_or(Value::Null))
                    .collect();
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, count)) => *count += 1,
                    None => groups.push((key, 1)),
                }
            }
            groups
                .into_iter()
                .map(|(key, count)| {
                    let mut out = Map::new();
                    for projection in projections {
                        match projection {
                            Projection::Count => {
                                out.insert("count".into(), Value::from(count));
                            }
                            Projection::Field(name) => {
                                let at = extract.group_by.iter().position(|g| g == name);
                                out.insert(
                                    name.clone(),
                                    at.map(|i| key[i].clone()).unwrap_or(Value::Null),
                                );
                            }
                        }
                    }
                    out
                })
                .collect()
        }
        Some(projections) => rows
            .into_iter()
            .map(|row| {
                projections
                    .iter()
                    .filter_map(|p| match p {
                        Projection::Field(name) => {
                            let value = if name == "tag" { "tags" } else { name.as_str() };
                            Some((name.clone(), row.get(value).cloned().unwrap_or(Value::Null)))
                        }
                        Projection::Count => None,
                    })
                    .collect()
            })
            .collect(),
    };
    if !paging.order_by.is_empty() {
        rows.sort_by(|a, b| {
            for (field, descending) in &paging.order_by {
                let null = Value::Null;
                let ordering = order(a.get(field).unwrap_or(&null), b.get(field).unwrap_or(&null));
                let ordering = if *descending {
                    ordering.reverse()
                } else {
                    ordering
                };
                if ordering != Ordering::Equal {
                    return ordering;
                }
            }
            Ordering::Equal
        });
    }
    rows.into_iter()
        .skip(paging.offset)
        .take(paging.limit.unwrap_or(usize::MAX))
        .map(Value::Object)
        .collect()
}
