//! Resource types and providers modules write in Ruby
//! (`lib/puppet/type/NAME.rb`, `lib/puppet/provider/NAME/PROVIDER.rb`),
//! applied through the Ruby host.
//!
//! A type is added to the registry from its file's declarations, read
//! without Ruby (`marionette_ruby::scan_type`); its providers are loaded
//! in the host only when a resource of the type first needs one, so a run
//! that manages none starts no Ruby. Each provider is a
//! `PropertyProvider`: the resource layer drives it through Puppet's
//! provider interface and the host answers with the module's own code
//! (validation, munging, defaults, `insync?`, prefetch, getters, setters,
//! `create`, `destroy`, `flush`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use marionette_ral::{
    ChangeCount, Confine, Context, Implementation, Instance, PropertyHash, PropertyProvider,
    ProviderDef, ProviderError, Registry, TypeDef,
};
use marionette_ruby::{Answer, Engine, HostError, Question, ResourceId, RubyHost};
use marionette_values::{PHash, Value};
use serde_json::json;

use crate::{Problem, entries, file_name};

/// Types Marionette ships that Puppet 7's core does not, and that
/// modules define differently (inkblot-bind's `dnszone`, the seeds'
/// `dns_resource`): a module's type of the same name takes their place, as
/// it would in Puppet. Marionette's `host` and `cron` are those of
/// Puppet's `host_core` and `cron_core` modules, implemented natively, and
/// stay.
const YIELDING: &[&str] = &["dns_resource", "dnszone", "dnsrr"];

/// See [`crate::Plugins::ruby_type_reference`].
pub(crate) fn reference(
    types: &[RubyType],
    name: &str,
    host: &Arc<RubyHost>,
) -> Option<Result<TypeDef, String>> {
    let t = types.iter().find(|t| t.name == name)?;
    let text = std::fs::read_to_string(&t.file).ok()?;
    if marionette_ruby::scan_type(name, &text).api.is_some() {
        return None;
    }
    let data = host
        .type_reference(name, &t.file, &mut Answers::none())
        .map_err(|error| failure(&error, &t.file));
    Some(data.and_then(|mut data| {
        // A parameter named as a metaparameter (concat's `tag`), which a
        // type the engine runs cannot declare, is added once the type is
        // made, for its doc; a Ruby pattern the engine's regexes cannot
        // read is not shown.
        let mut shadowing = Vec::new();
        if let Some(attributes) = data
            .get_mut("attributes")
            .and_then(serde_json::Value::as_array_mut)
        {
            attributes.retain(|a| {
                let name = a.get("name").and_then(serde_json::Value::as_str);
                if !name.is_some_and(marionette_ral::metaparams::is_metaparameter) {
                    return true;
                }
                let doc = a.get("doc").and_then(serde_json::Value::as_str);
                shadowing.push(
                    marionette_ral::AttrDef::param(name.unwrap_or_default())
                        .doc(doc.unwrap_or_default()),
                );
                false
            });
            for attribute in attributes {
                if let Some(patterns) = attribute
                    .get_mut("patterns")
                    .and_then(serde_json::Value::as_array_mut)
                {
                    patterns.retain(|p| {
                        p.as_str()
                            .is_some_and(|p| marionette_values::Regex::new(p).is_ok())
                    });
                }
            }
        }
        let mut type_def = marionette_ral::type_from_data(&data)?;
        type_def.attributes.extend(shadowing);
        Ok(type_def)
    }))
}

/// The first attribute a module's type declares that the native type of
/// the same name does not implement.
fn lacking<'s>(native: &TypeDef, spec: &'s marionette_ruby::TypeSpec) -> Option<&'s str> {
    spec.attributes
        .iter()
        .map(|a| a.name.as_str())
        .filter(|name| !marionette_ral::metaparams::is_metaparameter(name))
        .find(|name| native.attribute(name).is_none())
}

/// A module's Ruby type and the Ruby providers modules ship for it.
#[derive(Clone, Debug)]
pub(crate) struct RubyType {
    name: String,
    file: PathBuf,
    providers: Vec<PathBuf>,
    /// Whether its file defines title patterns of its own, noted when the
    /// file is read for the registry (see [`titled`]).
    titled: OnceLock<bool>,
}

/// The Ruby types of an environment's modules, the first of each name.
pub(crate) fn discover(modules: &[PathBuf]) -> Vec<RubyType> {
    let mut types: Vec<RubyType> = Vec::new();
    for module in modules {
        for file in entries(&module.join("lib/puppet/type")) {
            let name = file_name(&file);
            let Some(name) = name.strip_suffix(".rb") else {
                continue;
            };
            if types.iter().all(|t| t.name != name) {
                types.push(RubyType {
                    name: name.to_string(),
                    file,
                    providers: Vec::new(),
                    titled: OnceLock::new(),
                });
            }
        }
    }
    // Each module's provider directory is listed once: looking for every
    // type's directory in every module costs thousands of lookups on a
    // machine with Debian's forty modules.
    for module in modules {
        for dir in entries(&module.join("lib/puppet/provider")) {
            let Some(t) = types.iter_mut().find(|t| t.name == file_name(&dir)) else {
                continue;
            };
            for file in entries(&dir) {
                if file_name(&file).ends_with(".rb")
                    && !t.providers.iter().any(|p| file_name(p) == file_name(&file))
                {
                    t.providers.push(file);
                }
            }
        }
    }
    types
}

/// The Ruby providers modules ship for types no module defines: Puppet's
/// core types, which Marionette implements natively (swift's `swiftinit`
/// and openstack_extras' `pacemaker` for `service`, php's `pear` for
/// `package`). One entry a type, with no file: the host defines the core
/// type itself, as Puppet's own code would.
pub(crate) fn discover_core(modules: &[PathBuf], types: &[RubyType]) -> Vec<RubyType> {
    let mut core: Vec<RubyType> = Vec::new();
    for module in modules {
        for dir in entries(&module.join("lib/puppet/provider")) {
            let name = file_name(&dir);
            if types.iter().any(|t| t.name == name) || !dir.is_dir() {
                continue;
            }
            let at = match core.iter().position(|t| t.name == name) {
                Some(at) => at,
                None => {
                    core.push(RubyType {
                        name: name.to_string(),
                        file: PathBuf::new(),
                        providers: Vec::new(),
                        titled: OnceLock::new(),
                    });
                    core.len() - 1
                }
            };
            let t = &mut core[at];
            for file in entries(&dir) {
                if file_name(&file).ends_with(".rb")
                    && !t.providers.iter().any(|p| file_name(p) == file_name(&file))
                {
                    t.providers.push(file);
                }
            }
        }
    }
    core.retain(|t| !t.providers.is_empty());
    core
}

/// Adds the modules' providers for native types (see [`discover_core`]),
/// to run in `host`. A provider no platform takes by default (its file
/// declares no `defaultfor`) and that keeps a name of its own is loaded
/// only when a resource names it, so a run that names none starts no
/// Ruby; otherwise the providers load with the type's own, as Puppet
/// would then choose among them all (a module's provider replacing a
/// native one of its name).
pub(crate) fn extend_core(core: &[RubyType], registry: &mut Registry, host: &Arc<RubyHost>) {
    for t in core {
        let Some(native) = registry.type_def(&t.name).cloned() else {
            continue;
        };
        let names: Vec<String> = t
            .providers
            .iter()
            .map(|file| file_name(file).trim_end_matches(".rb").to_string())
            .collect();
        let declared = registry.providers(&t.name);
        let ordinary = names
            .iter()
            .any(|name| declared.iter().any(|p| &p.name == name))
            || t.providers.iter().any(|file| {
                std::fs::read_to_string(file).is_ok_and(|text| text.contains("defaultfor"))
            });
        let (host, ruby_type) = (host.clone(), t.clone());
        let loader: marionette_ral::registry::ProviderLoader =
            Arc::new(move || load_providers(&host, &ruby_type, &native));
        if ordinary {
            registry.add_provider_loader(&t.name, loader);
        } else {
            registry.add_named_provider_loader(&t.name, names, loader);
        }
    }
}

