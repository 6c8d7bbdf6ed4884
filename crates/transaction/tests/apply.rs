//! The transaction on catalogs shaped like the compiler's (and Puppet's):
//! order, failures and skipped dependents, refresh through notify,
//! subscribe and containment, noop, tags, cycles, pre-run checks, reports.
//!
//! A test type `record` keeps each resource as a file in a temporary
//! directory and appends every operation (create, set, refresh) to a
//! journal, so the tests can see exactly what happened in which order.

use std::fs;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use marionette_catalog::Catalog;
use marionette_ral::{
    AttrDef, Context, DeferredFailure, Instance, Level, Logger, PropertyHash, PropertyProvider,
    ProviderDef, ProviderError, Registry, TypeDef,
};
use marionette_transaction::{ApplyError, Options, apply};
use marionette_values::Value;
use serde_json::{Value as Json, json};

struct Records {
    dir: PathBuf,
    /// Resources with `late => true` whose flush was deferred; the end of
    /// the run refuses them all, like a batched request the server turns
    /// down.
    late: Mutex<Vec<String>>,
}

impl Records {
    fn journal(&self, line: &str) {
        let mut text = fs::read_to_string(self.dir.join("journal")).unwrap_or_default();
        text.push_str(line);
        text.push('\n');
        fs::write(self.dir.join("journal"), text).unwrap();
    }
}

impl PropertyProvider for Records {
    fn instances(&self, _cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let mut found = Vec::new();
        for entry in fs::read_dir(self.dir.join("records"))? {
            let path = entry?.path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            found.push(PropertyHash::from([
                ("name".to_string(), Value::String(name.into())),
                ("ensure".to_string(), Value::String("present".into())),
                (
                    "value".to_string(),
                    Value::String(fs::read_to_string(&path)?.into()),
                ),
            ]));
        }
        Ok(found)
    }

    fn create(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let name = instance.resource.name();
        if instance.resource.get("fail") == Some(&Value::Boolean(true)) {
            return Err(ProviderError::new(format!("{name} refuses to exist")));
        }
        let value = instance.resource.text("value").unwrap_or_default();
        fs::write(self.dir.join("records").join(&name), value)?;
        self.journal(&format!("create {name}"));
        Ok(())
    }

    fn set(
        &self,
        _cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        let name = instance.resource.name();
        let text = marionette_ral::attribute::value_text(value);
        fs::write(self.dir.join("records").join(&name), &text)?;
        self.journal(&format!("set {name} {attr}={text}"));
        Ok(())
    }

    fn refresh(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        self.journal(&format!("refresh {}", instance.resource.name()));
        Ok(())
    }

    fn destroy(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let name = instance.resource.name();
        fs::remove_file(self.dir.join("records").join(&name))?;
        self.journal(&format!("destroy {name}"));
        Ok(())
    }

    fn flush(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        if instance.resource.get("late") == Some(&Value::Boolean(true)) {
            self.late
                .lock()
                .unwrap()
                .push(instance.resource.reference());
        }
        Ok(())
    }

    fn post_resource_eval(&self, _cx: &Context) -> Result<(), Vec<DeferredFailure>> {
        let late = std::mem::take(&mut *self.late.lock().unwrap());
        if late.is_empty() {
            return Ok(());
        }
        // Journaled only with work to do, so that the other tests' journals
        // stay as they were.
        self.journal("post_resource_eval");
        Err(vec![DeferredFailure {
            resources: late,
            message: "the batch was refused".into(),
        }])
    }
}

