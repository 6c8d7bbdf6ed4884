//! The store through its one door: PuppetDB commands in, PuppetDB
//! queries out.

use std::time::Duration;

use marionette_storage::{
    Collected, EventCounts, Operations, Paging, Retention, Store, StoreError, commands, endpoint,
    meta,
};
use serde_json::{Value, json};

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("db/marionette.sqlite3")).unwrap();
    (dir, store)
}

fn catalog(node: &str, exported_title: &str, host_key: &str) -> Value {
    json!({
        "name": node,
        "version": 1700000000,
        "environment": "production",
        "catalog_uuid": "0b2c",
        "resources": [
            {"type": "Class", "title": "Main", "tags": ["class"], "exported": false},
            {"type": "Sshkey", "title": exported_title, "tags": ["sshkey", "class"],
             "file": "/etc/site.pp", "line": 3, "exported": true,
             "parameters": {"key": host_key, "type": "ssh-ed25519", "tag": ["fleet"]}},
            {"type": "File", "title": "/tmp/mrtest-a", "tags": ["file", "class"],
             "exported": false, "parameters": {"ensure": "file", "require": "Class[Main]"}}
        ],
        "edges": [{"source": "Class[Main]", "target": "File[/tmp/mrtest-a]"}]
    })
}

fn submit(store: &Store, (name, version): (&str, u32), payload: &Value) {
    let certname = payload["certname"].as_str().unwrap().to_string();
    store.submit(name, version, &certname, payload).unwrap();
}

fn query(store: &Store, entity: &str, ast: Value) -> Vec<Value> {
    store.query(entity, Some(&ast), &Paging::default()).unwrap()
}

#[test]
fn exported_resources_are_found_as_puppets_terminus_asks() {
    let (_dir, store) = store();
    for (node, key) in [("web1.example", "AAAA1"), ("web2.example", "AAAA2")] {
        let payload = commands::replace_catalog(
            &catalog(node, node, key),
            "server",
            None,
            &Default::default(),
        );
        submit(&store, commands::REPLACE_CATALOG, &payload);
    }
    // What `Sshkey <<| tag == 'fleet' |>>` on web1 sends.
    let found = query(
        &store,
        "resources",
        json!([
            "and",
            ["=", "type", "Sshkey"],
            ["=", "exported", true],
            ["not", ["=", "certname", "web1.example"]],
            ["=", ["parameter", "type"], "ssh-ed25519"]
        ]),
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["certname"], "web2.example");
    assert_eq!(found[0]["title"], "web2.example");
    assert_eq!(found[0]["parameters"]["key"], "AAAA2");
    assert_eq!(found[0]["file"], "/etc/site.pp");
    assert_eq!(found[0]["line"], 3);
    assert_eq!(found[0]["environment"], "production");
    assert!(found[0].get("_node_state").is_none(), "{found:?}");
    // A tag is matched among the resource's tags.
    let tagged = query(&store, "resources", json!(["=", "tag", "sshkey"]));
    assert_eq!(tagged.len(), 2);
    // A parameter holding a list matches as PuppetDB's: the whole value.
    let by_list = query(
        &store,
        "resources",
        json!(["=", ["parameter", "tag"], ["fleet"]]),
    );
    assert_eq!(by_list.len(), 2);
}

#[test]
fn a_new_catalog_replaces_the_old_and_edges_are_synthesized() {
    let (_dir, store) = store();
    let first = commands::replace_catalog(
        &catalog("n1", "old", "K1"),
        "server",
        Some("t-1"),
        &Default::default(),
    );
    submit(&store, commands::REPLACE_CATALOG, &first);
    let second = commands::replace_catalog(
        &catalog("n1", "new", "K2"),
        "server",
        Some("t-2"),
        &Default::default(),
    );
    submit(&store, commands::REPLACE_CATALOG, &second);
    let titles: Vec<Value> = query(&store, "resources", json!(["=", "type", "Sshkey"]))
        .into_iter()
        .map(|r| r["title"].clone())
        .collect();
    assert_eq!(titles, vec![json!("new")]);
    let catalogs = query(&store, "catalogs", json!(["=", "certname", "n1"]));
    assert_eq!(catalogs[0]["transaction_uuid"], "t-2");
    assert_eq!(catalogs[0]["version"], "1700000000");
    let edges = catalogs[0]["edges"]["data"].as_array().unwrap();
    let relationships: Vec<&str> = edges
        .iter()
        .map(|e| e["relationship"].as_str().unwrap())
        .collect();
    assert_eq!(relationships, ["contains", "required-by"]);
    assert_eq!(
        edges[1],
        json!({"relationship": "required-by", "source_title": "Main", "source_type": "Class",
               "target_title": "/tmp/mrtest-a", "target_type": "File"})
    );
    assert_eq!(
        catalogs[0]["resources"]["data"].as_array().unwrap().len(),
        3
    );
}

#[test]
fn a_malformed_catalog_leaves_the_stored_one_whole() {
    let (_dir, store) = store();
    let good = commands::replace_catalog(
        &catalog("n1", "kept", "K"),
        "server",
        None,
        &Default::default(),
    );
    submit(&store, commands::REPLACE_CATALOG, &good);
    let mut bad = commands::replace_catalog(
        &catalog("n1", "lost", "K"),
        "server",
        None,
        &Default::default(),
    );
    bad["resources"]
        .as_array_mut()
        .unwrap()
        .push(json!({"title": "no type"}));
    let error = store.submit("replace catalog", 9, "n1", &bad).unwrap_err();
    assert!(matches!(error, StoreError::Payload { .. }), "{error}");
    assert!(
        error.to_string().contains("resource 3 has no type"),
        "{error}"
    );
    let titles: Vec<Value> = query(&store, "resources", json!(["=", "type", "Sshkey"]))
        .into_iter()
        .map(|r| r["title"].clone())
        .collect();
    assert_eq!(titles, vec![json!("kept")]);
}

