//! Resource type definitions: what can be managed, as data.
//!
//! A [`TypeDef`] is a plain value. Built-in types build one in Rust with the
//! builder methods below; a plugin can build the same value from a YAML or
//! JSON description, so nothing here assumes the type was compiled in. Hooks
//! (custom validation, munging, defaults, comparison) are optional closures:
//! a type declared from data simply has none and relies on the declarative
//! parts (allowed values, aliases, Puppet type constraints, static defaults).

use std::fmt;
use std::sync::Arc;

use marionette_values::{PType, Regex, Value};

use crate::resource::Resource;

/// Whether an attribute steers management or describes the managed thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrKind {
    /// Steers how the resource is managed; never read from the system.
    Parameter,
    /// Observed on the system and changed through the provider.
    Property,
    /// Observed and reported, never set; setting it in a manifest is an
    /// error.
    ReadOnly,
    /// Set when the resource is created; a later difference is an error
    /// rather than a change.
    CreateOnly,
}

impl AttrKind {
    /// Whether the transaction reads this attribute from the system.
    pub fn is_property(self) -> bool {
        !matches!(self, AttrKind::Parameter)
    }
}

/// How a property compares an array of desired values with the current
/// value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ArrayMatching {
    /// In sync when the current value equals any desired value; syncing
    /// uses the first.
    #[default]
    First,
    /// In sync only when the current value equals the whole array.
    All,
}

/// One allowed value of an attribute.
#[derive(Clone, Debug)]
pub enum AllowedValue {
    /// A literal, compared as text; a match is stored in its canonical
    /// spelling (Puppet turns these into symbols).
    Literal(String),
    /// A pattern, tried after every literal; a match is stored unchanged.
    Pattern(Regex),
}

/// The context a validation or munging hook runs in: the attribute and the
/// default behaviour to fall back to (Puppet's `super`).
pub struct Hooked<'a> {
    pub attr: &'a AttrDef,
    /// The value already passed the attribute's type constraint.
    pub(crate) constraint_checked: bool,
}

impl Hooked<'_> {
    /// The default validation: allowed values and the type constraint.
    pub fn default_validate(&self, value: &Value) -> Result<(), String> {
        if self.constraint_checked {
            crate::attribute::validate_values(self.attr, value)
        } else {
            crate::attribute::default_validate(self.attr, value)
        }
    }

    /// The default munging: literal values to their canonical spelling,
    /// aliases to their target, booleans to `true`/`false`.
    pub fn default_munge(&self, value: Value) -> Result<Value, String> {
        Ok(crate::attribute::default_munge(self.attr, value))
    }
}