/// Adds the Ruby types to the registry, where no native type of the name
/// wins (Puppet's core types, and those Marionette implements natively).
/// Each is made the first time it is asked for, as Puppet loads a type
/// when a catalog names it: a run reads only the type files its
/// resources need, and a type that cannot be used fails those resources
/// with its reason. Their providers are loaded in `host` on first need.
pub(crate) fn extend(
    types: &[RubyType],
    registry: &mut Registry,
    host: &Arc<RubyHost>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    // What a type's `generate` sees of the catalog: the resources of the
    // module types (concat's fragments).
    let module_types: Arc<[String]> = types.iter().map(|t| t.name.clone()).collect();
    for t in types {
        let Some(native) = registry.type_def(&t.name).cloned() else {
            lazily(t, registry, (&module_types, host));
            continue;
        };
        // A native type stands for the module's own only while it
        // implements everything the module's version declares (concat 9's
        // `create_empty_file` is unknown to one written for concat 7): the
        // module's Ruby takes over otherwise, as a native type must never
        // give another result. Deciding reads the file now.
        let Ok(text) = std::fs::read_to_string(&t.file) else {
            continue;
        };
        let _ = t.titled.set(marionette_ruby::defines_title_patterns(&text));
        let spec = marionette_ruby::scan_type(&t.name, &text);
        if !YIELDING.contains(&t.name.as_str()) && lacking(&native, &spec).is_none() {
            continue;
        }
        let made = make(t, &text, spec, (&module_types, host)).and_then(|made| {
            let def = registry.add_type(made.def).map_err(|e| e.to_string())?;
            Ok((def, made.providers))
        });
        match made {
            Ok((def, providers)) => {
                let (host, ruby_type) = (host.clone(), t.clone());
                registry.add_provider_loader(
                    &t.name,
                    Arc::new(move || providers.load(&host, &ruby_type, &def)),
                );
            }
            Err(message) => problems.push(Problem {
                file: t.file.clone(),
                message,
            }),
        }
    }
    problems
}

/// Adds a module's Ruby type to be made when first asked for, its
/// providers once it is.
fn lazily(
    t: &RubyType,
    registry: &mut Registry,
    (module_types, host): (&Arc<[String]>, &Arc<RubyHost>),
) {
    let made: Arc<OnceLock<(Arc<TypeDef>, Providers)>> = Arc::new(OnceLock::new());
    let (type_host, ruby_type, modules, made_by_type) =
        (host.clone(), t.clone(), module_types.clone(), made.clone());
    registry.add_type_loader(
        &t.name,
        Arc::new(move || {
            let text = std::fs::read_to_string(&ruby_type.file)
                .map_err(|e| format!("could not read {}: {e}", ruby_type.file.display()))?;
            let spec = marionette_ruby::scan_type(&ruby_type.name, &text);
            let made = make(&ruby_type, &text, spec, (&modules, &type_host))?;
            let def = Arc::new(made.def);
            let _ = made_by_type.set((def.clone(), made.providers));
            Ok(def)
        }),
    );
    let (host, ruby_type) = (host.clone(), t.clone());
    registry.add_provider_loader(
        &t.name,
        Arc::new(move || match made.get() {
            Some((def, providers)) => providers.load(&host, &ruby_type, def),
            None => Vec::new(),
        }),
    );
}

/// A module's Ruby type made for the engine, and how its providers come.
struct Made {
    def: TypeDef,
    providers: Providers,
}

/// How a module type's providers are made.
#[derive(Clone, Copy)]
enum Providers {
    /// The Resource API's: each resource reads its own state.
    ResourceApi,
    /// Its Ruby providers, or the type itself managing its resources.
    Classic,
    /// None: the type manages nothing (an implicit stand-in).
    StandIn,
}

impl Providers {
    fn load(self, host: &Arc<RubyHost>, t: &RubyType, def: &TypeDef) -> Vec<ProviderDef> {
        match self {
            Providers::ResourceApi => {
                let mut providers = load_providers(host, t, def);
                for provider in &mut providers {
                    provider.reads_ahead = true;
                }
                providers
            }
            Providers::Classic => load_providers(host, t, def),
            Providers::StandIn => vec![stand_in(&t.name)],
        }
    }
}

/// Makes a module's Ruby type from its file's text (`spec`, what reading
/// it told): a Resource API type from its data; a classic type from its
/// declarations, or, when the file alone does not tell what it declares
/// (a mixin's method declares its attributes, as keystone's config types
/// do; a loop does, as keystone_user_role's; a helper makes its title
/// patterns; or it declares none, as openstacklib's base type), from
/// what running its Ruby tells.
fn make(
    t: &RubyType,
    text: &str,
    spec: marionette_ruby::TypeSpec,
    (module_types, host): (&Arc<[String]>, &Arc<RubyHost>),
) -> Result<Made, String> {
    let doc = if spec.doc.is_empty() {
        format!("Written in Ruby in {}.", t.file.display())
    } else {
        spec.doc.clone()
    };
    if let Some(api) = &spec.api {
        let data = crate::resource_api::type_data(&spec, api, doc);
        let def = marionette_ral::type_from_data(&data)?;
        return Ok(Made {
            def: crate::resource_api::checked(def, api),
            providers: Providers::ResourceApi,
        });
    }
    let spec = if marionette_ruby::told_whole(text, &spec) {
        spec
    } else {
        let mut spec = host
            .describe_type(&t.name, &t.file, &mut Answers::none())
            .map_err(|error| failure(&error, &t.file))?;
        // What reading would tell of each attribute (its checks, default,
        // change messages) its Ruby answers.
        for attribute in &mut spec.attributes {
            attribute.checked = true;
            attribute.default = true;
            attribute.describes_change = attribute.property;
        }
        spec
    };
    let doc = if spec.doc.is_empty() {
        doc
    } else {
        spec.doc.clone()
    };
    let def = classic_type(&spec, &doc, (t, module_types), host)?;
    let providers = if t.providers.is_empty() && !manages(&spec) {
        Providers::StandIn
    } else {
        Providers::Classic
    };
    Ok(Made { def, providers })
}

/// See [`crate::Plugins::is_titled_ruby_type`]: noted when the registry
/// read the file of a type a native one stands for, else read now.
pub(crate) fn titled(types: &[RubyType], name: &str) -> bool {
    types.iter().find(|t| t.name == name).is_some_and(|t| {
        *t.titled.get_or_init(|| {
            std::fs::read_to_string(&t.file)
                .is_ok_and(|text| marionette_ruby::defines_title_patterns(&text))
        })
    })
}

/// Whether a type manages anything: it is ensurable or has properties.
fn manages(spec: &marionette_ruby::TypeSpec) -> bool {
    spec.ensurable || spec.attributes.iter().any(|a| a.property)
}

/// A module's classic Ruby type as the engine holds it, from what its DSL
/// declares (read from its file, or told by running it).
fn classic_type(
    spec: &marionette_ruby::TypeSpec,
    doc: &str,
    (t, module_types): (&RubyType, &Arc<[String]>),
    host: &Arc<RubyHost>,
) -> Result<TypeDef, String> {
    let attributes: Vec<serde_json::Value> = spec
        .attributes
        .iter()
        // `ensure` comes with `ensurable`; a type may declare a
        // metaparameter's name (concat's `tag`), which stays the
        // metaparameter here.
        .filter(|a| {
            let from_ensurable = spec.ensurable && a.name == "ensure";
            !(from_ensurable || marionette_ral::metaparams::is_metaparameter(&a.name))
        })
        .map(|a| {
            json!({
                "name": a.name,
                "doc": a.doc,
                "kind": if a.property { "property" } else { "parameter" },
                "namevar": a.namevar,
                "boolean": a.boolean,
                "array_matching": if a.array_all { "all" } else { "first" },
            })
        })
        .collect();
    // The type's own title patterns fill its namevars from the title.
    // One the engine cannot compile leaves them all out: a title
    // matched by the wrong pattern would name another thing.
    let title_patterns: Vec<serde_json::Value> = if spec
        .title_patterns
        .iter()
        .all(|(pattern, _)| marionette_values::Regex::new(pattern).is_ok())
    {
        spec.title_patterns
            .iter()
            .map(|(pattern, attributes)| json!({"pattern": pattern, "attributes": attributes}))
            .collect()
    } else {
        Vec::new()
    };
    let data = json!({
        "name": t.name,
        "doc": doc,
        "ensurable": spec.ensurable,
        "self_refresh": spec.self_refresh,
        "attributes": attributes,
        "features": spec.features.iter().map(|f| json!({"name": f})).collect::<Vec<_>>(),
        "title_patterns": title_patterns,
    });
    marionette_ral::type_from_data(&data)
        .map(|def| checked_by_ruby(def, spec, (t, module_types), host))
}

/// The implicit provider of a type that manages nothing.
fn stand_in(type_name: &str) -> ProviderDef {
    ProviderDef::new(
        type_name,
        type_name,
        Implementation::Properties(Arc::new(Nothing)),
    )
    .implicit()
}

