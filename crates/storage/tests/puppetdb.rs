//! The storage answers as Debian's PuppetDB does: the commands of
//! `tests/storage/commands.json` are stored, each query of
//! `tests/storage/queries.txt` is asked, and the answer is compared with
//! what PuppetDB answered (`tests/storage/recorded/`, made by
//! `scripts/puppetdb-record`). What the two may not share is left out of
//! the comparison: times of receipt, and digests (PuppetDB's are of its
//! own canonical forms). Queries listed in
//! `tests/storage/known-differences.txt` must differ, with the reason
//! there.

use std::path::{Path, PathBuf};

use marionette_storage::{EventCounts, Paging, Store, StoreError, endpoint};
use serde_json::{Value, json};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/storage")
}

/// Receipt times and digests, which only one side can know; a 400's
/// text is its first line (PQL's parse errors: where the query went
/// wrong), since the rest says in each's words what was expected.
fn masked(value: &Value, ordered: bool) -> Value {
    match value {
        // An inventory row's `timestamp` is when its facts arrived.
        Value::Object(map) if map.contains_key("facts") && map.contains_key("timestamp") => {
            let mut map = map.clone();
            map.insert("timestamp".into(), json!("<received>"));
            masked_object(&map, ordered)
        }
        Value::Object(map) => masked_object(map, ordered),
        Value::Array(items) => {
            let mut items: Vec<Value> = items.iter().map(|v| masked(v, ordered)).collect();
            // Lists of rows and tags come in no particular order.
            let unordered = items.iter().all(Value::is_object)
                || items.iter().all(Value::is_string)
                    && !items
                        .iter()
                        .any(|s| s.as_str().is_some_and(|s| s.contains('[')));
            if unordered && !ordered {
                items.sort_by_key(|v| v.to_string());
            }
            Value::Array(items)
        }
        Value::String(text) => {
            let digest = regex_like_sha1(text);
            Value::String(digest)
        }
        other => other.clone(),
    }
}

fn masked_object(map: &serde_json::Map<String, Value>, ordered: bool) -> Value {
    // Keys sorted, so that rows sort the same whatever their order.
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort();
    Value::Object(
        keys.into_iter()
            .map(|key| {
                let value = &map[key];
                let value = match key.as_str() {
                    "catalog_timestamp"
                    | "facts_timestamp"
                    | "receive_time"
                    | "report_receive_time"
                        if !value.is_null() =>
                    {
                        json!("<received>")
                    }
                    _ => masked(value, ordered),
                };
                (key.clone(), value)
            })
            .collect(),
    )
}

/// A 400's text by its first line.
fn first_line(status: u16, body: Value) -> Value {
    match body {
        Value::String(text) if status == 400 => {
            Value::String(text.lines().next().unwrap_or_default().to_string())
        }
        other => other,
    }
}

/// Replaces each run of 40 hexadecimal digits with `<sha1>`.
fn regex_like_sha1(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let run = bytes[i..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        if run == 40 {
            out.push_str("<sha1>");
            i += 40;
        } else {
            let step = run.max(1);
            out.push_str(&text[i..i + step]);
            i += step;
        }
    }
    out
}

fn answer(store: &Store, path: &str, query: &str, extra: &str) -> (u16, Value) {
    // A query is its JSON AST, or PQL.
    let ast: Option<Value> = (query != "-")
        .then(|| serde_json::from_str(query).unwrap_or_else(|_| Value::String(query.to_string())));
    let mut paging = Paging::default();
    let mut counts = None;
    if extra != "-" {
        let extra: Value = serde_json::from_str(extra).unwrap();
        if let Some(summarize_by) = extra.get("summarize_by").and_then(Value::as_str) {
            counts = Some(EventCounts {
                summarize_by: summarize_by.to_string(),
                count_by: extra
                    .get("count_by")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                counts_filter: extra
                    .get("counts_filter")
                    .and_then(Value::as_str)
                    .map(|f| serde_json::from_str(f).unwrap()),
            });
        }
        if let Some(limit) = extra.get("limit").and_then(Value::as_str) {
            paging.limit = Some(limit.parse().unwrap());
        }
        if let Some(offset) = extra.get("offset").and_then(Value::as_str) {
            paging.offset = offset.parse().unwrap();
        }
        if let Some(order) = extra.get("order_by").and_then(Value::as_str) {
            let order: Value = serde_json::from_str(order).unwrap();
            for field in order.as_array().unwrap() {
                paging.order_by.push((
                    field["field"].as_str().unwrap().to_string(),
                    field["order"] == "desc",
                ));
            }
        }
    }
    let failed = |error: StoreError| {
        let status = if error.is_bad_request() { 400 } else { 500 };
        (status, Value::String(error.to_string()))
    };
    let found = match endpoint(path, ast) {
        Ok(found) => found,
        Err(error) => return failed(error),
    };
    let paging = found.paging.or(&paging);
    let rows = match (found.entity.as_str(), &counts) {
        ("event-counts", Some(counts)) => store.event_counts(found.query.as_ref(), counts, &paging),
        ("aggregate-event-counts", Some(counts)) => {
            store.aggregate_event_counts(found.query.as_ref(), counts)
        }
        _ => store.query(&found.entity, found.query.as_ref(), &paging),
    };
    match (rows, &found.single) {
        (Ok(rows), Some(missing)) => match rows.into_iter().next() {
            Some(row) => (200, row),
            None => (404, json!({ "error": missing })),
        },
        (Ok(rows), None) => (200, Value::Array(rows)),
        (Err(error), _) => failed(error),
    }
}

