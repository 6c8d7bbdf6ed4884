//! The framework's rules beyond the seed examples: lazy suitability and
//! selection, read-only and create-only properties, sensitive values,
//! metaparameters, pre-run checks, self-refresh, instances deduplicated by
//! source, and per-environment registries.

use std::fs;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use marionette_ral::{
    AttrDef, Confine, Context, EventStatus, Instance, Level, Logger, Origin, PropertyHash,
    PropertyProvider, ProviderDef, ProviderError, RalError, Registry, Resource, Session, TypeDef,
};
use marionette_values::Value;

fn s(text: &str) -> Value {
    Value::String(text.into())
}

fn facts(pairs: &[(&str, &str)]) -> Arc<marionette_ral::Facts> {
    Arc::new(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())))
            .collect(),
    )
}

fn build(
    registry: &Registry,
    type_name: &str,
    title: &str,
    attrs: &[(&str, Value)],
) -> Result<Resource, RalError> {
    Resource::new(
        registry.type_def(type_name).unwrap().clone(),
        title,
        attrs.iter().map(|(k, v)| (k.to_string(), v.clone())),
        Origin::default(),
    )
}

/// Remembers every call, and keeps one thing in memory.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<String>>,
    state: Mutex<PropertyHash>,
    /// The property hash each refresh was given.
    refreshed_with: Mutex<Vec<PropertyHash>>,
}

/// A provider over a shared recorder, so tests can look at it.
struct Rec(Arc<Recorder>);

impl PropertyProvider for Rec {
    fn instances(&self, _cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        self.0.calls.lock().unwrap().push("instances".into());
        let state = self.0.state.lock().unwrap().clone();
        Ok(if state.is_empty() {
            vec![]
        } else {
            vec![state]
        })
    }

    fn create(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        self.0.calls.lock().unwrap().push("create".into());
        let mut state = PropertyHash::from([
            ("name".to_string(), s(&instance.resource.name())),
            ("ensure".to_string(), s("present")),
        ]);
        for (attr, value) in instance.resource.managed_properties() {
            if attr.name != "ensure" {
                state.insert(attr.name.clone(), value.clone());
            }
        }
        *self.0.state.lock().unwrap() = state;
        Ok(())
    }

    fn set(
        &self,
        _cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        self.0.calls.lock().unwrap().push(format!("set {attr}"));
        // As a prefetching provider records a change for its flush.
        instance
            .property_hash
            .insert(attr.to_string(), value.clone());
        self.0
            .state
            .lock()
            .unwrap()
            .insert(attr.to_string(), value.clone());
        Ok(())
    }

    fn flush(&self, _cx: &Context, _instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        self.0.calls.lock().unwrap().push("flush".into());
        Ok(())
    }

    fn refresh(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        self.0.calls.lock().unwrap().push("refresh".into());
        self.0
            .refreshed_with
            .lock()
            .unwrap()
            .push(instance.property_hash.clone());
        Ok(())
    }
}

fn account_type() -> TypeDef {
    TypeDef::new("account")
        .ensurable()
        .attr(AttrDef::param("name"))
        .attr(AttrDef::create_only("uid"))
        .attr(AttrDef::property("shell"))
        .attr(AttrDef::property("password").sensitive())
        .attr(AttrDef::read_only("last_login"))
        .self_refresh()
}

fn account_registry(recorder: &Arc<Recorder>) -> Arc<Registry> {
    let mut registry = Registry::new();
    registry.add_type(account_type()).unwrap();
    registry
        .add_provider(ProviderDef::properties(
            "account",
            "memory",
            Rec(recorder.clone()),
        ))
        .unwrap();
    Arc::new(registry)
}

#[test]
fn ensure_defaults_to_present_only_where_present_is_a_value() {
    // A service's `ensure` is `running` or `stopped`: managing whether it
    // starts at boot must not make it `present`.
    let mut registry = Registry::new();
    registry
        .add_type(
            TypeDef::new("daemon")
                .ensurable()
                .ensure_values(|_| AttrDef::property("ensure").values(&["stopped", "running"]))
                .attr(AttrDef::param("name"))
                .attr(AttrDef::property("enable").values(&["true", "false"])),
        )
        .unwrap();
    let daemon = build(&registry, "daemon", "sshd", &[("enable", s("true"))]).unwrap();
    assert_eq!(daemon.get("ensure"), None);
    assert_eq!(daemon.get("enable"), Some(&s("true")));
}

