//! The resource types a catalog may hold without any module: Puppet 7's
//! core types, with the attribute names each accepts.
//!
//! The compiler checks attribute names against this table as Puppet's
//! compiler does ("no parameter named ..."); the types themselves (what the
//! attributes mean and how they are applied) belong to the resource
//! abstraction layer. When that layer exists, its registry replaces this
//! table so that types from modules are known too.

use std::borrow::Cow;

/// Metaparameters: accepted by every type, class and defined type.
pub(crate) const METAPARAMETERS: &[&str] = &[
    "alias",
    "audit",
    "before",
    "loglevel",
    "noop",
    "notify",
    "require",
    "schedule",
    "stage",
    "subscribe",
    "tag",
];

/// Metaparameters that make relationships; the others are passed down
/// containment at the end of compilation.
pub(crate) const RELATIONSHIP_PARAMETERS: &[&str] = &["before", "notify", "require", "subscribe"];

/// `(type, namevar, attributes)` for each core type. `provider` is listed
/// for the types that have providers.
const TYPES: &[(&str, &str, &[&str])] = &[
    ("component", "name", &["name"]),
    (
        "exec",
        "command",
        &[
            "command",
            "creates",
            "cwd",
            "environment",
            "group",
            "logoutput",
            "onlyif",
            "path",
            "provider",
            "refresh",
            "refreshonly",
            "returns",
            "timeout",
            "tries",
            "try_sleep",
            "umask",
            "unless",
            "user",
        ],
    ),
    (
        "file",
        "path",
        &[
            "backup",
            "checksum",
            "checksum_value",
            "content",
            "ctime",
            "ensure",
            "force",
            "group",
            "ignore",
            "links",
            "max_files",
            "mode",
            "mtime",
            "owner",
            "path",
            "provider",
            "purge",
            "recurse",
            "recurselimit",
            "replace",
            "selinux_ignore_defaults",
            "selrange",
            "selrole",
            "seltype",
            "seluser",
            "show_diff",
            "source",
            "source_permissions",
            "sourceselect",
            "staging_location",
            "target",
            "type",
            "validate_cmd",
            "validate_replacement",
        ],
    ),
    ("filebucket", "name", &["name", "path", "port", "server"]),
    (
        "group",
        "name",
        &[
            "allowdupe",
            "attribute_membership",
            "attributes",
            "auth_membership",
            "ensure",
            "forcelocal",
            "gid",
            "ia_load_module",
            "members",
            "name",
            "provider",
            "system",
        ],
    ),
    ("notify", "name", &["message", "name", "withpath"]),
    (
        "package",
        "name",
        &[
            "adminfile",
            "allow_virtual",
            "allowcdrom",
            "category",
            "command",
            "configfiles",
            "description",
            "enable_only",
            "ensure",
            "flavor",
            "install_only",
            "install_options",
            "instance",
            "mark",
            "name",
            "package_settings",
            "platform",
            "provider",
            "reinstall_on_refresh",
            "responsefile",
            "root",
            "source",
            "status",
            "uninstall_options",
            "vendor",
        ],
    ),
    (
        "resources",
        "name",
        &["name", "purge", "unless_system_user", "unless_uid"],
    ),
    (
        "schedule",
        "name",
        &[
            "name",
            "period",
            "periodmatch",
            "range",
            "repeat",
            "weekday",
        ],
    ),
    (
        "service",
        "name",
        &[
            "binary",
            "control",
            "enable",
            "ensure",
            "flags",
            "hasrestart",
            "hasstatus",
            "logonaccount",
            "logonpassword",
            "manifest",
            "name",
            "path",
            "pattern",
            "provider",
            "restart",
            "start",
            "status",
            "stop",
            "timeout",
        ],
    ),
    ("stage", "name", &["name"]),
    (
        "tidy",
        "path",
        &[
            "age",
            "backup",
            "matches",
            "max_files",
            "path",
            "recurse",
            "rmdirs",
            "size",
            "type",
        ],
    ),
    (
        "user",
        "name",
        &[
            "allowdupe",
            "attribute_membership",
            "attributes",
            "auth_membership",
            "auths",
            "comment",
            "ensure",
            "expiry",
            "forcelocal",
            "gid",
            "groups",
            "home",
            "ia_load_module",
            "iterations",
            "key_membership",
            "keys",
            "loginclass",
            "managehome",
            "membership",
            "name",
            "password",
            "password_max_age",
            "password_min_age",
            "password_warn_days",
            "profile_membership",
            "profiles",
            "project",
            "provider",
            "purge_ssh_keys",
            "role_membership",
            "roles",
            "salt",
            "shell",
            "system",
            "uid",
        ],
    ),
    ("whit", "name", &["name"]),
];

fn entry(
    type_name: &str,
) -> Option<&'static (&'static str, &'static str, &'static [&'static str])> {
    TYPES.iter().find(|(name, _, _)| *name == type_name)
}

/// A resource type the agent manages beyond Puppet 7's core types (Puppet
/// moved `host` and `cron` to modules; marionette ships them): its name,
/// namevar and attributes, `provider` included when it has providers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentType {
    pub name: String,
    pub namevar: String,
    pub attributes: Vec<String>,
    /// Whether several attributes together identify a resource (then
    /// `namevar` is `name`, standing for its title).
    pub composite: bool,
}