struct Fixture {
    dir: tempfile::TempDir,
    registry: Arc<Registry>,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("records")).unwrap();
        let mut registry = Registry::new();
        registry
            .add_type(
                TypeDef::new("record")
                    .doc("A test record.")
                    .ensurable()
                    .attr(AttrDef::param("name"))
                    .attr(
                        // Like a service's `running`: reaching it makes a
                        // pending refresh pointless.
                        AttrDef::property("value").invalidate_refreshes(&["fresh"]),
                    )
                    .attr(AttrDef::param("fail").boolean())
                    .attr(AttrDef::param("late").boolean())
                    .attr(AttrDef::param("guard"))
                    .refreshable()
                    .pre_run_check(|r| match r.text("guard").as_deref() {
                        Some("stop") => Err("the guard says stop".into()),
                        _ => Ok(()),
                    }),
            )
            .unwrap();
        registry
            .add_provider(ProviderDef::properties(
                "record",
                "files",
                Records {
                    dir: dir.path().to_path_buf(),
                    late: Mutex::new(Vec::new()),
                },
            ))
            .unwrap();
        // A type that refreshes itself after a change, as mount does.
        registry
            .add_type(
                TypeDef::new("volume")
                    .ensurable()
                    .attr(AttrDef::param("name"))
                    .attr(AttrDef::property("value"))
                    .self_refresh(),
            )
            .unwrap();
        registry
            .add_provider(ProviderDef::properties(
                "volume",
                "files",
                Records {
                    dir: dir.path().to_path_buf(),
                    late: Mutex::new(Vec::new()),
                },
            ))
            .unwrap();
        registry.add_type(marionette_types_notify()).unwrap();
        registry
            .add_type(marionette_types::types::resources::definition())
            .unwrap();
        registry
            .add_provider(marionette_types::types::resources::implementation())
            .unwrap();
        Fixture {
            dir,
            registry: Arc::new(registry),
        }
    }

    fn journal(&self) -> Vec<String> {
        fs::read_to_string(self.dir.path().join("journal"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn record(&self, name: &str) -> Option<String> {
        fs::read_to_string(self.dir.path().join("records").join(name)).ok()
    }

    /// Applies and returns the log lines as the command line prints them.
    fn apply(
        &self,
        catalog: &Catalog,
        options: &Options,
    ) -> (
        Result<marionette_transaction::Report, ApplyError>,
        Vec<String>,
    ) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        let logger = Logger::with_sink(move |entry| {
            if entry.level == Level::Debug || entry.level == Level::Info {
                return;
            }
            let line = if entry.source.is_empty() {
                format!("{}: {}", entry.level, entry.message)
            } else {
                format!("{}: {}: {}", entry.level, entry.source, entry.message)
            };
            sink.lock().unwrap().push(line);
        });
        let result = apply(
            catalog,
            self.registry.clone(),
            Arc::default(),
            logger,
            options,
        );
        let lines = lines.lock().unwrap().clone();
        (result, lines)
    }
}

/// `notify` without depending on the types crate: the same definition is
/// registered there; here only its shape matters.
fn marionette_types_notify() -> TypeDef {
    TypeDef::new("notify")
        .attr(AttrDef::param("name"))
        .attr(AttrDef::param("message"))
}

/// A catalog as the compiler builds it: Stage[main] contains Class[main]
/// (and any classes given), which contain the resources.
fn catalog(classes: &[&str], resources: &[(&str, &str, &str, Json)]) -> Catalog {
    let mut list = vec![
        json!({"type": "Stage", "title": "main", "tags": ["stage"], "exported": false}),
        json!({"type": "Class", "title": "main", "tags": ["class"], "exported": false}),
    ];
    let mut edges = vec![json!({"source": "Stage[main]", "target": "Class[main]"})];
    for class in classes {
        list.push(json!({"type": "Class", "title": class, "tags": ["class", class.to_lowercase()], "exported": false}));
        edges.push(json!({"source": "Stage[main]", "target": format!("Class[{class}]")}));
    }
    for (container, type_name, title, parameters) in resources {
        list.push(json!({
            "type": type_name, "title": title, "tags": [type_name.to_lowercase(), title],
            "file": "/etc/site.pp", "line": 1, "exported": false, "parameters": parameters,
        }));
        edges.push(json!({"source": container, "target": format!("{type_name}[{title}]")}));
    }
    serde_json::from_value(json!({
        "tags": [], "name": "mrtest.example.com", "version": 1, "catalog_uuid": "0", "catalog_format": 2,
        "environment": "production", "resources": list, "edges": edges, "classes": ["main"],
    }))
    .unwrap()
}

fn main_record(title: &str, parameters: Json) -> (&'static str, &'static str, String, Json) {
    ("Class[main]", "Record", title.to_string(), parameters)
}

fn build(entries: Vec<(&str, &str, String, Json)>) -> Catalog {
    let entries: Vec<(&str, &str, &str, Json)> = entries
        .iter()
        .map(|(c, t, title, p)| (*c, *t, title.as_str(), p.clone()))
        .collect();
    catalog(&[], &entries)
}

#[test]
fn resources_apply_in_manifest_order_with_dependencies_first() {
    let fixture = Fixture::new();
    let catalog = build(vec![
        main_record(
            "a",
            json!({"ensure": "present", "value": "1", "require": "Record[c]"}),
        ),
        main_record("b", json!({"ensure": "present", "value": "2"})),
        main_record("c", json!({"ensure": "present", "value": "3"})),
    ]);
    let (report, lines) = fixture.apply(&catalog, &Options::default());
    let report = report.unwrap();
    assert_eq!(fixture.journal(), ["create b", "create c", "create a"]);
    assert_eq!(
        lines,
        [
            "Notice: /Stage[main]/Main/Record[b]/ensure: created",
            "Notice: /Stage[main]/Main/Record[c]/ensure: created",
            "Notice: /Stage[main]/Main/Record[a]/ensure: created",
        ]
    );
    assert_eq!(report.status, "changed");
    assert_eq!(report.counts.changed, 3);
    assert_eq!(
        report.resource_statuses["Record[a]"].events[0].name,
        "record_created"
    );

    // The second run has nothing to do.
    let (second, lines) = fixture.apply(&catalog, &Options::default());
    assert_eq!(second.unwrap().status, "unchanged");
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(fixture.journal().len(), 3);
}

#[test]
fn a_failure_skips_its_dependents_and_nothing_else() {
    let fixture = Fixture::new();
    let catalog = build(vec![
        main_record("broken", json!({"ensure": "present", "fail": true})),
        main_record(
            "dependent",
            json!({"ensure": "present", "require": "Record[broken]"}),
        ),
        main_record(
            "indirect",
            json!({"ensure": "present", "require": "Record[dependent]"}),
        ),
        main_record("free", json!({"ensure": "present"})),
    ]);
    let (report, lines) = fixture.apply(&catalog, &Options::default());
    let report = report.unwrap();
    assert_eq!(fixture.journal(), ["create free"]);
    assert_eq!(
        lines,
        [
            "Error: /Stage[main]/Main/Record[broken]/ensure: change from 'absent' to 'present' failed: broken refuses to exist",
            "Notice: /Stage[main]/Main/Record[dependent]: Dependency Record[broken] has failures: true",
            "Warning: /Stage[main]/Main/Record[dependent]: Skipping because of failed dependencies",
            // As Puppet 7: the failure is named once, and a skipped
            // resource hands it on without being named itself.
            "Warning: /Stage[main]/Main/Record[indirect]: Skipping because of failed dependencies",
            "Notice: /Stage[main]/Main/Record[free]/ensure: created",
        ]
    );
    assert_eq!(report.status, "failed");
    assert_eq!(
        (
            report.counts.failed,
            report.counts.skipped,
            report.counts.changed
        ),
        (1, 2, 1)
    );
    assert!(report.resource_statuses["Record[dependent]"].skipped);
}

#[test]
fn a_change_that_invalidates_refreshes_unschedules_the_pending_one() {
    for (value, refreshed) in [("fresh", false), ("other", true)] {
        let fixture = Fixture::new();
        fs::write(fixture.dir.path().join("records/service"), "stale").unwrap();
        let catalog = catalog(
            &[],
            &[
                (
                    "Class[main]",
                    "Record",
                    "config",
                    json!({"ensure": "present", "notify": "Record[service]"}),
                ),
                ("Class[main]", "Record", "service", json!({"value": value})),
            ],
        );
        let (report, lines) = fixture.apply(&catalog, &Options::default());
        report.unwrap();
        let mut expected = vec![
            "create config".to_string(),
            format!("set service value={value}"),
        ];
        if refreshed {
            expected.push("refresh service".into());
        }
        assert_eq!(fixture.journal(), expected);
        assert_eq!(
            lines.iter().any(|l| l.contains("Triggered 'refresh'")),
            refreshed,
            "{lines:?}"
        );
    }
}

#[test]
fn refresh_happens_once_after_evaluation_through_notify_subscribe_and_classes() {
    let fixture = Fixture::new();
    let catalog = catalog(
        &["Web"],
        &[
            (
                "Class[main]",
                "Record",
                "config",
                json!({"ensure": "present", "notify": ["Record[service]"]}),
            ),
            (
                "Class[main]",
                "Record",
                "other",
                json!({"ensure": "present", "notify": "Record[service]"}),
            ),
            (
                "Class[main]",
                "Record",
                "service",
                json!({"ensure": "present"}),
            ),
            ("Class[Web]", "Record", "page", json!({"ensure": "present"})),
            (
                "Class[main]",
                "Record",
                "watcher",
                json!({"subscribe": "Class[Web]"}),
            ),
            (
                "Class[main]",
                "Record",
                "quiet",
                json!({"subscribe": "Record[nothing]"}),
            ),
            ("Class[main]", "Record", "nothing", json!({})),
        ],
    );
    let (report, lines) = fixture.apply(&catalog, &Options::default());
    report.unwrap();
    assert_eq!(
        fixture.journal(),
        [
            "create config",
            "create other",
            "create service",
            "refresh service",
            "create page",
            "refresh watcher"
        ]
    );
    assert!(
        lines.contains(
            &"Notice: /Stage[main]/Main/Record[service]: Triggered 'refresh' from 2 events"
                .to_string()
        ),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"Notice: /Stage[main]/Main/Record[watcher]: Triggered 'refresh' from 1 event"
                .to_string()
        ),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("Record[quiet]")),
        "{lines:?}"
    );
}

