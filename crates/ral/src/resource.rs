//! RAL resources: a catalog resource checked and munged against its type.

use std::sync::Arc;

use indexmap::IndexMap;
use marionette_values::Value;

use crate::attribute::{self, parse_boolean};
use crate::error::{Origin, RalError};
use crate::metaparams::{LOG_LEVELS, is_metaparameter};
use crate::typedef::{AttrKind, DefaultValue, Titles, TypeDef};

/// A resource ready to be managed: every value validated and munged, in the
/// type's declaration order, defaults filled in.
#[derive(Clone, Debug)]
pub struct Resource {
    type_def: Arc<TypeDef>,
    /// Shared with the namevar's value when the title gives it, and with
    /// the run's report.
    title: Arc<str>,
    /// The attributes that have a value, given or defaulted, in the type's
    /// declaration order. Only those, and not the type's fixed defaults
    /// either (see [`Resource::slot`]): a file resource sets a handful of
    /// the type's thirty-odd attributes, and a slot for each default would
    /// cost most of a kilobyte a resource.
    slots: Vec<Slot>,
    meta: IndexMap<String, Value>,
    provider: Option<String>,
    origin: Origin,
    /// Where the resource sits in the catalog's containment
    /// (`/Stage[main]/Main/Notify[x]`), once a transaction knows it.
    path: Option<Arc<str>>,
    /// `Type[title]`, made once: logs, events and reports ask for it often.
    reference: Arc<str>,
    /// [`Resource::name`], kept once every attribute is set (and renewed
    /// when the namevar is set again); `None` while the resource is built.
    name: Option<Arc<str>>,
    /// The attributes (their positions) that its provider lacks the
    /// features of, found when the provider is chosen: as in Puppet, they
    /// are not managed, as if never given.
    unsupported: std::sync::OnceLock<Box<[u16]>>,
}

/// The names an `audit` value gives, alone or in an array.
fn audit_names(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(attribute::value_text).collect(),
        other => vec![attribute::value_text(other)],
    }
}

/// An attribute's value in a resource.
#[derive(Clone, Debug)]
struct Slot {
    /// The attribute's position in the type.
    at: u16,
    /// The manifest set it (rather than a default).
    given: bool,
    sensitive: bool,
    value: Value,
}

/// An attribute's value as [`Resource::slot`] finds it: in the resource,
/// or the type's fixed default.
#[derive(Clone, Copy)]
struct SlotRef<'a> {
    value: &'a Value,
    given: bool,
    sensitive: bool,
}

impl Slot {
    fn as_ref(&self) -> SlotRef<'_> {
        SlotRef {
            value: &self.value,
            given: self.given,
            sensitive: self.sensitive,
        }
    }
}

/// A catalog resource's values (sensitive ones wrapped) and where it was
/// declared.
fn catalog_values(
    resource: &marionette_catalog::Resource,
) -> (impl Iterator<Item = (String, Value)> + '_, Origin) {
    let params = resource.parameters.iter().map(|(name, data)| {
        let value = marionette_catalog::from_data(data);
        if resource.sensitive_parameters.contains(name) {
            (name.clone(), Value::Sensitive(Box::new(value)))
        } else {
            (name.clone(), value)
        }
    });
    let origin = Origin {
        file: resource.file.clone(),
        line: resource.line,
    };
    (params, origin)
}

/// Whether a `default_value` is one the type holds for all its resources,
/// validated and munged once: not undef (no value at all) and not
/// sensitive (which is unwrapped per resource).
fn fixed_default(value: &Value) -> bool {
    !matches!(value, Value::Undef | Value::Sensitive(_))
}

/// The values a manifest gave, by attribute position: a handful per
/// resource, where the type may have dozens of attributes.
#[derive(Default)]
struct Given(Vec<(usize, Value)>);

impl Given {
    fn has(&self, index: usize) -> bool {
        self.0.iter().any(|(at, _)| *at == index)
    }