/// A custom validation: an error message, or `Ok`. Call
/// [`Hooked::default_validate`] to keep the default checks.
pub type ValidateFn = Arc<dyn Fn(&Hooked<'_>, &Value) -> Result<(), String> + Send + Sync>;
/// A check of a value as given, whole (see [`AttrDef::validate_whole`]).
pub type WholeCheckFn = Arc<dyn Fn(&Value) -> Result<(), String> + Send + Sync>;
/// A custom munging: the canonical form of a valid value.
pub type MungeFn = Arc<dyn Fn(&Hooked<'_>, Value) -> Result<Value, String> + Send + Sync>;
/// The title a run's messages show for a resource, when its type's own
/// differs from the catalog's (see [`TypeDef::shown_title`]).
pub type ShownTitleFn = Arc<dyn Fn(&Resource) -> Option<String> + Send + Sync>;
/// A default computed from the attributes declared earlier.
pub type DefaultFn = Arc<dyn Fn(&Resource) -> Option<Value> + Send + Sync>;
/// A custom in-sync test: `(resource, current, desired)`; the resource
/// gives access to parameters that steer the comparison (a membership
/// policy, say).
pub type InsyncFn = Arc<dyn Fn(&Resource, &Value, &Value) -> bool + Send + Sync>;
/// A custom text for a value in logs.
pub type FormatFn = Arc<dyn Fn(&Value) -> String + Send + Sync>;
/// The deprecation warning a given value warrants, if any.
pub type DeprecatedFn = Arc<dyn Fn(&Value) -> Option<String> + Send + Sync>;
/// A custom change message: `(resource, current, desired)`.
pub type ChangeFn = Arc<dyn Fn(&Resource, &Value, &Value) -> String + Send + Sync>;
/// A check over the whole resource after every attribute is set.
pub type ResourceCheckFn = Arc<dyn Fn(&Resource) -> Result<(), String> + Send + Sync>;
/// The checks of a type whose code runs elsewhere (a Ruby type's, in its
/// host), made for all the resources of a catalog at once: one question
/// to the other side for the run instead of several for each resource.
/// Resources built alone (generated ones, `resource`) are checked as a
/// batch of one.
pub trait Batch: Send + Sync {
    /// Before any resource of the type is built: the title of each with
    /// the values its catalog gives (metaparameters left out), so that the
    /// attributes' hooks can answer from what was learned.
    fn declared(&self, resources: &[(&str, Vec<(String, Value)>)]);
    /// Once they are built: the type's check of each (its `validate`), in
    /// the order given. Takes the place of [`TypeDef::validate`].
    /// `catalog` is what the type's code may look at of the catalog
    /// (`catalog.resources` in an `autorequire` block): the resources of
    /// every batched type; empty for a resource built alone.
    fn check(&self, resources: &[&Resource], catalog: &[&Resource]) -> Vec<Result<(), String>>;
}

/// Titles computed from a resource, for automatic relationships.
pub type TitlesFn = Arc<dyn Fn(&Resource) -> Vec<String> + Send + Sync>;
/// Resources a resource adds to the run before it is applied (`resources`
/// purging unmanaged instances, `tidy` removing old files).
pub type GenerateFn =
    Arc<dyn Fn(&Resource, &dyn Generation) -> Result<Vec<Generated>, GenerateError> + Send + Sync>;

/// Why a generator added nothing. The two kinds stop different amounts of
/// the run, as they do in Puppet.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// The resource cannot be what it says (purging a type that cannot be
    /// listed): Puppet refuses such a catalog when it is converted, so the
    /// run does not start.
    #[error("{0}")]
    Invalid(String),
    /// Generating failed on what the system holds (a directory with more
    /// entries than `max_files`): the error is logged against the
    /// resource, the resource itself is still evaluated, the rest of the
    /// run goes on, and the run counts as failed.
    #[error("{0}")]
    Failed(String),
    /// As `Failed`, where Puppet's type fails in its `generate` hook
    /// rather than `eval_generate` (`resources` purging a type whose
    /// listing fails), which its message names.
    #[error("{0}")]
    FailedInGenerate(String),
    /// Generating failed part way: the resources made before the failure
    /// are still added and applied, and the error is logged as `Failed`'s
    /// is. Puppet's `concat_file` makes its file in `generate` and fills
    /// it in `eval_generate`; when the content cannot be built, the file
    /// is still managed, without content.
    #[error("{1}")]
    Incomplete(Vec<Generated>, String),
}

/// A plain message is an invalid resource, the common case.
impl From<String> for GenerateError {
    fn from(message: String) -> GenerateError {
        GenerateError::Invalid(message)
    }
}

/// What a generator may ask of the run.
pub trait Generation {
    /// Every instance of a type on this system.
    fn instances(
        &self,
        type_name: &str,
    ) -> Result<Vec<crate::provider::PropertyHash>, crate::RalError>;
    /// Whether the catalog already manages `Type[title]`.
    fn manages(&self, type_name: &str, title: &str) -> bool;
    /// A type of the run's registry.
    fn type_def(&self, type_name: &str) -> Option<Arc<TypeDef>>;
    /// Logs a notice about the generating resource.
    fn notice(&self, resource: &Resource, message: &str);
    /// Logs a warning about the run rather than one resource (Puppet words
    /// recursion's soft limit so).
    fn warning(&self, message: &str);
    /// Logs a warning about one resource of the catalog (a generator or
    /// not), under its containment path.
    fn warn_about(&self, resource: &Resource, message: &str);
    /// The catalog's resources of a type (lower case), in catalog order:
    /// what a generator gathers from the rest of the catalog (`concat_file`
    /// its fragments).
    fn resources_of(&self, type_name: &str) -> Vec<&Resource>;
    /// Whether a recursive resource is to give every entry it finds, even
    /// those it would leave alone: a directory skipped for failed
    /// dependencies names each as skipped, as Puppet's generated children
    /// are.
    fn every_entry(&self) -> bool {
        false
    }
}

/// A resource added by a generator: contained where its generator is, with
/// its generator's metaparameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    pub type_name: String,
    pub title: String,
    pub params: Vec<(String, Value)>,
    pub by: GeneratedBy,
}

/// Which of Puppet's two generators made a resource, which decides where
/// its events go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GeneratedBy {
    /// `generate` (`tidy`, `resources`): an ordinary resource of its
    /// generator's container.
    #[default]
    Generate,
    /// `eval_generate` (a recursive file's entries): its events reach its
    /// container only through its generator's completion, which Puppet
    /// names by the generator's title ("/srv: Would have triggered
    /// 'refresh' from 3 events").
    EvalGenerate,
    /// Both (concat's file, made by `generate`, its content given by
    /// `eval_generate`): its events go to its container and to the
    /// completion.
    Both,
}

/// Where an attribute's default comes from.
#[derive(Clone)]
pub enum DefaultValue {
    Value(Value),
    /// Computed from the attributes declared before this one (Puppet's
    /// `defaultto` with a block).
    Computed(DefaultFn),
}