#[test]
fn ensure_alone_is_synced_when_out_of_sync_then_properties_in_order() {
    let recorder = Arc::new(Recorder::default());
    let registry = account_registry(&recorder);
    let account = build(
        &registry,
        "account",
        "alice",
        &[("uid", Value::Integer(1001)), ("shell", s("/bin/sh"))],
    )
    .unwrap();
    // A managed property implies ensure => present.
    assert_eq!(account.get("ensure"), Some(&s("present")));
    let mut session = Session::new(registry.clone(), Arc::default(), Logger::default());
    let outcome = session.evaluate(&account, false);
    assert_eq!(outcome.events.len(), 1, "{outcome:?}");
    assert_eq!(outcome.events[0].message, "created");
    assert_eq!(
        *recorder.calls.lock().unwrap(),
        ["instances", "create", "flush"]
    );

    recorder.calls.lock().unwrap().clear();
    let changed = build(
        &registry,
        "account",
        "alice",
        &[("uid", Value::Integer(1001)), ("shell", s("/bin/bash"))],
    )
    .unwrap();
    let mut session = Session::new(registry.clone(), Arc::default(), Logger::default());
    let outcome = session.evaluate(&changed, false);
    assert_eq!(
        outcome.events[0].message,
        "shell changed '/bin/sh' to '/bin/bash'"
    );
    // A type that refreshes itself is refreshed by the transaction, which
    // counts the resource's own events as it counts its subscriptions'.
    assert_eq!(
        *recorder.calls.lock().unwrap(),
        ["instances", "set shell", "flush"]
    );
    // That refresh sees the property hash the evaluation left (a mount
    // just mounted is remounted), not the one prefetched nor none.
    session.refresh(&changed).unwrap();
    let refreshed_with = recorder.refreshed_with.lock().unwrap();
    assert_eq!(
        refreshed_with[0].get("shell"),
        Some(&s("/bin/bash")),
        "{refreshed_with:?}"
    );
}

#[test]
fn create_only_properties_refuse_to_change_an_existing_thing() {
    let recorder = Arc::new(Recorder::default());
    let registry = account_registry(&recorder);
    let first = build(
        &registry,
        "account",
        "alice",
        &[("uid", Value::Integer(1001))],
    )
    .unwrap();
    Session::new(registry.clone(), Arc::default(), Logger::default()).evaluate(&first, false);
    let second = build(
        &registry,
        "account",
        "alice",
        &[("uid", Value::Integer(1002))],
    )
    .unwrap();
    let outcome =
        Session::new(registry.clone(), Arc::default(), Logger::default()).evaluate(&second, false);
    assert_eq!(
        outcome.failed.as_deref(),
        Some("uid cannot be changed after creation (is 1001, should be 1002)")
    );
}

#[test]
fn read_only_properties_cannot_be_set() {
    let registry = account_registry(&Arc::new(Recorder::default()));
    let error = build(&registry, "account", "alice", &[("last_login", s("now"))]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Parameter last_login failed on Account[alice]: is read-only and cannot be set"
    );
}

#[test]
fn sensitive_values_are_never_shown() {
    let recorder = Arc::new(Recorder::default());
    let registry = account_registry(&recorder);
    let first = build(
        &registry,
        "account",
        "alice",
        &[("password", s("old-secret"))],
    )
    .unwrap();
    Session::new(registry.clone(), Arc::default(), Logger::default()).evaluate(&first, false);
    let second = build(
        &registry,
        "account",
        "alice",
        &[("password", s("new-secret"))],
    )
    .unwrap();
    for noop in [true, false] {
        let outcome = Session::new(registry.clone(), Arc::default(), Logger::default())
            .evaluate(&second, noop);
        let text = format!(
            "{:?}",
            outcome
                .events
                .iter()
                .map(|e| &e.message)
                .collect::<Vec<_>>()
        );
        assert!(!text.contains("secret"), "{text}");
        assert!(text.contains("[redacted]"), "{text}");
    }
}

