//! The examples of the seed documents, rebuilt with this framework: the
//! `database` type (validation, allowed values with a pattern, munging),
//! `coloring` (features), `dnszone`/`dnsrr` (prefetch/flush providers,
//! computed defaults, cross-attribute validation, autorequire) and
//! `dns_resource` (title patterns, defaults, a batch provider). Providers
//! keep their state in files in a temporary directory.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_ral::{
    AttrDef, AutoKind, Context, Crud, CrudProvider, EventStatus, Logger, Origin, PropertyHash,
    PropertyProvider, ProviderDef, ProviderError, RalError, Registry, Resource, Session, TypeDef,
};
use marionette_values::Value;

fn s(text: &str) -> Value {
    Value::String(text.into())
}

fn site(line: u32) -> Origin {
    Origin {
        file: Some("site.pp".into()),
        line: Some(line),
    }
}

fn params(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Reads `key=value` lines.
fn read_record(path: &Path) -> Option<PropertyHash> {
    let text = fs::read_to_string(path).ok()?;
    let mut hash = PropertyHash::new();
    for line in text.lines() {
        if let Some((key, value)) = line.split_once('=') {
            hash.insert(key.to_string(), s(value));
        }
    }
    Some(hash)
}

fn write_record(path: &Path, hash: &PropertyHash, skip: &[&str]) -> Result<(), ProviderError> {
    let mut text = String::new();
    for (key, value) in hash {
        if !skip.contains(&key.as_str()) {
            text.push_str(&format!(
                "{key}={}\n",
                marionette_ral::attribute::value_text(value)
            ));
        }
    }
    fs::write(path, text).map_err(ProviderError::from)
}

/// A prefetch/flush provider over one file per resource: `instances` lists
/// the directory, `flush` writes or removes the file. Getters, setters,
/// `exists`, `create` and `destroy` are the framework's defaults.
struct FileStore {
    dir: PathBuf,
}

impl PropertyProvider for FileStore {
    fn instances(&self, _cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let mut found = Vec::new();
        for entry in fs::read_dir(&self.dir)? {
            let path = entry?.path();
            if let Some(mut hash) = read_record(&path) {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                hash.shift_insert(0, "name".into(), s(&name));
                hash.insert("ensure".into(), s("present"));
                found.push(hash);
            }
        }
        Ok(found)
    }

    fn flush(
        &self,
        _cx: &Context,
        instance: &mut marionette_ral::Instance<'_>,
    ) -> Result<(), ProviderError> {
        let path = self.dir.join(instance.resource.name());
        if !instance.present_in_hash() {
            return match fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
                _ => Ok(()),
            };
        }
        // A created thing starts from the resource's desired values.
        let mut hash = instance.property_hash.clone();
        for (attr, value) in instance.resource.managed_properties() {
            hash.entry(attr.name.clone())
                .or_insert_with(|| value.clone());
        }
        write_record(&path, &hash, &["name", "ensure"])
    }
}

fn database_type() -> TypeDef {
    TypeDef::new("database")
        .doc(
            "Create a new database. Depending
            on the provider, this might create relational
            databases or NoSQL document stores.",
        )
        .ensurable()
        .attr(AttrDef::param("name").doc("The name of the database."))
        .attr(
            AttrDef::property("owner")
                .doc("The owner of the database.")
                .validate(|_, value| {
                    let text = marionette_ral::attribute::value_text(value);
                    let word = text
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_');
                    if word {
                        Ok(())
                    } else {
                        Err(format!("{text} is not a valid user name"))
                    }
                }),
        )
        .attr(
            AttrDef::param("color")
                .doc("Your color, and stuff.")
                .values(&["blue", "red"])
                .pattern(".+")
                .validate(|hooked, value| {
                    if *value == s("green") {
                        Err("Everyone knows green databases don't have enough RAM".into())
                    } else {
                        hooked.default_validate(value)
                    }
                })
                .munge(|hooked, value| {
                    match marionette_ral::attribute::value_text(&value).as_str() {
                        "mauve" | "violet" => Ok(s("purple")),
                        _ => hooked.default_munge(value),
                    }
                }),
        )
}

fn database_registry(dir: &Path) -> Arc<Registry> {
    let mut registry = Registry::new();
    registry.add_type(database_type()).unwrap();
    registry
        .add_provider(
            ProviderDef::properties(
                "database",
                "filestore",
                FileStore {
                    dir: dir.to_path_buf(),
                },
            )
            .doc("Databases as files in a directory."),
        )
        .unwrap();
    Arc::new(registry)
}