#[test]
fn facts_nodes_and_deactivation() {
    let (_dir, store) = store();
    for (node, os) in [("a.example", "Debian"), ("b.example", "RedHat")] {
        let mut values = serde_json::Map::new();
        values.insert("os".into(), json!({"family": os}));
        values.insert("processors".into(), json!({"count": 2}));
        values.insert("kernel".into(), json!("Linux"));
        submit(
            &store,
            commands::REPLACE_FACTS,
            &commands::replace_facts(node, "production", &values, None, "server"),
        );
    }
    let facts = query(&store, "facts", json!(["=", "name", "kernel"]));
    assert_eq!(facts.len(), 2);
    assert_eq!(
        facts[0],
        json!({"certname": "a.example", "name": "kernel", "value": "Linux", "environment": "production"})
    );
    let names = store.query("fact-names", None, &Paging::default()).unwrap();
    assert_eq!(
        names,
        vec![json!("kernel"), json!("os"), json!("processors")]
    );
    // Nodes by a structured fact's value, and by regex.
    let debian = query(
        &store,
        "nodes",
        json!(["=", ["fact", "os"], {"family": "Debian"}]),
    );
    assert_eq!(debian.len(), 1);
    assert_eq!(debian[0]["certname"], "a.example");
    assert_eq!(debian[0]["facts_environment"], "production");
    assert!(debian[0]["deactivated"].is_null());
    assert_eq!(
        query(&store, "nodes", json!(["~", "certname", "^b\\."])).len(),
        1
    );
    // An implicit subquery: nodes with a fact.
    let with_kernel = query(
        &store,
        "nodes",
        json!([
            "subquery",
            "facts",
            ["and", ["=", "name", "os"], ["~", "certname", "^a"]]
        ]),
    );
    assert_eq!(with_kernel.len(), 1);
    // Deactivated: gone from nodes and facts unless node_state is asked.
    submit(
        &store,
        commands::DEACTIVATE_NODE,
        &commands::deactivate_node("b.example"),
    );
    let active = store.query("nodes", None, &Paging::default()).unwrap();
    assert_eq!(active.len(), 1);
    assert_eq!(
        query(&store, "facts", json!(["=", "certname", "b.example"])).len(),
        0
    );
    let any = query(&store, "nodes", json!(["=", "node_state", "any"]));
    assert_eq!(any.len(), 2);
    assert!(any[1]["deactivated"].is_string(), "{any:?}");
    // Facts produced after the deactivation make it active again (ones
    // of the same millisecond would not: PuppetDB wants them later).
    let mut values = serde_json::Map::new();
    values.insert("kernel".into(), json!("Linux"));
    let mut later = commands::replace_facts("b.example", "production", &values, None, "server");
    later["producer_timestamp"] = json!("2200-01-01T00:00:00.000Z");
    submit(&store, commands::REPLACE_FACTS, &later);
    assert_eq!(
        store
            .query("nodes", None, &Paging::default())
            .unwrap()
            .len(),
        2
    );
}

/// A node's new facts replace its old ones whole, though only the facts
/// that changed are written: a changed value, a fact gone, a new one.
#[test]
fn new_facts_replace_the_old_whole() {
    let (_dir, store) = store();
    let payload = |time: &str, values: Value| {
        json!({"certname": "n", "environment": "production", "producer_timestamp": time,
               "producer": "s", "values": values})
    };
    let first = json!({"kernel": "Linux", "uptime": 1, "gone": "soon", "same": {"a": [1]}});
    submit(
        &store,
        commands::REPLACE_FACTS,
        &payload("2026-11-30T10:00:00.000Z", first),
    );
    let second = json!({"kernel": "Linux", "uptime": 2, "new": true, "same": {"a": [1]}});
    submit(
        &store,
        commands::REPLACE_FACTS,
        &payload("2026-11-30T11:00:00.000Z", second),
    );
    let mut facts: Vec<(String, Value)> = query(&store, "facts", json!(["=", "certname", "n"]))
        .into_iter()
        .map(|fact| {
            (
                fact["name"].as_str().unwrap().to_string(),
                fact["value"].clone(),
            )
        })
        .collect();
    facts.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        facts,
        vec![
            ("kernel".to_string(), json!("Linux")),
            ("new".to_string(), json!(true)),
            ("same".to_string(), json!({"a": [1]})),
            ("uptime".to_string(), json!(2)),
        ]
    );
    let uptimes = query(&store, "facts", json!(["=", "name", "uptime"]));
    assert_eq!(uptimes.len(), 1, "{uptimes:?}");
}

#[test]
fn stale_facts_are_ignored() {
    let (_dir, store) = store();
    let payload = |time: &str, kernel: &str| {
        json!({"certname": "n", "environment": "production", "producer_timestamp": time,
               "producer": "s", "values": {"kernel": kernel}})
    };
    store
        .submit(
            "replace_facts",
            5,
            "n",
            &payload("2026-11-28T10:00:00Z", "new"),
        )
        .unwrap();
    store
        .submit(
            "replace_facts",
            5,
            "n",
            &payload("2026-11-28T09:00:00.000+00:00", "old"),
        )
        .unwrap();
    let facts = query(&store, "facts", json!(["=", "name", "kernel"]));
    assert_eq!(facts[0]["value"], "new");
}