#[test]
fn values_given_as_sensitive_are_redacted_even_for_plain_attributes() {
    let recorder = Arc::new(Recorder::default());
    let registry = account_registry(&recorder);
    let first = build(&registry, "account", "alice", &[("shell", s("/bin/sh"))]).unwrap();
    Session::new(registry.clone(), Arc::default(), Logger::default()).evaluate(&first, false);
    let hidden = Value::Sensitive(Box::new(s("/opt/secret-shell")));
    let second = build(&registry, "account", "alice", &[("shell", hidden)]).unwrap();
    for noop in [true, false] {
        let outcome = Session::new(registry.clone(), Arc::default(), Logger::default())
            .evaluate(&second, noop);
        let messages: Vec<&str> = outcome.events.iter().map(|e| e.message.as_str()).collect();
        let text = messages.join("\n");
        assert_eq!(messages.len(), 1, "{text}");
        assert!(!text.contains("secret"), "{text}");
        assert!(text.contains("[redacted]"), "{text}");
    }
}

#[test]
fn a_missing_thing_whose_ensure_is_in_sync_has_nothing_to_manage() {
    // A type may accept a missing thing as in sync (a file given only a
    // mode is not created); its properties are then left alone.
    let recorder = Arc::new(Recorder::default());
    let mut registry = Registry::new();
    registry
        .add_type(
            account_type()
                .ensure_values(|ensure| ensure.insync(|_, _, _| true))
                .validate(|_| Ok(())),
        )
        .unwrap();
    registry
        .add_provider(ProviderDef::properties(
            "account",
            "memory",
            Rec(recorder.clone()),
        ))
        .unwrap();
    let registry = Arc::new(registry);
    let account = build(&registry, "account", "ghost", &[("shell", s("/bin/sh"))]).unwrap();
    let outcome =
        Session::new(registry.clone(), Arc::default(), Logger::default()).evaluate(&account, false);
    assert_eq!(outcome.failed, None);
    assert!(outcome.events.is_empty(), "{outcome:?}");
    assert_eq!(*recorder.calls.lock().unwrap(), ["instances"]);
}

#[test]
fn noop_metaparameter_changes_nothing() {
    let recorder = Arc::new(Recorder::default());
    let registry = account_registry(&recorder);
    let account = build(
        &registry,
        "account",
        "bob",
        &[("ensure", s("present")), ("noop", Value::Boolean(true))],
    )
    .unwrap();
    let outcome =
        Session::new(registry.clone(), Arc::default(), Logger::default()).evaluate(&account, false);
    assert_eq!(outcome.events[0].status, EventStatus::Noop);
    assert_eq!(
        outcome.events[0].message,
        "current_value 'absent', should be 'present' (noop)"
    );
    assert!(recorder.state.lock().unwrap().is_empty());
    let bad = build(&registry, "account", "bob", &[("noop", s("perhaps"))]).unwrap_err();
    assert_eq!(
        bad.to_string(),
        "Parameter noop failed on Account[bob]: Invalid value \"perhaps\". Valid values are true, false."
    );
    let unknown = build(&registry, "account", "bob", &[("colour", s("red"))]).unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "Account[bob]: no parameter named 'colour'"
    );
}

#[test]
fn pre_run_checks_report_every_failure_together() {
    let mut registry = Registry::new();
    registry
        .add_type(
            TypeDef::new("guarded")
                .attr(AttrDef::param("name"))
                .pre_run_check(|r| {
                    if r.name().starts_with("bad") {
                        Err("not ready".into())
                    } else {
                        Ok(())
                    }
                }),
        )
        .unwrap();
    let resources: Vec<Resource> = ["bad1", "good", "bad2"]
        .iter()
        .map(|t| build(&registry, "guarded", t, &[]).unwrap())
        .collect();
    let errors = Session::pre_run_checks(&resources);
    let texts: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        texts,
        ["Guarded[bad1]: not ready", "Guarded[bad2]: not ready"]
    );
}