fn database(
    registry: &Registry,
    title: &str,
    attrs: &[(&str, Value)],
) -> Result<Resource, RalError> {
    Resource::new(
        registry.type_def("database").unwrap().clone(),
        title,
        params(attrs),
        site(3),
    )
}

#[test]
fn database_color_validation_keeps_the_default_checks() {
    let dir = tempfile::tempdir().unwrap();
    let registry = database_registry(dir.path());
    let error = database(&registry, "db1", &[("color", s("green"))]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Parameter color failed on Database[db1]: Everyone knows green databases don't have enough RAM (file: site.pp, line: 3)"
    );
    // The default validation still runs behind the hook: the pattern /.+/
    // refuses an empty string.
    let error = database(&registry, "db1", &[("color", s(""))]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Parameter color failed on Database[db1]: Invalid value \"\". Valid values are blue, red. Valid values match /.+/. (file: site.pp, line: 3)"
    );
}

#[test]
fn database_color_munges_mauve_and_violet_to_purple() {
    let dir = tempfile::tempdir().unwrap();
    let registry = database_registry(dir.path());
    for (given, stored) in [
        ("mauve", "purple"),
        ("violet", "purple"),
        ("blue", "blue"),
        ("teal", "teal"),
    ] {
        let db = database(&registry, "db1", &[("color", s(given))]).unwrap();
        assert_eq!(db.get("color"), Some(&s(stored)), "{given}");
    }
}

#[test]
fn database_without_the_pattern_lists_the_valid_values() {
    let strict = TypeDef::new("database")
        .attr(AttrDef::param("name"))
        .attr(AttrDef::param("color").values(&["blue", "red"]));
    let error = Resource::new(
        Arc::new(strict),
        "db1",
        params(&[("color", s("green"))]),
        site(3),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "Parameter color failed on Database[db1]: Invalid value \"green\". Valid values are blue, red. (file: site.pp, line: 3)"
    );
}

#[test]
fn database_owner_is_validated() {
    let dir = tempfile::tempdir().unwrap();
    let registry = database_registry(dir.path());
    let error = database(&registry, "db1", &[("owner", s("-x"))]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Parameter owner failed on Database[db1]: -x is not a valid user name (file: site.pp, line: 3)"
    );
}

#[test]
fn database_is_created_changed_idempotent_and_removed_through_prefetch_and_flush() {
    let dir = tempfile::tempdir().unwrap();
    let registry = database_registry(dir.path());
    let run = |attrs: &[(&str, Value)], noop: bool| {
        let db = database(&registry, "db1", attrs).unwrap();
        let mut session = Session::new(registry.clone(), Arc::default(), Logger::default());
        session.evaluate(&db, noop)
    };
    let created = run(&[("ensure", s("present")), ("owner", s("alice"))], false);
    assert_eq!(created.failed, None);
    assert_eq!(created.events.len(), 1);
    assert_eq!(created.events[0].message, "created");
    assert_eq!(
        fs::read_to_string(dir.path().join("db1")).unwrap(),
        "owner=alice\n"
    );

    let again = run(&[("ensure", s("present")), ("owner", s("alice"))], false);
    assert!(again.events.is_empty(), "{again:?}");

    let noop = run(&[("owner", s("bob"))], true);
    assert_eq!(noop.events[0].status, EventStatus::Noop);
    assert_eq!(
        noop.events[0].message,
        "current_value 'alice', should be 'bob' (noop)"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("db1")).unwrap(),
        "owner=alice\n"
    );

    let changed = run(&[("owner", s("bob"))], false);
    assert_eq!(changed.events[0].message, "owner changed 'alice' to 'bob'");
    assert_eq!(
        fs::read_to_string(dir.path().join("db1")).unwrap(),
        "owner=bob\n"
    );

    let removed = run(&[("ensure", s("absent"))], false);
    assert_eq!(removed.events[0].message, "removed");
    assert!(!dir.path().join("db1").exists());
}