/// One attribute (parameter or property) of a type.
#[derive(Clone)]
pub struct AttrDef {
    pub name: String,
    pub doc: String,
    pub kind: AttrKind,
    /// Part of the resource's identity. Defaults to the title.
    pub namevar: bool,
    pub values: Vec<AllowedValue>,
    /// `(alias, target)`: the alias is accepted and stored as the target.
    pub aliases: Vec<(String, String)>,
    /// A Puppet type the value must match, checked before validation.
    pub constraint: Option<PType>,
    pub validate: Option<ValidateFn>,
    /// A check of the value as given, before a property's elements are
    /// checked one by one: a Ruby property's own `should=` sees the
    /// whole (cs_colocation's `primitives` takes nothing but an array).
    pub validate_whole: Option<WholeCheckFn>,
    pub munge: Option<MungeFn>,
    pub default: Option<DefaultValue>,
    pub required: bool,
    /// Accepts Puppet's boolean spellings and stores `true` or `false`.
    pub boolean: bool,
    pub array_matching: ArrayMatching,
    /// A property whose value is checked and munged whole, an array as
    /// one value (the Resource API's attributes), not element by element.
    pub whole_value: bool,
    pub insync: Option<InsyncFn>,
    /// Custom text of the current and desired values (`is_to_s`,
    /// `should_to_s`).
    pub format: Option<FormatFn>,
    /// What the report keeps of a value, when not the value itself: a
    /// file's content is kept as its checksum, as Puppet keeps it, so the
    /// report never holds a file's secrets.
    pub report: Option<FormatFn>,
    /// Custom change message (`change_to_s`).
    pub change_message: Option<ChangeFn>,
    /// Custom noop message (`current_value X, should be Y (noop)` in a
    /// property's own `is_to_s` and `should_to_s`).
    pub noop_message: Option<ChangeFn>,
    /// The value is never printed or logged.
    pub sensitive: bool,
    /// Attributes whose sensitive value makes this one's changes
    /// sensitive too (a file's `ensure` writes its sensitive `content`).
    pub sensitive_with: Vec<String>,
    /// Provider features needed to use this attribute.
    pub required_features: Vec<String>,
    /// Values whose sync cancels the refresh the resource was due in this
    /// run (Puppet's `invalidate_refreshes`): a service just started has
    /// nothing to restart.
    pub invalidates_refresh: Vec<String>,
    /// What a value given in the manifest warrants as a deprecation
    /// warning, when it does (file's `source_permissions` other than
    /// `ignore`): warned once per place in the manifests, as Puppet's
    /// deprecation warnings are.
    pub deprecated: Option<DeprecatedFn>,
    /// A fixed default, validated and munged: done once for all the
    /// resources that take it, since neither step sees the resource.
    processed_default: std::sync::OnceLock<Result<Value, String>>,
}

impl fmt::Debug for AttrDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AttrDef")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("namevar", &self.namevar)
            .finish_non_exhaustive()
    }
}

impl AttrDef {
    fn new(name: &str, kind: AttrKind) -> AttrDef {
        AttrDef {
            name: name.to_string(),
            doc: String::new(),
            kind,
            namevar: false,
            values: Vec::new(),
            aliases: Vec::new(),
            constraint: None,
            validate: None,
            validate_whole: None,
            munge: None,
            default: None,
            required: false,
            boolean: false,
            array_matching: ArrayMatching::First,
            whole_value: false,
            insync: None,
            format: None,
            report: None,
            change_message: None,
            noop_message: None,
            sensitive: false,
            sensitive_with: Vec::new(),
            required_features: Vec::new(),
            invalidates_refresh: Vec::new(),
            deprecated: None,
            processed_default: std::sync::OnceLock::new(),
        }
    }

    /// The fixed default (`default_value`) validated and munged, made
    /// once. `None` when the default is computed or there is none.
    pub(crate) fn processed_default(&self) -> Option<&Result<Value, String>> {
        let Some(DefaultValue::Value(value)) = &self.default else {
            return None;
        };
        Some(
            self.processed_default
                .get_or_init(|| crate::attribute::process_value(self, value.clone())),
        )
    }

    /// A parameter.
    pub fn param(name: &str) -> AttrDef {
        AttrDef::new(name, AttrKind::Parameter)
    }

    /// A property.
    pub fn property(name: &str) -> AttrDef {
        AttrDef::new(name, AttrKind::Property)
    }

    /// A read-only property.
    pub fn read_only(name: &str) -> AttrDef {
        AttrDef::new(name, AttrKind::ReadOnly)
    }

    /// A property that can only be set at creation.
    pub fn create_only(name: &str) -> AttrDef {
        AttrDef::new(name, AttrKind::CreateOnly)
    }

    pub fn doc(mut self, doc: &str) -> AttrDef {
        self.doc = trim_doc(doc);
        self
    }

    pub fn namevar(mut self) -> AttrDef {
        self.namevar = true;
        self
    }

    /// Allowed literal values (Puppet's `newvalues(:a, :b)`).
    pub fn values(mut self, values: &[&str]) -> AttrDef {
        self.values
            .extend(values.iter().map(|v| AllowedValue::Literal(v.to_string())));
        self
    }