struct Nothing;
impl PropertyProvider for Nothing {}

#[test]
fn suitability_is_lazy_rechecked_after_a_change_and_explained() {
    let dir = tempfile::tempdir().unwrap();
    let marker: PathBuf = dir.path().join("installed");
    let mut registry = Registry::new();
    registry
        .add_type(TypeDef::new("widget").attr(AttrDef::param("name")))
        .unwrap();
    registry
        .add_provider(
            ProviderDef::properties("widget", "needs_file", Nothing)
                .confine(Confine::Exists(marker.clone())),
        )
        .unwrap();
    registry
        .add_provider(
            ProviderDef::properties("widget", "needs_command", Nothing)
                .command("tool", "mrtest-missing-tool"),
        )
        .unwrap();
    registry
        .add_provider(
            ProviderDef::properties("widget", "redhat_only", Nothing)
                .confine_fact("osfamily", &["RedHat"]),
        )
        .unwrap();
    let logged = Arc::new(Mutex::new(Vec::new()));
    let sink = logged.clone();
    let logger = Logger::with_sink(move |entry| {
        sink.lock()
            .unwrap()
            .push((entry.level, entry.message.clone()))
    });
    let session = Session::new(Arc::new(registry), facts(&[("osfamily", "Debian")]), logger);
    let error = session.selector().default_provider("widget").unwrap_err();
    let marker_text = marker.display().to_string();
    assert_eq!(
        error.to_string(),
        format!(
            "Could not find a suitable provider for widget: needs_file (file {marker_text} does not exist); \
             needs_command (command tool is missing (mrtest-missing-tool not found)); \
             redhat_only (fact osfamily is 'Debian', not RedHat)"
        )
    );
    assert!(logged.lock().unwrap().iter().any(|(level, message)| *level == Level::Debug
        && message == &format!("Provider needs_file is not functional on this host: file {marker_text} does not exist")));

    // The verdict is cached until the run changes the system.
    fs::write(&marker, "").unwrap();
    assert!(session.selector().default_provider("widget").is_err());
    session.selector().invalidate();
    assert_eq!(
        session.selector().default_provider("widget").unwrap().name,
        "needs_file"
    );
}

#[test]
fn defaults_follow_the_facts_case_insensitively_and_the_most_specific_wins() {
    let mut registry = Registry::new();
    registry
        .add_type(TypeDef::new("pkg").attr(AttrDef::param("name")))
        .unwrap();
    registry
        .add_provider(ProviderDef::properties("pkg", "generic", Nothing))
        .unwrap();
    registry
        .add_provider(
            ProviderDef::properties("pkg", "debianish", Nothing)
                .defaultfor(&[("osfamily", &["debian"])]),
        )
        .unwrap();
    registry
        .add_provider(
            ProviderDef::properties("pkg", "bookworm", Nothing)
                .defaultfor(&[("osfamily", &["debian"]), ("os.release.major", &["12"])]),
        )
        .unwrap();
    let registry = Arc::new(registry);
    let pick = |facts_json: serde_json::Value| {
        let facts = Arc::new(facts_json.as_object().unwrap().clone());
        Session::new(registry.clone(), facts, Logger::default())
            .selector()
            .default_provider("pkg")
            .unwrap()
            .name
            .clone()
    };
    assert_eq!(
        pick(serde_json::json!({"osfamily": "Debian", "os": {"release": {"major": "12"}}})),
        "bookworm"
    );
    assert_eq!(
        pick(serde_json::json!({"osfamily": "Debian", "os": {"release": {"major": "11"}}})),
        "debianish"
    );
    assert_eq!(pick(serde_json::json!({"osfamily": "RedHat"})), "generic");

    let session = Session::new(registry.clone(), Arc::default(), Logger::default());
    let asked = build(&registry, "pkg", "x", &[("provider", s("yum"))]).unwrap();
    assert_eq!(
        session.selector().select(&asked).unwrap_err().to_string(),
        "Invalid provider 'yum' for Pkg[x]: no such provider; pkg has bookworm, debianish, generic"
    );
}

