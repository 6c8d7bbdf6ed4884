//! PuppetDB's v4 query language (its JSON AST): parsed, checked against
//! the entity's fields, and evaluated over the entity's rows.
//!
//! Rows are JSON objects with PuppetDB's field names. Keys that start
//! with `_` are the store's own (the node's facts, whether it is active)
//! and never reach an answer.

use std::cmp::Ordering;

use marionette_values::time::Timestamp;
use regex::Regex;
use serde_json::Value;

use crate::StoreError;
use crate::row::Row;

/// Which part of an answer to give, in which order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Paging {
    pub limit: Option<usize>,
    pub offset: usize,
    /// Fields to sort by, each ascending unless `true` (descending).
    pub order_by: Vec<(String, bool)>,
}

impl Paging {
    /// This paging (a query's own), with what it leaves unsaid taken
    /// from `other` (the request's parameters).
    pub fn or(&self, other: &Paging) -> Paging {
        Paging {
            limit: self.limit.or(other.limit),
            offset: if self.offset == 0 {
                other.offset
            } else {
                self.offset
            },
            order_by: if self.order_by.is_empty() {
                other.order_by.clone()
            } else {
                self.order_by.clone()
            },
        }
    }
}

/// A field of a row: a plain one, a resource's parameter, a node's fact,
/// or a step into a structured field (`facts.os.family`,
/// `parameters.ensure`).
#[derive(Clone, Debug)]
pub(crate) enum Field {
    Plain(String),
    Parameter(String),
    Fact(String),
    Path(String, Vec<Step>),
}

impl PartialEq for Field {
    fn eq(&self, other: &Field) -> bool {
        match (self, other) {
            (Field::Plain(a), Field::Plain(b))
            | (Field::Parameter(a), Field::Parameter(b))
            | (Field::Fact(a), Field::Fact(b)) => a == b,
            _ => false,
        }
    }
}

/// A step of a dotted field's path.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
    /// `match(REGEX)`: every key the expression matches.
    Match(Regex),
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
    /// `~>`: a path (a list) whose elements, as text, each match the
    /// expression at the same place.
    PathRegex(Field, Vec<Regex>),
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

/// What to project from the matching rows: a field (by its name in the
/// answer), or an aggregate function of the rows (`count`, `avg`, `sum`,
/// `min`, `max`), of one field or (`count` only) of none.
#[derive(Clone, Debug)]
pub(crate) enum Projection {
    Field(String, Field),
    Function(String, Option<Field>),
}

/// `["extract", fields, query, ["group_by", ...]]`, or a plain query
/// (every field).
#[derive(Clone, Debug)]
pub(crate) struct Extract {
    pub(crate) entity: String,
    pub(crate) fields: Option<Vec<Projection>>,
    pub(crate) filter: Option<Expr>,
    pub(crate) group_by: Vec<(String, Field)>,
    /// A subquery's own paging (`["from", E, Q, ["limit", 1]]`).
    pub(crate) paging: Paging,
    /// Fields computed from each row before it is projected or grouped:
    /// `to_string(FIELD, FORMAT)`, by the name it is answered as.
    pub(crate) computed: Vec<Computed>,
}

/// `["function", "to_string", FIELD, FORMAT]`: the field's time written
/// with PostgreSQL's `to_char` patterns, as the key `to_string`.
#[derive(Clone, Debug)]
pub(crate) struct Computed {
    pub(crate) key: String,
    pub(crate) source: Field,
    pub(crate) format: String,
}

/// A `to_string` call: its computed field.
fn parse_to_string(entity: &str, call: &[Value]) -> Result<Computed, StoreError> {
    match (call.get(2), call.get(3).and_then(Value::as_str), call.len()) {
        (Some(field), Some(format), 4) => Ok(Computed {
            key: "to_string".into(),
            source: parse_field(entity, field)?,
            format: format.to_string(),
        }),
        _ => Err(bad(
            "The function 'to_string' takes a field and a format, as to_string(receive_time, \"YYYY-MM-DD\")",
        )),
    }
}