/// The type with its values checked by its own Ruby, as Puppet checks
/// them before applying anything: each parameter's blocks, then the
/// type's `validate`; and its defaults, automatic relationships and
/// `generate` from its blocks.
fn checked_by_ruby(
    mut def: TypeDef,
    spec: &marionette_ruby::TypeSpec,
    (t, module_types): (&RubyType, &Arc<[String]>),
    host: &Arc<RubyHost>,
) -> TypeDef {
    // `ensurable` gives `ensure` Puppet's own words, unless its block
    // says others.
    if spec.ensurable
        && let Some(ensure) = def.attributes.iter_mut().find(|a| a.name == "ensure")
    {
        ensure.doc = spec
            .attributes
            .iter()
            .find(|a| a.name == "ensure" && !a.doc.is_empty())
            .map_or_else(
                || "The basic property that the resource should be in.".to_string(),
                |a| a.doc.clone(),
            );
    }
    // A type with its own `refresh` reacts to events; its resources call
    // it through their provider (`RubyProvider::refresh`).
    def.refreshable |= spec.refreshable;
    let declared = |pick: fn(&marionette_ruby::Attribute) -> bool| -> Vec<String> {
        def.attributes
            .iter()
            .filter(|attr| {
                spec.attributes
                    .iter()
                    .any(|a| a.name == attr.name && pick(a))
            })
            .map(|attr| attr.name.clone())
            .collect()
    };
    let checks = Arc::new(RubyChecks {
        host: host.clone(),
        t: t.clone(),
        loaded: OnceLock::new(),
        // Only what the type's code checks is asked of it: `ensure` when
        // its block declares values of its own.
        checked: declared(|a| a.checked),
        whole: declared(|a| a.whole_checked),
        defaults: declared(|a| a.default),
        relations: spec.autorelations.clone(),
        validates: spec.validates,
        titled: spec.titled,
        reads_catalog: std::fs::read_to_string(&t.file).is_ok_and(|text| text.contains("catalog")),
        learned: Mutex::default(),
    });
    for attr in def.attributes.iter_mut() {
        if attr.name == "ensure" && checks.checked.contains(&attr.name) {
            // Its values are those the block declares, which only Ruby
            // knows for sure (`newvalue(:disabled)`, `aliasvalue`).
            attr.values.clear();
            attr.aliases.clear();
        }
        if checks.checked.contains(&attr.name) {
            let (checks, name) = (checks.clone(), attr.name.clone());
            attr.validate = Some(Arc::new({
                let (checks, name) = (checks.clone(), name.clone());
                move |_, value| checks.verdict(&name, value).map(|_| ())
            }));
            // The word the code makes of a word (an alias's value) is the
            // one messages show, as Puppet's `should` gives it.
            attr.munge = Some(Arc::new(move |_, value| {
                // Only a word can be made another word.
                if !matches!(value, Value::String(_)) {
                    return Ok(value);
                }
                Ok(match checks.verdict(&name, &value) {
                    Ok(Some(word)) => Value::string(word),
                    _ => value,
                })
            }));
        }
        if checks.whole.contains(&attr.name) {
            let (checks, name) = (checks.clone(), attr.name.clone());
            attr.validate_whole = Some(Arc::new(move |value| checks.whole_verdict(&name, value)));
        }
        if checks.defaults.contains(&attr.name) {
            let (checks, name) = (checks.clone(), attr.name.clone());
            attr.default = Some(marionette_ral::DefaultValue::Computed(Arc::new(
                move |resource| checks.default(&name, resource),
            )));
        }
    }
    // A type with a `title` of its own (sshkey's `HOST@TYPE`) is named
    // by it in messages, as the catalog's resources were declared to it.
    if spec.titled {
        let checks = checks.clone();
        def.shown_title = Some(Arc::new(move |resource| {
            checks.learned().shown_titles.get(resource.title()).cloned()
        }));
    }
    // An `ensure` declared as a plain property (mount's) words its
    // changes as any property does, not as `created` and `removed`.
    if !spec.ensurable
        && let Some(at) = def.attributes.iter().position(|a| a.name == "ensure")
    {
        let ensure = def.attributes.remove(at);
        def.attributes.insert(at, ensure.plain_change_messages());
    }
    // A property that words its own change messages (archive's `ensure`,
    // inifile's redacted values) is asked for each, and for what a noop
    // run says of it; Puppet's words stand when it cannot answer.
    for attr in def.attributes.iter_mut().filter(|attr| {
        spec.attributes
            .iter()
            .any(|a| a.name == attr.name && a.describes_change)
    }) {
        let (asked, name) = (checks.clone(), attr.name.clone());
        attr.change_message = Some(Arc::new(move |resource, current, desired| {
            asked
                .change_to_s(&name, resource, (current, desired), false)
                .unwrap_or_else(|| match resource.type_def().attribute(&name) {
                    Some(attr) => marionette_ral::attribute::puppets_change_message(
                        attr, resource, current, desired,
                    ),
                    None => String::new(),
                })
        }));
        let (checks, name) = (checks.clone(), attr.name.clone());
        attr.noop_message = Some(Arc::new(move |resource, current, desired| {
            checks
                .change_to_s(&name, resource, (current, desired), true)
                .unwrap_or_else(|| match resource.type_def().attribute(&name) {
                    Some(attr) => marionette_ral::attribute::puppets_noop_message(
                        attr, resource, current, desired,
                    ),
                    None => String::new(),
                })
        }));
    }
    for (at, (kind, target)) in spec.autorelations.iter().enumerate() {
        // Puppet skips relationships to a type it cannot find, and `class`
        // is none (mysql's users' `autorequire(:class)`).
        if target == "class" {
            continue;
        }
        let auto_kind = match kind.as_str() {
            "before" => marionette_ral::AutoKind::Before,
            "notify" => marionette_ral::AutoKind::Notify,
            "subscribe" => marionette_ral::AutoKind::Subscribe,
            _ => marionette_ral::AutoKind::Require,
        };
        let checks = checks.clone();
        def.autorelations
            .push(marionette_ral::typedef::AutoRelation {
                kind: auto_kind,
                target_type: target.clone(),
                titles: marionette_ral::Titles::Computed(Arc::new(move |resource| {
                    checks.titles(at, resource)
                })),
                first_found: false,
            });
    }
    if spec.pre_run_checks {
        let (host, t, checks) = (host.clone(), t.clone(), checks.clone());
        def.pre_run_check = Some(Arc::new(move |resource: &marionette_ral::Resource| {
            checks.load()?;
            match host.pre_run_check(
                &t.name,
                (resource.title(), &values_of(resource)),
                &mut Answers::none(),
            ) {
                Ok(None) => Ok(()),
                Ok(Some(message)) => Err(message),
                Err(error) => Err(failure(&error, &t.file)),
            }
        }));
    }
    def.fills_late = spec.generates && spec.fills_late;
    if spec.generates {
        let (host, t, checks) = (host.clone(), t.clone(), checks.clone());
        let module_types = module_types.clone();
        def.generate = Some(Arc::new(
            move |resource: &marionette_ral::Resource,
                  generation: &dyn marionette_ral::Generation| {
                checks
                    .load()
                    .map_err(marionette_ral::GenerateError::Failed)?;
                let catalog: Vec<(&str, &str, PHash)> = module_types
                    .iter()
                    .flat_map(|name| generation.resources_of(name))
                    .map(|r| (r.type_name(), r.title(), values_of(r)))
                    .collect();
                let (made, failed) = host
                    .generate(
                        &t.name,
                        (resource.title(), &values_of(resource)),
                        &catalog,
                        &mut Answers::none(),
                    )
                    .map_err(|error| {
                        marionette_ral::GenerateError::Failed(failure(&error, &t.file))
                    })?;
                let made: Vec<marionette_ral::Generated> = made
                    .into_iter()
                    .map(|made| marionette_ral::Generated {
                        type_name: made.type_name,
                        title: made.title,
                        params: made
                            .values
                            .iter()
                            .map(|(name, value)| {
                                (marionette_values::format::to_s(name), value.clone())
                            })
                            .collect(),
                        by: match made.by.as_str() {
                            "eval_generate" => marionette_ral::GeneratedBy::EvalGenerate,
                            "both" => marionette_ral::GeneratedBy::Both,
                            _ => marionette_ral::GeneratedBy::Generate,
                        },
                    })
                    .collect();
                match failed {
                    // `eval_generate` raised: what `generate` made stands.
                    Some(message) => Err(marionette_ral::GenerateError::Incomplete(
                        made,
                        format!("{message} ({})", t.file.display()),
                    )),
                    None => Ok(made),
                }
            },
        ));
    }
    if !checks.checked.is_empty()
        || !checks.whole.is_empty()
        || !checks.defaults.is_empty()
        || !checks.relations.is_empty()
        || checks.validates
    {
        def.batch = Some(checks);
    }
    def
}

