//! Applying a module's Ruby type with its Ruby providers: the requests the
//! resource layer makes of the host. The host keeps each resource of the
//! run (validated, munged and defaulted by the type's own code) and its
//! provider instance; the engine drives them through Puppet's provider
//! interface, and keeps the order, events, noop and the report.

use std::path::{Path, PathBuf};

use marionette_values::{PHash, Value};
use serde_json::{Value as Json, json};

use crate::wire::Shape;
use crate::{Engine, HostError, RubyHost, strings};

/// A resource of the catalog as a type's code sees it: its type, title
/// and values.
pub type CatalogEntry<'a> = (&'a str, &'a str, PHash);

/// The entries of a JSON object whose values are strings.
fn pairs(data: Option<&Json>) -> Vec<(String, String)> {
    data.and_then(Json::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
        .collect()
}

/// A Ruby provider as it declares itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderSpec {
    pub name: String,
    pub doc: String,
    /// `(name, program)`, from `commands`.
    pub commands: Vec<(String, String)>,
    /// `(name, program)`, from `optional_commands`.
    pub optional_commands: Vec<(String, String)>,
    /// Facts (legacy names) and the values one of which each must have.
    pub confine_facts: Vec<(String, Vec<String>)>,
    pub confine_exists: Vec<PathBuf>,
    pub confine_features: Vec<String>,
    /// What the confines only Ruby can check (blocks, `:true`, `:false`)
    /// said when the provider was loaded.
    pub suitable: bool,
    /// Each entry a set of facts that must all match for the provider to
    /// be a default.
    pub defaultfor: Vec<Vec<(String, Vec<String>)>>,
    pub features: Vec<String>,
}

/// What the type's code said of a resource before it was built.
#[derive(Clone, Debug, Default)]
pub struct Declared {
    /// The given values their parameter's code refuses: the attribute and
    /// the message.
    pub refused: Vec<(String, String)>,
    /// The given values of the `whole` attributes that the attribute's own
    /// `should=` refuses as a whole: the attribute and the message.
    pub refused_whole: Vec<(String, String)>,
    /// The defaults computed for parameters the resource does not give.
    pub defaults: Vec<(String, Value)>,
    /// The given words a property's code makes another word of (an
    /// alias's value), with that word, as Puppet's messages show them.
    pub canonical: Vec<(String, String)>,
    /// The title the type's own `title` method gives the resource, when
    /// it is not the declared one (sshkey's `HOST@TYPE`).
    pub shown_title: Option<String>,
}

/// What [`Host::check_declared`] asks of each resource, by attribute name.
#[derive(Clone, Copy, Debug, Default)]
pub struct Asked<'a> {
    /// Attributes whose values the code checks, each alone.
    pub checked: &'a [String],
    /// Attributes whose own `should=` sees their value whole.
    pub whole: &'a [String],
    /// Attributes whose defaults are computed.
    pub defaults: &'a [String],
}

/// What the type's code said of a built resource.
#[derive(Clone, Debug, Default)]
pub struct Built {
    /// Its `validate` block's refusal.
    pub refused: Option<String>,
    /// The titles of each automatic relationship asked, in order.
    pub relations: Vec<Vec<String>>,
}

/// The list under `key` of an answer, when it has `len` entries.
fn listed<'a>(answer: &'a Json, key: &str, len: usize) -> Option<&'a Vec<Json>> {
    answer
        .get(key)
        .and_then(Json::as_array)
        .filter(|list| list.len() == len)
}

/// A resource kept by the host for the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResourceId(u64);

/// What the host read of a resource's properties in one request.
#[derive(Clone, Debug, Default)]
pub struct ResourceState {
    /// Each attribute read: its current value, and whether the property's
    /// own comparison (`insync?`) finds it in sync.
    pub values: Vec<(String, Value, bool)>,
    /// The attribute whose getter raised, with the exception; nothing
    /// after it was read.
    pub failed: Option<(String, HostError)>,
    /// What the getters logged while the state was read ahead of its
    /// use (empty when it was read on the spot: then it went to the
    /// engine's log at once).
    pub logs: Vec<LoggedMessage>,
    /// Whether every value was read from the provider's own record of
    /// the resource (its property hash, through getters
    /// `mk_resource_methods` made): only the resource's own changes can
    /// make such a reading stale, not other resources'.
    pub own: bool,
    /// What the resource wants of `ensure` once read: its provider may
    /// have changed it while reading.
    pub wanted_ensure: Option<String>,
    /// The newest version a package provider's `latest` found while the
    /// state was read (for `ensure => latest`).
    pub candidate: Option<String>,
}