fn is_to_string(value: &Value) -> bool {
    value.as_array().is_some_and(|call| {
        call.first().and_then(Value::as_str) == Some("function")
            && call.get(1).and_then(Value::as_str) == Some("to_string")
    })
}

/// The name the store knows an entity by: PQL and the root endpoint
/// spell some with underscores (`fact_contents`).
pub(crate) fn entity_name(name: &str) -> String {
    name.replace('_', "-")
}

/// `["from", ENTITY, QUERY?, PAGING...]` without its `"from"`: the
/// entity, its query, and the paging clauses (`["limit", N]`,
/// `["offset", N]`, `["order_by", [FIELD | [FIELD, "asc"|"desc"], ...]]`).
pub(crate) fn split_from(args: &[Value]) -> Result<(String, Option<Value>, Paging), StoreError> {
    let entity = args
        .first()
        .and_then(Value::as_str)
        .ok_or_else(|| bad("'from' takes an entity, as in [\"from\", \"nodes\", QUERY]"))?;
    let entity = entity_name(entity);
    let mut query = None;
    let mut paging = Paging::default();
    for (index, clause) in args[1..].iter().enumerate() {
        let items = clause
            .as_array()
            .ok_or_else(|| bad(format!("{clause} is not a query or a paging clause")))?;
        let count = |name: &str| -> Result<usize, StoreError> {
            items
                .get(1)
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .filter(|_| items.len() == 2)
                .ok_or_else(|| {
                    bad(format!(
                        "'{name}' takes one non-negative integer, not {clause}"
                    ))
                })
        };
        match items.first().and_then(Value::as_str) {
            Some("limit") => paging.limit = Some(count("limit")?),
            Some("offset") => paging.offset = count("offset")?,
            Some("order_by") => {
                let fields = items
                    .get(1)
                    .and_then(Value::as_array)
                    .filter(|_| items.len() == 2)
                    .ok_or_else(|| {
                        bad(format!("'order_by' takes a list of fields, not {clause}"))
                    })?;
                for field in fields {
                    let (name, descending) = match field {
                        Value::String(name) => (name.clone(), false),
                        Value::Array(pair) => match (
                            pair.first().and_then(Value::as_str),
                            pair.get(1).and_then(Value::as_str),
                            pair.len(),
                        ) {
                            (Some(name), Some("asc"), 2) => (name.to_string(), false),
                            (Some(name), Some("desc"), 2) => (name.to_string(), true),
                            _ => return Err(bad(format!("Can't order by {field}"))),
                        },
                        other => return Err(bad(format!("Can't order by {other}"))),
                    };
                    paging.order_by.push((name, descending));
                }
            }
            _ if index == 0 => query = Some(clause.clone()),
            _ => return Err(bad(format!("{clause} is not a paging clause"))),
        }
    }
    Ok((entity, query, paging))
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
        "fact-contents" => &[
            "certname",
            "environment",
            "name",
            "path",
            "value",
            "node_state",
        ],
        "fact-paths" => &["path", "type"],
        "inventory" => &[
            "certname",
            "timestamp",
            "environment",
            "facts",
            "trusted",
            "node_state",
        ],
        "producers" => &["name"],
        // Answered by `Store::event_counts`; the fields its counts filter
        // and its paging know.
        "event-counts" => &[
            "subject_type",
            "subject",
            "successes",
            "failures",
            "noops",
            "skips",
        ],
        "packages" => &["package_name", "version", "provider"],
        "package-inventory" => &[
            "certname",
            "package_name",
            "version",
            "provider",
            "node_state",
        ],
        _ => return None,
    })
}

/// The structured fields of an entity that a dotted field steps into.
fn dotted_roots(entity: &str) -> &'static [&'static str] {
    match entity {
        "inventory" => &["facts", "trusted"],
        "resources" => &["parameters"],
        _ => &[],
    }
}

/// Whether rows of the entity belong to nodes, and so are of active
/// nodes only unless the query asks about `node_state`.
pub(crate) fn follows_node_state(entity: &str) -> bool {
    matches!(
        entity,
        "nodes"
            | "facts"
            | "resources"
            | "catalogs"
            | "fact-contents"
            | "inventory"
            | "package-inventory"
    )
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
            paging: Paging::default(),
            computed: Vec::new(),
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
        paging: Paging::default(),
        computed: Vec::new(),
    })
}