/// What a Ruby type's code says of the resources being built: asked of
/// the host for all the resources of a catalog at once (see
/// [`marionette_ral::Batch`]), and kept for the attributes' hooks, so
/// that checking a catalog costs two requests, not several a resource. A
/// resource built alone is asked about alone.
struct RubyChecks {
    host: Arc<RubyHost>,
    t: RubyType,
    /// Whether the type's file loaded in the host, once.
    loaded: OnceLock<Result<(), String>>,
    /// The parameters whose own code checks their values.
    checked: Vec<String>,
    /// The parameters whose own code sees their value whole (a `should=`
    /// of their own).
    whole: Vec<String>,
    /// The parameters whose default the type's code computes.
    defaults: Vec<String>,
    /// The automatic relationships, `(kind, target type)`.
    relations: Vec<(String, String)>,
    /// Whether the type has a `validate` block.
    validates: bool,
    /// Whether the type defines its resources' `title`.
    titled: bool,
    /// Whether the type's code looks at the catalog (`catalog.resources`
    /// in an `autorequire` block): its checks then get the catalog's
    /// module-type resources.
    reads_catalog: bool,
    learned: Mutex<Learned>,
}

/// What the host said of a catalog's resources.
#[derive(Default)]
struct Learned {
    /// Each parameter's verdict on values: its code sees the value alone,
    /// so a verdict holds for every resource that gives it. An accepted
    /// word may come with the word the code makes of it (an alias's
    /// value).
    verdicts: HashMap<(String, String), Result<Option<String>, String>>,
    /// Each parameter's verdict on whole values, by the type's own
    /// `should=`.
    whole_verdicts: HashMap<(String, String), Result<(), String>>,
    /// The computed defaults of each resource declared, by title.
    defaults: HashMap<String, Vec<(String, Value)>>,
    /// The title the type's own `title` shows, by declared title, where
    /// it differs.
    shown_titles: HashMap<String, String>,
    /// The titles of each automatic relationship, by resource title.
    relations: HashMap<String, Vec<Vec<String>>>,
}

impl RubyChecks {
    fn load(&self) -> Result<(), String> {
        self.loaded
            .get_or_init(|| {
                self.host
                    .load_type(&self.t.name, &self.t.file, &mut Answers::none())
                    .map_err(|e| failure(&e, &self.t.file))
            })
            .clone()
    }

    fn learned(&self) -> std::sync::MutexGuard<'_, Learned> {
        self.learned.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn declare(
        &self,
        asked: marionette_ruby::Asked<'_>,
        resources: &[(&str, PHash)],
    ) -> Result<Vec<marionette_ruby::Declared>, String> {
        self.load()?;
        self.host
            .check_declared(&self.t.name, asked, resources, &mut Answers::none())
            .map_err(|e| failure(&e, &self.t.file))
    }

    /// What the host says of `value` given to `attr` alone: each of its
    /// values checked alone, or (`whole`) the value through the
    /// attribute's own `should=`.
    fn declare_alone(
        &self,
        attr: &str,
        value: &Value,
        whole: bool,
    ) -> Result<Option<marionette_ruby::Declared>, String> {
        let names = [attr.to_string()];
        let asked = if whole {
            marionette_ruby::Asked {
                whole: &names,
                ..Default::default()
            }
        } else {
            marionette_ruby::Asked {
                checked: &names,
                ..Default::default()
            }
        };
        let mut values = PHash::default();
        values.insert(Value::string(attr), value.clone());
        Ok(self.declare(asked, &[("", values)])?.into_iter().next())
    }

    fn verdict(&self, attr: &str, value: &Value) -> Result<Option<String>, String> {
        let key = (attr.to_string(), format!("{value:?}"));
        if let Some(known) = self.learned().verdicts.get(&key) {
            return known.clone();
        }
        let verdict = self
            .declare_alone(attr, value, false)?
            .map_or(Ok(None), |one| verdict_of(&one, attr));
        self.learned().verdicts.insert(key, verdict.clone());
        verdict
    }

    fn whole_verdict(&self, attr: &str, value: &Value) -> Result<(), String> {
        let key = (attr.to_string(), format!("{value:?}"));
        if let Some(known) = self.learned().whole_verdicts.get(&key) {
            return known.clone();
        }
        let verdict = self
            .declare_alone(attr, value, true)?
            .map_or(Ok(()), |one| whole_verdict_of(&one, attr));
        self.learned().whole_verdicts.insert(key, verdict.clone());
        verdict
    }

    fn default(&self, attr: &str, resource: &marionette_ral::Resource) -> Option<Value> {
        let find = |found: &[(String, Value)]| {
            found
                .iter()
                .find(|(name, _)| name == attr)
                .map(|(_, value)| value.clone())
        };
        if let Some(found) = self.learned().defaults.get(resource.title()) {
            return find(found);
        }
        let declared = self
            .declare(
                marionette_ruby::Asked {
                    defaults: &[attr.to_string()],
                    ..Default::default()
                },
                &[(resource.title(), values_of(resource))],
            )
            .ok()?;
        find(&declared.first()?.defaults)
    }

    fn change_to_s(
        &self,
        attr: &str,
        resource: &marionette_ral::Resource,
        (current, desired): (&Value, &Value),
        noop: bool,
    ) -> Option<String> {
        self.load().ok()?;
        self.host
            .change_to_s(
                &self.t.name,
                (resource.title(), &values_of(resource)),
                (attr, current, desired),
                noop,
                &mut Answers::none(),
            )
            .ok()
            .flatten()
    }

    fn titles(&self, at: usize, resource: &marionette_ral::Resource) -> Vec<String> {
        if let Some(found) = self.learned().relations.get(resource.title()) {
            return found.get(at).cloned().unwrap_or_default();
        }
        self.check_built(false, &[resource], &[]);
        self.learned()
            .relations
            .get(resource.title())
            .and_then(|found| found.get(at).cloned())
            .unwrap_or_default()
    }

    /// Asks the host about built resources, keeps their relationships'
    /// titles, and gives the verdicts of the type's `validate` block.
    fn check_built(
        &self,
        validates: bool,
        resources: &[&marionette_ral::Resource],
        catalog: &[&marionette_ral::Resource],
    ) -> Vec<Result<(), String>> {
        let list: Vec<(&str, PHash)> = resources
            .iter()
            .map(|r| (r.title(), values_of(r)))
            .collect();
        let catalog: Vec<(&str, &str, PHash)> = if self.reads_catalog && !self.relations.is_empty()
        {
            catalog
                .iter()
                .map(|r| (r.type_def().name.as_str(), r.title(), values_of(r)))
                .collect()
        } else {
            Vec::new()
        };
        let built = self.load().and_then(|()| {
            self.host
                .check_built(
                    &self.t.name,
                    validates,
                    (&self.relations, &catalog),
                    &list,
                    &mut Answers::none(),
                )
                .map_err(|e| failure(&e, &self.t.file))
        });
        match built {
            Ok(built) => {
                let mut learned = self.learned();
                built
                    .into_iter()
                    .zip(resources)
                    .map(|(one, resource)| {
                        learned
                            .relations
                            .insert(resource.title().to_string(), one.relations);
                        one.refused.map_or(Ok(()), Err)
                    })
                    .collect()
            }
            // Without a `validate` block, only relationships were asked:
            // a resource whose blocks cannot be run has none.
            Err(_) if !validates => vec![Ok(()); resources.len()],
            Err(message) => vec![Err(message); resources.len()],
        }
    }
}

impl marionette_ral::Batch for RubyChecks {
    fn declared(&self, resources: &[(&str, Vec<(String, Value)>)]) {
        // What was learned of an earlier catalog (an agent's last run)
        // is not this one's.
        *self.learned() = Learned::default();
        if self.checked.is_empty()
            && self.whole.is_empty()
            && self.defaults.is_empty()
            && !self.titled
        {
            return;
        }
        let list: Vec<(&str, PHash)> = resources
            .iter()
            .map(|(title, values)| {
                let hash = values
                    .iter()
                    .map(|(name, value)| (Value::string(name.as_str()), value.clone()))
                    .collect();
                (*title, hash)
            })
            .collect();
        // When the host cannot answer, each resource asks alone as it is
        // built, and fails there if it must.
        let asked = marionette_ruby::Asked {
            checked: &self.checked,
            whole: &self.whole,
            defaults: &self.defaults,
        };
        let Ok(declared) = self.declare(asked, &list) else {
            return;
        };
        let mut learned = self.learned();
        for ((title, values), one) in resources.iter().zip(declared) {
            for (name, value) in values.iter().filter(|(n, _)| self.checked.contains(n)) {
                let verdict = verdict_of(&one, name);
                learned
                    .verdicts
                    .insert((name.clone(), format!("{value:?}")), verdict);
            }
            for (name, value) in values.iter().filter(|(n, _)| self.whole.contains(n)) {
                let verdict = whole_verdict_of(&one, name);
                learned
                    .whole_verdicts
                    .insert((name.clone(), format!("{value:?}")), verdict);
            }
            if let Some(shown) = one.shown_title {
                learned.shown_titles.insert(title.to_string(), shown);
            }
            learned.defaults.insert(title.to_string(), one.defaults);
        }
    }