#[test]
fn noop_changes_nothing_and_reports_what_would_happen() {
    let fixture = Fixture::new();
    let catalog = build(vec![
        main_record(
            "config",
            json!({"ensure": "present", "notify": "Record[service]"}),
        ),
        main_record("service", json!({})),
    ]);
    let options = Options {
        noop: true,
        ..Options::default()
    };
    let (report, lines) = fixture.apply(&catalog, &options);
    let report = report.unwrap();
    assert!(fixture.journal().is_empty());
    assert_eq!(fixture.record("config"), None);
    assert_eq!(
        lines,
        [
            "Notice: /Stage[main]/Main/Record[config]/ensure: current_value 'absent', should be 'present' (noop)",
            "Notice: /Stage[main]/Main/Record[service]: Would have triggered 'refresh' from 1 event",
            "Notice: Class[Main]: Would have triggered 'refresh' from 2 events",
            "Notice: Stage[main]: Would have triggered 'refresh' from 1 event",
        ]
    );
    assert!(report.noop_pending);
    assert_eq!(report.counts.events_noop, 1);
    assert_eq!(report.status, "unchanged");

    // A resource's own noop metaparameter has the same effect.
    let own = build(vec![main_record(
        "config",
        json!({"ensure": "present", "noop": true}),
    )]);
    let (_, lines) = fixture.apply(&own, &Options::default());
    assert_eq!(
        lines[0],
        "Notice: /Stage[main]/Main/Record[config]/ensure: current_value 'absent', should be 'present' (noop)"
    );
    assert!(fixture.journal().is_empty());
}