thread_local! {
    /// The agent types of the compilation running on this thread. Kept
    /// here rather than passed along because the table is consulted from
    /// free functions all over the compiler; [`AgentTypes`] sets and clears
    /// it around one compilation.
    static AGENT_TYPES: std::cell::RefCell<Vec<AgentType>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Makes agent types known for the life of the value.
pub(crate) struct AgentTypes;

impl AgentTypes {
    pub(crate) fn scope(types: Vec<AgentType>) -> AgentTypes {
        AGENT_TYPES.with(|known| *known.borrow_mut() = types);
        AgentTypes
    }
}

impl Drop for AgentTypes {
    fn drop(&mut self) {
        AGENT_TYPES.with(|known| known.borrow_mut().clear());
    }
}

/// Makes one more type known for the rest of the compilation running on
/// this thread (a module's type, once described).
pub(crate) fn add_agent_type(added: AgentType) {
    AGENT_TYPES.with(|known| {
        let mut known = known.borrow_mut();
        if !known.iter().any(|t| t.name == added.name) {
            known.push(added);
        }
    });
}

fn agent_type<T>(type_name: &str, f: impl FnOnce(&AgentType) -> T) -> Option<T> {
    AGENT_TYPES.with(|known| known.borrow().iter().find(|t| t.name == type_name).map(f))
}

/// Whether `type_name` (lower case) is a core type.
pub(crate) fn is_builtin(type_name: &str) -> bool {
    entry(type_name).is_some() || agent_type(type_name, |_| ()).is_some()
}

/// Whether a core type accepts an attribute (metaparameters included).
pub(crate) fn accepts(type_name: &str, attribute: &str) -> bool {
    METAPARAMETERS.contains(&attribute)
        || entry(type_name).is_some_and(|(_, _, attributes)| attributes.contains(&attribute))
        || agent_type(type_name, |t| t.attributes.iter().any(|a| a == attribute)).unwrap_or(false)
}

/// The attribute that identifies a resource of a core type.
pub(crate) fn namevar(type_name: &str) -> Cow<'static, str> {
    match entry(type_name) {
        Some((_, namevar, _)) => Cow::Borrowed(namevar),
        None => agent_type(type_name, |t| Cow::Owned(t.namevar.clone()))
            .unwrap_or(Cow::Borrowed("name")),
    }
}

/// The namevars of every type known on this thread, for work handed to
/// other threads: the agent types are known only to the thread that
/// compiles.
pub(crate) struct Namevars(Vec<(String, String)>);

impl Namevars {
    pub(crate) fn here() -> Namevars {
        AGENT_TYPES.with(|known| {
            Namevars(
                known
                    .borrow()
                    .iter()
                    .map(|t| (t.name.clone(), t.namevar.clone()))
                    .collect(),
            )
        })
    }

    pub(crate) fn get(&self, type_name: &str) -> &str {
        match entry(type_name) {
            Some((_, namevar, _)) => namevar,
            None => self
                .0
                .iter()
                .find(|(name, _)| name == type_name)
                .map_or("name", |(_, namevar)| namevar),
        }
    }
}

/// Whether two resources of the type with the same namevar value are the
/// same thing on the machine. `exec` and `tidy` are not: two execs may
/// run the same command under different titles.
pub(crate) fn isomorphic(type_name: &str) -> bool {
    !matches!(type_name, "exec" | "tidy")
}

/// The attribute whose value alone names what a resource of the type
/// manages, for the aliases PuppetDB's terminus gives resources named
/// otherwise than by their title: none for a type that is not
/// [`isomorphic`], or whose resources several attributes identify
/// (`package`'s name, provider and command; `sshkey`'s name and type).
pub(crate) fn identifying_attribute(type_name: &str) -> Option<Cow<'static, str>> {
    let composite = matches!(type_name, "package" | "sshkey")
        || agent_type(type_name, |t| t.composite).unwrap_or(false);
    (isomorphic(type_name) && !composite).then(|| namevar(type_name))
}

/// [`identifying_attribute`] of each type of `resources` that has one
/// (`name` for classes and defined types), by the type's name as the
/// catalog writes it.
pub(crate) fn namevars_of<'a>(
    resources: impl Iterator<Item = &'a marionette_catalog::Resource>,
) -> std::collections::BTreeMap<String, String> {
    let mut namevars = std::collections::BTreeMap::new();
    for resource in resources {
        if namevars.contains_key(&resource.type_name) {
            continue;
        }
        let type_name = resource.type_name.to_lowercase();
        let attribute = if is_builtin(&type_name) {
            identifying_attribute(&type_name)
        } else {
            Some(Cow::Borrowed("name"))
        };
        if let Some(attribute) = attribute {
            namevars.insert(resource.type_name.clone(), attribute.into_owned());
        }
    }
    namevars
}

/// All core type names, for "did you mean" hints.
pub(crate) fn names() -> Vec<String> {
    let mut names: Vec<String> = TYPES.iter().map(|(name, _, _)| name.to_string()).collect();
    AGENT_TYPES.with(|known| names.extend(known.borrow().iter().map(|t| t.name.clone())));
    names
}

/// Every attribute a type accepts, metaparameters included, for "did you
/// mean" hints.
pub(crate) fn attribute_names(type_name: &str) -> Vec<String> {
    let mut names: Vec<String> = METAPARAMETERS.iter().map(|m| m.to_string()).collect();
    if let Some((_, _, attributes)) = entry(type_name) {
        names.extend(attributes.iter().map(|a| a.to_string()));
    }
    if let Some(attributes) = agent_type(type_name, |t| t.attributes.clone()) {
        names.extend(attributes);
    }
    names
}

/// The namevar and attributes of a core type.
pub(crate) fn attributes(type_name: &str) -> Option<(&'static str, &'static [&'static str])> {
    entry(type_name).map(|(_, namevar, attributes)| (*namevar, *attributes))
}