fn coloring_registry() -> Registry {
    struct Canvas;
    impl PropertyProvider for Canvas {}
    let mut registry = Registry::new();
    registry
        .add_type(
            TypeDef::new("coloring")
                .feature("paint", "The ability to paint.", &["paint"])
                .feature("draw", "The ability to draw.", &[])
                .attr(AttrDef::param("name"))
                .attr(AttrDef::param("color").requires_features(&["paint"])),
        )
        .unwrap();
    registry
        .add_provider(ProviderDef::properties("coloring", "drawer", Canvas).has_features(&["draw"]))
        .unwrap();
    registry
        .add_provider(ProviderDef::properties("coloring", "painter", Canvas).methods(&["paint"]))
        .unwrap();
    registry
}

#[test]
fn coloring_features_come_from_declarations_or_methods() {
    let registry = coloring_registry();
    let type_def = registry.type_def("coloring").unwrap();
    let drawer = registry.provider("coloring", "drawer").unwrap();
    let painter = registry.provider("coloring", "painter").unwrap();
    assert_eq!(drawer.feature_list(type_def), ["draw"]);
    assert_eq!(painter.feature_list(type_def), ["paint"]);
}

#[test]
fn coloring_color_is_left_out_by_a_provider_that_cannot_paint() {
    let registry = Arc::new(coloring_registry());
    let session = Session::new(registry.clone(), Arc::default(), Logger::default());
    let type_def = registry.type_def("coloring").unwrap().clone();
    let with = |provider: &str| {
        Resource::new(
            type_def.clone(),
            "wall",
            params(&[("color", s("blue")), ("provider", s(provider))]),
            site(7),
        )
        .unwrap()
    };
    // The page says using it with a provider that cannot paint is an
    // error; Puppet 7 leaves the attribute out instead, as if not given.
    let drawn = with("drawer");
    assert_eq!(session.selector().select(&drawn).unwrap().name, "drawer");
    assert_eq!(drawn.get("color"), None);
    let painted = with("painter");
    assert_eq!(session.selector().select(&painted).unwrap().name, "painter");
    assert_eq!(painted.get("color"), Some(&s("blue")));
}

fn dns_registry(dir: &Path) -> Arc<Registry> {
    let mut registry = Registry::new();
    registry
        .add_type(
            TypeDef::new("dnszone")
                .doc("Manage a DNS zone.")
                .ensurable()
                .attr(AttrDef::param("name").namevar().doc("The zone name."))
                .attr(
                    AttrDef::param("email")
                        .doc("The zone contact.")
                        .pattern("@"),
                )
                .attr(AttrDef::param("yaml_fog_file").default_value(s("/etc/puppet/fog.yaml")))
                .auto(
                    AutoKind::Require,
                    "file",
                    marionette_ral::Titles::Attribute("yaml_fog_file".into()),
                ),
        )
        .unwrap();
    registry
        .add_type(
            TypeDef::new("dnsrr")
                .doc("Manage a DNS resource record.")
                .ensurable()
                .attr(AttrDef::param("name").doc("The fully qualified record name."))
                .attr(
                    AttrDef::property("type")
                        .values(&["A", "AAAA", "CNAME", "MX", "NS", "PTR", "SPF", "SRV", "TXT"])
                        .default_value(s("A")),
                )
                .attr(AttrDef::property("value").required().validate(|_, value| {
                    if marionette_ral::attribute::value_text(value).is_empty() {
                        Err("The value of the record must not be empty".into())
                    } else {
                        Ok(())
                    }
                }))
                .attr(AttrDef::param("zone").default_fn(|resource| {
                    let name = resource.text("name")?;
                    name.split_once('.').map(|(_, zone)| s(zone))
                }))
                .validate(|resource| {
                    if resource.get("zone").is_none() {
                        return Err(format!(
                            "the zone of '{}' cannot be derived: give a fully qualified name or a zone",
                            resource.name()
                        ));
                    }
                    let kind = resource.text("type").unwrap_or_default();
                    let needs = match kind.as_str() {
                        "A" => Some(false),
                        "AAAA" => Some(true),
                        _ => None,
                    };
                    if let Some(v6) = needs {
                        for value in resource.list("value") {
                            let text = marionette_ral::attribute::value_text(value);
                            let ok = match text.parse::<std::net::IpAddr>() {
                                Ok(ip) => ip.is_ipv6() == v6,
                                Err(_) => false,
                            };
                            if !ok {
                                return Err(format!("'{text}' is not an {kind} record address"));
                            }
                        }
                    }
                    Ok(())
                })
                .auto(AutoKind::Require, "dnszone", marionette_ral::Titles::Attribute("zone".into())),
        )
        .unwrap();
    for kind in ["dnszone", "dnsrr"] {
        let store = dir.join(kind);
        fs::create_dir_all(&store).unwrap();
        registry
            .add_provider(ProviderDef::properties(
                kind,
                "filestore",
                FileStore { dir: store },
            ))
            .unwrap();
    }
    Arc::new(registry)
}