fn report(node: &str, time: &str, status: &str) -> Value {
    json!({
        "host": node, "time": time, "environment": "production", "report_format": 12,
        "puppet_version": "7.23.0", "configuration_version": 1700000000, "status": status,
        "noop": false, "noop_pending": false, "corrective_change": false,
        "transaction_uuid": "u-1", "catalog_uuid": "c-1", "cached_catalog_status": "not_used",
        "metrics": {"time": {"name": "time", "label": "Time", "values": [["total", "Total", 2.5]]},
                    "resources": {"name": "resources", "label": "Resources",
                                  "values": [["total", "Total", 2], ["changed", "Changed", 1]]}},
        "logs": [{"level": "notice", "message": "created", "source": "/Stage[main]/Main/File[/tmp/mrtest-a]/ensure",
                  "tags": ["notice"], "time": time, "file": "/etc/site.pp", "line": 4}],
        "resource_statuses": {
            "File[/tmp/mrtest-a]": {"title": "/tmp/mrtest-a", "resource_type": "File", "file": "/etc/site.pp",
                "line": 4, "skipped": false, "time": time, "corrective_change": false,
                "containment_path": ["Stage[main]", "Main", "Web", "File[/tmp/mrtest-a]"],
                "events": [{"status": "success", "property": "ensure", "name": "file_created",
                    "previous_value": "absent", "desired_value": "file", "message": "created",
                    "time": time, "corrective_change": false}]},
            "Exec[mrtest-b]": {"title": "mrtest-b", "resource_type": "Exec", "skipped": true,
                "time": time, "containment_path": ["Stage[main]", "Main", "Exec[mrtest-b]"], "events": []}
        }
    })
}