    /// Sets a value; a later one for the same attribute replaces it.
    fn set(&mut self, index: usize, value: Value) {
        match self.0.iter_mut().find(|(at, _)| *at == index) {
            Some(slot) => slot.1 = value,
            None => self.0.push((index, value)),
        }
    }

    fn take(&mut self, index: usize) -> Option<Value> {
        let at = self.0.iter().position(|(at, _)| *at == index)?;
        Some(self.0.swap_remove(at).1)
    }
}

impl Resource {
    /// Builds a resource from a title and attribute values, in the order the
    /// type declares its attributes: the identity from the title, then each
    /// attribute validated and munged (or defaulted), then the required
    /// check and the type's own validation.
    pub fn new(
        type_def: Arc<TypeDef>,
        title: &str,
        params: impl IntoIterator<Item = (String, Value)>,
        origin: Origin,
    ) -> Result<Resource, RalError> {
        let resource = Resource::unchecked(type_def, title, params, origin)?;
        let verdict = match &resource.type_def.batch {
            Some(batch) => attribute::guarded("validate", "resource validation", || {
                batch.check(&[&resource], &[]).pop().unwrap_or(Ok(()))
            }),
            None => Ok(()),
        };
        resource.checked(verdict)
    }

    /// [`Resource::new`] without the check of a type with a [`Batch`]:
    /// the caller makes it for all resources at once.
    fn unchecked(
        type_def: Arc<TypeDef>,
        title: &str,
        params: impl IntoIterator<Item = (String, Value)>,
        origin: Origin,
    ) -> Result<Resource, RalError> {
        let (mut resource, mut given) =
            Resource::declared(type_def.clone(), title, params, origin)?;
        // Room for what is given, what defaults compute, and an implied
        // `ensure`: the slots are allocated once.
        let computed = type_def
            .attributes
            .iter()
            .filter(|attr| matches!(attr.default, Some(DefaultValue::Computed(_))))
            .count();
        resource.slots.reserve_exact(given.0.len() + computed + 1);
        for (index, attr) in type_def.attributes.iter().enumerate() {
            let (value, from_manifest) = match given.take(index) {
                Some(value) => (value, true),
                None => match &attr.default {
                    Some(DefaultValue::Value(value)) if fixed_default(value) => {
                        // Held by the type, not copied into each resource:
                        // only a default that fails its own checks is news.
                        if let Some(Err(message)) = attr.processed_default() {
                            return Err(resource.attr_error(&attr.name, message.clone()));
                        }
                        continue;
                    }
                    Some(DefaultValue::Value(value)) => (value.clone(), false),
                    Some(DefaultValue::Computed(hook)) => {
                        let computed =
                            attribute::guarded(&attr.name, "default", || Ok(hook(&resource)))
                                .map_err(|message| resource.attr_error(&attr.name, message))?;
                        match computed {
                            Some(value) => (value, false),
                            None => continue,
                        }
                    }
                    None => continue,
                },
            };
            if from_manifest && attr.kind == AttrKind::ReadOnly {
                return Err(
                    resource.attr_error(&attr.name, "is read-only and cannot be set".to_string())
                );
            }
            let (value, sensitive) = match value {
                Value::Sensitive(inner) => (*inner, true),
                other => (other, attr.sensitive),
            };
            if value == Value::Undef {
                continue;
            }
            let munged = attribute::process_value(attr, value)
                .map_err(|message| resource.attr_error(&attr.name, message))?;
            resource.put(index, munged, from_manifest, sensitive);
        }
        // Puppet's `ensure` defaults to `present` once the manifest manages
        // any other property: setting a shell implies the user exists. Only
        // where `present` is a value of `ensure`: a service's `ensure` is
        // `running` or `stopped`, and enabling a service says nothing about
        // whether it runs.
        if type_def.present_when_managed
            && resource.get("ensure").is_none()
            && type_def
                .attribute("ensure")
                .is_some_and(|ensure| ensure.literals().any(|value| value == "present"))
            && resource.slots.iter().any(|slot| {
                let attr = &type_def.attributes[usize::from(slot.at)];
                slot.given && attr.kind.is_property() && attr.name != "ensure"
            })
            && let Some(index) = resource.index("ensure")
        {
            resource.put(index, Value::String("present".into()), false, false);
        }
        for (index, attr) in type_def.attributes.iter().enumerate() {
            if attr.required && resource.slot(index).is_none() {
                return Err(RalError::Validation {
                    resource: resource.reference(),
                    message: format!("{} is a required attribute", attr.name),
                    origin: resource.origin.clone(),
                });
            }
        }
        resource.name = Some(resource.find_name());
        if let Some(check) = &type_def.validate {
            let verdict =
                attribute::guarded("validate", "resource validation", || check(&resource));
            return resource.checked(verdict);
        }
        Ok(resource)
    }