#[test]
fn a_resource_passes_on_its_own_events_and_then_its_refresh() {
    // As Puppet's event manager: a resource that changed and was refreshed
    // sends its changes' events and then one for the refresh (`restarted`,
    // or `noop_restart` in noop), so a subscriber or a class counts both.
    let records = || {
        build(vec![
            main_record(
                "config",
                json!({"ensure": "present", "notify": "Record[service]"}),
            ),
            main_record("service", json!({"value": "2"})),
            main_record("watcher", json!({"subscribe": "Record[service]"})),
        ])
    };
    let fixture = Fixture::new();
    fs::write(fixture.dir.path().join("records/service"), "1").unwrap();
    let (report, lines) = fixture.apply(&records(), &Options::default());
    report.unwrap();
    assert_eq!(
        fixture.journal(),
        [
            "create config",
            "set service value=2",
            "refresh service",
            "refresh watcher"
        ]
    );
    assert!(
        lines.contains(
            &"Notice: /Stage[main]/Main/Record[watcher]: Triggered 'refresh' from 2 events"
                .to_string()
        ),
        "{lines:?}"
    );

    let fixture = Fixture::new();
    fs::write(fixture.dir.path().join("records/service"), "1").unwrap();
    let options = Options {
        noop: true,
        ..Options::default()
    };
    let (report, lines) = fixture.apply(&records(), &options);
    report.unwrap();
    assert!(fixture.journal().is_empty());
    assert_eq!(
        lines,
        [
            "Notice: /Stage[main]/Main/Record[config]/ensure: current_value 'absent', should be 'present' (noop)",
            "Notice: /Stage[main]/Main/Record[service]/value: current_value '1', should be '2' (noop)",
            "Notice: /Stage[main]/Main/Record[service]: Would have triggered 'refresh' from 1 event",
            "Notice: /Stage[main]/Main/Record[watcher]: Would have triggered 'refresh' from 2 events",
            // config, service's change and its refresh, watcher's refresh.
            "Notice: Class[Main]: Would have triggered 'refresh' from 4 events",
            "Notice: Stage[main]: Would have triggered 'refresh' from 1 event",
        ]
    );
}