    /// An allowed pattern (Puppet's `newvalues(/re/)`). Panics on an invalid
    /// pattern: patterns in definitions are written by the type's author,
    /// and a type from data goes through [`AttrDef::try_pattern`].
    pub fn pattern(self, pattern: &str) -> AttrDef {
        self.try_pattern(pattern)
            .unwrap_or_else(|e| panic!("invalid pattern /{pattern}/ in a type definition: {e}"))
    }

    /// An allowed pattern, or the regex engine's error.
    pub fn try_pattern(mut self, pattern: &str) -> Result<AttrDef, String> {
        self.values
            .push(AllowedValue::Pattern(Regex::new(pattern)?));
        Ok(self)
    }

    /// `alias` is accepted and stored as `target` (Puppet's `aliasvalue`).
    pub fn alias_value(mut self, alias: &str, target: &str) -> AttrDef {
        self.aliases.push((alias.to_string(), target.to_string()));
        self
    }

    pub fn constraint(mut self, ptype: PType) -> AttrDef {
        self.constraint = Some(ptype);
        self
    }

    pub fn validate(
        mut self,
        hook: impl Fn(&Hooked<'_>, &Value) -> Result<(), String> + Send + Sync + 'static,
    ) -> AttrDef {
        self.validate = Some(Arc::new(hook));
        self
    }

    /// Validates and munges a property's value whole, not element by
    /// element (see [`AttrDef::whole_value`]).
    pub fn whole_value(mut self) -> AttrDef {
        self.whole_value = true;
        self
    }

    pub fn munge(
        mut self,
        hook: impl Fn(&Hooked<'_>, Value) -> Result<Value, String> + Send + Sync + 'static,
    ) -> AttrDef {
        self.munge = Some(Arc::new(hook));
        self
    }

    pub fn default_value(mut self, value: impl Into<Value>) -> AttrDef {
        self.default = Some(DefaultValue::Value(value.into()));
        self
    }

    pub fn default_fn(
        mut self,
        hook: impl Fn(&Resource) -> Option<Value> + Send + Sync + 'static,
    ) -> AttrDef {
        self.default = Some(DefaultValue::Computed(Arc::new(hook)));
        self
    }

    /// A deprecation warning for the values `hook` words one for.
    pub fn deprecated(
        mut self,
        hook: impl Fn(&Value) -> Option<String> + Send + Sync + 'static,
    ) -> AttrDef {
        self.deprecated = Some(Arc::new(hook));
        self
    }

    pub fn required(mut self) -> AttrDef {
        self.required = true;
        self
    }

    /// A boolean attribute: `true`, `false`, `yes`, `no` (any case, string
    /// or boolean) become `true` or `false`.
    pub fn boolean(mut self) -> AttrDef {
        self.boolean = true;
        self.values = ["true", "false", "yes", "no"]
            .iter()
            .map(|v| AllowedValue::Literal(v.to_string()))
            .collect();
        self
    }

    pub fn array_matching(mut self, matching: ArrayMatching) -> AttrDef {
        self.array_matching = matching;
        self
    }

    pub fn insync(
        mut self,
        hook: impl Fn(&Resource, &Value, &Value) -> bool + Send + Sync + 'static,
    ) -> AttrDef {
        self.insync = Some(Arc::new(hook));
        self
    }

    pub fn format(mut self, hook: impl Fn(&Value) -> String + Send + Sync + 'static) -> AttrDef {
        self.format = Some(Arc::new(hook));
        self
    }

    /// See [`AttrDef::report`].
    pub fn report(mut self, hook: impl Fn(&Value) -> String + Send + Sync + 'static) -> AttrDef {
        self.report = Some(Arc::new(hook));
        self
    }

    pub fn change_message(
        mut self,
        hook: impl Fn(&Resource, &Value, &Value) -> String + Send + Sync + 'static,
    ) -> AttrDef {
        self.change_message = Some(Arc::new(hook));
        self
    }

    /// Words an `ensure` declared as a plain property (mount's) as any
    /// property is worded (`defined 'ensure' as ...`), not as `created`
    /// and `removed`.
    pub fn plain_change_messages(self) -> AttrDef {
        let name = self.name.clone();
        self.change_message(move |resource, current, desired| {
            match resource.type_def().attribute(&name) {
                Some(attr) => {
                    crate::attribute::property_change_message(attr, resource, current, desired)
                }
                None => String::new(),
            }
        })
    }

    /// What a noop run says of the attribute out of sync, when not
    /// Puppet's `current_value ..., should be ... (noop)` of the values.
    pub fn noop_message(
        mut self,
        hook: impl Fn(&Resource, &Value, &Value) -> String + Send + Sync + 'static,
    ) -> AttrDef {
        self.noop_message = Some(Arc::new(hook));
        self
    }

    pub fn sensitive(mut self) -> AttrDef {
        self.sensitive = true;
        self
    }

    /// Changes of this attribute are sensitive when one of `others` is.
    pub fn sensitive_with(mut self, others: &[&str]) -> AttrDef {
        self.sensitive_with
            .extend(others.iter().map(|o| o.to_string()));
        self
    }

    /// Syncing to one of these values cancels the resource's pending
    /// refresh.
    pub fn invalidate_refreshes(mut self, values: &[&str]) -> AttrDef {
        self.invalidates_refresh
            .extend(values.iter().map(|v| v.to_string()));
        self
    }

    pub fn requires_features(mut self, features: &[&str]) -> AttrDef {
        self.required_features
            .extend(features.iter().map(|f| f.to_string()));
        self
    }

    /// The literal allowed values, in declaration order.
    pub fn literals(&self) -> impl Iterator<Item = &str> {
        self.values.iter().filter_map(|v| match v {
            AllowedValue::Literal(text) => Some(text.as_str()),
            AllowedValue::Pattern(_) => None,
        })
    }

    /// The allowed patterns, in declaration order.
    pub fn patterns(&self) -> impl Iterator<Item = &Regex> {
        self.values.iter().filter_map(|v| match v {
            AllowedValue::Pattern(regex) => Some(regex),
            AllowedValue::Literal(_) => None,
        })
    }
}

/// A provider feature a type may use.
#[derive(Clone, Debug)]
pub struct FeatureDef {
    pub name: String,
    pub doc: String,
    /// Provider methods that, all present, give the feature without the
    /// provider declaring it.
    pub methods: Vec<String>,
}

/// The four automatic relationships.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoKind {
    /// The target is applied first.
    Require,
    /// The target is applied after.
    Before,
    /// The target is applied after and refreshed on a change.
    Notify,
    /// The target is applied first, and a change to it refreshes this one.
    Subscribe,
}

impl AutoKind {
    pub fn name(self) -> &'static str {
        match self {
            AutoKind::Require => "autorequire",
            AutoKind::Before => "autobefore",
            AutoKind::Notify => "autonotify",
            AutoKind::Subscribe => "autosubscribe",
        }
    }
}