/// Where two answers first part, as a JSON pointer with both values.
fn first_difference(theirs: &Value, ours: &Value, at: String) -> String {
    match (theirs, ours) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                match b.get(key) {
                    Some(other) if other == value => {}
                    Some(other) => return first_difference(value, other, format!("{at}/{key}")),
                    None => return format!("{at}/{key}: PuppetDB has {value}, ours nothing"),
                }
            }
            match b.keys().find(|k| !a.contains_key(*k)) {
                Some(extra) => format!("{at}/{extra}: ours has {}, PuppetDB nothing", b[extra]),
                None => format!("{at}: equal"),
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| first_difference(x, y, format!("{at}/{i}")))
            .unwrap_or_else(|| format!("{at}: equal")),
        _ => format!("{at}: PuppetDB has {theirs}, ours {ours}"),
    }
}

mod cluster;

#[test]
fn the_storage_answers_as_puppetdb() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("store.sqlite3")).unwrap();
    compare(&store);
}

/// The same corpus, stored in PostgreSQL 15.
#[test]
fn the_storage_on_postgresql_answers_as_puppetdb() {
    let cluster = cluster::Cluster::start();
    let store = Store::connect(&cluster.url()).unwrap();
    compare(&store);
}

/// Stores the corpus's commands, asks its queries, and compares the
/// answers with PuppetDB's.
fn compare(store: &Store) {
    let commands: Value =
        serde_json::from_str(&std::fs::read_to_string(data().join("commands.json")).unwrap())
            .unwrap();
    for command in commands.as_array().unwrap() {
        store
            .submit(
                command["command"].as_str().unwrap(),
                command["version"].as_u64().unwrap() as u32,
                command["certname"].as_str().unwrap(),
                &command["payload"],
            )
            .unwrap_or_else(|e| panic!("{command}: {e}"));
    }
    let known = std::fs::read_to_string(data().join("known-differences.txt")).unwrap_or_default();
    let known: Vec<&str> = known
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let queries = std::fs::read_to_string(data().join("queries.txt")).unwrap();
    let mut differences = Vec::new();
    let mut same = 0;
    for (index, line) in queries
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
    {
        let name = format!("{:03}", index + 1);
        let recorded: Value = serde_json::from_str(
            &std::fs::read_to_string(data().join(format!("recorded/{name}.json"))).unwrap_or_else(
                |e| panic!("recorded/{name}.json: {e}: run scripts/puppetdb-record"),
            ),
        )
        .unwrap();
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            recorded["query"], fields[1],
            "recorded/{name}.json is of another query: record again"
        );
        let (status, body) = answer(store, fields[0], fields[1], fields[2]);
        let ordered = fields[2].contains("order_by")
            || fields[1].contains("order by")
            || fields[1].contains("\"order_by\"");
        let their_status = recorded["status"].as_u64().unwrap() as u16;
        let theirs = (
            their_status,
            first_line(their_status, masked(&recorded["body"], ordered)),
        );
        let ours = (status, first_line(status, masked(&body, ordered)));
        let differs = ours != theirs;
        match (differs, known.contains(&name.as_str())) {
            (false, false) => same += 1,
            (true, true) => {}
            (false, true) => differences.push(format!(
                "{name} ({line}) now matches: take it off known-differences.txt"
            )),
            (true, false) => differences.push(format!(
                "{name} ({line}): first at {}\n  PuppetDB: {} {}\n  ours:     {} {}",
                first_difference(&theirs.1, &ours.1, String::new()),
                theirs.0,
                serde_json::to_string(&theirs.1).unwrap(),
                ours.0,
                serde_json::to_string(&ours.1).unwrap()
            )),
        }
    }
    eprintln!("{same} queries answered as PuppetDB answers them");
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
}