fn dnsrr(registry: &Registry, title: &str, attrs: &[(&str, Value)]) -> Result<Resource, RalError> {
    Resource::new(
        registry.type_def("dnsrr").unwrap().clone(),
        title,
        params(attrs),
        site(12),
    )
}

#[test]
fn dnsrr_defaults_type_and_zone_and_validates_values() {
    let dir = tempfile::tempdir().unwrap();
    let registry = dns_registry(dir.path());
    let rr = dnsrr(
        &registry,
        "www.example.com",
        &[("value", Value::Array(vec![s("192.0.2.1")].into()))],
    )
    .unwrap();
    assert_eq!(rr.get("type"), Some(&s("A")));
    assert_eq!(rr.get("zone"), Some(&s("example.com")));
    assert_eq!(
        rr.auto_relations(),
        [(
            AutoKind::Require,
            "dnszone".to_string(),
            "example.com".to_string()
        )]
    );

    let missing = dnsrr(&registry, "www.example.com", &[]).unwrap_err();
    assert_eq!(
        missing.to_string(),
        "Validation of Dnsrr[www.example.com] failed: value is a required attribute (file: site.pp, line: 12)"
    );
    let empty = dnsrr(&registry, "www.example.com", &[("value", s(""))]).unwrap_err();
    assert_eq!(
        empty.to_string(),
        "Parameter value failed on Dnsrr[www.example.com]: The value of the record must not be empty (file: site.pp, line: 12)"
    );
    let not_fqdn = dnsrr(&registry, "www", &[("value", s("192.0.2.1"))]).unwrap_err();
    assert!(
        not_fqdn
            .to_string()
            .contains("the zone of 'www' cannot be derived"),
        "{not_fqdn}"
    );
    let bad_ip = dnsrr(
        &registry,
        "v6.example.com",
        &[("type", s("AAAA")), ("value", s("192.0.2.1"))],
    )
    .unwrap_err();
    assert_eq!(
        bad_ip.to_string(),
        "Validation of Dnsrr[v6.example.com] failed: '192.0.2.1' is not an AAAA record address (file: site.pp, line: 12)"
    );
    let bad_type = dnsrr(
        &registry,
        "x.example.com",
        &[("type", s("BOGUS")), ("value", s("x"))],
    )
    .unwrap_err();
    assert!(
        bad_type
            .to_string()
            .contains("Invalid value \"BOGUS\". Valid values are A, AAAA"),
        "{bad_type}"
    );
}

#[test]
fn dnszone_and_dnsrr_apply_through_prefetch_and_flush_providers() {
    let dir = tempfile::tempdir().unwrap();
    let registry = dns_registry(dir.path());
    let zone = Resource::new(
        registry.type_def("dnszone").unwrap().clone(),
        "example.com",
        params(&[("ensure", s("present")), ("email", s("admin@example.com"))]),
        site(1),
    )
    .unwrap();
    assert_eq!(
        zone.auto_relations(),
        [(
            AutoKind::Require,
            "file".to_string(),
            "/etc/puppet/fog.yaml".to_string()
        )]
    );
    let bad_email = Resource::new(
        registry.type_def("dnszone").unwrap().clone(),
        "example.com",
        params(&[("email", s("nobody"))]),
        site(1),
    )
    .unwrap_err();
    assert!(
        bad_email.to_string().contains("Valid values match /@/"),
        "{bad_email}"
    );

    let rr = dnsrr(
        &registry,
        "www.example.com",
        &[("ensure", s("present")), ("value", s("192.0.2.1"))],
    )
    .unwrap();
    let mut session = Session::new(registry.clone(), Arc::default(), Logger::default());
    session.prefetch(&[&zone, &rr]);
    assert_eq!(session.evaluate(&zone, false).events[0].message, "created");
    assert_eq!(session.evaluate(&rr, false).events[0].message, "created");
    assert_eq!(
        fs::read_to_string(dir.path().join("dnsrr/www.example.com")).unwrap(),
        "type=A\nvalue=192.0.2.1\n"
    );
    let mut second = Session::new(registry.clone(), Arc::default(), Logger::default());
    second.prefetch(&[&zone, &rr]);
    assert!(second.evaluate(&zone, false).events.is_empty());
    assert!(second.evaluate(&rr, false).events.is_empty());
}