fn parse_extract(entity: &str, args: &[Value]) -> Result<Extract, StoreError> {
    let fields = match args.first() {
        Some(Value::String(field)) => vec![Value::String(field.clone())],
        Some(Value::Array(fields))
            if fields.first().and_then(Value::as_str) == Some("function") =>
        {
            vec![Value::Array(fields.clone())]
        }
        Some(Value::Array(fields)) => fields.clone(),
        _ => return Err(bad("'extract' takes a field or a list of fields")),
    };
    let mut projections = Vec::new();
    let mut computed: Vec<Computed> = Vec::new();
    for field in fields {
        match &field {
            Value::Array(call) if is_to_string(&field) => {
                let to_string = parse_to_string(entity, call)?;
                projections.push(Projection::Field(
                    to_string.key.clone(),
                    Field::Plain(to_string.key.clone()),
                ));
                computed.push(to_string);
            }
            Value::String(name) => {
                projections.push(Projection::Field(
                    name.clone(),
                    parse_field(entity, &field)?,
                ));
            }
            Value::Array(call) if call.first().and_then(Value::as_str) == Some("function") => {
                projections.push(parse_function(entity, call)?)
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
                if let Value::Array(call) = field
                    && is_to_string(field)
                {
                    let to_string = parse_to_string(entity, call)?;
                    group_by.push((to_string.key.clone(), Field::Plain(to_string.key.clone())));
                    if !computed
                        .iter()
                        .any(|c| c.source == to_string.source && c.format == to_string.format)
                    {
                        computed.push(to_string);
                    }
                    continue;
                }
                let name = field.as_str().ok_or_else(|| {
                    bad(format!(
                        "Can't group by {field}: only fields are grouped by"
                    ))
                })?;
                group_by.push((name.to_string(), parse_field(entity, field)?));
            }
        } else if !items.is_empty() {
            filter = Some(parse_expr(entity, arg)?);
        }
    }
    let grouped: Vec<&str> = group_by.iter().map(|(name, _)| name.as_str()).collect();
    let aggregated = projections
        .iter()
        .any(|p| matches!(p, Projection::Function(..)));
    if let Some(name) = projections.iter().find_map(|p| match p {
        Projection::Field(name, _)
            if (aggregated || !grouped.is_empty()) && !grouped.contains(&name.as_str()) =>
        {
            Some(name)
        }
        _ => None,
    }) {
        return Err(bad(format!(
            "'{name}' must be in the 'group_by' to be extracted with an aggregate function"
        )));
    }
    Ok(Extract {
        entity: entity.to_string(),
        fields: Some(projections),
        filter,
        group_by,
        paging: Paging::default(),
        computed,
    })
}

