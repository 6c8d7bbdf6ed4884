//! The store on PostgreSQL 15 (a cluster of the test's own, started from
//! Debian's packages): the same schema and migrations, retention, and
//! commands queued on disk while the server is down, stored in order
//! once it is back. The query corpus runs on it in `puppetdb.rs`.

use std::time::Duration;

use marionette_storage::{Paging, Retention, Store, StoreError, commands, endpoint, meta};
use serde_json::{Value, json};

mod cluster;

fn facts(node: &str, n: i64) -> Value {
    let mut values = serde_json::Map::new();
    values.insert("n".into(), json!(n));
    commands::replace_facts(node, "production", &values, None, "server")
}

fn submit(store: &Store, node: &str, n: i64) -> Result<(), StoreError> {
    let (command, version) = commands::REPLACE_FACTS;
    store.submit(command, version, node, &facts(node, n))
}

fn certnames(store: &Store) -> Vec<String> {
    store
        .query("nodes", None, &Paging::default())
        .unwrap()
        .iter()
        .map(|n| n["certname"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn commands_wait_on_disk_while_postgresql_is_down() {
    let cluster = cluster::Cluster::start();
    let queue = tempfile::tempdir().unwrap();
    let store = Store::connect(&cluster.url())
        .unwrap()
        .with_queue(queue.path())
        .unwrap();
    submit(&store, "a.example", 1).unwrap();
    assert_eq!(store.queued(), 0);
    cluster.stop();
    // Down: queries say so (the server answers 503), commands wait.
    let error = store.query("nodes", None, &Paging::default()).unwrap_err();
    assert!(matches!(error, StoreError::Unavailable { .. }), "{error}");
    assert!(!error.is_bad_request());
    submit(&store, "b.example", 2).unwrap();
    // Malformed in a way only running it tells (no values): queued, and
    // set aside when run, without holding up the commands after it.
    store
        .submit(
            "replace facts",
            5,
            "x.example",
            &json!({"certname": "x.example"}),
        )
        .unwrap();
    submit(&store, "a.example", 3).unwrap();
    assert_eq!(store.queued(), 3);
    // What is wrong without the database is refused, not queued.
    let error = store
        .submit("replace facts", 5, "c.example", &json!("not an object"))
        .unwrap_err();
    assert!(matches!(error, StoreError::Payload { .. }), "{error}");
    let error = store
        .submit("frobnicate", 1, "c.example", &json!({}))
        .unwrap_err();
    assert!(
        matches!(error, StoreError::UnknownCommand { .. }),
        "{error}"
    );
    assert_eq!(store.queued(), 3);
    let status = meta::status(&store);
    assert_eq!(status["status"]["read_db_up?"], false, "{status}");
    assert_eq!(status["status"]["queue_depth"], 3, "{status}");
    assert!(store.drain().is_err());
    // Another process cannot start on a database that is down.
    assert!(matches!(
        Store::connect(&cluster.url()),
        Err(StoreError::Unavailable { .. })
    ));
    // A store without a queue refuses rather than loses.
    cluster.start_again();
    let plain = Store::connect(&cluster.url()).unwrap();
    cluster.stop();
    assert!(matches!(
        submit(&plain, "d.example", 4),
        Err(StoreError::Unavailable { .. })
    ));
    // Back: the next command stores the queued ones first, in order.
    cluster.start_again();
    submit(&store, "c.example", 5).unwrap();
    assert_eq!(store.queued(), 0);
    assert_eq!(certnames(&store), ["a.example", "b.example", "c.example"]);
    assert_eq!(
        std::fs::read_dir(queue.path().join("refused"))
            .unwrap()
            .count(),
        1
    );
    let n = store
        .query(
            "facts",
            Some(&json!([
                "and",
                ["=", "certname", "a.example"],
                ["=", "name", "n"]
            ])),
            &Paging::default(),
        )
        .unwrap();
    assert_eq!(n[0]["value"], 3, "the later command wins: {n:?}");
    assert_eq!(meta::status(&store)["status"]["read_db_up?"], true);
    // A queue left by a stopped process is stored by the next one.
    cluster.stop();
    submit(&store, "e.example", 6).unwrap();
    drop(store);
    cluster.start_again();
    let again = Store::connect(&cluster.url())
        .unwrap()
        .with_queue(queue.path())
        .unwrap();
    assert_eq!(again.queued(), 1);
    assert_eq!(again.drain().unwrap(), 1);
    assert!(certnames(&again).contains(&"e.example".to_string()));
}

#[test]
fn schema_retention_and_pql_on_postgresql() {
    let cluster = cluster::Cluster::start();
    let store = Store::connect(&cluster.url()).unwrap();
    assert_eq!(store.schema_version(), 8);
    let mut old = facts("old.example", 1);
    old["producer_timestamp"] = json!("2000-01-01T00:00:00.000Z");
    let (command, version) = commands::REPLACE_FACTS;
    store.submit(command, version, "old.example", &old).unwrap();
    submit(&store, "new.example", 2).unwrap();
    drop(store);
    // Connecting again migrates nothing and keeps everything.
    let store = Store::connect(&cluster.url()).unwrap();
    assert_eq!(certnames(&store), ["new.example", "old.example"]);
    // Every node's answer, kept whole by PostgreSQL's trigger (migration
    // 8), and every exported resource's, kept by the store, are the
    // engine's by meaning.
    let catalog = json!({
        "name": "new.example", "version": 1, "environment": "production",
        "resources": [
            {"type": "Sshkey", "title": "new \"quoted\"", "tags": ["sshkey"], "exported": true,
             "file": "/etc/site.pp", "line": 3, "parameters": {"key": "AAAA", "tag": ["fleet"]}},
            {"type": "Class", "title": "Main", "tags": ["class"], "exported": false}
        ],
        "edges": []
    });
    let payload = commands::replace_catalog(&catalog, "server", None, &Default::default());
    let (command, version) = commands::REPLACE_CATALOG;
    store
        .submit(command, version, "new.example", &payload)
        .unwrap();
    let written = |entity: &str, ast: Value| -> Value {
        let mut out = Vec::new();
        store
            .query_to(entity, Some(&ast), &Paging::default(), false, &mut out)
            .unwrap();
        serde_json::from_slice(&out).unwrap()
    };
    let engine = |ast: Value| json!(["and", ast, ["not", ["=", "certname", "nobody.example"]]]);
    let kept = written("nodes", json!(["and"]));
    assert_eq!(kept, written("nodes", engine(json!(["and"]))));
    assert_eq!(kept[1]["certname"], "old.example");
    assert!(kept[1]["facts_timestamp"].is_string(), "{kept}");
    assert_eq!(kept[0]["catalog_environment"], "production");
    let fact = json!(["=", "name", "n"]);
    let kept = written("facts", fact.clone());
    assert_eq!(kept, written("facts", engine(fact)));
    assert_eq!(kept.as_array().map(Vec::len), Some(2), "{kept}");
    let exported = json!(["and", ["=", "type", "Sshkey"], ["=", "exported", true]]);
    let kept = written("resources", exported.clone());
    assert_eq!(kept, written("resources", engine(exported)));
    assert_eq!(kept[0]["title"], "new \"quoted\"", "{kept}");
    assert_eq!(kept[0]["parameters"]["tag"], json!(["fleet"]), "{kept}");
    let day = Some(Duration::from_secs(86400));
    let collected = store
        .collect_garbage(&Retention {
            node_ttl: day,
            node_purge_ttl: day,
            report_ttl: day,
            resource_events_ttl: day,
            node_purge_batch_limit: 25,
        })
        .unwrap();
    assert_eq!(collected.expired, 1);
    assert_eq!(certnames(&store), ["new.example"]);
    let found = endpoint(
        "",
        Some(json!("facts[certname, value] { name = 'n' and value > 1 }")),
    )
    .unwrap();
    assert_eq!(
        store
            .query(&found.entity, found.query.as_ref(), &found.paging)
            .unwrap(),
        [json!({"certname": "new.example", "value": 2})]
    );
    let population = store.population().unwrap();
    assert_eq!((population.active_nodes, population.inactive_nodes), (1, 1));
    // Purges in batches (a LIMIT in PostgreSQL's subquery), and a node
    // deleted at once.
    for node in ["gone1.example", "gone2.example"] {
        submit(&store, node, 1).unwrap();
        let mut deactivation = commands::deactivate_node(node);
        deactivation["producer_timestamp"] = json!("2000-01-01T00:00:00.000Z");
        let (command, version) = commands::DEACTIVATE_NODE;
        store.submit(command, version, node, &deactivation).unwrap();
    }
    let batch = Retention {
        node_ttl: None,
        node_purge_ttl: day,
        report_ttl: None,
        resource_events_ttl: None,
        node_purge_batch_limit: 1,
    };
    assert_eq!(store.collect_garbage(&batch).unwrap().purged, 1);
    assert_eq!(store.collect_garbage(&batch).unwrap().purged, 1);
    assert_eq!(store.collect_garbage(&batch).unwrap().purged, 0);
    assert!(store.delete_node("new.example").unwrap());
    assert_eq!(store.population().unwrap().active_nodes, 0);
}