#[test]
fn a_refresh_counts_the_noop_events_it_received_with_the_real_ones() {
    let fixture = Fixture::new();
    let catalog = build(vec![
        main_record(
            "real",
            json!({"ensure": "present", "notify": "Record[service]"}),
        ),
        main_record(
            "held",
            json!({"ensure": "present", "noop": true, "notify": "Record[service]"}),
        ),
        main_record("service", json!({})),
    ]);
    let (report, lines) = fixture.apply(&catalog, &Options::default());
    report.unwrap();
    assert_eq!(fixture.journal(), ["create real", "refresh service"]);
    assert!(
        lines.contains(
            &"Notice: /Stage[main]/Main/Record[service]: Triggered 'refresh' from 2 events"
                .to_string()
        ),
        "{lines:?}"
    );
}

#[test]
fn a_type_that_refreshes_itself_receives_its_own_events() {
    let volumes = || {
        catalog(
            &[],
            &[
                ("Class[main]", "Volume", "new", json!({"ensure": "present"})),
                ("Class[main]", "Volume", "changed", json!({"value": "2"})),
                ("Class[main]", "Volume", "gone", json!({"ensure": "absent"})),
                ("Class[main]", "Volume", "kept", json!({"value": "1"})),
                // A refreshable type that does not refresh itself is
                // refreshed only by what it subscribes to.
                (
                    "Class[main]",
                    "Record",
                    "plain",
                    json!({"ensure": "present"}),
                ),
            ],
        )
    };
    let existing = |fixture: &Fixture| {
        for name in ["changed", "gone", "kept"] {
            fs::write(fixture.dir.path().join("records").join(name), "1").unwrap();
        }
    };
    let fixture = Fixture::new();
    existing(&fixture);
    let (report, lines) = fixture.apply(&volumes(), &Options::default());
    let report = report.unwrap();
    assert_eq!(
        fixture.journal(),
        [
            "create new",
            "refresh new",
            "set changed value=2",
            "refresh changed",
            // Being removed, it is not refreshed.
            "destroy gone",
            "create plain"
        ]
    );
    assert_eq!(
        lines,
        [
            "Notice: /Stage[main]/Main/Volume[new]/ensure: created",
            "Notice: /Stage[main]/Main/Volume[new]: Triggered 'refresh' from 1 event",
            "Notice: /Stage[main]/Main/Volume[changed]/value: value changed '1' to '2'",
            "Notice: /Stage[main]/Main/Volume[changed]: Triggered 'refresh' from 1 event",
            "Notice: /Stage[main]/Main/Volume[gone]/ensure: removed",
            "Notice: /Stage[main]/Main/Record[plain]/ensure: created",
        ]
    );
    assert_eq!(report.counts.restarted, 2);

    // In noop each says it would have, and passes that on too.
    let fixture = Fixture::new();
    existing(&fixture);
    let options = Options {
        noop: true,
        ..Options::default()
    };
    let (report, lines) = fixture.apply(&volumes(), &options);
    report.unwrap();
    assert!(fixture.journal().is_empty());
    assert_eq!(
        lines,
        [
            "Notice: /Stage[main]/Main/Volume[new]/ensure: current_value 'absent', should be 'present' (noop)",
            "Notice: /Stage[main]/Main/Volume[new]: Would have triggered 'refresh' from 1 event",
            "Notice: /Stage[main]/Main/Volume[changed]/value: current_value '1', should be '2' (noop)",
            "Notice: /Stage[main]/Main/Volume[changed]: Would have triggered 'refresh' from 1 event",
            "Notice: /Stage[main]/Main/Volume[gone]/ensure: current_value 'present', should be 'absent' (noop)",
            "Notice: /Stage[main]/Main/Record[plain]/ensure: current_value 'absent', should be 'present' (noop)",
            // 2 + 2 + 1 + 1.
            "Notice: Class[Main]: Would have triggered 'refresh' from 6 events",
            "Notice: Stage[main]: Would have triggered 'refresh' from 1 event",
        ]
    );
}