#[test]
fn instances_ask_one_provider_per_source() {
    let recorder = Arc::new(Recorder::default());
    *recorder.state.lock().unwrap() = PropertyHash::from([
        ("name".to_string(), s("alice")),
        ("ensure".to_string(), s("present")),
    ]);
    let mut registry = Registry::new();
    registry.add_type(account_type()).unwrap();
    let parent = ProviderDef::properties("account", "base", Rec(recorder.clone()));
    let child = ProviderDef::child_of(
        &parent,
        "extended",
        marionette_ral::Implementation::Properties(Arc::new(Rec(recorder.clone()))),
    )
    .defaultfor(&[("osfamily", &["Debian"])]);
    assert_eq!(child.parent.as_deref(), Some("base"));
    assert_eq!(child.source, "base");
    registry.add_provider(parent).unwrap();
    registry.add_provider(child).unwrap();
    let registry = Arc::new(registry);
    let session = Session::new(registry.clone(), Arc::default(), Logger::default());
    let found = session.instances("account").unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0.name, "base");
    assert_eq!(*recorder.calls.lock().unwrap(), ["instances"]);
    // Where the child is the default, the shared source lists under it,
    // though the parent was declared first (Puppet asks the default
    // provider first).
    let session = Session::new(
        registry,
        facts(&[("osfamily", "Debian")]),
        Logger::default(),
    );
    let found = session.instances("account").unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0.name, "extended");
}

#[test]
fn registries_are_per_environment() {
    let mut production = Registry::new();
    production
        .add_type(TypeDef::new("app").attr(AttrDef::param("name")))
        .unwrap();
    let mut testing = production.clone();
    testing
        .add_type(
            TypeDef::new("app")
                .attr(AttrDef::param("name"))
                .attr(AttrDef::param("version")),
        )
        .unwrap();
    assert!(build(&testing, "app", "x", &[("version", s("2"))]).is_ok());
    assert!(build(&production, "app", "x", &[("version", s("2"))]).is_err());
}

#[test]
fn malformed_definitions_are_refused() {
    let mut registry = Registry::new();
    let no_namevar = registry.add_type(TypeDef::new("broken").attr(AttrDef::param("x")));
    assert!(
        no_namevar
            .unwrap_err()
            .to_string()
            .contains("has no namevar")
    );
    let metaparam = registry.add_type(
        TypeDef::new("broken")
            .attr(AttrDef::param("name"))
            .attr(AttrDef::param("tag")),
    );
    assert!(
        metaparam
            .unwrap_err()
            .to_string()
            .contains("is a metaparameter")
    );
    let feature = registry.add_type(
        TypeDef::new("broken")
            .attr(AttrDef::param("name"))
            .attr(AttrDef::param("x").requires_features(&["fly"])),
    );
    assert!(
        feature
            .unwrap_err()
            .to_string()
            .contains("undeclared feature 'fly'")
    );
    let orphan = registry.add_provider(ProviderDef::properties("nosuchtype", "p", Nothing));
    assert!(
        orphan
            .unwrap_err()
            .to_string()
            .contains("unknown type nosuchtype")
    );
}

/// A type made on demand is made once, when first asked for; one that
/// cannot be made says why when required; a type added outright wins.
#[test]
fn types_made_on_demand_are_made_once_when_asked_for() {
    let mut registry = Registry::new();
    let made = Arc::new(Mutex::new(0));
    let count = made.clone();
    registry.add_type_loader(
        "Later",
        Arc::new(move || {
            *count.lock().unwrap() += 1;
            Ok(Arc::new(TypeDef::new("later").attr(AttrDef::param("name"))))
        }),
    );
    registry.add_type_loader("broken", Arc::new(|| Err("its Ruby raised".to_string())));
    registry.add_type_loader(
        "nameless",
        Arc::new(|| Ok(Arc::new(TypeDef::new("nameless").attr(AttrDef::param("x"))))),
    );
    assert_eq!(
        *made.lock().unwrap(),
        0,
        "nothing is made before it is asked for"
    );
    assert!(registry.type_def("later").is_some());
    assert!(registry.require_type("LATER").is_ok());
    assert_eq!(*made.lock().unwrap(), 1, "made once");
    let broken = registry.require_type("broken").unwrap_err().to_string();
    assert!(broken.contains("its Ruby raised"), "{broken}");
    assert!(registry.type_def("broken").is_none());
    let nameless = registry.require_type("nameless").unwrap_err().to_string();
    assert!(nameless.contains("has no namevar"), "{nameless}");
    let names: Vec<&str> = registry.types().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["later"]);
    registry
        .add_type(TypeDef::new("broken").attr(AttrDef::param("name")))
        .unwrap();
    assert!(
        registry.require_type("broken").is_ok(),
        "a type added outright wins"
    );
}