    fn check(
        &self,
        resources: &[&marionette_ral::Resource],
        catalog: &[&marionette_ral::Resource],
    ) -> Vec<Result<(), String>> {
        if self.relations.is_empty() && !self.validates {
            return vec![Ok(()); resources.len()];
        }
        self.check_built(self.validates, resources, catalog)
    }
}

/// What the host said of one attribute's given value: refused, or
/// accepted with the word its code makes of it when that is another.
fn verdict_of(declared: &marionette_ruby::Declared, attr: &str) -> Result<Option<String>, String> {
    if let Some((_, message)) = declared.refused.iter().find(|(name, _)| name == attr) {
        return Err(message.clone());
    }
    Ok(declared
        .canonical
        .iter()
        .find(|(name, _)| name == attr)
        .map(|(_, word)| word.clone()))
}

/// What the host said of one attribute's given value, whole.
fn whole_verdict_of(declared: &marionette_ruby::Declared, attr: &str) -> Result<(), String> {
    match declared.refused_whole.iter().find(|(name, _)| name == attr) {
        Some((_, message)) => Err(message.clone()),
        None => Ok(()),
    }
}

/// A resource's values as the host takes them.
fn values_of(resource: &marionette_ral::Resource) -> PHash {
    values_where(resource, |_| true)
}

/// A resource's values for the host to make it with: those its type's
/// Ruby computed as defaults are left for the host to compute again, so
/// that they keep their Ruby form (archive's `extract_flags` defaults to
/// the symbol `:undef`, which the engine holds as text).
fn applying_values(resource: &marionette_ral::Resource) -> PHash {
    values_where(resource, |name| {
        resource.is_given(name)
            || !resource.type_def().attribute(name).is_some_and(|attr| {
                matches!(
                    attr.default,
                    Some(marionette_ral::DefaultValue::Computed(_))
                )
            })
    })
}

/// The names of `values` that are defaults the resource layer filled,
/// not given in the catalog.
fn defaulted(resource: &marionette_ral::Resource, values: &PHash) -> Vec<String> {
    values
        .keys()
        .filter_map(|name| match name {
            Value::String(name) => Some(&**name),
            _ => None,
        })
        .filter(|name| !resource.is_given(name) && resource.type_def().attribute(name).is_some())
        .map(str::to_string)
        .collect()
}

/// The values of the attributes `keep` keeps, as the host takes them.
fn values_where(resource: &marionette_ral::Resource, keep: impl Fn(&str) -> bool) -> PHash {
    // Metaparameters too, as a type's code reads them (`self[:tag]`; and
    // concat's fragments declare a `tag` of their own).
    resource
        .values()
        .chain(resource.metas())
        .filter(|(name, _)| keep(name))
        .map(|(name, value)| (Value::string(name), value.clone()))
        .collect()
}

/// Loads a type's providers in the host and declares each to the
/// registry; a provider that cannot be loaded stays listed as broken,
/// with the reason.
fn load_providers(host: &Arc<RubyHost>, t: &RubyType, type_def: &TypeDef) -> Vec<ProviderDef> {
    // What `instances` shows: the properties, as `puppet resource` does.
    let read_only = match &type_def.listing {
        marionette_ral::Listing::Declared { read_only } => read_only.as_slice(),
        marionette_ral::Listing::Aligned => &[],
    };
    let shown: Arc<[String]> = type_def
        .attributes
        .iter()
        .filter(|a| a.kind != marionette_ral::AttrKind::Parameter || read_only.contains(&a.name))
        .map(|a| a.name.clone())
        .chain(["name".to_string(), "ensure".to_string()])
        .collect();
    let mut answers = Answers::none();
    if t.providers.is_empty() {
        // A type without providers (concat's `concat_file`) manages its
        // resources itself: its own `exists?`, `create` and getters, as
        // Puppet asks the type when there is no provider.
        let provider = Arc::new(RubyProvider::new(host, &t.name, "", &shown));
        let mut def =
            ProviderDef::new(&t.name, &t.name, Implementation::Properties(provider)).implicit();
        if let Err(error) = host.load_providers(&t.name, &t.file, &[], &mut answers) {
            def.confines.push(Confine::Broken(failure(&error, &t.file)));
        }
        return vec![def];
    }
    let specs = match host.load_providers(&t.name, &t.file, &t.providers, &mut answers) {
        Ok(specs) => specs,
        Err(error) => {
            let reason = failure(&error, &t.file);
            return t
                .providers
                .iter()
                .map(|file| {
                    let name = file_name(file).trim_end_matches(".rb").to_string();
                    let provider = Arc::new(RubyProvider::new(host, &t.name, &name, &shown));
                    let mut def =
                        ProviderDef::new(&t.name, &name, Implementation::Properties(provider));
                    def.confines.push(Confine::Broken(reason.clone()));
                    def
                })
                .collect();
        }
    };
    specs
        .into_iter()
        .map(|spec| {
            let provider = Arc::new(RubyProvider::new(host, &t.name, &spec.name, &shown));
            let mut def =
                ProviderDef::new(&t.name, &spec.name, Implementation::Properties(provider));
            def.doc = spec.doc.clone();
            def.commands = spec.commands.clone();
            def.optional_commands = spec.optional_commands.clone();
            def.confines
                .extend(spec.confine_exists.iter().cloned().map(Confine::Exists));
            def.confines.extend(
                spec.confine_facts
                    .iter()
                    .map(|(name, values)| Confine::Fact {
                        name: name.clone(),
                        values: values.clone(),
                    }),
            );
            def.confines
                .extend(spec.confine_features.iter().cloned().map(Confine::Feature));
            if !spec.suitable {
                def.confines.push(Confine::Broken(
                    "a confine checked in its Ruby does not hold".to_string(),
                ));
            }
            def.defaultfor = spec.defaultfor.clone();
            def.features = spec.features.clone();
            def
        })
        .collect()
}

fn failure(error: &HostError, file: &std::path::Path) -> String {
    // A module's provider for a core type has no type file to name.
    if file.as_os_str().is_empty() {
        return match error {
            HostError::Raised { message, .. }
            | HostError::Broken(message)
            | HostError::FactBroken { message, .. } => message.clone(),
            HostError::NoRuby { .. } => failure(error, std::path::Path::new("a module's provider")),
        };
    }
    match error {
        HostError::NoRuby { message, .. } => format!(
            "{} is written in Ruby, and running it needs Ruby: {message}. Install Ruby 3.1 or later (apt-get install ruby), or set MARIONETTE_RUBY to the interpreter",
            file.display()
        ),
        HostError::Raised { message, .. } => format!("{message} ({})", file.display()),
        HostError::Broken(message) | HostError::FactBroken { message, .. } => {
            format!("{message} ({})", file.display())
        }
    }
}

/// The provider of a Ruby type that has none: Puppet's defaults, on a
/// property hash nothing fills.
struct Nothing;

impl PropertyProvider for Nothing {}

/// One Ruby provider, its resources kept in the host for the run.
struct RubyProvider {
    host: Arc<RubyHost>,
    type_name: String,
    name: String,
    /// The host's resource of each catalog resource, by reference.
    resources: Mutex<HashMap<String, ResourceId>>,
    /// The attributes an instance shows: its properties and name.
    shown: Arc<[String]>,
    /// Resources whose provider was flushed with their `ensure` change.
    flushed: Mutex<std::collections::HashSet<ResourceId>>,
    /// What the host read of each resource's properties, so that one
    /// request answers every `exists` and `get` of a resource's
    /// evaluation (and one request after the prefetch, those of every
    /// resource the run finds in sync).
    states: Mutex<HashMap<ResourceId, Known>>,
}

/// The properties read of one resource, and when.
struct Known {
    /// The run's change count, and its value when the properties were
    /// read: any change since, by any resource, may have made them stale.
    run: ChangeCount,
    at: u64,
    /// By attribute: the current value and the property's own verdict,
    /// or the getter's exception.
    values: HashMap<String, Result<(Value, bool), HostError>>,
    /// What the getters logged while read ahead, logged on first use.
    logs: Vec<marionette_ruby::LoggedMessage>,
    /// Whether every value came from the provider's own record of the
    /// resource, which other resources' changes leave as it is.
    own: bool,
    /// What the resource wants of `ensure` once read.
    wanted_ensure: Option<String>,
}