#[test]
fn deferred_changes_are_applied_once_at_the_end_and_their_failures_reported() {
    let fixture = Fixture::new();
    let catalog = build(vec![
        main_record("a", json!({"ensure": "present", "late": true})),
        main_record("b", json!({"ensure": "present", "require": "Record[a]"})),
    ]);
    let (report, lines) = fixture.apply(&catalog, &Options::default());
    let report = report.unwrap();
    // Once, after every resource: b was applied before a's change failed.
    assert_eq!(
        fixture.journal(),
        ["create a", "create b", "post_resource_eval"]
    );
    assert_eq!(
        lines,
        [
            "Notice: /Stage[main]/Main/Record[a]/ensure: created",
            "Notice: /Stage[main]/Main/Record[b]/ensure: created",
            "Error: /Stage[main]/Main/Record[a]: Could not apply the deferred change: the batch was refused",
        ]
    );
    assert_eq!(report.status, "failed");
    let a = &report.resource_statuses["Record[a]"];
    assert!(a.failed && !a.changed);
    assert_eq!(a.change_count, 0);
    assert_eq!(a.events[0].status, "failure");
    assert_eq!(
        a.events[0].message,
        "created (not applied: the batch was refused)"
    );
    assert!(report.resource_statuses["Record[b]"].changed);
    assert_eq!(
        (
            report.counts.failed,
            report.counts.changed,
            report.counts.changes
        ),
        (1, 1, 1)
    );
    assert_eq!(
        (report.counts.events_success, report.counts.events_failure),
        (1, 1)
    );

    // In noop nothing is deferred, so nothing fails at the end.
    let fixture = Fixture::new();
    let options = Options {
        noop: true,
        ..Options::default()
    };
    let (report, _) = fixture.apply(&catalog, &options);
    assert_eq!(report.unwrap().status, "unchanged");
    assert!(fixture.journal().is_empty());
}

#[test]
fn tags_select_resources() {
    let fixture = Fixture::new();
    let catalog = build(vec![
        main_record("a", json!({"ensure": "present"})),
        main_record("b", json!({"ensure": "present"})),
    ]);
    let options = Options {
        tags: vec!["b".into()],
        ..Options::default()
    };
    fixture.apply(&catalog, &options).0.unwrap();
    assert_eq!(fixture.journal(), ["create b"]);
    let skip = Options {
        skip_tags: vec!["b".into()],
        ..Options::default()
    };
    fixture.apply(&catalog, &skip).0.unwrap();
    assert_eq!(fixture.journal(), ["create b", "create a"]);
}