    /// A resource with no attribute set yet (its metaparameters and
    /// provider taken), and the values the manifest gives its attributes,
    /// by position, with the identity the title fills.
    fn declared(
        type_def: Arc<TypeDef>,
        title: &str,
        params: impl IntoIterator<Item = (String, Value)>,
        origin: Origin,
    ) -> Result<(Resource, Given), RalError> {
        let mut resource = Resource {
            reference: format!("{}[{title}]", type_def.reference_name()).into(),
            type_def: type_def.clone(),
            title: title.into(),
            slots: Vec::new(),
            meta: IndexMap::new(),
            provider: None,
            origin,
            path: None,
            name: None,
            unsupported: std::sync::OnceLock::new(),
        };
        let mut given = Given::default();
        for (name, value) in params {
            if name == "provider" {
                resource.provider = Some(attribute::value_text(&value));
            } else if is_metaparameter(&name) {
                resource.check_meta(&name, &value)?;
                resource.meta.insert(name, value);
            } else if let Some(index) = type_def.position(&name) {
                given.set(index, value);
            } else {
                return Err(RalError::UnknownAttribute {
                    resource: resource.reference(),
                    attr: name,
                    origin: resource.origin.clone(),
                });
            }
        }
        resource.identity_from_title(&mut given)?;
        Ok((resource, given))
    }

    /// The resource, or the type's check's refusal of it.
    fn checked(self, verdict: Result<(), String>) -> Result<Resource, RalError> {
        match verdict {
            Ok(()) => Ok(self),
            Err(message) => Err(self.refused(message)),
        }
    }

    fn refused(&self, message: String) -> RalError {
        RalError::Validation {
            resource: self.reference(),
            message,
            origin: self.origin.clone(),
        }
    }

    /// Builds a resource from a catalog resource (ours or Puppet's).
    pub fn from_catalog(
        type_def: Arc<TypeDef>,
        resource: &marionette_catalog::Resource,
    ) -> Result<Resource, RalError> {
        let (params, origin) = catalog_values(resource);
        Resource::new(type_def, &resource.title, params, origin)
    }