#[test]
fn ensure_extends_with_aliases_literals_and_patterns() {
    let mut registry = Registry::new();
    registry
        .add_type(
            TypeDef::new("pkg")
                .ensurable()
                .ensure_values(|ensure| {
                    ensure
                        .values(&["purged", "latest"])
                        .alias_value("installed", "present")
                        .pattern(r"\A\d")
                })
                .attr(AttrDef::param("name")),
        )
        .unwrap();
    let ensure = |value: &str| {
        build(&registry, "pkg", "vim", &[("ensure", s(value))])
            .map(|r| r.get("ensure").cloned())
            .map_err(|e| e.to_string())
    };
    assert_eq!(ensure("installed"), Ok(Some(s("present"))));
    assert_eq!(ensure("latest"), Ok(Some(s("latest"))));
    assert_eq!(ensure("2.1-3"), Ok(Some(s("2.1-3"))));
    assert_eq!(
        ensure("newest"),
        Err("Parameter ensure failed on Pkg[vim]: Invalid value \"newest\". Valid values are present, absent, purged, latest. Valid values match /\\A\\d/.".to_string())
    );
}

#[test]
fn custom_formats_and_messages_are_used_in_events() {
    let recorder = Arc::new(Recorder::default());
    let mut registry = Registry::new();
    registry
        .add_type(
            TypeDef::new("account")
                .ensurable()
                .attr(AttrDef::param("name"))
                .attr(
                    AttrDef::property("mode")
                        .format(|v| format!("<{}>", marionette_ral::attribute::value_text(v))),
                )
                .attr(AttrDef::property("shell").change_message(|_, is, should| {
                    format!(
                        "login shell now {} (was {})",
                        marionette_ral::attribute::value_text(should),
                        marionette_ral::attribute::value_text(is)
                    )
                })),
        )
        .unwrap();
    registry
        .add_provider(ProviderDef::properties(
            "account",
            "memory",
            Rec(recorder.clone()),
        ))
        .unwrap();
    let registry = Arc::new(registry);
    *recorder.state.lock().unwrap() = PropertyHash::from([
        ("name".to_string(), s("alice")),
        ("ensure".to_string(), s("present")),
        ("mode".to_string(), s("0600")),
        ("shell".to_string(), s("/bin/sh")),
    ]);
    let account = build(
        &registry,
        "account",
        "alice",
        &[("mode", s("0644")), ("shell", s("/bin/zsh"))],
    )
    .unwrap();
    let outcome =
        Session::new(registry.clone(), Arc::default(), Logger::default()).evaluate(&account, false);
    let messages: Vec<&str> = outcome.events.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "mode changed <0600> to <0644>",
            "login shell now /bin/zsh (was /bin/sh)"
        ]
    );
    let mut session = Session::new(registry, Arc::default(), Logger::default());
    session.refresh(&account).unwrap();
    assert_eq!(
        recorder.calls.lock().unwrap().last().map(String::as_str),
        Some("refresh")
    );
}