impl Known {
    fn new(cx: &Context) -> Known {
        Known {
            run: cx.generation.clone(),
            at: cx.generation.current(),
            values: HashMap::new(),
            logs: Vec::new(),
            own: true,
            wanted_ensure: None,
        }
    }

    /// Whether what was read still holds: nothing has changed since, or
    /// nothing that could change it. This resource's own changes make it
    /// forgotten (`RubyProvider::forget`).
    fn fresh(&self, cx: &Context) -> bool {
        self.run.same_run(&cx.generation) && (self.own || self.at == cx.generation.current())
    }

    fn add(&mut self, state: marionette_ruby::ResourceState) {
        for (attr, value, insync) in state.values {
            self.values.insert(attr, Ok((value, insync)));
        }
        if let Some((attr, error)) = state.failed {
            self.values.insert(attr, Err(error));
        }
        self.logs.extend(state.logs);
        self.own &= state.own;
        if state.wanted_ensure.is_some() {
            self.wanted_ensure = state.wanted_ensure;
        }
    }
}

/// The properties the resource layer reads of a resource when it
/// evaluates it, `ensure` first, as it reads them.
fn wanted(resource: &marionette_ral::Resource) -> Vec<&str> {
    let mut attrs: Vec<&str> = resource
        .managed_properties()
        .map(|(attr, _)| attr.name.as_str())
        .collect();
    if let Some(at) = attrs.iter().position(|a| *a == "ensure") {
        let ensure = attrs.remove(at);
        attrs.insert(0, ensure);
    }
    attrs
}

impl RubyProvider {
    /// Makes in one request the host's resources of those not made yet;
    /// one the type's code refuses fails alone, when it is evaluated.
    fn make(
        &self,
        cx: &Context,
        resources: &[&marionette_ral::Resource],
    ) -> Result<(), ProviderError> {
        /// A resource the host has not made yet: its reference, title,
        /// values, and its path with the names of its defaulted values.
        type Unmade<'r> = (String, &'r str, PHash, (String, Vec<String>));
        let missing: Vec<Unmade<'_>> = {
            let known = self.resources.lock().unwrap_or_else(|e| e.into_inner());
            resources
                .iter()
                .filter(|r| !known.contains_key(&r.reference()))
                .map(|r| {
                    let values = applying_values(r);
                    let defaulted = defaulted(r, &values);
                    (r.reference(), r.title(), values, (r.path(), defaulted))
                })
                .collect()
        };
        if missing.is_empty() {
            return Ok(());
        }
        let request: Vec<(&str, PHash)> =
            missing.iter().map(|(_, t, v, _)| (*t, v.clone())).collect();
        let made: Vec<(String, Vec<String>)> =
            missing.iter().map(|(.., made)| made.clone()).collect();
        let made = self
            .host
            .new_resources(
                &self.type_name,
                &self.name,
                &request,
                &made,
                &mut Answers::applying(cx),
            )
            .map_err(|e| self.error(&e))?;
        let mut known = self.resources.lock().unwrap_or_else(|e| e.into_inner());
        for ((reference, ..), made) in missing.iter().zip(made) {
            if let Ok(id) = made {
                known.insert(reference.clone(), id);
            }
        }
        Ok(())
    }

    fn new(
        host: &Arc<RubyHost>,
        type_name: &str,
        name: &str,
        shown: &Arc<[String]>,
    ) -> RubyProvider {
        RubyProvider {
            host: host.clone(),
            type_name: type_name.to_string(),
            name: name.to_string(),
            shown: shown.clone(),
            flushed: Mutex::default(),
            resources: Mutex::default(),
            states: Mutex::default(),
        }
    }

    /// The host's resource for `instance`, made on first need: the type's
    /// code validates and munges its values then.
    fn resource(&self, cx: &Context, instance: &Instance<'_>) -> Result<ResourceId, ProviderError> {
        let reference = instance.resource.reference();
        if let Some(id) = self
            .resources
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&reference)
        {
            return Ok(*id);
        }
        let values = applying_values(instance.resource);
        let defaulted = defaulted(instance.resource, &values);
        let id = self
            .host
            .new_resource(
                &self.type_name,
                &self.name,
                (instance.resource.title(), &instance.resource.path()),
                (&values, &defaulted),
                &mut Answers::applying(cx),
            )
            .map_err(|e| self.error(&e))?;
        self.resources
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(reference, id);
        Ok(id)
    }

    /// A property's current value and the property's own verdict on it:
    /// from what was read of the resource while nothing has changed
    /// since, else read now with every other property the resource
    /// manages that is not known yet, in one request.
    fn current(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<(Value, bool), ProviderError> {
        let id = self.resource(cx, instance)?;
        let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        let known = states.entry(id).or_insert_with(|| Known::new(cx));
        if !known.fresh(cx) {
            *known = Known::new(cx);
        }
        if !known.logs.is_empty() {
            // The getters ran ahead of this resource's evaluation; what
            // they said belongs here.
            let mut answers = Answers::applying(cx);
            for log in std::mem::take(&mut known.logs) {
                answers.log(&log.level, log.source.as_deref(), &log.message);
            }
        }
        if !known.values.contains_key(attr) {
            // The attribute asked for comes first: the host reads it
            // whatever it finds of the others.
            let attrs: Vec<&str> = std::iter::once(attr)
                .chain(
                    wanted(instance.resource)
                        .into_iter()
                        .filter(|a| *a != attr && !known.values.contains_key(*a)),
                )
                .collect();
            drop(states);
            let state = self
                .host
                .resource_state(id, &attrs, &mut Answers::applying(cx))
                .map_err(|e| self.error(&e))?;
            if let Some(version) = &state.candidate {
                marionette_ral::candidate::record_candidate(instance.resource, version);
            }
            states = self.states.lock().unwrap_or_else(|e| e.into_inner());
            states
                .entry(id)
                .or_insert_with(|| Known::new(cx))
                .add(state);
        }
        match states.get(&id).and_then(|known| known.values.get(attr)) {
            Some(Ok(current)) => Ok(current.clone()),
            Some(Err(error)) => Err(self.error(error)),
            None => Err(ProviderError::new(format!(
                "the Ruby host did not read {attr} (provider {} of {})",
                self.name, self.type_name
            ))),
        }
    }

    /// Forgets what was read of a resource that is being changed.
    fn forget(&self, id: ResourceId) {
        self.states
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }

    fn sync_ensure(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        value: &str,
    ) -> Result<(), ProviderError> {
        let id = self.resource(cx, instance)?;
        self.forget(id);
        let logs = self
            .host
            .property_set(
                id,
                ("ensure", &Value::string(value)),
                true,
                &mut Answers::applying(cx),
            )
            .map_err(|e| self.failed_change(cx, instance, &e))?;
        hold_flush_logs(cx, logs);
        self.flushed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id);
        Ok(())
    }

    /// A change the module's code refused: Puppet logs the exception on
    /// its own before the failed change.
    fn failed_change(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        error: &HostError,
    ) -> ProviderError {
        let raised =
            |name: &str| matches!(error, HostError::Raised { class, .. } if class.ends_with(name));
        let mut error = self.error(error);
        if raised("ValueFailed") {
            // Puppet's Property#call_valuemethod logs the worded failure,
            // with where the resource was declared, and its transaction
            // logs it again.
            error.0.push_str(&instance.resource.origin().to_string());
            cx.logger.log(marionette_ral::log::Level::Err, "", &error.0);
            cx.logger.log(marionette_ral::log::Level::Err, "", &error.0);
        } else if !raised("FlushFailed") {
            cx.logger.log(marionette_ral::log::Level::Err, "", &error.0);
        }
        error
    }

    fn error(&self, error: &HostError) -> ProviderError {
        match error {
            HostError::Raised { message, .. } => ProviderError::new(message.clone()),
            other => ProviderError::new(format!(
                "{other} (provider {} of {})",
                self.name, self.type_name
            )),
        }
    }
}