/// `["function", NAME, FIELD?]`.
fn parse_function(entity: &str, call: &[Value]) -> Result<Projection, StoreError> {
    let name = call.get(1).and_then(Value::as_str).unwrap_or_default();
    let field = call.get(2).map(|f| parse_field(entity, f)).transpose()?;
    match (name, &field, call.len()) {
        ("count", _, 2 | 3) => Ok(Projection::Function(name.to_string(), field)),
        ("avg" | "sum" | "min" | "max", Some(_), 3) => {
            Ok(Projection::Function(name.to_string(), field))
        }
        ("avg" | "sum" | "min" | "max", _, _) => Err(bad(format!(
            "The function '{name}' takes exactly one field"
        ))),
        _ => Err(bad(format!(
            "'{name}' is not a function: the functions are count, avg, sum, min, max and to_string"
        ))),
    }
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
            if let Some((root, path)) = name.split_once('.')
                && dotted_roots(entity).contains(&root)
            {
                return Ok(Field::Path(root.to_string(), parse_path(path)?));
            }
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

/// The steps of a dotted field after its root: `os.release.major`,
/// `"a.b".c`, `disks[0]`, `match("^sd")`.
fn parse_path(path: &str) -> Result<Vec<Step>, StoreError> {
    let malformed = || bad(format!("The field path '{path}' is malformed"));
    let mut steps = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        let step_len;
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').ok_or_else(malformed)?;
            steps.push(Step::Key(quoted[..end].to_string()));
            step_len = end + 2;
        } else if let Some(pattern) = rest.strip_prefix("match(") {
            let end = pattern.rfind(')').ok_or_else(malformed)?;
            let pattern = pattern[..end].trim_matches('"');
            let regex = Regex::new(pattern)
                .map_err(|e| bad(format!("Invalid regular expression '{pattern}': {e}")))?;
            steps.push(Step::Match(regex));
            step_len = "match(".len() + end + 1;
        } else {
            let end = rest.find('.').unwrap_or(rest.len());
            let step = &rest[..end];
            match step.strip_suffix(']').and_then(|s| s.split_once('[')) {
                Some((key, index)) if index.parse::<usize>().is_ok() => {
                    if !key.is_empty() {
                        steps.push(Step::Key(key.to_string()));
                    }
                    steps.push(Step::Index(index.parse().map_err(|_| malformed())?));
                }
                _ if step.is_empty() => return Err(malformed()),
                _ => steps.push(Step::Key(step.to_string())),
            }
            step_len = end;
        }
        rest = &rest[step_len.min(rest.len())..];
        if let Some(after) = rest.strip_prefix('.') {
            rest = after;
            if rest.is_empty() {
                return Err(malformed());
            }
        } else if !rest.is_empty() {
            return Err(malformed());
        }
    }
    Ok(steps)
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
        "~>" => {
            let field = parse_field(entity, arg(items, 1, operator)?)?;
            let patterns = arg(items, 2, operator)?
                .as_array()
                .ok_or_else(|| bad("'~>' takes a list of regular expressions"))?
                .iter()
                .map(|p| {
                    let pattern = p
                        .as_str()
                        .ok_or_else(|| bad("'~>' takes a list of regular expressions"))?;
                    Regex::new(pattern)
                        .map_err(|e| bad(format!("Invalid regular expression '{pattern}': {e}")))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Expr::PathRegex(field, patterns))
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
                    check_in(&fields, &extract)?;
                    Ok(Expr::InQuery(fields, Box::new(extract)))
                }
                Some("from") => {
                    let (sub_entity, sub_query, paging) = split_from(&source[1..])?;
                    if fields_of(&sub_entity).is_none() {
                        return Err(StoreError::UnknownEntity(sub_entity));
                    }
                    let mut extract = parse(&sub_entity, sub_query.as_ref())?;
                    extract.paging = paging;
                    check_in(&fields, &extract)?;
                    Ok(Expr::InQuery(fields, Box::new(extract)))
                }
                _ => Err(bad("'in' takes an 'array', an 'extract' or a 'from'")),
            }
        }
        "subquery" => {
            // An implicit subquery joins on the node.
            let sub_entity = entity_name(
                arg(items, 1, operator)?
                    .as_str()
                    .ok_or_else(|| bad("'subquery' names an entity"))?,
            );
            let sub_entity = sub_entity.as_str();
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
                    fields: Some(vec![Projection::Field(
                        key.into(),
                        Field::Plain(key.into()),
                    )]),
                    filter,
                    group_by: Vec::new(),
                    paging: Paging::default(),
                    computed: Vec::new(),
                }),
            ))
        }
        other => Err(bad(format!("'{other}' is not a valid operator"))),
    }
}

