//! Times the storage with a fleet: stores N nodes' facts and catalogs
//! (R resources each, two of them exported), then times the exported
//! collection every node's compile asks for, and a few of Puppetboard's
//! queries; then stores a fleet's facts twice, the second time with one
//! of 150 changed. `cargo run --release -p marionette-storage --example fleet -- N R`

use std::time::Instant;

use marionette_storage::{Paging, Store, commands};
use serde_json::{Value, json};

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let per_node: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let dir = std::env::temp_dir().join(format!("mrtest-storage-fleet-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::open(&dir.join("fleet.sqlite3")).expect("the store opens");
    let started = Instant::now();
    for n in 0..nodes {
        let node = format!("node{n:05}.example.com");
        let mut facts = serde_json::Map::new();
        facts.insert("role".into(), json!(if n % 10 == 0 { "db" } else { "web" }));
        facts.insert(
            "os".into(),
            json!({"family": "Debian", "release": {"major": "12"}}),
        );
        let payload = commands::replace_facts(&node, "production", &facts, None, "server");
        store.submit("replace facts", 5, &node, &payload).unwrap();
        let mut resources: Vec<Value> = (0..per_node)
            .map(|r| {
                json!({"type": "File", "title": format!("/etc/app/{r}.conf"), "tags": ["file", "app"],
                       "exported": false, "parameters": {"ensure": "file", "content": "x"}})
            })
            .collect();
        resources.push(
            json!({"type": "Sshkey", "title": node, "tags": ["sshkey"], "exported": true,
                              "parameters": {"key": "AAAA", "type": "ssh-ed25519"}}),
        );
        resources.push(json!({"type": "Haproxy::Balancermember", "title": node, "tags": ["haproxy", "web"],
                              "exported": true, "parameters": {"listening_service": "web", "ports": "80"}}));
        let catalog = json!({"name": node, "version": 1, "environment": "production", "resources": resources, "edges": []});
        let payload = commands::replace_catalog(&catalog, "server", None, &Default::default());
        store.submit("replace catalog", 9, &node, &payload).unwrap();
    }
    let stored = started.elapsed();
    println!(
        "stored {nodes} nodes x {} resources in {:.2} s ({:.2} ms a node)",
        per_node + 2,
        stored.as_secs_f64(),
        stored.as_secs_f64() * 1000.0 / nodes as f64
    );
    let time = |label: &str, entity: &str, query: Value| {
        let runs = 5;
        let mut times = Vec::new();
        let mut rows = 0;
        for _ in 0..runs {
            let t = Instant::now();
            rows = store
                .query(entity, Some(&query), &Paging::default())
                .unwrap()
                .len();
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        println!("{label}: {rows} rows, median {:.2} ms", times[runs / 2]);
    };
    time(
        "exported collection (Sshkey <<| |>>)",
        "resources",
        json!([
            "and",
            ["=", "type", "Sshkey"],
            ["=", "exported", true],
            ["not", ["=", "certname", "node00000.example.com"]]
        ]),
    );
    time(
        "exported collection with a parameter",
        "resources",
        json!([
            "and",
            ["=", "type", "Haproxy::Balancermember"],
            ["=", "exported", true],
            ["not", ["=", "certname", "node00000.example.com"]],
            ["=", ["parameter", "listening_service"], "web"]
        ]),
    );
    time(
        "nodes by fact",
        "nodes",
        json!(["=", ["fact", "role"], "db"]),
    );
    time(
        "one node's resources",
        "resources",
        json!(["=", "certname", "node00042.example.com"]),
    );
    // A fleet's next run: each node sends its facts again (here 150 of
    // them, as Facter gives a Debian machine about that many), one of
    // them (its uptime) changed.
    let facts_of = |uptime: u64| {
        let mut facts = serde_json::Map::new();
        for f in 0..149 {
            facts.insert(
                format!("fact_{f:03}"),
                json!({"value": f, "text": "some words"}),
            );
        }
        facts.insert("uptime_seconds".into(), json!(uptime));
        facts
    };
    let again = nodes.min(500);
    for pass in 0..2u64 {
        let started = Instant::now();
        for n in 0..again {
            let node = format!("node{n:05}.example.com");
            let mut payload =
                commands::replace_facts(&node, "production", &facts_of(pass), None, "server");
            payload["producer_timestamp"] = json!(format!("2200-01-01T00:00:0{pass}.000Z"));
            store.submit("replace facts", 5, &node, &payload).unwrap();
        }
        println!(
            "{} a node's 150 facts{}: {:.3} ms a node",
            if pass == 0 {
                "storing"
            } else {
                "storing again"
            },
            if pass == 0 { "" } else { ", one changed" },
            started.elapsed().as_secs_f64() * 1000.0 / again as f64
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