    /// Builds the resources of a catalog, each with its type (or why it
    /// has none): the types with a [`Batch`] are told of all theirs
    /// before, and check them together after. In catalog order; those
    /// that fail, with why.
    pub fn from_catalog_all(
        resources: &[(
            &marionette_catalog::Resource,
            Result<Arc<TypeDef>, RalError>,
        )],
    ) -> Vec<Result<Resource, RalError>> {
        let batched = |type_def: &Arc<TypeDef>| type_def.batch.clone();
        // Each batch once, with its type's resources in catalog order.
        let mut batches: Vec<(Arc<dyn crate::typedef::Batch>, Vec<usize>)> = Vec::new();
        for (at, (_, type_def)) in resources.iter().enumerate() {
            let Some(batch) = type_def.as_ref().ok().and_then(batched) else {
                continue;
            };
            match batches.iter_mut().find(|(b, _)| Arc::ptr_eq(b, &batch)) {
                Some((_, members)) => members.push(at),
                None => batches.push((batch, vec![at])),
            }
        }
        for (batch, members) in &batches {
            let declared: Vec<(&str, Vec<(String, Value)>)> = members
                .iter()
                .filter_map(|&at| {
                    let (resource, type_def) = &resources[at];
                    let type_def = type_def.as_ref().ok()?;
                    let (params, origin) = catalog_values(resource);
                    // One that cannot be declared fails as it is built.
                    let (_, given) =
                        Resource::declared(type_def.clone(), &resource.title, params, origin)
                            .ok()?;
                    let values = given
                        .0
                        .into_iter()
                        .map(|(index, value)| (type_def.attributes[index].name.clone(), value))
                        .collect();
                    Some((resource.title.as_str(), values))
                })
                .collect();
            batch.declared(&declared);
        }
        // Resources convert independently, and validating and munging
        // thousands of them is a good part of a run with nothing to
        // change: large catalogs are converted on several threads.
        let mut built = marionette_values::parallel::map(resources.len(), |at| {
            let (resource, type_def) = &resources[at];
            let type_def = type_def.clone()?;
            let (params, origin) = catalog_values(resource);
            Resource::unchecked(type_def, &resource.title, params, origin)
        });
        // What the types' code may see of the catalog: every resource of a
        // batched type (module types), as Puppet's catalog holds them. All
        // batches check against it before any refusal is applied, so the
        // resources are borrowed, not copied.
        let refusals: Vec<(usize, String)> = {
            let view: Vec<&Resource> = batches
                .iter()
                .flat_map(|(_, members)| members.iter())
                .filter_map(|&at| built[at].as_ref().ok())
                .collect();
            let mut refusals = Vec::new();
            for (batch, members) in &batches {
                let made: Vec<usize> = members
                    .iter()
                    .copied()
                    .filter(|&at| built[at].is_ok())
                    .collect();
                let checked: Vec<&Resource> = made
                    .iter()
                    .filter_map(|&at| built[at].as_ref().ok())
                    .collect();
                let verdicts = attribute::guarded("validate", "resource validation", || {
                    Ok(batch.check(&checked, &view))
                })
                .unwrap_or_else(|message| vec![Err(message); checked.len()]);
                for (at, verdict) in made.into_iter().zip(verdicts) {
                    if let Err(message) = verdict {
                        refusals.push((at, message));
                    }
                }
            }
            refusals
        };
        for (at, message) in refusals {
            if let Ok(resource) = &built[at] {
                built[at] = Err(resource.refused(message));
            }
        }
        built
    }

    /// Fills the identity attributes the manifest left out from the title:
    /// through the type's title patterns, or the whole title into the
    /// namevar.
    fn identity_from_title(&self, given: &mut Given) -> Result<(), RalError> {
        let def = &self.type_def;
        let is_given = |name: &str| def.position(name).is_some_and(|i| given.has(i));
        if def.key_attributes().iter().all(|k| is_given(&k.name)) {
            return Ok(());
        }
        if def.title_patterns.is_empty() {
            if let Some(namevar) = def.namevar()
                && let Some(index) = def.position(&namevar.name)
                && !given.has(index)
            {
                given.set(index, Value::String(self.title.clone()));
            }
            return Ok(());
        }
        for pattern in &def.title_patterns {
            let Some(captures) = pattern.regex.captures(&self.title) else {
                continue;
            };
            for (attr, capture) in pattern.attributes.iter().zip(captures.iter().skip(1)) {
                if let Some(text) = capture
                    && let Some(index) = def.position(attr)
                    && !given.has(index)
                {
                    given.set(index, Value::String(text.as_str().into()));
                }
            }
            return Ok(());
        }
        Err(RalError::TitlePattern {
            resource: self.reference(),
            title: self.title.to_string(),
            origin: self.origin.clone(),
        })
    }