/// An `in`'s subquery gives as many fields as the `in` names.
fn check_in(fields: &[Field], extract: &Extract) -> Result<(), StoreError> {
    match &extract.fields {
        Some(projections) if projections.len() == fields.len() => Ok(()),
        Some(projections) => Err(bad(format!(
            "'in' compares {} field(s) with a subquery that extracts {}",
            fields.len(),
            projections.len()
        ))),
        None => Err(bad(
            "The subquery of an 'in' must extract the fields it compares",
        )),
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

impl Extract {
    /// Whether the query reads a node's facts (`["fact", NAME]` of
    /// `nodes`), which the store then reads with each node.
    pub(crate) fn mentions_facts(&self) -> bool {
        let fact = |f: &Field| matches!(f, Field::Fact(_));
        self.filter.as_ref().is_some_and(|f| f.mentions(&fact))
            || self.fields.iter().flatten().any(|p| match p {
                Projection::Field(_, field) => fact(field),
                Projection::Function(_, field) => field.as_ref().is_some_and(fact),
            })
            || self.group_by.iter().any(|(_, field)| fact(field))
            || self.computed.iter().any(|c| fact(&c.source))
    }
}

impl Expr {
    /// Whether the condition names a field `wanted` accepts, in its
    /// subqueries too.
    pub(crate) fn mentions(&self, wanted: &dyn Fn(&Field) -> bool) -> bool {
        match self {
            Expr::Compare(_, f, _)
            | Expr::Regex(f, _)
            | Expr::PathRegex(f, _)
            | Expr::Null(f, _) => wanted(f),
            Expr::And(parts) | Expr::Or(parts) => parts.iter().any(|p| p.mentions(wanted)),
            Expr::Not(inner) => inner.mentions(wanted),
            Expr::In(fields, _) => fields.iter().any(wanted),
            Expr::InQuery(fields, extract) => {
                fields.iter().any(wanted)
                    || extract.filter.as_ref().is_some_and(|f| f.mentions(wanted))
            }
        }
    }

    /// Whether the condition names `node_state`: such a query chooses
    /// which nodes' rows it sees.
    pub(crate) fn mentions_node_state(&self) -> bool {
        let named = |f: &Field| *f == Field::Plain("node_state".into());
        match self {
            Expr::InQuery(fields, _) => fields.iter().any(named),
            Expr::And(parts) | Expr::Or(parts) => parts.iter().any(Expr::mentions_node_state),
            Expr::Not(inner) => inner.mentions_node_state(),
            other => other.mentions(&named),
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
                let names: Vec<&str> = match &extract.fields {
                    Some(projections) => projections.iter().map(Projection::name).collect(),
                    None => Vec::new(),
                };
                let tuples = rows
                    .iter()
                    .map(|row| {
                        names
                            .iter()
                            .map(|n| row.get(*n).cloned().unwrap_or(Value::Null))
                            .collect()
                    })
                    .collect();
                *self = Expr::In(std::mem::take(fields), tuples);
            }
            _ => {}
        }
        Ok(())
    }

    pub(crate) fn matches(&self, row: &Row) -> bool {
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
            Expr::PathRegex(field, patterns) => values_of(row, field).any(|found| {
                found.as_array().is_some_and(|path| {
                    path.len() == patterns.len()
                        && path.iter().zip(patterns).all(|(step, regex)| match step {
                            Value::String(text) => regex.is_match(text),
                            other => regex.is_match(&other.to_string()),
                        })
                })
            }),
            Expr::Null(field, is_null) => {
                let null = values_of(row, field).all(Value::is_null);
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

fn value_of<'a>(row: &'a Row, field: &Field) -> Option<&'a Value> {
    match field {
        Field::Plain(name) if name == "tag" => row.get("tags"),
        Field::Plain(name) if name == "node_state" => row.get("_node_state"),
        Field::Plain(name) if name == "latest_report?" => row.get("_latest_report?"),
        Field::Plain(name) => row.get(name.as_str()),
        Field::Parameter(name) => row.get("parameters")?.get(name.as_str()),
        Field::Fact(name) => row.get("_facts")?.get(name.as_str()),
        Field::Path(..) => values_of(row, field).next(),
    }
}

/// The values a condition on `field` tests: each tag for `tag`, each
/// value a path's `match()` reaches, the value itself otherwise.
fn values_of<'a>(row: &'a Row, field: &Field) -> Box<dyn Iterator<Item = &'a Value> + 'a> {
    if let Field::Path(root, steps) = field {
        let mut found: Vec<&Value> = row.get(root.as_str()).into_iter().collect();
        for step in steps {
            found = found
                .into_iter()
                .flat_map(|value| -> Vec<&Value> {
                    match (step, value) {
                        (Step::Key(key), Value::Object(map)) => map.get(key).into_iter().collect(),
                        (Step::Index(index), Value::Array(items)) => {
                            items.get(*index).into_iter().collect()
                        }
                        (Step::Match(regex), Value::Object(map)) => map
                            .iter()
                            .filter(|(key, _)| regex.is_match(key))
                            .map(|(_, v)| v)
                            .collect(),
                        _ => Vec::new(),
                    }
                })
                .collect();
        }
        return Box::new(found.into_iter());
    }
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

impl Projection {
    /// The key of the answer's field: the field's name, or the
    /// function's.
    pub(crate) fn name(&self) -> &str {
        match self {
            Projection::Field(name, _) | Projection::Function(name, _) => name,
        }
    }
}

/// A group's key (its `group_by` fields' values) and rows.
type Group<'a> = (Vec<Value>, Vec<&'a Row>);

/// An aggregate function of a group's rows.
fn aggregate(name: &str, field: Option<&Field>, rows: &[&Row]) -> Value {
    let values: Vec<&Value> = match field {
        Some(field) => rows
            .iter()
            .flat_map(|row| value_of(row, field))
            .filter(|v| !v.is_null())
            .collect(),
        None => return Value::from(rows.len()),
    };
    let numbers = || values.iter().filter_map(|v| v.as_f64());
    match name {
        "count" => Value::from(values.len()),
        "sum" if values.iter().all(|v| v.is_i64()) && !values.is_empty() => {
            Value::from(values.iter().filter_map(|v| v.as_i64()).sum::<i64>())
        }
        "sum" | "avg" => {
            let count = numbers().count();
            if count == 0 {
                return Value::Null;
            }
            let sum: f64 = numbers().sum();
            let result = if name == "avg" {
                sum / count as f64
            } else {
                sum
            };
            serde_json::Number::from_f64(result).map_or(Value::Null, Value::Number)
        }
        "min" | "max" => {
            let pick = values.into_iter().reduce(|a, b| {
                let less = order(a, b) == Ordering::Less;
                if less == (name == "min") { a } else { b }
            });
            pick.cloned().unwrap_or(Value::Null)
        }
        _ => Value::Null,
    }
}

/// Sorts rows by fields, each ascending unless `true`.
fn sort(rows: &mut [Row], order_by: &[(String, bool)]) {
    if order_by.is_empty() {
        return;
    }
    let fields: Vec<(Field, bool)> = order_by
        .iter()
        .map(|(name, descending)| (Field::Plain(name.clone()), *descending))
        .collect();
    rows.sort_by(|a, b| {
        for (field, descending) in &fields {
            let null = Value::Null;
            let ordering = order(
                value_of(a, field).unwrap_or(&null),
                value_of(b, field).unwrap_or(&null),
            );
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

/// Whether the extract answers groups (a `group_by`, or an aggregate
/// function such as `count`) rather than rows.
fn aggregated(extract: &Extract) -> bool {
    extract.fields.as_ref().is_some_and(|projections| {
        !extract.group_by.is_empty()
            || projections
                .iter()
                .any(|p| matches!(p, Projection::Function(..)))
    })
}

/// Whether each matching row can be answered as soon as it is read
/// ([`shaped`]), in the order rows are read: nothing to group or sort.
pub(crate) fn streams(extract: &Extract, paging: &Paging) -> bool {
    !aggregated(extract) && paging.order_by.is_empty()
}

/// What the database alone narrows a query's answer to, when nothing in
/// the query needs its rows read into the engine (no projection,
/// grouping, computed field or paging, and no condition but a value for
/// the node, for nodes their catalog's environment and latest report's
/// status (Puppetboard's nodes), for resources the type and whether
/// exported, and for facts their name (which they must have: a fact's
/// values across the fleet), each said once with `=`): the answer is then
/// written as the database reads it.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Narrowed {
    pub(crate) certname: Option<String>,
    pub(crate) name: Option<String>,
    pub(crate) type_name: Option<String>,
    pub(crate) exported: Option<bool>,
    pub(crate) catalog_environment: Option<String>,
    pub(crate) latest_report_status: Option<String>,
}

/// The [`Narrowed`] form of a query of `entity` (`nodes`, `resources` or
/// `facts`), if it has one.
pub(crate) fn narrowed(entity: &str, extract: &Extract, paging: &Paging) -> Option<Narrowed> {
    let unpaged = |p: &Paging| p.limit.is_none() && p.offset == 0 && p.order_by.is_empty();
    if !matches!(entity, "nodes" | "resources" | "facts")
        || extract.fields.is_some()
        || !extract.group_by.is_empty()
        || !extract.computed.is_empty()
        || !unpaged(paging)
        || !unpaged(&extract.paging)
    {
        return None;
    }
    let parts: Vec<&Expr> = match &extract.filter {
        None => Vec::new(),
        Some(Expr::And(parts)) => parts.iter().collect(),
        Some(part) => vec![part],
    };
    let mut narrowed = Narrowed::default();
    for part in parts {
        let Expr::Compare(Op::Eq, Field::Plain(name), value) = part else {
            return None;
        };
        // A text the engine would compare as a time (PuppetDB's) is not
        // one the database compares as it is.
        let text = || value.as_str().filter(|text| timestamp(text).is_none());
        match (name.as_str(), entity) {
            ("certname", _) if narrowed.certname.is_none() => {
                narrowed.certname = Some(text()?.to_string());
            }
            ("type", "resources") if narrowed.type_name.is_none() => {
                narrowed.type_name = Some(text()?.to_string());
            }
            ("exported", "resources") if narrowed.exported.is_none() => {
                narrowed.exported = Some(value.as_bool()?);
            }
            ("catalog_environment", "nodes") if narrowed.catalog_environment.is_none() => {
                narrowed.catalog_environment = Some(text()?.to_string());
            }
            ("latest_report_status", "nodes") if narrowed.latest_report_status.is_none() => {
                narrowed.latest_report_status = Some(text()?.to_string());
            }
            ("name", "facts") if narrowed.name.is_none() => {
                narrowed.name = Some(text()?.to_string());
            }
            _ => return None,
        }
    }
    (entity != "facts" || narrowed.name.is_some()).then_some(narrowed)
}

/// Adds a row's computed fields (`to_string`).
fn compute(extract: &Extract, row: &mut Row) {
    for computed in &extract.computed {
        let written = value_of(row, &computed.source)
            .and_then(Value::as_str)
            .and_then(|time| crate::to_char::to_char(time, &computed.format))
            .map_or(Value::Null, Value::String);
        row.insert(computed.key.clone(), written);
    }
}

/// A matching row of an extract that is not [`aggregated`] as it is
/// answered: its computed fields added, then its projected fields, or
/// all but the hidden ones.
pub(crate) fn shaped(extract: &Extract, mut row: Row) -> Row {
    compute(extract, &mut row);
    project(extract, row)
}

fn project(extract: &Extract, mut row: Row) -> Row {
    match &extract.fields {
        None => {
            row.retain(|k| !k.starts_with('_'));
            row
        }
        Some(projections) => projections
            .iter()
            .map(|p| {
                let value = match p {
                    Projection::Field(_, field) => {
                        value_of(&row, field).cloned().unwrap_or(Value::Null)
                    }
                    Projection::Function(..) => Value::Null,
                };
                (p.name().to_string(), value)
            })
            .collect(),
    }
}

/// Projects, groups, sorts and pages the matching rows.
pub(crate) fn finish(extract: &Extract, mut rows: Vec<Row>, paging: &Paging) -> Vec<Value> {
    for row in &mut rows {
        compute(extract, row);
    }
    let aggregated = aggregated(extract);
    if !aggregated {
        // Rows sort by their fields, projected or not.
        sort(&mut rows, &paging.order_by);
    }
    let mut rows: Vec<Row> = match &extract.fields {
        Some(projections) if aggregated => {
            // One row a group; without a group_by, all rows are one.
            let mut groups: Vec<Group> = Vec::new();
            if extract.group_by.is_empty() {
                groups.push((Vec::new(), rows.iter().collect()));
            } else {
                for row in &rows {
                    let key: Vec<Value> = extract
                        .group_by
                        .iter()
                        .map(|(_, f)| value_of(row, f).cloned().unwrap_or(Value::Null))
                        .collect();
                    match groups.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, members)) => members.push(row),
                        None => groups.push((key, vec![row])),
                    }
                }
            }
            groups
                .into_iter()
                .map(|(key, members)| {
                    let mut out = Row::new();
                    for projection in projections {
                        let value = match projection {
                            Projection::Function(name, field) => {
                                aggregate(name, field.as_ref(), &members)
                            }
                            Projection::Field(name, _) => {
                                let at = extract.group_by.iter().position(|(g, _)| g == name);
                                at.map(|i| key[i].clone()).unwrap_or(Value::Null)
                            }
                        };
                        out.insert(projection.name().to_string(), value);
                    }
                    out
                })
                .collect()
        }
        _ => rows.into_iter().map(|row| project(extract, row)).collect(),
    };
    if aggregated {
        // Groups sort by what they answer (a count, a grouped field).
        sort(&mut rows, &paging.order_by);
    }
    rows.into_iter()
        .skip(paging.offset)
        .take(paging.limit.unwrap_or(usize::MAX))
        .map(Row::into_value)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn narrowed_of(entity: &str, ast: Value, paging: &Paging) -> Option<Narrowed> {
        narrowed(entity, &parse(entity, Some(&ast)).unwrap(), paging)
    }

    #[test]
    fn only_what_the_database_decides_alone_is_narrowed() {
        let unpaged = Paging::default();
        assert_eq!(
            narrowed_of(
                "resources",
                json!(["and", ["=", "type", "Sshkey"], ["=", "exported", true]]),
                &unpaged
            ),
            Some(Narrowed {
                type_name: Some("Sshkey".into()),
                exported: Some(true),
                ..Narrowed::default()
            })
        );
        assert_eq!(
            narrowed_of("nodes", json!(["=", "certname", "a.example"]), &unpaged)
                .and_then(|n| n.certname),
            Some("a.example".into())
        );
        // Puppetboard's nodes of an environment, of a status.
        assert_eq!(
            narrowed_of(
                "nodes",
                json!([
                    "and",
                    ["=", "catalog_environment", "production"],
                    ["=", "latest_report_status", "failed"]
                ]),
                &unpaged
            ),
            Some(Narrowed {
                catalog_environment: Some("production".into()),
                latest_report_status: Some("failed".into()),
                ..Narrowed::default()
            })
        );
        // A fact's values across the fleet (Puppetboard's fact page).
        assert_eq!(
            narrowed_of("facts", json!(["=", "name", "kernel"]), &unpaged),
            Some(Narrowed {
                name: Some("kernel".into()),
                ..Narrowed::default()
            })
        );
        for (entity, ast) in [
            // Said twice: the engine keeps rows matching both.
            (
                "nodes",
                json!(["and", ["=", "certname", "a"], ["=", "certname", "b"]]),
            ),
            // A time is compared as one, not as its text.
            ("nodes", json!(["=", "certname", "2026-11-28T10:00:00Z"])),
            // Not a field the database narrows by.
            ("nodes", json!(["=", "report_environment", "production"])),
            ("resources", json!(["=", "title", "a"])),
            ("resources", json!(["=", "exported", "true"])),
            ("resources", json!(["or", ["=", "type", "Sshkey"]])),
            ("resources", json!(["not", ["=", "type", "Sshkey"]])),
            (
                "resources",
                json!(["extract", ["title"], ["=", "type", "Sshkey"]]),
            ),
            // Every fact of a node: its factset, not its facts' rows.
            ("facts", json!(["=", "certname", "a"])),
            ("facts", json!(["=", "value", "a"])),
        ] {
            assert_eq!(narrowed_of(entity, ast.clone(), &unpaged), None, "{ast}");
        }
        let limited = Paging {
            limit: Some(1),
            ..Paging::default()
        };
        assert_eq!(narrowed_of("nodes", json!(["and"]), &limited), None);
    }
}