/// Where the titles of an automatic relationship come from.
#[derive(Clone)]
pub enum Titles {
    /// Always these titles.
    Fixed(Vec<String>),
    /// The value of an attribute (each element of an array).
    Attribute(String),
    /// Computed from the resource.
    Computed(TitlesFn),
    /// Every resource of the target type whose title is a path below the
    /// value of this attribute (a mount point's files).
    Below(String),
}

/// An automatic relationship: to resources of `target_type` with the given
/// titles, when those are in the catalog.
#[derive(Clone)]
pub struct AutoRelation {
    pub kind: AutoKind,
    /// The target type, lower case (`file`, `service`).
    pub target_type: String,
    pub titles: Titles,
    /// Only the first of the titles, in the order computed, that the
    /// catalog has counts (a file requires its nearest managed parent
    /// directory, not every one above it).
    pub first_found: bool,
}

/// A title pattern: a regex whose captures fill identity attributes, so a
/// title such as `'melody.angel.net/A'` sets both `name` and `type`.
#[derive(Clone, Debug)]
pub struct TitlePattern {
    pub regex: Regex,
    /// The attribute each capture group fills, in group order.
    pub attributes: Vec<String>,
}

/// How `resource` prints a type's resources.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Listing {
    /// Puppet's way: `ensure` first, the rest by name, arrows aligned,
    /// the provider shown.
    #[default]
    Aligned,
    /// The Resource API's way: attributes in the order the type declares
    /// them, unset ones left out, these read-only ones commented out.
    Declared { read_only: Vec<String> },
}