/// `dns_resource` records kept as lines `name type ttl rdata` in one file,
/// through the create/update/delete adapter of the batch style.
struct RecordFile {
    path: PathBuf,
}

impl RecordFile {
    fn read(&self) -> Vec<PropertyHash> {
        let text = fs::read_to_string(&self.path).unwrap_or_default();
        text.lines()
            .filter_map(|line| {
                let mut fields = line.splitn(4, ' ');
                let (name, kind, ttl, rdata) = (
                    fields.next()?,
                    fields.next()?,
                    fields.next()?,
                    fields.next()?,
                );
                Some(PropertyHash::from([
                    ("name".to_string(), s(name)),
                    ("type".to_string(), s(kind)),
                    ("ensure".to_string(), s("present")),
                    ("ttl".to_string(), Value::Integer(ttl.parse().ok()?)),
                    ("rdata".to_string(), s(rdata)),
                ]))
            })
            .collect()
    }

    fn write(&self, records: &[PropertyHash]) -> Result<(), ProviderError> {
        let mut text = String::new();
        for record in records {
            let field = |f: &str| {
                record
                    .get(f)
                    .map(marionette_ral::attribute::value_text)
                    .unwrap_or_default()
            };
            text.push_str(&format!(
                "{} {} {} {}\n",
                field("name"),
                field("type"),
                field("ttl"),
                field("rdata")
            ));
        }
        fs::write(&self.path, text).map_err(ProviderError::from)
    }
}

impl CrudProvider for RecordFile {
    fn get(
        &self,
        _cx: &Context,
        _names: Option<&[String]>,
    ) -> Result<Vec<PropertyHash>, ProviderError> {
        Ok(self.read())
    }

    fn create(&self, cx: &Context, name: &str, should: &PropertyHash) -> Result<(), ProviderError> {
        self.update(cx, name, should)
    }

    fn update(
        &self,
        _cx: &Context,
        _name: &str,
        should: &PropertyHash,
    ) -> Result<(), ProviderError> {
        let mut records: Vec<PropertyHash> = self
            .read()
            .into_iter()
            .filter(|r| !same_record(r, should))
            .collect();
        records.push(should.clone());
        self.write(&records)
    }

    fn delete(&self, _cx: &Context, _name: &str, is: &PropertyHash) -> Result<(), ProviderError> {
        let records: Vec<PropertyHash> = self
            .read()
            .into_iter()
            .filter(|r| !same_record(r, is))
            .collect();
        self.write(&records)
    }
}

/// The identity of a record is its name and its type.
fn same_record(a: &PropertyHash, b: &PropertyHash) -> bool {
    a.get("name") == b.get("name") && a.get("type") == b.get("type")
}

fn dns_resource_registry(path: &Path) -> Arc<Registry> {
    let mut registry = Registry::new();
    registry
        .add_type(
            TypeDef::new("dns_resource")
                .doc("Type to manage DNS resource records")
                .ensurable()
                .attr(
                    AttrDef::param("name")
                        .namevar()
                        .doc("The record name.")
                        .validate(|_, value| {
                            let text = marionette_ral::attribute::value_text(value);
                            let ok = !text.is_empty()
                                && text.chars().all(|c| {
                                    c.is_ascii_lowercase()
                                        || c.is_ascii_digit()
                                        || c == '-'
                                        || c == '.'
                                });
                            if ok {
                                Ok(())
                            } else {
                                Err("dns_resource::name invalid".into())
                            }
                        }),
                )
                .attr(
                    AttrDef::param("type")
                        .namevar()
                        .values(&["A", "PTR", "CNAME"]),
                )
                .attr(
                    AttrDef::param("nameserver")
                        .default_value(s("127.0.0.1"))
                        .pattern(r"\A[a-z0-9\-\.]+\z"),
                )
                .attr(
                    AttrDef::property("rdata")
                        .doc("Relevant data e.g. IP address for an A record etc"),
                )
                .attr(
                    AttrDef::property("ttl")
                        .default_value(s("86400"))
                        .pattern(r"\A\d+\z"),
                )
                .title_pattern(r"\A(.+)/([A-Z]+)\z", &["name", "type"])
                .autorequire("service", |_| vec!["bind9".into()])
                .autorequire("package", |_| vec!["dnsutils".into()]),
        )
        .unwrap();
    registry
        .add_provider(ProviderDef::batch(
            "dns_resource",
            "recordfile",
            Crud(RecordFile {
                path: path.to_path_buf(),
            }),
        ))
        .unwrap();
    Arc::new(registry)
}