#[test]
fn catalog_resources_convert_with_their_location_and_sensitive_values() {
    let registry = account_registry(&Arc::new(Recorder::default()));
    let catalog: marionette_catalog::Resource = serde_json::from_value(serde_json::json!({
        "type": "Account", "title": "carol", "tags": [], "file": "/etc/site.pp", "line": 4, "exported": false,
        "parameters": {"password": "hunter2", "shell": "/bin/sh", "noop": "perhaps"},
        "sensitive_parameters": ["password"]
    }))
    .unwrap();
    let type_def = registry.type_def("account").unwrap().clone();
    let mut ok = catalog.clone();
    ok.parameters.remove("noop");
    let resource = Resource::from_catalog(type_def.clone(), &ok).unwrap();
    assert!(resource.is_sensitive("password"));
    assert_eq!(resource.get("password"), Some(&s("hunter2")));
    let error = Resource::from_catalog(type_def, &catalog).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Parameter noop failed on Account[carol]: Invalid value \"perhaps\". Valid values are true, false. (file: /etc/site.pp, line: 4)"
    );
}

/// A type whose checks are made elsewhere is told of all its catalog
/// resources at once (with the identity their titles give), checks them
/// together once built, and a refusal fails that resource alone, with
/// where it was declared; a resource built alone is checked alone.
#[test]
fn a_batch_checks_a_catalogs_resources_together() {
    /// A resource's title and the values it was declared with.
    type Declared = (String, Vec<(String, Value)>);
    #[derive(Default)]
    struct Counting {
        declared: Mutex<Vec<Vec<Declared>>>,
        checked: Mutex<Vec<Vec<String>>>,
    }
    impl marionette_ral::Batch for Counting {
        fn declared(&self, resources: &[(&str, Vec<(String, Value)>)]) {
            self.declared.lock().unwrap().push(
                resources
                    .iter()
                    .map(|(t, v)| (t.to_string(), v.clone()))
                    .collect(),
            );
        }
        fn check(&self, resources: &[&Resource], _: &[&Resource]) -> Vec<Result<(), String>> {
            self.checked
                .lock()
                .unwrap()
                .push(resources.iter().map(|r| r.title().to_string()).collect());
            resources
                .iter()
                .map(|r| match r.get("value") {
                    Some(Value::String(v)) if &**v == "bad" => Err("value is bad".to_string()),
                    _ => Ok(()),
                })
                .collect()
        }
    }
    let counting = Arc::new(Counting::default());
    let mut def = TypeDef::new("kv")
        .attr(AttrDef::param("key").namevar())
        .attr(AttrDef::property("value"));
    def.batch = Some(counting.clone());
    let def = Arc::new(def);
    let declare = |title: &str, value: &str, line: u32| -> marionette_catalog::Resource {
        serde_json::from_value(serde_json::json!({
            "type": "Kv", "title": title, "tags": [], "file": "/etc/site.pp", "line": line,
            "exported": false, "parameters": {"value": value, "noop": true}
        }))
        .unwrap()
    };
    let catalog = [
        declare("a", "1", 1),
        declare("b", "bad", 2),
        declare("c", "3", 3),
    ];
    let list: Vec<_> = catalog.iter().map(|r| (r, Ok(def.clone()))).collect();
    let built = Resource::from_catalog_all(&list);
    assert_eq!(
        *counting.declared.lock().unwrap(),
        [vec![
            (
                "a".into(),
                vec![("value".into(), s("1")), ("key".into(), s("a"))]
            ),
            (
                "b".into(),
                vec![("value".into(), s("bad")), ("key".into(), s("b"))]
            ),
            (
                "c".into(),
                vec![("value".into(), s("3")), ("key".into(), s("c"))]
            ),
        ]]
    );
    assert_eq!(*counting.checked.lock().unwrap(), [vec!["a", "b", "c"]]);
    assert!(built[0].is_ok() && built[2].is_ok());
    assert_eq!(
        built[1].as_ref().err().map(ToString::to_string).as_deref(),
        Some("Validation of Kv[b] failed: value is bad (file: /etc/site.pp, line: 2)")
    );
    let alone = Resource::from_catalog(def, &declare("d", "bad", 9)).unwrap_err();
    assert_eq!(
        alone.to_string(),
        "Validation of Kv[d] failed: value is bad (file: /etc/site.pp, line: 9)"
    );
    assert_eq!(counting.declared.lock().unwrap().len(), 1);
    assert_eq!(counting.checked.lock().unwrap().last().unwrap(), &["d"]);
}