/// A resource type.
#[derive(Clone)]
pub struct TypeDef {
    /// Lower case, as in manifests (`file`, `dns_resource`).
    pub name: String,
    pub doc: String,
    /// In declaration order, which is the order of checking and syncing.
    pub attributes: Vec<AttrDef>,
    pub features: Vec<FeatureDef>,
    /// Tried in order; when none is given, the whole title fills the
    /// namevar.
    pub title_patterns: Vec<TitlePattern>,
    pub autorelations: Vec<AutoRelation>,
    /// Whether `ensure` exists with `present`/`absent` through the
    /// provider's `exists`/`create`/`destroy`: it is read and synced
    /// before the other properties, which are left alone while it
    /// changes or the thing is absent. Puppet treats any property named
    /// `ensure` so, whether `ensurable` made it or not.
    pub ensurable: bool,
    /// Whether `ensure` defaults to `present` once another property is
    /// managed, as the `ensure` that `ensurable` makes does (an `ensure`
    /// declared as a plain property, mount's, has no default).
    pub present_when_managed: bool,
    /// The resource refreshes itself after any change it makes.
    pub self_refresh: bool,
    /// Whether the type reacts to refresh events (through the provider's
    /// `refresh`).
    pub refreshable: bool,
    /// Checks across attributes, after all are set.
    pub validate: Option<ResourceCheckFn>,
    /// Checks made for many resources at once (see [`Batch`]).
    pub batch: Option<Arc<dyn Batch>>,
    /// Run for every resource of the type before anything is applied.
    pub pre_run_check: Option<ResourceCheckFn>,
    /// Adds resources to the run (see [`GenerateFn`]).
    pub generate: Option<GenerateFn>,
    /// Whether the type has an `eval_generate` that fills in what its
    /// `generate` made (concat's file gets its content): Puppet calls it
    /// when the run reaches the resource, so once the run has changed
    /// something the hook is asked again then, and what it gives now
    /// replaces what it gave before the run.
    pub fills_late: bool,
    /// Whether what the type's generator makes is ordered by the generator
    /// itself (`tidy` removes a directory's entries before the directory,
    /// as Puppet's `depthfirst?` types do), not after the generator, as
    /// every other generated resource is.
    pub depth_first: bool,
    /// How `resource` prints the type's resources.
    pub listing: Listing,
    /// The title a run's messages show for a resource when the type's own
    /// differs from the catalog's (sshkeys_core's `sshkey` shows
    /// `HOST@TYPE`, overriding Puppet's `title`).
    pub shown_title: Option<ShownTitleFn>,
    /// Each attribute's position by name, built on first use: resources
    /// look attributes up by name many times per run, and types have
    /// dozens of them.
    positions: std::sync::OnceLock<marionette_values::fasthash::FastMap<String, usize>>,
    /// The position of the namevar, found once.
    namevar_at: std::sync::OnceLock<Option<usize>>,
    /// The name as references write it (`Mymod::Thing`), made once.
    reference_name: std::sync::OnceLock<Arc<str>>,
}

impl fmt::Debug for TypeDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypeDef")
            .field("name", &self.name)
            .field("attributes", &self.attributes)
            .finish_non_exhaustive()
    }
}

impl TypeDef {
    pub fn new(name: &str) -> TypeDef {
        TypeDef {
            name: name.to_ascii_lowercase(),
            doc: String::new(),
            attributes: Vec::new(),
            features: Vec::new(),
            title_patterns: Vec::new(),
            autorelations: Vec::new(),
            ensurable: false,
            present_when_managed: false,
            self_refresh: false,
            refreshable: false,
            validate: None,
            batch: None,
            pre_run_check: None,
            generate: None,
            fills_late: false,
            depth_first: false,
            listing: Listing::Aligned,
            shown_title: None,
            positions: std::sync::OnceLock::new(),
            namevar_at: std::sync::OnceLock::new(),
            reference_name: std::sync::OnceLock::new(),
        }
    }

    pub fn doc(mut self, doc: &str) -> TypeDef {
        self.doc = trim_doc(doc);
        self
    }

    /// Adds `ensure` with `present` and `absent` as the first attribute.
    /// Call [`TypeDef::ensure_values`] to accept more values.
    pub fn ensurable(mut self) -> TypeDef {
        self.ensurable = true;
        self.present_when_managed = true;
        let ensure = AttrDef::property("ensure")
            .doc("Whether the resource should exist (`present`) or not (`absent`).")
            .values(&["present", "absent"]);
        self.attributes.insert(0, ensure);
        self
    }

    /// Makes `ensure` a plain property with no default, as a type that
    /// declares its own `ensure` property has it (mount).
    pub fn ensure_without_default(mut self) -> TypeDef {
        self.present_when_managed = false;
        self
    }

    /// Extends `ensure` with more literal values (package's `installed`,
    /// `latest`) or a pattern (a version), and aliases.
    pub fn ensure_values(mut self, extend: impl FnOnce(AttrDef) -> AttrDef) -> TypeDef {
        if let Some(position) = self.attributes.iter().position(|a| a.name == "ensure") {
            let ensure = self.attributes.remove(position);
            self.attributes.insert(position, extend(ensure));
        }
        self
    }

    pub fn attr(mut self, attr: AttrDef) -> TypeDef {
        self.attributes.push(attr);
        self
    }

    pub fn feature(mut self, name: &str, doc: &str, methods: &[&str]) -> TypeDef {
        self.features.push(FeatureDef {
            name: name.to_string(),
            doc: trim_doc(doc),
            methods: methods.iter().map(|m| m.to_string()).collect(),
        });
        self
    }

