//! The complete example of `docs/native-types.md`: the code between the
//! `guide:start` and `guide:end` markers must appear verbatim in the guide,
//! so the guide never shows code that does not compile or work.

// guide:start
use std::path::Path;
use std::sync::Arc;

use marionette_ral::attribute::value_text;
use marionette_ral::{
    AttrDef, AutoKind, Context, Instance, PropertyHash, PropertyProvider, ProviderDef,
    ProviderError, Registry, Titles, TypeDef,
};
use marionette_values::Value;

/// The type: what a `keyval` resource is, independent of any platform.
fn keyval_type() -> TypeDef {
    TypeDef::new("keyval")
        .doc(
            "Manages one `key=value` line in a configuration file.

            Example:

                keyval { '/etc/app.conf:port':
                  value => '8080',
                }",
        )
        .ensurable()
        .attr(
            AttrDef::param("path")
                .namevar()
                .doc("The file holding the line.")
                .validate(|_, value| {
                    if value_text(value).starts_with('/') {
                        Ok(())
                    } else {
                        Err(format!("{} is not an absolute path", value_text(value)))
                    }
                }),
        )
        .attr(
            AttrDef::param("key")
                .namevar()
                .doc("The key, before the `=`.")
                .pattern(r"\A[A-Za-z0-9_.]+\z"),
        )
        .attr(
            AttrDef::property("value")
                .doc("The value, after the `=`. Surrounding blanks are dropped.")
                .munge(|hooked, value| {
                    let trimmed = Value::String(value_text(&value).trim().into());
                    hooked.default_munge(trimmed)
                }),
        )
        // `keyval { '/etc/app.conf:port': }` sets both identity attributes.
        .title_pattern(r"\A(/[^:]+):(.+)\z", &["path", "key"])
        // Apply after the file itself, when the catalog manages it.
        .auto(AutoKind::Require, "file", Titles::Attribute("path".into()))
}

/// The provider: prefetch reads every file once, setters only record the
/// change, `flush` writes the file. Getters, setters, `exists`, `create`
/// and `destroy` are the framework's defaults over the property hash.
struct KeyvalFile;

fn read_pairs(path: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

impl PropertyProvider for KeyvalFile {
    fn prefetch(&self, _cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        for instance in instances {
            let path = instance.resource.text("path").unwrap_or_default();
            let key = instance.resource.text("key").unwrap_or_default();
            let found = read_pairs(Path::new(&path))
                .into_iter()
                .find(|(k, _)| *k == key);
            instance.property_hash = match found {
                Some((_, value)) => PropertyHash::from([
                    ("ensure".to_string(), Value::String("present".into())),
                    ("value".to_string(), Value::String(value.into())),
                ]),
                None => {
                    PropertyHash::from([("ensure".to_string(), Value::String("absent".into()))])
                }
            };
        }
        Ok(())
    }

    fn flush(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let path = instance.resource.text("path").unwrap_or_default();
        let key = instance.resource.text("key").unwrap_or_default();
        let mut pairs: Vec<(String, String)> = read_pairs(Path::new(&path))
            .into_iter()
            .filter(|(k, _)| *k != key)
            .collect();
        if instance.present_in_hash() {
            let value = instance
                .property_hash
                .get("value")
                .or_else(|| instance.should("value"))
                .map(value_text)
                .unwrap_or_default();
            pairs.push((key, value));
        }
        let text: String = pairs.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        // Write beside the file and rename over it, so a crash never
        // leaves it half-written.
        let temporary = format!("{path}.marionette-new");
        std::fs::write(&temporary, text)?;
        std::fs::rename(&temporary, &path)?;
        Ok(())
    }
}

/// Registers the type and its provider.
pub fn register(registry: &mut Registry) -> Result<(), marionette_ral::RalError> {
    registry.add_type(keyval_type())?;
    registry.add_provider(
        ProviderDef::properties("keyval", "file", KeyvalFile)
            .doc("Reads and writes the file directly.")
            .confine(marionette_ral::Confine::Feature("posix".into())),
    )?;
    Ok(())
}
// guide:end

use marionette_ral::{Logger, Origin, Resource, Session};

#[test]
fn the_guide_shows_this_example_verbatim() {
    let source = include_str!("guide.rs");
    let start = source.find("// guide:start\n").unwrap() + "// guide:start\n".len();
    let end = source.find("// guide:end").unwrap();
    let example = &source[start..end];
    let guide = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/native-types.md"
    ))
    .unwrap();
    assert!(
        guide.contains(&format!("```rust\n{example}```\n")),
        "docs/native-types.md must show the example of crates/ral/tests/guide.rs verbatim, as one block"
    );
}

#[test]
fn the_guide_example_manages_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("app.conf");
    std::fs::write(&file, "name=demo\nport=80\n").unwrap();
    let mut registry = Registry::new();
    register(&mut registry).unwrap();
    let registry = Arc::new(registry);
    let title = format!("{}:port", file.display());
    let resource = Resource::new(
        registry.type_def("keyval").unwrap().clone(),
        &title,
        [("value".to_string(), Value::String(" 8080 ".into()))],
        Origin::default(),
    )
    .unwrap();
    assert_eq!(resource.get("key"), Some(&Value::String("port".into())));
    let mut session = Session::new(registry.clone(), Arc::default(), Logger::default());
    let outcome = session.evaluate(&resource, false);
    assert_eq!(outcome.events[0].message, "value changed '80' to '8080'");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "name=demo\nport=8080\n"
    );
    let again =
        Session::new(registry, Arc::default(), Logger::default()).evaluate(&resource, false);
    assert!(again.events.is_empty());
}