#[test]
fn a_cycle_is_printed_whole_and_nothing_is_applied() {
    let fixture = Fixture::new();
    let catalog = build(vec![
        main_record("a", json!({"ensure": "present", "require": "Record[b]"})),
        main_record("b", json!({"ensure": "present", "require": "Record[c]"})),
        main_record("c", json!({"ensure": "present", "require": "Record[a]"})),
        main_record("d", json!({"ensure": "present"})),
    ]);
    let error = fixture.apply(&catalog, &Options::default()).0.unwrap_err();
    assert_eq!(
        error.to_string(),
        "Found 1 dependency cycle:\n(Record[a] => Record[c] => Record[b] => Record[a])\nTry the '--graph' option and opening the resulting '.dot' file in OmniGraffle or GraphViz"
    );
    assert_eq!(
        error.summary(),
        "Failed to apply catalog: One or more resource dependency cycles detected in graph"
    );
    assert!(fixture.journal().is_empty());
}

#[test]
fn invalid_resources_and_pre_run_checks_stop_the_run_before_any_change() {
    let fixture = Fixture::new();
    let invalid = build(vec![
        main_record("a", json!({"ensure": "present"})),
        main_record("b", json!({"ensure": "sideways"})),
        main_record("c", json!({"colour": "red"})),
    ]);
    let error = fixture.apply(&invalid, &Options::default()).0.unwrap_err();
    assert_eq!(
        error.to_string(),
        "Parameter ensure failed on Record[b]: Invalid value \"sideways\". Valid values are present, absent. (file: /etc/site.pp, line: 1)\n\
         Record[c]: no parameter named 'colour' (file: /etc/site.pp, line: 1)"
    );
    let guarded = build(vec![
        main_record("a", json!({"ensure": "present"})),
        main_record("b", json!({"guard": "stop"})),
        main_record("c", json!({"guard": "stop"})),
    ]);
    let error = fixture.apply(&guarded, &Options::default()).0.unwrap_err();
    assert_eq!(error.to_string().lines().count(), 2);
    assert!(
        error
            .to_string()
            .starts_with("/Stage[main]/Main/Record[b]: the guard says stop")
    );
    let missing = build(vec![main_record("a", json!({"require": "Record[ghost]"}))]);
    let error = fixture.apply(&missing, &Options::default()).0.unwrap_err();
    assert_eq!(
        error.to_string(),
        "Could not find dependency Record[ghost] for Record[a] (file: /etc/site.pp, line: 1)"
    );
    let unknown = build(vec![("Class[main]", "Gadget", "x".into(), json!({}))]);
    let error = fixture.apply(&unknown, &Options::default()).0.unwrap_err();
    assert_eq!(error.to_string(), "Unknown resource type: 'gadget'");
    assert!(fixture.journal().is_empty());
}

#[test]
fn the_report_has_puppets_shape() {
    let fixture = Fixture::new();
    let catalog = build(vec![main_record(
        "a",
        json!({"ensure": "present", "value": "v"}),
    )]);
    let report = fixture.apply(&catalog, &Options::default()).0.unwrap();
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["report_format"], 12);
    assert_eq!(json["status"], "changed");
    let status = &json["resource_statuses"]["Record[a]"];
    assert_eq!(
        status["containment_path"],
        json!(["Stage[main]", "Main", "Record[a]"])
    );
    assert_eq!(status["events"][0]["property"], "ensure");
    assert_eq!(status["events"][0]["status"], "success");
    assert_eq!(status["provider_used"], "files");
    let resources = &json["metrics"]["resources"]["values"];
    assert!(
        resources
            .as_array()
            .unwrap()
            .contains(&json!(["changed", "Changed", 1]))
    );
    assert!(
        resources
            .as_array()
            .unwrap()
            .contains(&json!(["total", "Total", 1]))
    );
    assert_eq!(json["logs"][0]["message"], "created");
    assert_eq!(
        json["logs"][0]["source"],
        "/Stage[main]/Main/Record[a]/ensure"
    );
    let summary = report.summary_yaml("user");
    assert!(
        summary.starts_with("---\nversion:\n  config: 1\n"),
        "{summary}"
    );
    assert!(
        summary.contains("\nresources:\n  changed: 1\n"),
        "{summary}"
    );
    assert!(
        summary.contains("\nevents:\n  failure: 0\n  success: 1\n  total: 1\n"),
        "{summary}"
    );
}