#[test]
fn reports_events_and_the_latest_report() {
    let (_dir, store) = store();
    for (time, status) in [
        ("2026-11-28T10:00:00.000Z", "changed"),
        ("2026-11-28T11:00:00.000Z", "unchanged"),
    ] {
        let payload = commands::store_report(&report("n1", time, status), "server");
        submit(&store, commands::STORE_REPORT, &payload);
    }
    let reports = store.query("reports", None, &Paging::default()).unwrap();
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0]["end_time"], "2026-11-28T10:00:02.500Z");
    assert_eq!(reports[0]["configuration_version"], "1700000000");
    let latest = query(&store, "reports", json!(["=", "latest_report?", true]));
    assert_eq!(latest.len(), 1);
    assert_eq!(latest[0]["hash"], reports[1]["hash"]);
    assert!(
        latest[0].get("latest_report?").is_none(),
        "PuppetDB shows no such field"
    );
    let metrics = reports[0]["metrics"]["data"].as_array().unwrap();
    assert!(metrics.contains(&json!({"category": "resources", "name": "changed", "value": 1})));
    let nodes = store.query("nodes", None, &Paging::default()).unwrap();
    assert_eq!(nodes[0]["latest_report_status"], "unchanged");
    assert_eq!(nodes[0]["latest_report_hash"], reports[1]["hash"]);
    // Events: the change and the skipped resource.
    let events = query(&store, "events", json!(["=", "latest_report?", true]));
    let statuses: Vec<&str> = events
        .iter()
        .map(|e| e["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["success", "skipped"]);
    assert_eq!(events[0]["containing_class"], "Web");
    assert_eq!(events[0]["old_value"], "absent");
    assert_eq!(events[0]["report"], reports[1]["hash"]);
    // Counts per status, as Puppetboard asks for them.
    let counts = query(
        &store,
        "reports",
        json!([
            "extract",
            [["function", "count"], "status"],
            ["=", "certname", "n1"],
            ["group_by", "status"]
        ]),
    );
    assert_eq!(
        counts,
        vec![
            json!({"count": 1, "status": "changed"}),
            json!({"count": 1, "status": "unchanged"})
        ]
    );
    // The same report twice is stored once.
    let again = commands::store_report(
        &report("n1", "2026-11-28T11:00:00.000Z", "unchanged"),
        "server",
    );
    let mut again = again;
    again["producer_timestamp"] = reports[1]["producer_timestamp"].clone();
    store.submit("store report", 8, "n1", &again).unwrap();
    assert_eq!(
        store
            .query("reports", None, &Paging::default())
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn paging_and_extract() {
    let (_dir, store) = store();
    for node in ["c", "a", "b"] {
        let mut values = serde_json::Map::new();
        values.insert("n".into(), json!(node));
        submit(
            &store,
            commands::REPLACE_FACTS,
            &commands::replace_facts(node, "production", &values, None, "s"),
        );
    }
    let paging = Paging {
        limit: Some(2),
        offset: 0,
        order_by: vec![("certname".into(), true)],
    };
    let names = store
        .query("nodes", Some(&json!(["extract", "certname"])), &paging)
        .unwrap();
    assert_eq!(
        names,
        vec![json!({"certname": "c"}), json!({"certname": "b"})]
    );
    let in_list = query(
        &store,
        "facts",
        json!(["in", "certname", ["array", ["a", "c"]]]),
    );
    assert_eq!(in_list.len(), 2);
    let sub = query(
        &store,
        "facts",
        json!([
            "in",
            "certname",
            [
                "extract",
                "certname",
                ["select_nodes", ["=", "certname", "b"]]
            ]
        ]),
    );
    assert_eq!(sub.len(), 1);
}

#[test]
fn answers_written_as_read_are_the_queries_answers() {
    let (_dir, store) = store();
    for node in ["c", "a", "b", "d"] {
        let mut values = serde_json::Map::new();
        values.insert("n".into(), json!(node));
        values.insert("os".into(), json!({"family": "Debian"}));
        submit(
            &store,
            commands::REPLACE_FACTS,
            &commands::replace_facts(node, "production", &values, None, "s"),
        );
        submit(
            &store,
            commands::REPLACE_CATALOG,
            &commands::replace_catalog(
                &catalog(node, node, "AAAA"),
                "s",
                None,
                &Default::default(),
            ),
        );
    }
    let page = |limit: Option<usize>, offset: usize, order: &[&str]| Paging {
        limit,
        offset,
        order_by: order.iter().map(|f| (f.to_string(), false)).collect(),
    };
    let cases: Vec<(&str, Option<Value>, Paging)> = vec![
        // Read and written row by row.
        ("nodes", None, page(None, 0, &[])),
        ("nodes", None, page(Some(2), 1, &[])),
        (
            "facts",
            Some(json!(["=", "name", "os"])),
            page(None, 0, &[]),
        ),
        (
            "facts",
            Some(json!([
                "extract",
                ["certname", "value"],
                ["=", "name", "n"]
            ])),
            page(Some(3), 0, &[]),
        ),
        (
            "resources",
            Some(json!([
                "and",
                ["=", "type", "Sshkey"],
                ["=", "exported", true]
            ])),
            page(None, 2, &[]),
        ),
        (
            "nodes",
            Some(json!([
                "in",
                "certname",
                ["extract", "certname", ["select_facts", ["=", "value", "b"]]]
            ])),
            page(None, 0, &[]),
        ),
        ("nodes", None, page(Some(0), 0, &[])),
        // Sorted, grouped or counted first.
        ("nodes", None, page(Some(2), 1, &["certname"])),
        (
            "facts",
            Some(json!([
                "extract",
                [["function", "count"], "name"],
                ["=", "certname", "a"],
                ["group_by", "name"]
            ])),
            page(None, 0, &[]),
        ),
        ("fact-names", None, page(None, 0, &[])),
    ];
    for (entity, ast, paging) in cases {
        let asked = format!("{entity} {ast:?} {paging:?}");
        let answered = store.query(entity, ast.as_ref(), &paging).unwrap();
        let all = store
            .query(entity, ast.as_ref(), &Paging::default())
            .unwrap();
        let mut out = Vec::new();
        let written = store
            .query_to(entity, ast.as_ref(), &paging, true, &mut out)
            .unwrap();
        let text: Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{asked}: {e}"));
        assert_eq!(text, Value::Array(answered.clone()), "{asked}");
        assert_eq!(written.rows, answered.len(), "{asked}");
        assert_eq!(written.total, Some(all.len()), "{asked}");
        let mut out = Vec::new();
        let written = store
            .query_to(entity, ast.as_ref(), &paging, false, &mut out)
            .unwrap();
        assert_eq!(written.total, None, "{asked}");
        assert_eq!(
            serde_json::from_slice::<Value>(&out).unwrap(),
            text,
            "{asked}"
        );
    }
    // What cannot be written fails the answer, not the store.
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("the disk is full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let failed = store.query_to("nodes", None, &Paging::default(), false, &mut Full);
    assert!(
        matches!(&failed, Err(StoreError::Write(m)) if m.contains("the disk is full")),
        "{failed:?}"
    );
    assert_eq!(
        query(&store, "nodes", json!(["=", "certname", "a"])).len(),
        1
    );
}

#[test]
fn bad_queries_say_what_is_wrong() {
    let (_dir, store) = store();
    let error = store
        .query(
            "nodes",
            Some(&json!(["=", "color", "red"])),
            &Paging::default(),
        )
        .unwrap_err();
    assert!(error.is_bad_request());
    assert!(
        error
            .to_string()
            .starts_with("'color' is not a queryable object for nodes"),
        "{error}"
    );
    let error = store
        .query(
            "nodes",
            Some(&json!(["like", "certname", "x"])),
            &Paging::default(),
        )
        .unwrap_err();
    assert_eq!(error.to_string(), "'like' is not a valid operator");
    let error = store
        .query("widgets", None, &Paging::default())
        .unwrap_err();
    assert!(matches!(error, StoreError::UnknownEntity(_)));
    let error = store
        .submit("replace facts", 2, "n", &json!({"values": {}}))
        .unwrap_err();
    assert!(
        matches!(error, StoreError::UnknownCommand { .. }),
        "{error}"
    );
}

#[test]
fn reopening_keeps_the_data_and_the_schema_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    {
        let store = Store::open(&path).unwrap();
        let mut values = serde_json::Map::new();
        values.insert("kernel".into(), json!("Linux"));
        submit(
            &store,
            commands::REPLACE_FACTS,
            &commands::replace_facts("n", "production", &values, None, "s"),
        );
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(
        query(&store, "facts", json!(["=", "certname", "n"])).len(),
        1
    );
    // A database from a newer Marionette is refused, not misread.
    drop(store);
    mark_as_newer(&path).unwrap();
    let error = Store::open(&path).expect_err("a newer schema is refused");
    assert!(
        error.to_string().contains("newer than this Marionette"),
        "{error}"
    );
}

/// Marks the database as written by a newer schema, through Python's
/// own SQLite (the crate's connection is private to the store).
fn mark_as_newer(path: &std::path::Path) -> Result<(), String> {
    let status = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
             c.execute(\"INSERT INTO schema_migrations VALUES (999, 'x')\"); c.commit()",
        )
        .arg(path)
        .status()
        .map_err(|e| format!("python3 is needed (apt-get install -y python3): {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or_else(|| "python3 failed".into())
}

/// A PQL query asked at the root endpoint, as `puppetdb_query()` and the
/// server ask it: the rows, paged as the query says.
fn pql(store: &Store, text: &str) -> Result<Vec<Value>, StoreError> {
    let found = endpoint("", Some(json!(text)))?;
    store.query(&found.entity, found.query.as_ref(), &found.paging)
}

#[test]
fn pql_queries_are_answered() {
    let (_dir, store) = store();
    for (node, key) in [("web1.example", "AAAA1"), ("web2.example", "AAAA2")] {
        let mut values = serde_json::Map::new();
        values.insert(
            "os".into(),
            json!({"family": "Debian", "disks": ["sda", "sdb"]}),
        );
        values.insert(
            "uptime".into(),
            json!(if node == "web1.example" { 100 } else { 300 }),
        );
        submit(
            &store,
            commands::REPLACE_FACTS,
            &commands::replace_facts(node, "production", &values, None, "server"),
        );
        let payload = commands::replace_catalog(
            &catalog(node, node, key),
            "server",
            None,
            &Default::default(),
        );
        submit(&store, commands::REPLACE_CATALOG, &payload);
    }
    let names = |rows: Vec<Value>| -> Vec<String> {
        rows.iter()
            .map(|r| r["certname"].as_str().unwrap_or("?").to_string())
            .collect()
    };
    assert_eq!(
        names(
            pql(
                &store,
                r#"nodes[certname] { facts { name = "uptime" and value > 200 } }"#
            )
            .unwrap()
        ),
        ["web2.example"]
    );
    assert_eq!(
        names(pql(&store, "nodes[certname] { order by certname desc limit 1 }").unwrap()),
        ["web2.example"]
    );
    assert_eq!(
        names(pql(&store, "nodes[certname] { order by certname offset 1 }").unwrap()),
        ["web2.example"]
    );
    assert_eq!(
        names(pql(&store, "nodes[certname] { certname in resources[certname] { type = 'Sshkey' and parameters.key = 'AAAA1' } }").unwrap()),
        ["web1.example"]
    );
    assert_eq!(
        pql(
            &store,
            "facts[name, count(), avg(value)] { name = 'uptime' group by name }"
        )
        .unwrap(),
        [json!({"name": "uptime", "count": 2, "avg": 200.0})]
    );
    assert_eq!(
        pql(&store, "nodes[count()] { certname = 'nobody' }").unwrap(),
        [json!({"count": 0})]
    );
    // The new entities.
    let disks = pql(&store, r#"fact_contents[certname, path, value] { path ~> ["os", "disks", "1"] order by certname }"#).unwrap();
    assert_eq!(
        disks,
        [
            json!({"certname": "web1.example", "path": ["os", "disks", 1], "value": "sdb"}),
            json!({"certname": "web2.example", "path": ["os", "disks", 1], "value": "sdb"}),
        ]
    );
    let paths = store.query("fact-paths", None, &Paging::default()).unwrap();
    assert!(
        paths.contains(&json!({"name": "uptime", "path": ["uptime"], "type": "integer"})),
        "{paths:?}"
    );
    assert!(
        paths.contains(&json!({"name": "os", "path": ["os", "disks", 0], "type": "string"})),
        "{paths:?}"
    );
    assert_eq!(
        pql(
            &store,
            r#"inventory[certname, facts.os.family] { facts.uptime <= 100 }"#
        )
        .unwrap(),
        [json!({"certname": "web1.example", "facts.os.family": "Debian"})]
    );
    assert_eq!(
        store.query("producers", None, &Paging::default()).unwrap(),
        [json!({"name": "server"})]
    );
    // Puppet's package inventory fact becomes the node's packages.
    let mut values = serde_json::Map::new();
    values.insert(
        "_puppet_inventory_1".into(),
        json!({"packages": [["openssl", "3.0.11-1", "apt"], ["bad"]]}),
    );
    submit(
        &store,
        commands::REPLACE_FACTS,
        &commands::replace_facts("web1.example", "production", &values, None, "server"),
    );
    assert_eq!(
        pql(&store, "package_inventory { }").unwrap(),
        [
            json!({"certname": "web1.example", "package_name": "openssl", "version": "3.0.11-1", "provider": "apt"})
        ]
    );
    assert!(
        pql(&store, "facts[name] { name = '_puppet_inventory_1' }")
            .unwrap()
            .is_empty()
    );
    // Errors are the asker's, and say where.
    for (bad, says) in [
        ("nodes { certname }", "PQL parse error at line 1, column 18"),
        (
            "nodes { colour = 'red' }",
            "'colour' is not a queryable object for nodes",
        ),
        ("nodes[certname, count()] { }", "must be in the 'group_by'"),
        (
            "nodes { certname in facts[certname, name] { } }",
            "'in' compares 1 field(s)",
        ),
        ("facts[sum()] { }", "takes exactly one field"),
    ] {
        let error = pql(&store, bad).unwrap_err();
        assert!(error.is_bad_request(), "{bad}: {error}");
        assert!(error.to_string().contains(says), "{bad}: {error}");
    }
    // PQL is the root endpoint's only.
    let error = endpoint("nodes", Some(json!("nodes {}"))).unwrap_err();
    assert!(
        error.to_string().contains("only at the root endpoint"),
        "{error}"
    );
}

#[test]
fn population_metrics_status_and_time() {
    let (_dir, store) = store();
    for (node, key) in [("web1.example", "AAAA1"), ("web2.example", "AAAA2")] {
        let payload = commands::replace_catalog(
            &catalog(node, node, key),
            "server",
            None,
            &Default::default(),
        );
        submit(&store, commands::REPLACE_CATALOG, &payload);
    }
    submit(
        &store,
        commands::DEACTIVATE_NODE,
        &commands::deactivate_node("web2.example"),
    );
    let population = store.population().unwrap();
    assert_eq!(population.active_nodes, 1);
    assert_eq!(population.inactive_nodes, 1);
    assert_eq!(population.resources, 3);
    let read = |name: &str| {
        meta::metrics(
            &store,
            &format!("read/puppetlabs.puppetdb.population:name={name}"),
        )
        .unwrap()
    };
    let nodes = read("num-nodes");
    assert_eq!(nodes["status"], 200, "{nodes}");
    assert_eq!(nodes["value"], json!({"Value": 1}));
    assert_eq!(
        nodes["request"]["mbean"],
        "puppetlabs.puppetdb.population:name=num-nodes"
    );
    assert_eq!(read("num-resources")["value"]["Value"], 3);
    assert_eq!(read("avg-resources-per-node")["value"]["Value"], 3.0);
    assert_eq!(
        meta::metrics(
            &store,
            "read/puppetlabs.puppetdb.population:name=num-nodes/Value"
        )
        .unwrap()["value"],
        1
    );
    assert_eq!(read("no-such-thing")["status"], 404);
    let list = meta::metrics(&store, "list").unwrap();
    assert!(
        list["value"]["puppetlabs.puppetdb.population"]["name=num-nodes"].is_object(),
        "{list}"
    );
    let status = meta::status(&store);
    assert_eq!(status["state"], "running");
    assert_eq!(status["status"]["read_db_up?"], true);
    let time = meta::server_time();
    let time = time["server_time"].as_str().unwrap();
    assert!(time.len() == 24 && time.ends_with('Z'), "{time}");
}

#[test]
fn retention_expires_purges_and_deletes_as_puppetdb() {
    let (_dir, store) = store();
    let long_ago = "2000-01-01T00:00:00.000Z";
    let facts = |node: &str, produced: Option<&str>| {
        let mut values = serde_json::Map::new();
        values.insert("kernel".into(), json!("Linux"));
        let mut payload = commands::replace_facts(node, "production", &values, None, "server");
        if let Some(produced) = produced {
            payload["producer_timestamp"] = json!(produced);
        }
        submit(&store, commands::REPLACE_FACTS, &payload);
    };
    facts("old.example", Some(long_ago));
    facts("fresh.example", None);
    facts("gone.example", None);
    let mut deactivation = commands::deactivate_node("gone.example");
    deactivation["producer_timestamp"] = json!("2000-01-02T00:00:00.000Z");
    submit(&store, commands::DEACTIVATE_NODE, &deactivation);
    for produced in [Some(long_ago), None] {
        let mut payload = commands::store_report(
            &report("fresh.example", "2026-11-20T10:00:00.000Z", "changed"),
            "server",
        );
        if let Some(produced) = produced {
            payload["producer_timestamp"] = json!(produced);
            payload["end_time"] = json!(produced);
        } else {
            payload["end_time"] = json!("2026-11-20T10:00:02.500Z");
        }
        submit(&store, commands::STORE_REPORT, &payload);
    }
    // old.example's only report is from 2000 too.
    let mut payload = commands::store_report(
        &report("old.example", "2000-01-01T00:00:00.000Z", "failed"),
        "server",
    );
    payload["producer_timestamp"] = json!(long_ago);
    submit(&store, commands::STORE_REPORT, &payload);
    let day = Some(Duration::from_secs(86400));
    let retention = Retention {
        node_ttl: day,
        node_purge_ttl: day,
        report_ttl: day,
        resource_events_ttl: day,
        node_purge_batch_limit: 25,
    };
    // Nothing is kept forever: nothing happens.
    let forever = Retention {
        node_ttl: None,
        node_purge_ttl: None,
        report_ttl: None,
        resource_events_ttl: None,
        node_purge_batch_limit: 25,
    };
    assert_eq!(
        store.collect_garbage(&forever).unwrap(),
        Collected::default()
    );
    let certnames = |ast: Value| -> Vec<String> {
        query(&store, "nodes", ast)
            .iter()
            .map(|n| n["certname"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(certnames(json!(["=", "node_state", "any"])).len(), 3);
    assert_eq!(
        certnames(json!(["~", "certname", ""])),
        ["fresh.example", "old.example"]
    );
    // old.example is expired (its news is from 2000), gone.example
    // (deactivated in 2000) purged, the report of 2000 deleted.
    let collected = store.collect_garbage(&retention).unwrap();
    assert_eq!(
        collected,
        Collected {
            expired: 1,
            purged: 1,
            reports: 2,
            events: 0
        }
    );
    assert_eq!(
        certnames(json!(["=", "node_state", "any"])),
        ["fresh.example", "old.example"]
    );
    assert_eq!(certnames(json!(["~", "certname", ""])), ["fresh.example"]);
    let old = query(
        &store,
        "nodes",
        json!([
            "and",
            ["=", "node_state", "any"],
            ["=", "certname", "old.example"]
        ]),
    );
    assert!(old[0]["expired"].is_string(), "{old:?}");
    assert!(old[0]["deactivated"].is_null(), "{old:?}");
    // Its latest report went: it shows none.
    for field in [
        "report_timestamp",
        "latest_report_hash",
        "latest_report_status",
    ] {
        assert!(old[0][field].is_null(), "{field}: {old:?}");
    }
    assert!(old[0]["facts_timestamp"].is_string(), "{old:?}");
    assert_eq!(
        query(&store, "reports", json!(["=", "certname", "fresh.example"])).len(),
        1
    );
    // Again: nothing new to do.
    assert_eq!(
        store.collect_garbage(&retention).unwrap(),
        Collected::default()
    );
    // A purge TTL shorter than the time since old.example expired: it
    // goes, with its facts.
    std::thread::sleep(Duration::from_millis(20));
    let purge = Retention {
        node_ttl: day,
        node_purge_ttl: Some(Duration::from_millis(10)),
        report_ttl: day,
        resource_events_ttl: day,
        node_purge_batch_limit: 25,
    };
    assert_eq!(
        store.collect_garbage(&purge).unwrap(),
        Collected {
            expired: 0,
            purged: 1,
            reports: 0,
            events: 0
        }
    );
    // An events TTL shorter than the report's: fresh.example's report
    // stays, without its events; the next collection finds none to drop.
    let events =
        |store: &Store| query(store, "events", json!(["=", "certname", "fresh.example"])).len();
    let latest_events = |store: &Store| {
        query(
            store,
            "events",
            json!([
                "and",
                ["=", "certname", "fresh.example"],
                ["=", "latest_report?", true]
            ]),
        )
        .len()
    };
    assert!(events(&store) > 0, "the report has events to drop");
    assert_eq!(latest_events(&store), events(&store));
    let short_events = Retention {
        resource_events_ttl: Some(Duration::from_millis(10)),
        ..retention
    };
    let collected = store.collect_garbage(&short_events).unwrap();
    assert_eq!(collected.events, 1, "{collected:?}");
    assert_eq!(events(&store), 0);
    assert_eq!(
        latest_events(&store),
        0,
        "the latest report's events kept beside it go too"
    );
    let kept = query(&store, "reports", json!(["=", "certname", "fresh.example"]));
    assert_eq!(kept.len(), 1);
    assert!(kept[0]["resource_events"]["data"].is_null(), "{kept:?}");
    assert_eq!(store.collect_garbage(&short_events).unwrap().events, 0);
    assert_eq!(
        certnames(json!(["=", "node_state", "any"])),
        ["fresh.example"]
    );
    assert_eq!(
        query(&store, "facts", json!(["=", "node_state", "any"])).len(),
        1
    );
    // A node heard from after it expired is active again.
    facts("old.example", Some(long_ago));
    assert_eq!(store.collect_garbage(&retention).unwrap().expired, 1);
    facts("old.example", None);
    assert_eq!(
        certnames(json!(["~", "certname", ""])),
        ["fresh.example", "old.example"]
    );
}

/// Purging as PuppetDB's `node-purge-gc-batch-limit` bounds it: at most
/// the limit a collection, the nodes gone longest first, every one due with
/// 0; the admin `clean` command's parts run alone, its `batch_limit` over
/// the setting; `delete` removes a node at once, whatever its state.
#[test]
fn purges_are_batched_and_cleans_and_deletes_run_on_demand() {
    let (_dir, store) = store();
    let mut values = serde_json::Map::new();
    values.insert("n".into(), json!(1));
    for (node, gone) in [
        ("c.example", "2000-01-03T00:00:00.000Z"),
        ("a.example", "2000-01-01T00:00:00.000Z"),
        ("b.example", "2000-01-02T00:00:00.000Z"),
        ("d.example", "2000-01-04T00:00:00.000Z"),
    ] {
        let mut payload = commands::replace_facts(node, "production", &values, None, "server");
        payload["producer_timestamp"] = json!("2000-01-01T00:00:00.000Z");
        submit(&store, commands::REPLACE_FACTS, &payload);
        let mut deactivation = commands::deactivate_node(node);
        deactivation["producer_timestamp"] = json!(gone);
        submit(&store, commands::DEACTIVATE_NODE, &deactivation);
    }
    submit(
        &store,
        commands::REPLACE_FACTS,
        &commands::replace_facts("live.example", "production", &values, None, "server"),
    );
    let nodes = || -> Vec<String> {
        query(&store, "nodes", json!(["=", "node_state", "any"]))
            .iter()
            .map(|n| n["certname"].as_str().unwrap().to_string())
            .collect()
    };
    let day = Some(Duration::from_secs(86400));
    let retention = Retention {
        node_ttl: None,
        node_purge_ttl: day,
        report_ttl: None,
        resource_events_ttl: None,
        node_purge_batch_limit: 2,
    };
    assert_eq!(store.collect_garbage(&retention).unwrap().purged, 2);
    assert_eq!(nodes(), ["c.example", "d.example", "live.example"]);
    // The command's own limit, and only the parts it names.
    let one = Operations {
        purge_nodes: true,
        purge_batch_limit: Some(1),
        ..Operations::none()
    };
    assert_eq!(store.clean(&retention, &one).unwrap().purged, 1);
    assert_eq!(nodes(), ["d.example", "live.example"]);
    let expire_only = Operations {
        expire_nodes: true,
        ..Operations::none()
    };
    assert_eq!(
        store.clean(&retention, &expire_only).unwrap(),
        Collected::default()
    );
    assert_eq!(nodes(), ["d.example", "live.example"]);
    // 0: every node due.
    let unbounded = Retention {
        node_purge_batch_limit: 0,
        ..retention
    };
    assert_eq!(store.collect_garbage(&unbounded).unwrap().purged, 1);
    assert_eq!(nodes(), ["live.example"]);
    assert!(store.delete_node("live.example").unwrap());
    assert!(!store.delete_node("live.example").unwrap());
    assert!(nodes().is_empty());
    assert!(query(&store, "facts", json!(["=", "node_state", "any"])).is_empty());
}

/// Mangled PQL, down to the store's answer: an answer or an error the
/// asker gets (a 400), never a panic nor a database error.
#[test]
fn mangled_queries_are_refused_not_crashed_on() {
    let (_dir, store) = store();
    let payload = commands::replace_catalog(
        &catalog("web1.example", "w", "K"),
        "server",
        None,
        &Default::default(),
    );
    submit(&store, commands::REPLACE_CATALOG, &payload);
    let queries = [
        r#"inventory[certname, facts."a.b".c[0]] { facts.match("s.*").x >= 1 and trusted.certname ~ "é" order by certname limit 1 }"#,
        r#"resources[type, count(), max(line)] { parameters.key = "K" or [certname, title] in resources[certname, title] { exported = true } group by type }"#,
        r#"fact_contents[path] { path ~> ["a", ".*"] and !(value is null) }"#,
    ];
    for query in queries {
        let chars: Vec<char> = query.chars().collect();
        for at in 0..chars.len() {
            for replacement in ['"', '.', '[', '(', '!', '~', 'é', ' ', '0'] {
                let mut changed = chars.clone();
                changed[at] = replacement;
                let text: String = changed.iter().collect();
                let answer = pql(&store, &text);
                if let Err(error) = answer {
                    assert!(error.is_bad_request(), "{text}: {error}");
                }
            }
        }
    }
}

/// What `query_to` writes for `ast`, as text.
fn written(store: &Store, entity: &str, ast: &Value) -> String {
    let mut out = Vec::new();
    store
        .query_to(entity, Some(ast), &Paging::default(), false, &mut out)
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn answers_the_database_alone_narrows_are_written_as_the_engine_answers_them() {
    let (_dir, store) = store();
    let mut values = serde_json::Map::new();
    values.insert("kernel".into(), json!("Linux"));
    values.insert(
        "os".into(),
        json!({"name": "Debian \"12\"", "release": [12, 5]}),
    );
    for node in ["a.example", "b.example", "c.example", "d.example"] {
        submit(
            &store,
            commands::REPLACE_FACTS,
            &commands::replace_facts(node, "production", &values, None, "server"),
        );
    }
    // Titles and keys that need escaping, a resource with no file or
    // line, a node with a report and one without.
    for (node, title) in [
        ("a.example", "quote \" back \\ tab \t é"),
        ("b.example", "b"),
        ("c.example", "c"),
    ] {
        let mut document = catalog(node, title, "AAAA\n1");
        document["resources"][0]["line"] = Value::Null;
        let payload = commands::replace_catalog(&document, "server", None, &Default::default());
        submit(&store, commands::REPLACE_CATALOG, &payload);
    }
    let payload = commands::store_report(
        &report("a.example", "2026-11-28T10:00:00.000Z", "changed"),
        "server",
    );
    submit(&store, commands::STORE_REPORT, &payload);
    submit(
        &store,
        commands::DEACTIVATE_NODE,
        &commands::deactivate_node("c.example"),
    );
    for (entity, narrowed) in [
        ("nodes", json!(["and"])),
        ("nodes", json!(["=", "certname", "a.example"])),
        // Puppetboard's nodes page, of an environment and a status.
        (
            "nodes",
            json!(["and", ["=", "catalog_environment", "production"]]),
        ),
        (
            "nodes",
            json!([
                "and",
                ["=", "catalog_environment", "production"],
                ["=", "latest_report_status", "changed"]
            ]),
        ),
        ("resources", json!(["and"])),
        (
            "resources",
            json!(["and", ["=", "type", "Sshkey"], ["=", "exported", true]]),
        ),
        // A fact's values across the fleet, and one node's.
        ("facts", json!(["=", "name", "os"])),
        (
            "facts",
            json!([
                "and",
                ["=", "name", "kernel"],
                ["=", "certname", "b.example"]
            ]),
        ),
        (
            "resources",
            json!([
                "and",
                ["=", "certname", "a.example"],
                ["=", "exported", false]
            ]),
        ),
    ] {
        // The same rows through the engine: a condition that holds for
        // every row, which the database does not decide.
        let engine = json!([
            "and",
            narrowed,
            ["not", ["=", "certname", "nobody.example"]]
        ]);
        let direct = written(&store, entity, &narrowed);
        // By meaning: every node's objects are the database's own JSON
        // (migration 8), their keys in the same order.
        let rows: Vec<Value> = serde_json::from_str(&direct).unwrap();
        let through_engine: Vec<Value> =
            serde_json::from_str(&written(&store, entity, &engine)).unwrap();
        assert_eq!(rows, through_engine, "{entity} {narrowed}");
        for (direct, engine) in rows.iter().zip(&through_engine) {
            let keys = |row: &Value| row.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(direct), keys(engine), "{entity} {narrowed}");
        }
        assert!(!rows.is_empty(), "{entity} {narrowed}");
        assert!(
            rows.iter().all(|row| row["certname"] != "c.example"),
            "a deactivated node's rows: {direct}"
        );
    }
    let nodes: Vec<Value> =
        serde_json::from_str(&written(&store, "nodes", &json!(["and"]))).unwrap();
    assert_eq!(nodes.len(), 3);
    assert_eq!(nodes[0]["latest_report_noop"], false);
    assert!(nodes[1]["latest_report_noop"].is_null());
}

#[test]
fn the_latest_reports_event_counts_are_counted_as_their_events_are_answered() {
    let (_dir, store) = store();
    // Two nodes with a latest report of two events (one skipped), one
    // with an older report too, whose events are not the latest's.
    for (node, time) in [
        ("a.example", "2026-11-28T09:00:00.000Z"),
        ("a.example", "2026-11-28T10:00:00.000Z"),
        ("b.example", "2026-11-28T10:00:00.000Z"),
    ] {
        let payload = commands::store_report(&report(node, time, "changed"), "server");
        submit(&store, commands::STORE_REPORT, &payload);
    }
    let latest = json!(["=", "latest_report?", true]);
    // The same events through the engine's rows of `events`.
    let engine = json!(["and", latest, ["not", ["=", "certname", "nobody.example"]]]);
    for (summarize_by, count_by) in [
        ("certname", None),
        ("resource", None),
        ("containing_class", None),
        ("certname", Some("certname")),
        ("resource", Some("certname")),
    ] {
        let counts = EventCounts {
            summarize_by: summarize_by.into(),
            count_by: count_by.map(str::to_string),
            counts_filter: None,
        };
        let counted = |ast: &Value| {
            store
                .event_counts(Some(ast), &counts, &Paging::default())
                .unwrap()
        };
        let fast = counted(&latest);
        assert_eq!(fast, counted(&engine), "{summarize_by} {count_by:?}");
        assert!(!fast.is_empty(), "{summarize_by}");
    }
    let counts = EventCounts {
        summarize_by: "certname".into(),
        ..EventCounts::default()
    };
    let by_node = store
        .event_counts(Some(&latest), &counts, &Paging::default())
        .unwrap();
    assert_eq!(by_node.len(), 2);
    assert_eq!(by_node[0]["subject"], json!({"title": "a.example"}));
    assert_eq!(
        (by_node[0]["successes"].clone(), by_node[0]["skips"].clone()),
        (json!(1), json!(1))
    );
}