impl PropertyProvider for RubyProvider {
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let found = self
            .host
            .instances(&self.type_name, &self.name, &mut Answers::applying(cx))
            .map_err(|e| self.error(&e))?;
        Ok(found
            .into_iter()
            .map(|hash| {
                hash.iter()
                    .map(|(k, v)| (marionette_values::format::to_s(k), v.clone()))
                    .filter(|(k, _)| self.shown.contains(k))
                    .collect()
            })
            .collect())
    }

    fn instantiate(&self, cx: &Context, resources: &[&marionette_ral::Resource]) {
        // A failure is each resource's own, met again when it is
        // evaluated.
        let _ = self.make(cx, resources);
    }

    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let resources: Vec<&marionette_ral::Resource> =
            instances.iter().map(|i| i.resource).collect();
        self.make(cx, &resources)?;
        let mut ids = Vec::new();
        let mut wanted_states = Vec::new();
        // The instance each resource read ahead is.
        let mut read_for = HashMap::new();
        for (at, instance) in instances.iter().enumerate() {
            // A resource the type's code refuses fails alone, when it is
            // evaluated.
            if let Ok(id) = self.resource(cx, instance) {
                ids.push(id);
                let attrs = wanted(instance.resource);
                if !attrs.is_empty() {
                    wanted_states.push((id, attrs));
                    read_for.insert(id, at);
                }
            }
        }
        let prefetched = self
            .host
            .prefetch(
                &self.type_name,
                &self.name,
                &ids,
                &mut Answers::applying(cx),
            )
            .map_err(|e| self.error(&e))?;
        // Every resource's properties are read now, in one request; each
        // state serves its resource's evaluation while the run has
        // changed nothing, as when nothing is to change. Only for a
        // provider with its own prefetch, whose getters mostly read what
        // it found: the getters of others read the system, and a run
        // whose first resource changes something would pay for them
        // twice.
        let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        for id in &ids {
            states.remove(id);
        }
        if !prefetched || wanted_states.is_empty() {
            return Ok(());
        }
        drop(states);
        // A failure to read them ahead is no failure of the prefetch:
        // each resource is then read when it is evaluated, and fails
        // there if it must.
        if let Ok(read) = self
            .host
            .resource_states(&wanted_states, &mut Answers::applying(cx))
        {
            let mut states = self.states.lock().unwrap_or_else(|e| e.into_inner());
            for ((id, _), state) in wanted_states.iter().zip(read) {
                if let (Some(version), Some(instance)) = (&state.candidate, read_for.get(id)) {
                    marionette_ral::candidate::record_candidate(
                        instances[*instance].resource,
                        version,
                    );
                }
                let mut known = Known::new(cx);
                known.add(state);
                states.insert(*id, known);
            }
        }
        Ok(())
    }

    fn exists(&self, cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        let (value, _) = self.current(cx, instance, "ensure")?;
        Ok(!matches!(&value, Value::String(s) if &**s == "absent" || &**s == "purged"))
    }

    // The resource layer flushes right after `create` and `destroy`: the
    // host flushes in the same request, and the flush that follows is
    // not sent again.
    fn create(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        self.sync_ensure(cx, instance, "present")
    }

    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        self.sync_ensure(cx, instance, "absent")
    }

    /// The current value; when the property's own comparison (`insync?`)
    /// finds it in sync, the desired value itself, so that the resource
    /// layer's comparison agrees with the module's.
    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        let (value, insync) = self.current(cx, instance, attr)?;
        // A `wanted` value replaces the resource's: the comparison is the
        // resource layer's, with the value as read.
        let rewanted = attr == "ensure" && self.wanted(cx, instance, attr).is_some();
        // A package's `latest` compares with the version the provider
        // found (recorded with the state), which the value read is.
        let latest = attr == "ensure"
            && instance
                .should(attr)
                .is_some_and(|should| marionette_values::format::to_s(should) == "latest");
        if insync
            && !rewanted
            && !latest
            && let Some(should) = instance.should(attr)
        {
            return Ok(Some(should.clone()));
        }
        Ok(match value {
            // A getter's nil is the property's value, which Puppet shows
            // empty ("change from  to ..."), not a property the thing
            // lacks ('absent'); `ensure` has no such value.
            Value::Undef if attr == "ensure" => None,
            value => Some(value),
        })
    }

    fn wanted(&self, cx: &Context, instance: &Instance<'_>, attr: &str) -> Option<Value> {
        if attr != "ensure" {
            return None;
        }
        let id = self.resource(cx, instance).ok()?;
        let states = self.states.lock().unwrap_or_else(|e| e.into_inner());
        let wanted = states.get(&id)?.wanted_ensure.as_deref()?;
        let given = instance
            .should("ensure")
            .map(marionette_values::format::to_s);
        (given.as_deref() != Some(wanted)).then(|| Value::string(wanted))
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        let id = self.resource(cx, instance)?;
        self.forget(id);
        self.host
            .property_set(id, (attr, value), false, &mut Answers::applying(cx))
            .map_err(|e| self.failed_change(cx, instance, &e))?;
        Ok(())
    }

    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let id = self.resource(cx, instance)?;
        self.forget(id);
        if self
            .flushed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id)
        {
            return Ok(());
        }
        let logs = self
            .host
            .flush(id, &mut Answers::applying(cx))
            .map_err(|e| self.error(&e))?;
        hold_flush_logs(cx, logs);
        Ok(())
    }

    fn refresh(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let id = self.resource(cx, instance)?;
        // What the refresh changed is read again.
        self.forget(id);
        self.host
            .refresh(id, &mut Answers::applying(cx))
            .map_err(|e| self.error(&e))
    }
}

/// Runs a command for a provider's or a fact's Ruby, in a process group
/// of its own as the native providers' commands: what it printed and its
/// exit status, whatever the status (the Ruby side decides what a failure
/// is), or why it could not start.
fn execute(execution: &marionette_ruby::Execution) -> Result<(String, Option<i32>), String> {
    let mut spec = marionette_ral::command::CommandSpec::new(&execution.argv).unchecked();
    if execution.combine {
        spec = spec.combined();
    }
    if let Some(input) = &execution.stdin {
        spec = spec.stdin(input.as_bytes());
    }
    for (name, value) in &execution.env {
        spec = spec.env(name, value);
    }
    spec.cwd = execution.cwd.as_ref().map(PathBuf::from);
    let output = marionette_ral::command::Runner::default()
        .run(&spec)
        .map_err(|error| error.to_string())?;
    Ok((output.stdout, output.status))
}

/// The node's facts outside a run (see `Plugins::set_node_facts`).
static NODE_FACTS: std::sync::RwLock<Option<Arc<marionette_ral::Facts>>> =
    std::sync::RwLock::new(None);

pub(crate) fn set_node_facts(facts: Arc<marionette_ral::Facts>) {
    *NODE_FACTS.write().unwrap_or_else(|e| e.into_inner()) = Some(facts);
}

/// What the engine answers a provider's or a fact's Ruby: the node's facts
/// (for `Facter.value`) and, while applying, the run's log.
struct Answers<'c> {
    cx: Option<&'c Context>,
    facts: Option<&'c marionette_ral::Facts>,
    /// The node's facts when no run gives them (a type's file loading,
    /// its values checked before the run).
    node: Option<Arc<marionette_ral::Facts>>,
    /// Messages logged while no run's log exists (resolving facts).
    kept: Vec<String>,
}

impl<'c> Answers<'c> {
    fn none() -> Answers<'c> {
        Answers {
            cx: None,
            facts: None,
            node: NODE_FACTS.read().unwrap_or_else(|e| e.into_inner()).clone(),
            kept: Vec::new(),
        }
    }

    fn applying(cx: &'c Context) -> Answers<'c> {
        Answers {
            cx: Some(cx),
            facts: Some(&cx.facts),
            node: None,
            kept: Vec::new(),
        }
    }

    fn facts(&self) -> Option<&marionette_ral::Facts> {
        self.facts.or(self.node.as_deref())
    }
}

/// A resource of the run being applied, by its type (`File` or `file`)
/// and title.
fn run_resource<'c>(
    cx: &'c Context,
    type_name: &str,
    title: &str,
) -> Option<&'c marionette_ral::Resource> {
    cx.find(&type_name.to_lowercase(), title)
}

/// The modules' custom fact files (`lib/facter/*.rb`), in module path
/// order.
pub(crate) fn fact_files(modules: &[PathBuf]) -> Vec<PathBuf> {
    modules
        .iter()
        .flat_map(|m| entries(&m.join("lib/facter")))
        .filter(|f| file_name(f).ends_with(".rb"))
        .collect()
}

/// The names of the facts `files` add, read without Ruby; `None` when a
/// file names one in a way only running it tells (or cannot be read).
pub(crate) fn fact_names(files: &[PathBuf]) -> (std::collections::BTreeSet<String>, Vec<PathBuf>) {
    let mut names = std::collections::BTreeSet::new();
    let mut opaque = Vec::new();
    for file in files {
        match std::fs::read_to_string(file)
            .ok()
            .and_then(|text| marionette_ruby::fact_names(&text))
        {
            Some(found) => names.extend(found),
            None => opaque.push(file.clone()),
        }
    }
    (names, opaque)
}