#[test]
fn resources_purges_what_the_catalog_does_not_manage() {
    let fixture = Fixture::new();
    for name in ["kept", "stray1", "stray2"] {
        fs::write(fixture.dir.path().join("records").join(name), "old").unwrap();
    }
    let catalog = build(vec![
        main_record("kept", json!({"ensure": "present", "value": "old"})),
        (
            "Class[main]",
            "Resources",
            "record".into(),
            json!({"purge": true}),
        ),
    ]);
    let (rehearsal, lines) = fixture.apply(
        &catalog,
        &Options {
            noop: true,
            ..Options::default()
        },
    );
    rehearsal.unwrap();
    assert!(fixture.journal().is_empty());
    assert!(lines.contains(&"Notice: /Stage[main]/Main/Record[stray1]/ensure: current_value 'present', should be 'absent' (noop)".to_string()), "{lines:?}");
    let (report, lines) = fixture.apply(&catalog, &Options::default());
    report.unwrap();
    assert_eq!(fixture.journal(), ["destroy stray1", "destroy stray2"]);
    assert_eq!(
        lines,
        [
            "Notice: /Stage[main]/Main/Record[stray1]/ensure: removed",
            "Notice: /Stage[main]/Main/Record[stray2]/ensure: removed",
        ]
    );
    assert_eq!(fixture.record("kept").as_deref(), Some("old"));
    // The generator's noop passes to what it generates.
    fs::write(fixture.dir.path().join("records").join("stray3"), "old").unwrap();
    let careful = build(vec![(
        "Class[main]",
        "Resources",
        "record".into(),
        json!({"purge": true, "noop": true}),
    )]);
    fixture.apply(&careful, &Options::default()).0.unwrap();
    assert_eq!(fixture.record("stray3").as_deref(), Some("old"));
    // A type that cannot be listed cannot be purged.
    let notify = build(vec![(
        "Class[main]",
        "Resources",
        "notify".into(),
        json!({"purge": true}),
    )]);
    let error = fixture.apply(&notify, &Options::default()).0.unwrap_err();
    assert!(
        error
            .to_string()
            .contains("Purging is only supported on types that accept 'ensure => absent'"),
        "{error}"
    );
}

/// A mount comes before the files below its mount point (mount_core's
/// `autobefore(:file)`), and not before a file beside it whose path only
/// starts with the same letters.
#[test]
fn a_mount_comes_before_the_files_below_it() {
    let mut registry = marionette_types::registry();
    let (.., register, _) = marionette_types::MODULE_TYPES
        .iter()
        .find(|(name, ..)| *name == "mount")
        .expect("mount is a module type");
    register(&mut registry).expect("mount registers");
    let catalog = catalog(
        &[],
        &[
            (
                "Class[main]",
                "File",
                "/srv/mrtest/data",
                json!({"ensure": "file"}),
            ),
            (
                "Class[main]",
                "File",
                "/srv/mrtest-other",
                json!({"ensure": "file"}),
            ),
            (
                "Class[main]",
                "File",
                "/srv",
                json!({"ensure": "directory"}),
            ),
            (
                "Class[main]",
                "Mount",
                "/srv/mrtest",
                json!({"ensure": "defined", "device": "tmpfs", "fstype": "tmpfs"}),
            ),
        ],
    );
    let dot = marionette_transaction::apply::graph_dot(&catalog, &registry).unwrap();
    let node = |label: &str| {
        dot.lines()
            .find(|l| l.contains(&format!("[label = \"{label}\"")))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_else(|| panic!("{label} in\n{dot}"))
    };
    let edge = |from: &str, to: &str| dot.contains(&format!("  {} -> {};", node(from), node(to)));
    assert!(
        edge("Mount[/srv/mrtest]", "File[/srv/mrtest/data]"),
        "{dot}"
    );
    assert!(
        !edge("Mount[/srv/mrtest]", "File[/srv/mrtest-other]"),
        "{dot}"
    );
    assert!(!edge("Mount[/srv/mrtest]", "File[/srv]"), "{dot}");
}