    /// The values of the key attributes a title gives through the type's
    /// title patterns (the first that matches), in their order: how
    /// Puppet's catalog reads a reference (`Keystone_tenant['admin::Default']`)
    /// to find a resource by its uniqueness key rather than its title.
    /// `None` without patterns, when none matches, or when the title
    /// leaves a key attribute without a value.
    pub fn title_identity(&self, title: &str) -> Option<Vec<String>> {
        let pattern = self
            .title_patterns
            .iter()
            .find(|p| p.regex.captures(title).is_some())?;
        let captures = pattern.regex.captures(title)?;
        let captured: Vec<Option<String>> = captures.iter().skip(1).cloned().collect();
        self.key_attributes()
            .iter()
            .map(|key| {
                let group = pattern.attributes.iter().position(|a| *a == key.name)?;
                captured.get(group).cloned().flatten()
            })
            .collect()
    }

    pub fn title_pattern(mut self, pattern: &str, attributes: &[&str]) -> TypeDef {
        let regex = Regex::new(pattern)
            .unwrap_or_else(|e| panic!("invalid title pattern /{pattern}/: {e}"));
        self.title_patterns.push(TitlePattern {
            regex,
            attributes: attributes.iter().map(|a| a.to_string()).collect(),
        });
        self
    }

    pub fn auto(mut self, kind: AutoKind, target_type: &str, titles: Titles) -> TypeDef {
        self.autorelations.push(AutoRelation {
            kind,
            target_type: target_type.to_ascii_lowercase(),
            titles,
            first_found: false,
        });
        self
    }

    /// `autorequire(:target_type)` on the first of the computed titles
    /// that the catalog has, in their order: Puppet's file type finds its
    /// nearest managed parent directory this way.
    pub fn autorequire_first_found(
        mut self,
        target_type: &str,
        titles: impl Fn(&Resource) -> Vec<String> + Send + Sync + 'static,
    ) -> TypeDef {
        self = self.autorequire(target_type, titles);
        if let Some(relation) = self.autorelations.last_mut() {
            relation.first_found = true;
        }
        self
    }

    /// `autorequire(:target_type) { computed titles }`.
    pub fn autorequire(
        self,
        target_type: &str,
        titles: impl Fn(&Resource) -> Vec<String> + Send + Sync + 'static,
    ) -> TypeDef {
        self.auto(
            AutoKind::Require,
            target_type,
            Titles::Computed(Arc::new(titles)),
        )
    }

    pub fn self_refresh(mut self) -> TypeDef {
        self.self_refresh = true;
        self.refreshable = true;
        self
    }

    pub fn refreshable(mut self) -> TypeDef {
        self.refreshable = true;
        self
    }

    pub fn validate(
        mut self,
        hook: impl Fn(&Resource) -> Result<(), String> + Send + Sync + 'static,
    ) -> TypeDef {
        self.validate = Some(Arc::new(hook));
        self
    }

    pub fn pre_run_check(
        mut self,
        hook: impl Fn(&Resource) -> Result<(), String> + Send + Sync + 'static,
    ) -> TypeDef {
        self.pre_run_check = Some(Arc::new(hook));
        self
    }

    pub fn generate(
        mut self,
        hook: impl Fn(&Resource, &dyn Generation) -> Result<Vec<Generated>, GenerateError>
        + Send
        + Sync
        + 'static,
    ) -> TypeDef {
        self.generate = Some(Arc::new(hook));
        self
    }

    /// Says that the type's generator is asked again when the run reaches
    /// a resource (see [`TypeDef::fills_late`]).
    pub fn fills_late(mut self) -> TypeDef {
        self.fills_late = true;
        self
    }

    /// Says that the type orders what its generator makes (see
    /// [`TypeDef::depth_first`]).
    pub fn depth_first(mut self) -> TypeDef {
        self.depth_first = true;
        self
    }

    pub fn attribute(&self, name: &str) -> Option<&AttrDef> {
        self.attributes.get(self.position(name)?)
    }

    /// The position of an attribute in [`TypeDef::attributes`].
    pub fn position(&self, name: &str) -> Option<usize> {
        let positions = self.positions.get_or_init(|| {
            self.attributes
                .iter()
                .enumerate()
                .map(|(i, a)| (a.name.clone(), i))
                .collect()
        });
        match positions.get(name) {
            // The attributes are public: should they change after the index
            // was built, look again rather than answer wrongly.
            Some(&i) if self.attributes.get(i).is_some_and(|a| a.name == name) => Some(i),
            _ => self.attributes.iter().position(|a| a.name == name),
        }
    }

    /// The identity attributes: those marked, or else `name`.
    pub fn key_attributes(&self) -> Vec<&AttrDef> {
        let marked: Vec<&AttrDef> = self.attributes.iter().filter(|a| a.namevar).collect();
        if !marked.is_empty() {
            return marked;
        }
        self.attribute("name").into_iter().collect()
    }

    /// The namevar: the single identity attribute that defaults to the
    /// title (the first one when the identity is composite).
    pub fn namevar(&self) -> Option<&AttrDef> {
        self.attributes.get(self.namevar_position()?)
    }

    /// The type's name as references write it: each segment capitalized
    /// (`File`, `Mymod::Thing`).
    pub fn reference_name(&self) -> &str {
        self.shared_reference_name()
    }