    fn check_meta(&self, name: &str, value: &Value) -> Result<(), RalError> {
        let problem = match name {
            "noop" if parse_boolean(value).is_none() => Some(format!(
                "Invalid value {}. Valid values are true, false.",
                attribute::inspect(value)
            )),
            "loglevel" if !LOG_LEVELS.contains(&attribute::value_text(value).as_str()) => {
                Some(format!(
                    "Invalid value {}. Valid values are {}.",
                    attribute::inspect(value),
                    LOG_LEVELS.join(", ")
                ))
            }
            "audit" => audit_names(value)
                .into_iter()
                .find(|name| name != "all" && self.type_def.attribute(name).is_none())
                .map(|name| {
                    format!(
                        "Cannot audit {name}: not a valid attribute for {}",
                        self.reference
                    )
                }),
            _ => None,
        };
        match problem {
            Some(message) => Err(self.attr_error(name, message)),
            None => Ok(()),
        }
    }

    fn attr_error(&self, attr: &str, message: String) -> RalError {
        RalError::Attribute {
            resource: self.reference(),
            attr: attr.to_string(),
            message,
            origin: self.origin.clone(),
        }
    }

    pub fn type_def(&self) -> &Arc<TypeDef> {
        &self.type_def
    }

    pub fn type_name(&self) -> &str {
        &self.type_def.name
    }

    pub fn title(&self) -> &str {
        &self.title
    }

    /// `Database[db1]`.
    pub fn reference(&self) -> String {
        self.reference.to_string()
    }

    /// [`Resource::reference`] without a copy.
    pub fn reference_str(&self) -> &str {
        &self.reference
    }

    /// [`Resource::reference`], shared.
    pub fn shared_reference(&self) -> Arc<str> {
        self.reference.clone()
    }

    /// [`Resource::title`], shared.
    pub fn shared_title(&self) -> Arc<str> {
        self.title.clone()
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// The containment path, or the reference when the resource is not
    /// part of a catalog run.
    pub fn path(&self) -> String {
        self.path
            .as_deref()
            .map_or_else(|| self.reference(), str::to_string)
    }

    /// Sets the containment path, shared with the run's report.
    pub fn set_path(&mut self, path: Arc<str>) {
        self.path = Some(path);
    }

    /// The value of the namevar, as text: what the provider knows the thing
    /// by.
    pub fn name(&self) -> String {
        match &self.name {
            Some(name) => name.to_string(),
            None => self.find_name().to_string(),
        }
    }

    /// [`Resource::name`] without a copy, once the resource is built.
    pub fn name_str(&self) -> std::borrow::Cow<'_, str> {
        match &self.name {
            Some(name) => std::borrow::Cow::Borrowed(name),
            None => std::borrow::Cow::Owned(self.find_name().to_string()),
        }
    }

    /// The namevar's value as text: the value's own string when it is one,
    /// shared rather than copied.
    fn find_name(&self) -> Arc<str> {
        match self.type_def.namevar_position().and_then(|i| self.slot(i)) {
            Some(SlotRef {
                value: Value::String(text),
                ..
            }) => text.clone(),
            Some(slot) => attribute::value_text(slot.value).into(),
            None => self.title.clone(),
        }
    }

    /// An attribute's value (given, or its default).
    pub fn get(&self, attr: &str) -> Option<&Value> {
        self.slot(self.index(attr)?).map(|slot| slot.value)
    }