/// Modules' custom facts, every one resolved in `host` (whose
/// `Settings::fact_files` name them) with the facts collected natively:
/// the facts they add (never replacing one already collected, as Facter
/// keeps its own), and what went wrong, by file.
pub(crate) fn custom_facts(
    host: &RubyHost,
    facts: &marionette_ral::Facts,
    cached: &[String],
) -> (marionette_ral::Facts, Vec<Problem>) {
    let mut added = marionette_ral::Facts::new();
    if host.settings().fact_files.is_empty() {
        return (added, Vec::new());
    }
    let problems = resolving(host, facts, |host, answers| {
        let (values, errors) = host.custom_facts(cached, answers)?;
        for (name, value) in values.iter() {
            let name = marionette_values::format::to_s(name);
            if !facts.contains_key(&name) {
                added.insert(name, marionette_catalog::to_data(value));
            }
        }
        Ok(errors)
    });
    (added, problems)
}

/// The one custom fact `name`, resolved in `host` as [`custom_facts`]
/// resolves them all: its value, if a resolution gave one, and what went
/// wrong.
pub(crate) fn custom_fact(
    host: &RubyHost,
    facts: &marionette_ral::Facts,
    name: &str,
) -> (Option<serde_json::Value>, Vec<Problem>) {
    let mut found = None;
    let problems = resolving(host, facts, |host, answers| {
        let (value, errors) = host.custom_fact(name, answers)?;
        found = value.map(|value| marionette_catalog::to_data(&value));
        Ok(errors)
    });
    (found, problems)
}

/// How many facts stopping the host one request for custom facts gets
/// past: each is left out and the request made again.
const MAX_STOPPING_FACTS: usize = 32;

/// Runs a request for custom facts with the native `facts` at hand, and
/// gathers what went wrong: files that failed to load, the host's
/// failure, and the errors the facts' own code logged.
fn resolving(
    host: &RubyHost,
    facts: &marionette_ral::Facts,
    mut request: impl FnMut(
        &RubyHost,
        &mut Answers<'_>,
    ) -> Result<Vec<(String, String)>, marionette_ruby::HostError>,
) -> Vec<Problem> {
    let files = &host.settings().fact_files;
    let mut answers = Answers {
        cx: None,
        facts: Some(facts),
        node: None,
        kept: Vec::new(),
    };
    let mut problems = Vec::new();
    // A fact (or a file) that stops the host fails alone: the host after
    // it leaves it out, and the request is made again, once per fact or
    // file at most.
    let mut tries = 0;
    loop {
        match request(host, &mut answers) {
            Ok(errors) => problems.extend(errors.into_iter().map(|(file, message)| Problem {
                file: PathBuf::from(file),
                message,
            })),
            Err(HostError::FactBroken {
                message,
                file,
                fact,
            }) if tries < MAX_STOPPING_FACTS => {
                tries += 1;
                let message = match fact {
                    Some(fact) => format!("resolving the custom fact '{fact}', {message}"),
                    None => format!("loading it, {message}"),
                };
                problems.push(Problem { file, message });
                continue;
            }
            Err(error) => problems.push(Problem {
                file: files[0].parent().map(PathBuf::from).unwrap_or_default(),
                message: failure(&error, &files[0]),
            }),
        }
        break;
    }
    problems.extend(answers.kept.into_iter().map(|message| Problem {
        file: PathBuf::from("Facter"),
        message,
    }));
    problems
}

impl Engine for Answers<'_> {
    fn answer(&mut self, question: Question) -> Result<Answer, String> {
        match question {
            Question::LookupVar(name) if name.trim_start_matches("::") == "facts" => {
                Ok(Answer::Variable(self.facts().map(|facts| {
                    marionette_catalog::from_data(&serde_json::Value::Object(facts.clone()))
                })))
            }
            Question::LookupVar(name) => Ok(Answer::Variable(self.facts().and_then(|facts| {
                facts
                    .get(name.trim_start_matches("::"))
                    .map(marionette_catalog::from_data)
            }))),
            // Whether the run is a rehearsal (a type's `noop?`).
            Question::Setting(name) if name == "noop" => Ok(Answer::Value(Value::Boolean(
                self.cx.is_some_and(|cx| cx.noop),
            ))),
            // Whether changes show their diffs (`--show_diff`; augeas's
            // provider prints its own).
            Question::Setting(name) if name == "show_diff" => Ok(Answer::Value(Value::Boolean(
                self.cx.is_some_and(|cx| cx.show_diff),
            ))),
            // The environment of the catalog being applied (archive names
            // it when a source is found nowhere).
            Question::Setting(name) if name == "environment" => Ok(Answer::Value(Value::string(
                marionette_ral::served::environment(),
            ))),
            Question::Setting(_) => Ok(Answer::Value(Value::Undef)),
            Question::Execute(execution) => Ok(Answer::Executed(execute(&execution))),
            Question::CompareVersions(a, b) => {
                Ok(Answer::Ordering(marionette_eval::compare_versions(&a, &b)))
            }
            // Another resource of the run, for a provider that reads or
            // sets it (datacat's collector).
            Question::FindResource { type_name, title } if self.cx.is_some() => {
                let found = self.cx.and_then(|cx| run_resource(cx, &type_name, &title));
                Ok(Answer::Resource(found.map(|resource| {
                    resource
                        .values()
                        .map(|(name, value)| (Value::string(name), value.clone()))
                        .collect()
                })))
            }
            Question::CatalogResources(types) => {
                let cx = self.cx.ok_or("no catalog is being applied")?;
                let found = cx
                    .catalog
                    .iter()
                    .filter(|r| types.iter().any(|t| t == r.type_name()))
                    .map(|r| {
                        Value::array(vec![
                            Value::string(r.type_name()),
                            Value::string(r.title()),
                            Value::hash(applying_values(r)),
                        ])
                    })
                    .collect();
                Ok(Answer::Value(Value::array(found)))
            }
            Question::SetParameter {
                type_name,
                title,
                name,
                value,
            } => {
                let cx = self.cx.ok_or("no catalog is being applied")?;
                let resource = run_resource(cx, &type_name, &title)
                    .ok_or_else(|| format!("{type_name}[{title}] is not in the catalog"))?;
                // Checked now, as its type checks it: Puppet's
                // `resource[name] = value` raises in the provider that sets
                // it, which fails, and the target is skipped.
                resource
                    .clone()
                    .set(&name, value.clone())
                    .map_err(|e| e.to_string())?;
                cx.overrides.set(resource.reference_str(), &name, value);
                // What was read of the system ahead of the run assumed the
                // resource as the catalog had it.
                cx.generation.advance();
                Ok(Answer::Done)
            }
            Question::CoreProvider(type_name) => {
                let cx = self.cx.ok_or("no catalog is being applied")?;
                crate::core_call::default_provider(cx, &type_name).map(Answer::Text)
            }
            Question::CoreCall {
                type_name,
                title,
                values,
                call,
            } => {
                let cx = self.cx.ok_or("no catalog is being applied")?;
                crate::core_call::call(cx, (&type_name, &title), &values, &call).map(Answer::Value)
            }
            // A provider stops the run (reboot before its immediate
            // reboot): no further resource is applied.
            Question::StopRun => {
                marionette_ral::cancel::cancel();
                Ok(Answer::Done)
            }
            // A module's files, as Puppet's file serving finds them for a
            // provider (archive's `puppet:///` download, concat's fragment
            // sources): the run's module path, or the agent's mirror of
            // the server's.
            Question::ModuleDirectory(name) => {
                Ok(Answer::Path(marionette_ral::served::module_dir(&name)))
            }
            other => Err(format!(
                "a provider cannot ask this while applying: {other:?}"
            )),
        }
    }

    fn log(&mut self, level: &str, source: Option<&str>, message: &str) {
        let Some(cx) = self.cx else {
            if matches!(level, "warning" | "err" | "error") {
                self.kept.push(message.to_string());
            }
            return;
        };
        log_to(&cx.logger, level, source, message);
    }
}

/// Logs a message of the Ruby code (`level` as Puppet names levels) to
/// `logger`.
fn log_to(logger: &marionette_ral::Logger, level: &str, source: Option<&str>, message: &str) {
    let level = match level {
        "debug" => marionette_ral::log::Level::Debug,
        "info" => marionette_ral::log::Level::Info,
        "warning" => marionette_ral::log::Level::Warning,
        "err" | "error" => marionette_ral::log::Level::Err,
        _ => marionette_ral::log::Level::Notice,
    };
    logger.log(
        level,
        &crate::printable(source.unwrap_or("")),
        &crate::printable(message),
    );
}

/// What a provider's flush logged, held until the resource's changes
/// are logged (see `Context::flush_logs`).
fn hold_flush_logs(cx: &Context, logs: Vec<marionette_ruby::LoggedMessage>) {
    for log in logs {
        log_to(
            &cx.flush_logs,
            &log.level,
            log.source.as_deref(),
            &log.message,
        );
    }
}