    /// [`TypeDef::reference_name`], shared: each report status names its
    /// resource's type.
    pub fn shared_reference_name(&self) -> &Arc<str> {
        self.reference_name
            .get_or_init(|| marionette_values::types::capitalize_segments(&self.name).into())
    }

    /// The position of [`TypeDef::namevar`] in [`TypeDef::attributes`],
    /// found once: resources ask for their name all the time.
    pub fn namevar_position(&self) -> Option<usize> {
        let found = *self.namevar_at.get_or_init(|| self.find_namevar());
        match found {
            // As for `position`: attributes changed after the first look are
            // looked at again.
            Some(i)
                if self
                    .attributes
                    .get(i)
                    .is_some_and(|a| a.namevar || a.name == "name") =>
            {
                Some(i)
            }
            _ => self.find_namevar(),
        }
    }

    fn find_namevar(&self) -> Option<usize> {
        let keys = self.key_attributes();
        let namevar = keys
            .iter()
            .find(|a| a.name == "name")
            .or_else(|| keys.first())?;
        self.position(&namevar.name)
    }

    pub fn feature_def(&self, name: &str) -> Option<&FeatureDef> {
        self.features.iter().find(|f| f.name == name)
    }

    /// The first sentence-ish line of the doc, for `describe --list`.
    pub fn summary(&self) -> &str {
        self.doc.lines().next().unwrap_or("")
    }

    /// The definition errors a type author could make; registries refuse a
    /// type with any.
    pub fn check(&self) -> Result<(), String> {
        if self.namevar().is_none() {
            return Err(format!(
                "type {} has no namevar: declare a 'name' attribute or mark one as namevar",
                self.name
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for attr in &self.attributes {
            if !seen.insert(attr.name.as_str()) {
                return Err(format!("type {} declares '{}' twice", self.name, attr.name));
            }
            if crate::metaparams::is_metaparameter(&attr.name) {
                return Err(format!(
                    "type {} declares '{}', which is a metaparameter",
                    self.name, attr.name
                ));
            }
            for feature in &attr.required_features {
                if self.feature_def(feature).is_none() {
                    return Err(format!(
                        "attribute '{}' of type {} requires the undeclared feature '{feature}'",
                        attr.name, self.name
                    ));
                }
            }
        }
        for pattern in &self.title_patterns {
            for name in &pattern.attributes {
                if self.attribute(name).is_none() {
                    return Err(format!(
                        "a title pattern of type {} names the unknown attribute '{name}'",
                        self.name
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Trims documentation the way Puppet trims `@doc` and `desc`: the first
/// line loses its leading whitespace, the others the largest indentation
/// they all share (blank lines do not count), and surrounding blank lines
/// go.
pub fn trim_doc(doc: &str) -> String {
    let mut lines = doc.lines();
    let first = lines.next().unwrap_or("").trim_start();
    let rest: Vec<&str> = lines.collect();
    let indent = rest
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::from(first);
    for line in rest {
        out.push('\n');
        if line.trim().is_empty() {
            continue;
        }
        out.push_str(&line[indent..]);
    }
    out.trim_matches('\n').trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_trims_common_indentation_after_the_first_line() {
        let doc = "Creates a new database. Depending
        on the provider, this might create relational
        databases.

        Example:

            database {'mydatabase':
              ensure => present,
            }
      ";
        assert_eq!(
            trim_doc(doc),
            "Creates a new database. Depending\non the provider, this might create relational\n\
             databases.\n\nExample:\n\n    database {'mydatabase':\n      ensure => present,\n    }"
        );
    }

    #[test]
    fn a_title_gives_the_identity_its_patterns_capture() {
        // keystone_tenant's shape: `NAME::DOMAIN`, else the name alone.
        let tenant = TypeDef::new("tenant")
            .attr(AttrDef::param("name").namevar())
            .attr(AttrDef::param("domain").namevar())
            .title_pattern(r"\A(.+)::(.+)\z", &["name", "domain"])
            .title_pattern(r"\A(.+)\z", &["name"]);
        assert_eq!(
            tenant.title_identity("admin::Default"),
            Some(vec!["admin".to_string(), "Default".to_string()])
        );
        // A key attribute the title does not give: no identity to match.
        assert_eq!(tenant.title_identity("admin"), None);
        assert_eq!(
            TypeDef::new("plain")
                .attr(AttrDef::param("name"))
                .title_identity("x"),
            None
        );
    }

    #[test]
    fn name_is_the_namevar_unless_another_is_marked() {
        let plain = TypeDef::new("thing").attr(AttrDef::param("name"));
        assert_eq!(plain.namevar().unwrap().name, "name");
        let marked = TypeDef::new("file").attr(AttrDef::param("path").namevar());
        assert_eq!(marked.namevar().unwrap().name, "path");
        assert!(
            TypeDef::new("broken")
                .attr(AttrDef::param("x"))
                .check()
                .is_err()
        );
    }
}