#[test]
fn dns_resource_splits_its_title_and_fills_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let registry = dns_resource_registry(&dir.path().join("zone"));
    let type_def = registry.type_def("dns_resource").unwrap().clone();
    // The seed's two declarations.
    let a = Resource::new(
        type_def.clone(),
        "melody.angel.net/A",
        params(&[
            ("ensure", s("present")),
            ("rdata", s("192.168.2.1")),
            ("ttl", s("86400")),
        ]),
        site(1),
    )
    .unwrap();
    assert_eq!(a.get("name"), Some(&s("melody.angel.net")));
    assert_eq!(a.get("type"), Some(&s("A")));
    assert_eq!(a.get("nameserver"), Some(&s("127.0.0.1")));
    let ptr = Resource::new(
        type_def.clone(),
        "1.2.168.192.in-addr.arpa/PTR",
        params(&[
            ("nameserver", s("a.ns.angel.net")),
            ("rdata", s("melody.angel.net")),
        ]),
        site(8),
    )
    .unwrap();
    assert_eq!(ptr.get("type"), Some(&s("PTR")));
    assert_eq!(ptr.get("ttl"), Some(&s("86400")));
    assert_eq!(
        ptr.auto_relations(),
        [
            (
                AutoKind::Require,
                "service".to_string(),
                "bind9".to_string()
            ),
            (
                AutoKind::Require,
                "package".to_string(),
                "dnsutils".to_string()
            ),
        ]
    );

    let untyped =
        Resource::new(type_def.clone(), "melody.angel.net", params(&[]), site(2)).unwrap_err();
    assert_eq!(
        untyped.to_string(),
        "Dns_resource[melody.angel.net]: no set of title patterns matched the title \"melody.angel.net\" (file: site.pp, line: 2)"
    );
    let bad_type = Resource::new(type_def.clone(), "x.net/MX", params(&[]), site(2)).unwrap_err();
    assert!(
        bad_type
            .to_string()
            .starts_with("Parameter type failed on Dns_resource[x.net/MX]: Invalid value \"MX\"")
    );
    let bad_name = Resource::new(type_def.clone(), "Bad_Name/A", params(&[]), site(2)).unwrap_err();
    assert!(
        bad_name.to_string().contains("dns_resource::name invalid"),
        "{bad_name}"
    );
    let bad_ttl =
        Resource::new(type_def, "x.net/A", params(&[("ttl", s("soon"))]), site(2)).unwrap_err();
    assert!(
        bad_ttl.to_string().contains("Parameter ttl failed"),
        "{bad_ttl}"
    );
}

#[test]
fn dns_resource_applies_through_a_batch_provider_and_ttl_text_matches_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("zone");
    let registry = dns_resource_registry(&file);
    let type_def = registry.type_def("dns_resource").unwrap().clone();
    let record = |rdata: &str| {
        Resource::new(
            type_def.clone(),
            "melody.angel.net/A",
            params(&[
                ("ensure", s("present")),
                ("rdata", s(rdata)),
                ("ttl", s("86400")),
            ]),
            site(1),
        )
        .unwrap()
    };
    let run = |resource: &Resource, noop: bool| {
        Session::new(registry.clone(), Arc::default(), Logger::default()).evaluate(resource, noop)
    };
    assert_eq!(
        run(&record("192.168.2.1"), false).events[0].message,
        "created"
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "melody.angel.net A 86400 192.168.2.1\n"
    );
    // The provider reports ttl as the integer 86400; the manifest says
    // "86400": the same value, so nothing to do.
    assert!(run(&record("192.168.2.1"), false).events.is_empty());
    let noop = run(&record("192.168.2.9"), true);
    assert_eq!(
        noop.events[0].message,
        "current_value '192.168.2.1', should be '192.168.2.9' (noop)"
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "melody.angel.net A 86400 192.168.2.1\n"
    );
    let changed = run(&record("192.168.2.9"), false);
    assert_eq!(
        changed.events[0].message,
        "rdata changed '192.168.2.1' to '192.168.2.9'"
    );
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "melody.angel.net A 86400 192.168.2.9\n"
    );
}