    /// The value of the attribute at `index`, if it has one: its slot, or
    /// else the type's fixed default.
    fn slot(&self, index: usize) -> Option<SlotRef<'_>> {
        let at = u16::try_from(index).ok()?;
        if self.is_unsupported(at) {
            return None;
        }
        // A handful of slots: a scan beats a search.
        match self.slots.iter().find(|slot| slot.at == at) {
            Some(slot) => Some(slot.as_ref()),
            None => self.default_at(index),
        }
    }

    /// The type's fixed default for the attribute at `index`, which every
    /// resource without a slot for it shares.
    fn default_at(&self, index: usize) -> Option<SlotRef<'_>> {
        let attr = self.type_def.attributes.get(index)?;
        match &attr.default {
            Some(DefaultValue::Value(value)) if fixed_default(value) => {
                match attr.processed_default()? {
                    Ok(value) => Some(SlotRef {
                        value,
                        given: false,
                        sensitive: attr.sensitive,
                    }),
                    Err(_) => None,
                }
            }
            _ => None,
        }
    }

    /// Every attribute with a value, slots and fixed defaults merged, in
    /// the type's declaration order.
    fn filled(&self) -> impl Iterator<Item = (usize, SlotRef<'_>)> {
        let mut slots = self.slots.iter().peekable();
        (0..self.type_def.attributes.len()).filter_map(move |index| {
            let found = match slots.next_if(|slot| usize::from(slot.at) == index) {
                Some(slot) => Some((index, slot.as_ref())),
                None => self.default_at(index).map(|slot| (index, slot)),
            };
            found.filter(|_| !self.is_unsupported(u16::try_from(index).unwrap_or(u16::MAX)))
        })
    }

    fn is_unsupported(&self, at: u16) -> bool {
        self.unsupported
            .get()
            .is_some_and(|unsupported| unsupported.contains(&at))
    }

    /// Leaves out the attributes given that need features `has` says the
    /// resource's provider lacks, once (the provider is chosen once):
    /// each with the features it lacks, for saying so.
    pub fn leave_unsupported(
        &self,
        has: impl Fn(&str) -> bool,
    ) -> Vec<(&crate::typedef::AttrDef, Vec<&str>)> {
        let mut left = Vec::new();
        self.unsupported.get_or_init(|| {
            let mut positions = Vec::new();
            for (index, attr) in self.type_def.attributes.iter().enumerate() {
                if attr.required_features.is_empty() || !self.is_given(&attr.name) {
                    continue;
                }
                let missing: Vec<&str> = attr
                    .required_features
                    .iter()
                    .map(String::as_str)
                    .filter(|f| !has(f))
                    .collect();
                if !missing.is_empty() {
                    positions.push(u16::try_from(index).unwrap_or(u16::MAX));
                    left.push((attr, missing));
                }
            }
            // An `ensure` that is `present` only because a property was
            // given goes too when no such property is left.
            let attrs = &self.type_def.attributes;
            if !positions.is_empty()
                && let Some(index) = self.index("ensure")
                && attrs[index].default.is_none()
                && self
                    .slots
                    .iter()
                    .any(|slot| usize::from(slot.at) == index && !slot.given)
                && !self.slots.iter().any(|slot| {
                    let attr = &attrs[usize::from(slot.at)];
                    slot.given
                        && attr.kind.is_property()
                        && attr.name != "ensure"
                        && !positions.contains(&slot.at)
                })
            {
                positions.push(u16::try_from(index).unwrap_or(u16::MAX));
            }
            positions.into_boxed_slice()
        });
        left
    }

    /// Sets the value of the attribute at `index`, keeping the slots in
    /// declaration order.
    fn put(&mut self, index: usize, value: Value, given: bool, sensitive: bool) {
        // Types have far fewer than 65,536 attributes.
        let at = u16::try_from(index).unwrap_or(u16::MAX);
        let slot = Slot {
            at,
            given,
            sensitive,
            value,
        };
        match self.slots.binary_search_by_key(&at, |slot| slot.at) {
            Ok(found) => self.slots[found] = slot,
            Err(place) => self.slots.insert(place, slot),
        }
    }

    /// The slot of an attribute. Types have a few dozen attributes at most:
    /// a scan is as fast as a hash and needs no table.
    fn index(&self, attr: &str) -> Option<usize> {
        self.type_def.position(attr)
    }

    /// An attribute's value when it is a string, without a copy: for
    /// attributes whose munged value always is one.
    pub fn str(&self, attr: &str) -> Option<&str> {
        match self.get(attr)? {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// An attribute's value as text.
    pub fn text(&self, attr: &str) -> Option<String> {
        self.get(attr).map(attribute::value_text)
    }

    /// Whether the manifest set this attribute (rather than a default).
    pub fn is_given(&self, attr: &str) -> bool {
        self.index(attr)
            .and_then(|index| self.slot(index))
            .is_some_and(|slot| slot.given)
    }

    /// Every value, in the type's declaration order.
    pub fn values(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.filled()
            .map(|(index, slot)| (self.type_def.attributes[index].name.as_str(), slot.value))
    }

    /// Sets an attribute after construction, validated and munged (for
    /// `marionette resource TYPE TITLE attr=value`).
    pub fn set(&mut self, attr: &str, value: Value) -> Result<(), RalError> {
        let Some(def) = self.type_def.attribute(attr) else {
            return Err(RalError::UnknownAttribute {
                resource: self.reference(),
                attr: attr.to_string(),
                origin: self.origin.clone(),
            });
        };
        let munged = attribute::process_value(def, value)
            .map_err(|message| self.attr_error(attr, message))?;
        let index = self.index(attr).expect("checked above");
        let sensitive = self.is_sensitive(attr) || def.sensitive;
        self.put(index, munged, true, sensitive);
        if self.name.is_some() {
            self.name = Some(self.find_name());
        }
        Ok(())
    }

    pub fn is_sensitive(&self, attr: &str) -> bool {
        self.index(attr)
            .and_then(|index| self.slot(index))
            .is_some_and(|slot| slot.sensitive)
            || self.type_def.attribute(attr).is_some_and(|def| {
                def.sensitive_with
                    .iter()
                    .any(|other| other != attr && self.is_sensitive(other))
            })
    }

    /// A metaparameter's value.
    pub fn meta(&self, name: &str) -> Option<&Value> {
        self.meta.get(name)
    }

    /// Every metaparameter given, in the catalog's order.
    pub fn metas(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.meta.iter().map(|(name, value)| (name.as_str(), value))
    }

    /// Whether `noop => true` was set on this resource.
    pub fn noop(&self) -> bool {
        self.meta
            .get("noop")
            .and_then(parse_boolean)
            .unwrap_or(false)
    }

    /// The properties the `audit` metaparameter names, in the type's
    /// order: `all` is every property of the type; parameters named are
    /// accepted and left out, as Puppet does.
    pub fn audited(&self) -> Vec<String> {
        let Some(value) = self.meta.get("audit") else {
            return Vec::new();
        };
        let names = audit_names(value);
        let all = names.iter().any(|name| name == "all");
        self.type_def
            .attributes
            .iter()
            .filter(|attr| attr.kind.is_property())
            .filter(|attr| all || names.contains(&attr.name))
            .map(|attr| attr.name.clone())
            .collect()
    }

    /// The provider the manifest asked for.
    pub fn provider(&self) -> Option<&str> {
        self.provider.as_deref()
    }

    /// The properties this resource manages, in declaration order: those
    /// with a desired value. As in Puppet, a property whose value to sync
    /// is `false` or nothing (an empty list) is not managed.
    pub fn managed_properties(&self) -> impl Iterator<Item = (&crate::typedef::AttrDef, &Value)> {
        self.filled()
            .map(|(index, slot)| (&self.type_def.attributes[index], slot.value))
            .filter(|(a, _)| a.kind.is_property() && a.kind != AttrKind::ReadOnly)
            .filter(|(a, v)| {
                let should = attribute::sync_value(a, v);
                let empty = matches!(&should, Value::Array(items) if items.is_empty())
                    && a.array_matching == crate::typedef::ArrayMatching::First;
                should != Value::Boolean(false) && !empty
            })
    }
}

impl Resource {
    /// The automatic relationships this resource asks for: `(kind, type,
    /// title)` for each computed title. The caller keeps those whose target
    /// is in the catalog and silently drops the others.
    pub fn auto_relations(&self) -> Vec<(crate::typedef::AutoKind, String, String)> {
        self.auto_relation_titles()
            .into_iter()
            .flat_map(|(relation, titles)| {
                titles
                    .into_iter()
                    .map(|t| (relation.kind, relation.target_type.clone(), t))
            })
            .collect()
    }

    /// The titles of each of the type's automatic relationships (empty
    /// titles left out), with the relationship: a graph honours
    /// [`AutoRelation::first_found`](crate::typedef::AutoRelation::first_found).
    pub fn auto_relation_titles(&self) -> Vec<(&crate::typedef::AutoRelation, Vec<String>)> {
        let mut found = Vec::new();
        for relation in &self.type_def.autorelations {
            let titles = match &relation.titles {
                Titles::Fixed(titles) => titles.clone(),
                // The directory itself: the graph finds what is below it.
                Titles::Below(attr) => self
                    .get(attr)
                    .map(attribute::value_text)
                    .into_iter()
                    .collect(),
                Titles::Attribute(attr) => match self.get(attr) {
                    Some(Value::Array(items)) => items.iter().map(attribute::value_text).collect(),
                    Some(value) => vec![attribute::value_text(value)],
                    None => Vec::new(),
                },
                Titles::Computed(hook) => {
                    attribute::guarded(relation.kind.name(), "autorelation", || Ok(hook(self)))
                        .unwrap_or_default()
                }
            };
            let titles: Vec<String> = titles.into_iter().filter(|t| !t.is_empty()).collect();
            if !titles.is_empty() {
                found.push((relation, titles));
            }
        }
        found
    }
}

impl Resource {
    /// Whether a provider's property hash describes this resource: every
    /// identity attribute equal, the namevar also found under `name`.
    pub fn matches(&self, hash: &crate::provider::PropertyHash) -> bool {
        // Compared value by value, without building either identity: this
        // runs for every pair of resource and listed instance in a prefetch.
        self.type_def.key_attributes().iter().all(|key| {
            match (self.get(&key.name), hash_key(&self.type_def, hash, key)) {
                (Some(want), Some(have)) => {
                    attribute::value_text(want) == attribute::value_text(have)
                }
                _ => false,
            }
        })
    }

    /// The values of the identity attributes, as text, in the type's
    /// order; `None` while one is missing.
    pub fn identity(&self) -> Option<Vec<String>> {
        self.type_def
            .key_attributes()
            .iter()
            .map(|key| self.get(&key.name).map(attribute::value_text))
            .collect()
    }

    /// How providers that take names are told which resource is meant:
    /// the name, or the title when the identity has several attributes
    /// (a name alone would not tell them apart).
    pub fn provider_name(&self) -> String {
        if self.type_def.key_attributes().len() > 1 {
            self.title.to_string()
        } else {
            self.name()
        }
    }
}

impl Resource {
    /// An attribute's values as a list: the elements of an array, or the
    /// single value (properties may be given either way).
    pub fn list(&self, attr: &str) -> Vec<&Value> {
        match self.get(attr) {
            Some(Value::Array(items)) => items.iter().collect(),
            Some(value) => vec![value],
            None => Vec::new(),
        }
    }
}

/// The identity of a state a provider reported, as
/// [`Resource::identity`] gives a resource's: each identity attribute,
/// with `name` standing for the namevar.
pub fn hash_identity(
    type_def: &TypeDef,
    hash: &crate::provider::PropertyHash,
) -> Option<Vec<String>> {
    type_def
        .key_attributes()
        .iter()
        .map(|key| hash_key(type_def, hash, key).map(attribute::value_text))
        .collect()
}

/// One identity attribute's value in a state, `name` standing for the
/// namevar.
fn hash_key<'h>(
    type_def: &TypeDef,
    hash: &'h crate::provider::PropertyHash,
    key: &crate::typedef::AttrDef,
) -> Option<&'h Value> {
    hash.get(&key.name).or_else(|| {
        (type_def.namevar().map(|n| n.name.as_str()) == Some(key.name.as_str()))
            .then(|| hash.get("name"))
            .flatten()
    })
}