/// A message a module's Ruby logged, kept for later.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoggedMessage {
    /// As Puppet names levels (`notice`, `warning`, ...).
    pub level: String,
    /// What logged it, when that was a provider or a resource.
    pub source: Option<String>,
    pub message: String,
}

impl RubyHost {
    /// Loads a type and its providers for applying, and says what the
    /// providers declare.
    pub fn load_providers(
        &self,
        type_name: &str,
        type_file: &Path,
        provider_files: &[PathBuf],
        engine: &mut dyn Engine,
    ) -> Result<Vec<ProviderSpec>, HostError> {
        let answer = self.request(
            "apply_load",
            json!({"type": type_name, "type_file": type_file, "provider_files": provider_files}),
            engine,
        )?;
        let fact_sets = |data: Option<&Json>| -> Vec<(String, Vec<String>)> {
            data.and_then(Json::as_object)
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), strings(Some(v))))
                .collect()
        };
        let mut providers = Vec::new();
        for p in answer
            .get("providers")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            let text = |key: &str| {
                p.get(key)
                    .and_then(Json::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            let confine = p.get("confine");
            providers.push(ProviderSpec {
                name: text("name"),
                doc: text("doc"),
                commands: pairs(p.get("commands")),
                optional_commands: pairs(p.get("optional_commands")),
                confine_facts: fact_sets(confine.and_then(|c| c.get("facts"))),
                confine_exists: strings(confine.and_then(|c| c.get("exists")))
                    .into_iter()
                    .map(PathBuf::from)
                    .collect(),
                confine_features: strings(confine.and_then(|c| c.get("features"))),
                suitable: p.get("suitable").and_then(Json::as_bool).unwrap_or(true),
                defaultfor: p
                    .get("defaultfor")
                    .and_then(Json::as_array)
                    .into_iter()
                    .flatten()
                    .map(|set| fact_sets(Some(set)))
                    .collect(),
                features: strings(p.get("features")),
            });
        }
        Ok(providers)
    }

    /// Makes a resource of the catalog known to the host, with the
    /// provider chosen for it, and its containment path, which its
    /// messages name. `defaulted` names the values that are defaults the
    /// engine filled, not given: Puppet sets them after the given ones,
    /// and a Resource API provider sees the state in that order. Fails
    /// as Puppet does when the type's code refuses a value (`Parameter x
    /// failed on T[t]: ...`).
    pub fn new_resource(
        &self,
        type_name: &str,
        provider: &str,
        (title, path): (&str, &str),
        (values, defaulted): (&PHash, &[String]),
        engine: &mut dyn Engine,
    ) -> Result<ResourceId, HostError> {
        let values = self.encode(&Value::hash(values.clone()));
        let answer = self.request(
            "resource_new",
            json!({"type": type_name, "provider": provider, "title": title, "path": path,
                   "values": values, "defaulted": defaulted}),
            engine,
        )?;
        answer
            .get("id")
            .and_then(Json::as_u64)
            .map(ResourceId)
            .ok_or_else(|| self.bad_answer("resource_new", "no id"))
    }

    /// Loads a type for applying (without its providers), so that its
    /// values can be checked.
    pub fn load_type(
        &self,
        type_name: &str,
        type_file: &Path,
        engine: &mut dyn Engine,
    ) -> Result<(), HostError> {
        self.load_providers(type_name, type_file, &[], engine)
            .map(|_| ())
    }

    /// What the type's code says of resources before the engine builds
    /// them (each `(title, values given)`): the given values of the
    /// `checked` parameters their own code refuses (each of a property's
    /// values alone), those of the `whole` ones refused whole, and the
    /// defaults of the `defaults` parameters each does not give. One
    /// request for all.
    pub fn check_declared(
        &self,
        type_name: &str,
        asked: Asked<'_>,
        resources: &[(&str, PHash)],
        engine: &mut dyn Engine,
    ) -> Result<Vec<Declared>, HostError> {
        let answer = self.request(
            "check_declared",
            json!({
                "type": type_name,
                "checked": asked.checked,
                "whole": asked.whole,
                "defaults": asked.defaults,
                "resources": self.resource_list(resources),
            }),
            engine,
        )?;
        let mut list = Vec::new();
        for one in listed(&answer, "resources", resources.len())
            .ok_or_else(|| self.bad_answer("check_declared", "not one answer per resource"))?
        {
            let messages = |key: &str| {
                one.get(key)
                    .and_then(Json::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(attr, message)| {
                        (
                            attr.clone(),
                            message.as_str().unwrap_or_default().to_string(),
                        )
                    })
                    .collect()
            };
            let (refused, refused_whole) = (messages("refused"), messages("refused_whole"));
            let defaults = match self.decode(one.get("defaults").unwrap_or(&Json::Null)) {
                Ok(Value::Hash(found)) => found
                    .iter()
                    .map(|(k, v)| (marionette_values::format::to_s(k), v.clone()))
                    .collect(),
                Ok(_) => Vec::new(),
                Err(message) => return Err(self.bad_answer("check_declared", &message)),
            };
            let canonical = one
                .get("canonical")
                .and_then(Json::as_object)
                .into_iter()
                .flatten()
                .filter_map(|(attr, word)| Some((attr.clone(), word.as_str()?.to_string())))
                .collect();
            list.push(Declared {
                refused,
                refused_whole,
                defaults,
                canonical,
                shown_title: one
                    .get("shown_title")
                    .and_then(Json::as_str)
                    .map(str::to_string),
            });
        }
        Ok(list)
    }

    /// What the type's code says of resources the engine built (each
    /// `(title, values)`): its `validate` block's refusal (asked when
    /// `validates`), and the titles each of the automatic `relations`
    /// (`(kind, target type)`) gives, its blocks seeing `catalog` (the
    /// catalog's module-type resources, each type, title and values) as
    /// the catalog. One request for all.
    pub fn check_built(
        &self,
        type_name: &str,
        validates: bool,
        (relations, catalog): (&[(String, String)], &[CatalogEntry<'_>]),
        resources: &[(&str, PHash)],
        engine: &mut dyn Engine,
    ) -> Result<Vec<Built>, HostError> {
        let mut params = json!({
            "type": type_name,
            "validates": validates,
            "relations": relations,
            "resources": self.resource_list(resources),
        });
        if !catalog.is_empty() {
            params["catalog"] = catalog
                .iter()
                .map(|(type_name, title, values)| self.resource_params(type_name, title, values))
                .collect();
        }
        let answer = self.request("check_built", params, engine)?;
        let list = listed(&answer, "resources", resources.len())
            .ok_or_else(|| self.bad_answer("check_built", "not one answer per resource"))?;
        Ok(list
            .iter()
            .map(|one| Built {
                refused: one
                    .get("refused")
                    .and_then(Json::as_str)
                    .map(str::to_string),
                relations: one
                    .get("relations")
                    .and_then(Json::as_array)
                    .into_iter()
                    .flatten()
                    .map(|titles| strings(Some(titles)))
                    .collect(),
            })
            .collect())
    }

    /// The change message a property's own `change_to_s` words for a
    /// resource with these values, from `is` to `should` (with `noop`, what
    /// a noop run says, in its `is_to_s` and `should_to_s`); `None` when
    /// it has none.
    pub fn change_to_s(
        &self,
        type_name: &str,
        (title, values): (&str, &PHash),
        (attr, is, should): (&str, &Value, &Value),
        noop: bool,
        engine: &mut dyn Engine,
    ) -> Result<Option<String>, HostError> {
        let mut params = self.resource_params(type_name, title, values);
        params["attr"] = json!(attr);
        params["noop"] = json!(noop);
        params["is"] = self.encode(is);
        params["should"] = self.encode(should);
        let answer = self.request("change_to_s", params, engine)?;
        Ok(answer
            .get("message")
            .and_then(Json::as_str)
            .map(str::to_string))
    }

    /// The type's `pre_run_check` of a resource: why the run must not
    /// start, or `None`.
    pub fn pre_run_check(
        &self,
        type_name: &str,
        (title, values): (&str, &PHash),
        engine: &mut dyn Engine,
    ) -> Result<Option<String>, HostError> {
        let params = self.resource_params(type_name, title, values);
        let answer = self.request("pre_run_check", params, engine)?;
        Ok(answer
            .get("refused")
            .and_then(Json::as_str)
            .map(str::to_string))
    }

    /// The resources a type's `generate` and `eval_generate` add for a
    /// resource, and why `eval_generate`
    /// failed, when it did (what `generate` made still stands). `catalog`
    /// is what the type's code sees of the catalog: resources of module
    /// types, each type, title and values.
    pub fn generate(
        &self,
        type_name: &str,
        (title, values): (&str, &PHash),
        catalog: &[CatalogEntry<'_>],
        engine: &mut dyn Engine,
    ) -> Result<(Vec<GeneratedResource>, Option<String>), HostError> {
        let mut params = self.resource_params(type_name, title, values);
        params["catalog"] = catalog
            .iter()
            .map(|(type_name, title, values)| self.resource_params(type_name, title, values))
            .collect();
        let answer = self.request("generate", params, engine)?;
        let mut made = Vec::new();
        for entry in answer
            .get("resources")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            let text = |key: &str| entry.get(key).and_then(Json::as_str).unwrap_or_default();
            let values = self.decode_hash(entry.get("values"), "generate")?;
            made.push(GeneratedResource {
                type_name: text("type").to_string(),
                title: text("title").to_string(),
                values,
                by: text("by").to_string(),
            });
        }
        let failed = answer
            .get("failed")
            .and_then(Json::as_str)
            .map(str::to_string);
        Ok((made, failed))
    }

    /// Loads the environment's custom facts (`Settings::fact_files`)
    /// afresh and resolves every fact they add but the `cached` ones (which
    /// still resolve when another fact asks for them), the native facts
    /// asked of `engine`. Returns the values, and the files that could not
    /// be loaded with the reason.
    pub fn custom_facts(
        &self,
        cached: &[String],
        engine: &mut dyn Engine,
    ) -> Result<(PHash, Vec<LoadError>), HostError> {
        let answer = loop {
            let in_turn = self
                .facts_in_turn
                .load(std::sync::atomic::Ordering::Relaxed);
            let params = json!({"cached": cached, "serial": in_turn});
            match self.request("custom_facts", params, engine) {
                // Several resolved at once when the host stopped: again,
                // one at a time (see `request`).
                Err(HostError::FactBroken { fact: Some(_), .. } | HostError::Broken(_))
                    if !in_turn =>
                {
                    continue;
                }
                answer => break answer?,
            }
        };
        let facts = self.decode_hash(answer.get("facts"), "custom_facts")?;
        Ok((facts, load_errors(&answer)))
    }

    /// Resolves the one custom fact `name`, loading the fact files first
    /// if no request has yet: its value (`None` when no resolution gave
    /// one), and the files that could not be loaded, the first time.
    pub fn custom_fact(
        &self,
        name: &str,
        engine: &mut dyn Engine,
    ) -> Result<(Option<Value>, Vec<LoadError>), HostError> {
        let answer = self.request("custom_fact", json!({"name": name}), engine)?;
        let value = match answer.get("value").filter(|v| !v.is_null()) {
            Some(data) => Some(
                self.decode(data)
                    .map_err(|message| self.bad_answer("custom_fact", &message))?,
            ),
            None => None,
        };
        Ok((value, load_errors(&answer)))
    }

    /// Puppet's `prefetch`, for the provider's resources of the run.
    /// Says whether the provider has one (its getters then mostly read
    /// what it found, rather than the system).
    pub fn prefetch(
        &self,
        type_name: &str,
        provider: &str,
        resources: &[ResourceId],
        engine: &mut dyn Engine,
    ) -> Result<bool, HostError> {
        let ids: Vec<u64> = resources.iter().map(|r| r.0).collect();
        let answer = self.request(
            "provider_prefetch",
            json!({"type": type_name, "provider": provider, "ids": ids}),
            engine,
        )?;
        Ok(answer
            .get("prefetched")
            .and_then(Json::as_bool)
            .unwrap_or(false))
    }

    /// A property's current value, and whether the property's own
    /// comparison finds it in sync with what the resource wants.
    pub fn property_get(
        &self,
        resource: ResourceId,
        attr: &str,
        engine: &mut dyn Engine,
    ) -> Result<(Value, bool), HostError> {
        let answer = self.request(
            "property_get",
            json!({"id": resource.0, "attr": attr}),
            engine,
        )?;
        let value = self
            .decode(answer.get("value").unwrap_or(&Json::Null))
            .map_err(|message| self.bad_answer("property_get", &message))?;
        Ok((
            value,
            answer
                .get("insync")
                .and_then(Json::as_bool)
                .unwrap_or(false),
        ))
    }

    /// [`RubyHost::property_get`] for several attributes of a resource
    /// in one request, read in the order given. The host stops after a
    /// managed `ensure` that is out of sync or absent (the resource layer
    /// looks at nothing more then), and at a getter that raises.
    pub fn resource_state(
        &self,
        resource: ResourceId,
        attrs: &[&str],
        engine: &mut dyn Engine,
    ) -> Result<ResourceState, HostError> {
        let answer = self.request(
            "resource_state",
            json!({"id": resource.0, "attrs": attrs}),
            engine,
        )?;
        self.read_state(&answer)
    }

    /// [`RubyHost::resource_state`] for many resources in one request
    /// (after their prefetch), one state for each, in order. What the
    /// getters log is kept in each state, for the caller to log when it
    /// uses the state.
    pub fn resource_states(
        &self,
        wanted: &[(ResourceId, Vec<&str>)],
        engine: &mut dyn Engine,
    ) -> Result<Vec<ResourceState>, HostError> {
        let list: Vec<Json> = wanted
            .iter()
            .map(|(id, attrs)| json!({"id": id.0, "attrs": attrs}))
            .collect();
        let answer = self.request("resource_states", json!({"resources": list}), engine)?;
        let states: Vec<ResourceState> = answer
            .get("states")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .map(|state| self.read_state(state))
            .collect::<Result<_, _>>()?;
        if states.len() != wanted.len() {
            return Err(self.bad_answer("resource_states", "not one state per resource"));
        }
        Ok(states)
    }

    fn read_state(&self, answer: &Json) -> Result<ResourceState, HostError> {
        let mut state = ResourceState::default();
        let verdicts = answer.get("insync").and_then(Json::as_object);
        for (attr, data) in answer
            .get("values")
            .and_then(Json::as_object)
            .into_iter()
            .flatten()
        {
            let value = self
                .decode(data)
                .map_err(|message| self.bad_answer("resource_state", &message))?;
            let insync = verdicts
                .and_then(|v| v.get(attr))
                .and_then(Json::as_bool)
                .unwrap_or(false);
            state.values.push((attr.clone(), value, insync));
        }
        if let (Some(attr), Some(error)) = (
            answer.get("failed").and_then(Json::as_str),
            answer.get("error"),
        ) {
            state.failed = Some((attr.to_string(), crate::conversation::raised(error)));
        }
        state.own = answer.get("own").and_then(Json::as_bool) == Some(true);
        state.wanted_ensure = answer
            .get("wanted_ensure")
            .and_then(Json::as_str)
            .map(str::to_string);
        state.candidate = answer
            .get("candidate")
            .and_then(Json::as_str)
            .map(str::to_string);
        state.logs = logged(answer);
        Ok(state)
    }

    /// Syncs a property to what the resource wants (`ensure`'s create and
    /// destroy, or the provider's setter); with `flush`, the provider's
    /// `flush` follows in the same request, and what it logged is
    /// returned rather than logged (Puppet logs the change first). A
    /// flush that fails has its messages logged before the failure.
    pub fn property_set(
        &self,
        resource: ResourceId,
        (attr, value): (&str, &Value),
        flush: bool,
        engine: &mut dyn Engine,
    ) -> Result<Vec<LoggedMessage>, HostError> {
        let value = self.encode(value);
        let answer = self.request(
            "property_set",
            json!({"id": resource.0, "attr": attr, "value": value, "flush": flush}),
            engine,
        )?;
        Ok(logged(&answer))
    }

    /// [`RubyHost::new_resource`] for several resources in one request
    /// (each with its path and its defaulted values' names, in
    /// `made`): for each, its id or the type's refusal.
    pub fn new_resources(
        &self,
        type_name: &str,
        provider: &str,
        resources: &[(&str, PHash)],
        made: &[(String, Vec<String>)],
        engine: &mut dyn Engine,
    ) -> Result<Vec<Result<ResourceId, String>>, HostError> {
        let mut list = self.resource_list(resources);
        for (one, (path, defaulted)) in list.iter_mut().zip(made) {
            one["path"] = json!(path);
            one["defaulted"] = json!(defaulted);
        }
        let answer = self.request(
            "resources_new",
            json!({"type": type_name, "provider": provider, "resources": list}),
            engine,
        )?;
        Ok(answer
            .get("resources")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .map(|made| match made.get("id").and_then(Json::as_u64) {
                Some(id) => Ok(ResourceId(id)),
                None => Err(made
                    .get("error")
                    .and_then(Json::as_str)
                    .unwrap_or("the resource could not be made")
                    .to_string()),
            })
            .collect())
    }

    /// The provider's `flush`, after a resource's changes: what it logged,
    /// as [`RubyHost::property_set`] returns it.
    pub fn flush(
        &self,
        resource: ResourceId,
        engine: &mut dyn Engine,
    ) -> Result<Vec<LoggedMessage>, HostError> {
        let answer = self.request("provider_flush", json!({"id": resource.0}), engine)?;
        Ok(logged(&answer))
    }

    /// The type's `refresh`, for a resource that received events.
    pub fn refresh(&self, resource: ResourceId, engine: &mut dyn Engine) -> Result<(), HostError> {
        self.request("resource_refresh", json!({"id": resource.0}), engine)?;
        Ok(())
    }

    /// Puppet's `self.instances`: every instance the provider finds, as
    /// property hashes.
    pub fn instances(
        &self,
        type_name: &str,
        provider: &str,
        engine: &mut dyn Engine,
    ) -> Result<Vec<PHash>, HostError> {
        let answer = self.request(
            "provider_instances",
            json!({"type": type_name, "provider": provider}),
            engine,
        )?;
        let mut found = Vec::new();
        for data in answer
            .get("instances")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            found.push(self.decode_hash(Some(data), "provider_instances")?);
        }
        Ok(found)
    }

    /// A hash of an answer to `method`; an absent one is empty.
    fn decode_hash(&self, data: Option<&Json>, method: &str) -> Result<PHash, HostError> {
        match data.map(|data| self.decode(data)) {
            None => Ok(PHash::default()),
            Some(Ok(Value::Hash(hash))) => Ok((*hash).clone()),
            Some(Ok(_)) => Err(self.bad_answer(method, "a value is not a hash")),
            Some(Err(message)) => Err(self.bad_answer(method, &message)),
        }
    }

    /// What names a resource to the host: its type, title and values.
    fn resource_list(&self, resources: &[(&str, PHash)]) -> Vec<Json> {
        resources
            .iter()
            .map(|(title, values)| json!({"title": title, "values": self.encode(&Value::hash(values.clone()))}))
            .collect()
    }

    fn resource_params(&self, type_name: &str, title: &str, values: &PHash) -> Json {
        let values = self.encode(&Value::hash(values.clone()));
        json!({"type": type_name, "title": title, "values": values})
    }

    fn encode(&self, value: &Value) -> Json {
        self.conversation
            .encode_all(std::slice::from_ref(value), Shape::Plain)
            .remove(0)
    }

    fn decode(&self, data: &Json) -> Result<Value, String> {
        self.conversation.decode(data)
    }
}

/// A resource a type's code generated.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedResource {
    pub type_name: String,
    pub title: String,
    pub values: PHash,
    /// Which method made it: `generate`, `eval_generate` or `both`.
    pub by: String,
}

/// A custom fact file that could not be loaded, and why.
pub type LoadError = (String, String);

/// The `errors` of a custom facts answer: the file, and what went wrong.
/// The messages an answer brings (`logs`): what the Ruby code logged
/// while the host held its messages back.
fn logged(answer: &Json) -> Vec<LoggedMessage> {
    let text = |log: &Json, key: &str| log.get(key).and_then(Json::as_str).map(str::to_string);
    answer
        .get("logs")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|log| LoggedMessage {
            level: text(log, "level").unwrap_or_default(),
            source: text(log, "source"),
            message: text(log, "message").unwrap_or_default(),
        })
        .collect()
}

fn load_errors(answer: &Json) -> Vec<LoadError> {
    answer
        .get("errors")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|e| {
            let text = |key: &str| {
                e.get(key)
                    .and_then(Json::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            (text("file"), text("message"))
        })
        .collect()
}
