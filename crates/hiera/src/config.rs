//! `hiera.yaml`: versions 5, 4 (environment and module layers, deprecated)
//! and 3 (global layer only, its `yaml`, `json`, `hocon` and `eyaml`
//! backends), each turned into one list of hierarchy entries.

use std::path::{Path, PathBuf};

use marionette_values::{PHash, Value};

use crate::error::{ErrorKind, HieraError, Result};
use crate::merge::{DeepOptions, Merge};

/// Which layer a configuration belongs to; some keys are allowed in one
/// layer only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerKind {
    Global,
    Environment,
    Module,
}

/// How an entry finds its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FunctionKind {
    DataHash,
    LookupKey,
    DataDig,
}

impl FunctionKind {
    pub(crate) fn tag(self) -> &'static str {
        match self {
            FunctionKind::DataHash => "data_hash",
            FunctionKind::LookupKey => "lookup_key",
            FunctionKind::DataDig => "data_dig",
        }
    }
}

/// Where an entry's data is, before interpolation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Locations {
    /// A function that needs no location.
    None,
    Paths(Vec<String>),
    Globs(Vec<String>),
    Uris(Vec<String>),
    /// A variable holding a list, the name each element is bound to, and
    /// the path made from it.
    Mapped(String, String, String),
}

/// One level of a hierarchy.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) kind: FunctionKind,
    pub(crate) function: String,
    /// The data directory, relative to the configuration's directory,
    /// before interpolation.
    pub(crate) datadir: String,
    pub(crate) locations: Locations,
    pub(crate) options: PHash,
    /// An extension appended to paths that lack it (versions 3 and 4).
    pub(crate) extension: Option<String>,
}

/// A layer's configuration.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    /// The file, or `None` for Puppet's default configuration.
    pub(crate) path: Option<PathBuf>,
    /// The directory relative paths start from.
    pub(crate) root: PathBuf,
    pub(crate) version: u8,
    pub(crate) hierarchy: Vec<Entry>,
    /// A module's hierarchy consulted only when nothing else answered.
    pub(crate) default_hierarchy: Vec<Entry>,
    /// Version 3's `merge_behavior`, for the legacy `hiera_*` functions.
    pub(crate) v3_merge: Option<Merge>,
    /// A problem found in the entries, reported when they are used.
    pub(crate) problem: Option<HieraError>,
}

impl Config {
    /// Puppet's configuration for an environment or module without
    /// `hiera.yaml`: `data/common.yaml`.
    pub(crate) fn default_for(root: &Path) -> Config {
        Config {
            path: None,
            root: root.to_path_buf(),
            version: 5,
            hierarchy: vec![Entry {
                name: "Common".into(),
                kind: FunctionKind::DataHash,
                function: "yaml_data".into(),
                datadir: "data".into(),
                locations: Locations::Paths(vec!["common.yaml".into()]),
                options: PHash::new(),
                extension: None,
            }],
            default_hierarchy: Vec::new(),
            v3_merge: None,
            problem: None,
        }
    }

    /// `hiera configuration version N`, as `--explain` names it.
    pub(crate) fn label(&self) -> String {
        format!("hiera configuration version {}", self.version)
    }

    /// Reads and checks `path`, for `layer`. `Ok(None)` when the layer
    /// ignores the file (version 3 outside the global layer, with a
    /// warning in `warnings`).
    pub(crate) fn load(
        path: &Path,
        text: &str,
        layer: LayerKind,
        codedir: &Path,
    ) -> Result<(Option<Config>, Vec<String>)> {
        let parsed = crate::yaml::parse(text).map_err(|e| {
            HieraError::new(
                ErrorKind::Config,
                format!("Unable to parse ({}): {}", path.display(), e),
            )
        })?;
        let root = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let mut warnings = Vec::new();
        let hash = match parsed {
            Value::Hash(hash) => hash,
            _ => {
                warnings.push(format!(
                    "{}: File exists but does not contain a valid YAML hash. Falling back to Hiera version 3 default config",
                    path.display()
                ));
                std::sync::Arc::new(PHash::new())
            }
        };
        let version = match get(&hash, "version") {
            None => 3,
            Some(Value::Integer(v)) => *v,
            Some(other) => {
                return Err(HieraError::new(
                    ErrorKind::Assertion,
                    format!(
                        "{} has wrong type, entry 'version' expects an Integer value, got {}",
                        lc(path),
                        described(other)
                    ),
                ));
            }
        };
        let fail = |message: String| -> HieraError {
            // A line found for the problem travels after a marker.
            let (message, line) = match message.split_once(LINE) {
                Some((message, line)) => {
                    (message.to_string(), line.parse().ok().filter(|l| *l > 0))
                }
                None => (message, None),
            };
            // Type errors read as Puppet's type assertions: the subject,
            // "has wrong type", then where inside it; they carry no file.
            // The other problems are lookup issues located in the file.
            let subject = lc(path);
            match message.strip_prefix(&subject) {
                Some(rest) => {
                    let rest = rest.trim_start();
                    let rest = rest.replacen(" has wrong type, ", " ", 1).replacen(
                        "has wrong type, ",
                        "",
                        1,
                    );
                    HieraError::new(
                        ErrorKind::Assertion,
                        format!("{subject} has wrong type, {}", rest.trim_start()),
                    )
                }
                None => HieraError::new(ErrorKind::Config, message).in_file(path, line),
            }
        };
        let config = match version {
            5 => Some(parse_v5(&hash, path, &root, layer).map_err(fail)?),
            4 => {
                if layer == LayerKind::Global {
                    return Err(fail(
                        "hiera.yaml version 4 cannot be used in the global layer".into(),
                    ));
                }
                warnings.push(format!(
                    "{}: Use of 'hiera.yaml' version 4 is deprecated. It should be converted to version 5",
                    path.display()
                ));
                Some(parse_v4(&hash, path, &root).map_err(fail)?)
            }
            3 => {
                warnings.push(format!(
                    "{}: Use of 'hiera.yaml' version 3 is deprecated. It should be converted to version 5",
                    path.display()
                ));
                if layer != LayerKind::Global {
                    let place = if layer == LayerKind::Module {
                        "module root"
                    } else {
                        "the environment root"
                    };
                    warnings.push(format!("hiera.yaml version 3 found at {place} was ignored"));
                    None
                } else {
                    Some(parse_v3(&hash, path, &root, codedir).map_err(fail)?)
                }
            }
            other => {
                return Err(fail(format!(
                    "This runtime does not support hiera.yaml version {other}"
                )));
            }
        };
        Ok((config, warnings))
    }
}

/// Separates a problem from the line of the configuration it is on.
const LINE: &str = "\u{0}line ";

/// The first line of a configuration that holds `text` outside a comment,
/// as Puppet finds the line of a problem.
fn line_matching(path: &Path, text: &str) -> Option<usize> {
    let content = std::fs::read_to_string(path).ok()?;
    content
        .lines()
        .position(|line| line.split('#').next().unwrap_or("").contains(text))
        .map(|i| i + 1)
}

/// The lines of a configuration that give a hierarchy entry `name`.
fn lines_naming(path: &Path, name: &str) -> Vec<usize> {
    let Ok(content) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    content
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.split('#').next().unwrap_or("");
            let Some((_, value)) = line.split_once("name:") else {
                return false;
            };
            value.trim().trim_matches(['"', '\'']) == name
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// A value's type as type assertions name it: a hash with string keys is
/// a `Struct`, an array a `Tuple`.
fn described(value: &Value) -> String {
    match value {
        Value::Hash(h) if h.keys().all(|k| matches!(k, Value::String(_))) => "Struct".into(),
        Value::Array(_) => "Tuple".into(),
        other => crate::merge::type_name(other),
    }
}

fn get<'a>(hash: &'a PHash, key: &str) -> Option<&'a Value> {
    hash.get(&Value::string(key))
}

fn text(value: &Value) -> String {
    marionette_values::format::to_s(value)
}

/// `The Lookup Configuration at 'F'` and what is wrong, as Puppet words it.
fn lc(path: &Path) -> String {
    format!("The Lookup Configuration at '{}'", path.display())
}

const FUNCTION_KEYS: [&str; 3] = ["data_hash", "lookup_key", "data_dig"];
const LOCATION_KEYS: [&str; 7] = [
    "path",
    "paths",
    "glob",
    "globs",
    "uri",
    "uris",
    "mapped_paths",
];

fn non_empty_string(
    value: &Value,
    what: impl Fn() -> String,
) -> std::result::Result<String, String> {
    match value {
        Value::String(s) if !s.is_empty() => Ok(s.to_string()),
        Value::String(_) => Err(format!("{} expects a String[1] value, got String", what())),
        other => Err(format!(
            "{} expects a String value, got {}",
            what(),
            described(other)
        )),
    }
}

fn string_list(
    value: &Value,
    what: impl Fn() -> String,
) -> std::result::Result<Vec<String>, String> {
    match value {
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .enumerate()
            .map(|(i, v)| non_empty_string(v, || format!("{} index {i}", what())))
            .collect(),
        Value::Array(_) => Err(format!("{} expects size to be at least 1, got 0", what())),
        other => Err(format!(
            "{} expects an Array value, got {}",
            what(),
            crate::merge::type_name(other)
        )),
    }
}

fn options_hash(value: &Value, what: impl Fn() -> String) -> std::result::Result<PHash, String> {
    match value {
        Value::Hash(h) => Ok((**h).clone()),
        other => Err(format!(
            "{} expects a Hash value, got {}",
            what(),
            crate::merge::type_name(other)
        )),
    }
}

fn parse_v5(
    hash: &PHash,
    path: &Path,
    root: &Path,
    layer: LayerKind,
) -> std::result::Result<Config, String> {
    for key in hash.keys() {
        let key = text(key);
        if !matches!(
            key.as_str(),
            "version" | "defaults" | "hierarchy" | "plan_hierarchy" | "default_hierarchy"
        ) {
            return Err(format!(
                "{} has wrong type, unrecognized key '{key}'",
                lc(path)
            ));
        }
    }
    let mut default_function: Option<(FunctionKind, String)> = None;
    let mut default_datadir = "data".to_string();
    let mut default_options: Option<PHash> = None;
    if let Some(defaults) = get(hash, "defaults") {
        let Value::Hash(defaults) = defaults else {
            return Err(format!(
                "{} entry 'defaults' expects a Struct value, got {}",
                lc(path),
                crate::merge::type_name(defaults)
            ));
        };
        let mut functions = 0;
        for (k, v) in defaults.iter() {
            let k = text(k);
            let what = || format!("{} entry 'defaults' entry '{k}'", lc(path));
            match k.as_str() {
                "data_hash" | "lookup_key" | "data_dig" => {
                    functions += 1;
                    default_function = Some((function_kind(&k), non_empty_string(v, what)?));
                }
                "datadir" => default_datadir = non_empty_string(v, what)?,
                "options" => {
                    let options = options_hash(v, what)?;
                    for reserved in ["path", "uri"] {
                        if options.contains_key(&Value::string(reserved)) {
                            return Err(format!(
                                "Option key '{reserved}' used in defaults is reserved by Puppet"
                            ));
                        }
                    }
                    default_options = Some(options);
                }
                _ => {
                    return Err(format!(
                        "{} entry 'defaults' has wrong type, unrecognized key '{k}'",
                        lc(path)
                    ));
                }
            }
        }
        if functions > 1 {
            return Err(
                "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in defaults"
                    .into(),
            );
        }
    } else {
        default_function = Some((FunctionKind::DataHash, "yaml_data".into()));
    }
    let mut duplicate_in: Option<HieraError> = None;
    let duplicate = &mut duplicate_in;
    let mut entries = |key: &str| -> std::result::Result<Vec<Entry>, String> {
        let Some(list) = get(hash, key) else {
            return Ok(Vec::new());
        };
        let Value::Array(items) = list else {
            return Err(format!(
                "{} entry '{key}' expects an Array value, got {}",
                lc(path),
                described(list)
            ));
        };
        let mut entries: Vec<Entry> = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let where_ = format!("{} entry '{key}' index {index}", lc(path));
            let entry = parse_entry_v5(
                item,
                &where_,
                &default_function,
                &default_datadir,
                default_options.as_ref(),
            )?;
            if entries.iter().any(|e| e.name == entry.name) {
                // Puppet names the line of each definition.
                let lines = lines_naming(path, &entry.name);
                let first = match lines.first() {
                    Some(line) if lines.len() > 1 => format!(" First defined at (line: {line})"),
                    _ => String::new(),
                };
                let line = lines.get(1).or(lines.first()).copied();
                // Puppet finds this only when it makes the entries, after
                // the layer is explained: the error waits until then.
                *duplicate = Some(
                    HieraError::new(
                        ErrorKind::Config,
                        format!(
                            "Hierarchy name '{}' defined more than once.{first}",
                            entry.name
                        ),
                    )
                    .in_file(path, line),
                );
                break;
            }
            entries.push(entry);
        }
        Ok(entries)
    };
    let hierarchy = if hash.contains_key(&Value::string("hierarchy")) {
        entries("hierarchy")?
    } else {
        Config::default_for(root).hierarchy
    };
    let default_hierarchy = entries("default_hierarchy")?;
    if hash.contains_key(&Value::string("default_hierarchy")) && layer != LayerKind::Module {
        return Err(format!(
            "'default_hierarchy' is only allowed in the module layer{LINE}{}",
            line_matching(path, "default_hierarchy:").unwrap_or(0)
        ));
    }
    entries("plan_hierarchy")?;
    Ok(Config {
        path: Some(path.to_path_buf()),
        root: root.to_path_buf(),
        version: 5,
        hierarchy,
        default_hierarchy,
        v3_merge: None,
        problem: duplicate_in,
    })
}

fn function_kind(key: &str) -> FunctionKind {
    match key {
        "lookup_key" => FunctionKind::LookupKey,
        "data_dig" => FunctionKind::DataDig,
        _ => FunctionKind::DataHash,
    }
}

fn parse_entry_v5(
    item: &Value,
    where_: &str,
    default_function: &Option<(FunctionKind, String)>,
    default_datadir: &str,
    default_options: Option<&PHash>,
) -> std::result::Result<Entry, String> {
    let Value::Hash(entry) = item else {
        return Err(format!(
            "{where_} expects a Struct value, got {}",
            crate::merge::type_name(item)
        ));
    };
    let mut name = None;
    let mut function = None;
    let mut functions = 0;
    let mut datadir = None;
    let mut locations = Vec::new();
    let mut options = None;
    for (k, v) in entry.iter() {
        let k = text(k);
        let what = || format!("{where_} entry '{k}'");
        match k.as_str() {
            "name" => name = Some(non_empty_string(v, what)?),
            "data_hash" | "lookup_key" | "data_dig" | "v4_data_hash" => {
                functions += 1;
                function = Some((function_kind(&k), non_empty_string(v, what)?));
            }
            "hiera3_backend" => {
                let backend = non_empty_string(v, what)?;
                if matches!(backend.as_str(), "yaml" | "json" | "hocon") {
                    return Err(format!(
                        "Use \"data_hash: {backend}_data\" instead of \"hiera3_backend: {backend}\""
                    ));
                }
                return Err(format!(
                    "No data provider is registered for backend '{backend}'"
                ));
            }
            "datadir" => datadir = Some(non_empty_string(v, what)?),
            "options" => options = Some(options_hash(v, what)?),
            "path" | "glob" | "uri" => {
                locations.push((k.clone(), vec![non_empty_string(v, what)?]));
            }
            "paths" | "globs" | "uris" => locations.push((k.clone(), string_list(v, what)?)),
            "mapped_paths" => {
                let list = string_list(v, what)?;
                if list.len() != 3 {
                    return Err(format!(
                        "{where_} entry 'mapped_paths' expects size to be 3, got {}",
                        list.len()
                    ));
                }
                locations.push((k.clone(), list));
            }
            _ => {
                return Err(format!("{where_} has wrong type, unrecognized key '{k}'"));
            }
        }
    }
    let Some(name) = name else {
        return Err(format!("{where_} expects a value for key 'name'"));
    };
    if functions > 1 {
        return Err(format!(
            "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in hierarchy '{name}'"
        ));
    }
    let Some((kind, function)) = function.or_else(|| default_function.clone()) else {
        return Err(format!(
            "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy '{name}'"
        ));
    };
    if locations.len() > 1 {
        return Err(format!(
            "Only one of {} can be defined in hierarchy '{name}'",
            LOCATION_KEYS
                .join(", ")
                .replacen(", mapped_paths", ", or mapped_paths", 1)
        ));
    }
    if let Some(options) = &options {
        for reserved in ["path", "uri"] {
            if options.contains_key(&Value::string(reserved)) {
                return Err(format!(
                    "Option key '{reserved}' used in hierarchy '{name}' is reserved by Puppet"
                ));
            }
        }
    }
    let locations = match locations.pop() {
        None => Locations::None,
        Some((key, mut list)) => match key.as_str() {
            "path" | "paths" => Locations::Paths(list),
            "glob" | "globs" => Locations::Globs(list),
            "uri" | "uris" => Locations::Uris(list),
            _ => {
                let template = list.pop().unwrap_or_default();
                let var = list.pop().unwrap_or_default();
                let source = list.pop().unwrap_or_default();
                Locations::Mapped(source, var, template)
            }
        },
    };
    let _ = FUNCTION_KEYS;
    Ok(Entry {
        name,
        kind,
        function,
        datadir: datadir.unwrap_or_else(|| default_datadir.to_string()),
        locations,
        options: options
            .or_else(|| default_options.cloned())
            .unwrap_or_default(),
        extension: None,
    })
}

fn parse_v4(hash: &PHash, path: &Path, root: &Path) -> std::result::Result<Config, String> {
    let datadir = match get(hash, "datadir") {
        Some(v) => non_empty_string(v, || format!("{} entry 'datadir'", lc(path)))?,
        None => "data".to_string(),
    };
    let mut hierarchy = Vec::new();
    let list = match get(hash, "hierarchy") {
        None => vec![Value::hash(
            [
                (Value::string("name"), Value::string("common")),
                (Value::string("backend"), Value::string("yaml")),
            ]
            .into_iter()
            .collect(),
        )],
        Some(Value::Array(items)) => items.to_vec(),
        Some(other) => {
            return Err(format!(
                "{} entry 'hierarchy' expects an Array value, got {}",
                lc(path),
                described(other)
            ));
        }
    };
    for (index, item) in list.iter().enumerate() {
        let where_ = format!("{} entry 'hierarchy' index {index}", lc(path));
        let Value::Hash(entry) = item else {
            return Err(format!("{where_} expects a Struct value"));
        };
        let field = |key: &str| get(entry, key);
        let name = match field("name") {
            Some(v) => non_empty_string(v, || format!("{where_} entry 'name'"))?,
            None => return Err(format!("{where_} expects a value for key 'name'")),
        };
        let backend = match field("backend") {
            Some(v) => non_empty_string(v, || format!("{where_} entry 'backend'"))?,
            None => return Err(format!("{where_} expects a value for key 'backend'")),
        };
        let (function, extension) = match backend.as_str() {
            "yaml" => ("yaml_data", ".yaml"),
            "json" => ("json_data", ".json"),
            "hocon" => ("hocon_data", ".conf"),
            other => {
                return Err(format!(
                    "No data provider is registered for backend '{other}'"
                ));
            }
        };
        let paths = match (field("paths"), field("path")) {
            (Some(v), _) => string_list(v, || format!("{where_} entry 'paths'"))?,
            (None, Some(v)) => vec![non_empty_string(v, || format!("{where_} entry 'path'"))?],
            (None, None) => vec![name.clone()],
        };
        let entry_datadir = match field("datadir") {
            Some(v) => non_empty_string(v, || format!("{where_} entry 'datadir'"))?,
            None => datadir.clone(),
        };
        hierarchy.push(Entry {
            name,
            kind: FunctionKind::DataHash,
            function: function.into(),
            datadir: entry_datadir,
            locations: Locations::Paths(paths),
            options: PHash::new(),
            extension: Some(extension.into()),
        });
    }
    Ok(Config {
        path: Some(path.to_path_buf()),
        root: root.to_path_buf(),
        version: 4,
        hierarchy,
        default_hierarchy: Vec::new(),
        v3_merge: None,
        problem: None,
    })
}

/// Version 3 keys may be written as Ruby symbols (`:backends:`), which the
/// reader gives as plain names.
fn parse_v3(
    hash: &PHash,
    path: &Path,
    root: &Path,
    codedir: &Path,
) -> std::result::Result<Config, String> {
    let backends = match get(hash, "backends") {
        None => vec!["yaml".to_string()],
        Some(Value::String(s)) => vec![s.to_string()],
        Some(Value::Array(items)) => items.iter().map(text).collect(),
        Some(other) => {
            return Err(format!(
                "{} entry 'backends' expects a value of type String or Array, got {}",
                lc(path),
                crate::merge::type_name(other)
            ));
        }
    };
    let paths: Vec<String> = match get(hash, "hierarchy") {
        None => vec!["nodes/%{::trusted.certname}".into(), "common".into()],
        Some(Value::String(s)) => vec![s.to_string()],
        Some(Value::Array(items)) => items.iter().map(text).collect(),
        Some(other) => {
            return Err(format!(
                "{} entry 'hierarchy' expects a value of type String or Array, got {}",
                lc(path),
                crate::merge::type_name(other)
            ));
        }
    };
    let v3_merge = match get(hash, "merge_behavior").map(text).as_deref() {
        None | Some("native") => None,
        Some("array") => Some(Merge::Unique),
        Some(kind @ ("deep" | "deeper")) => {
            let mut options = DeepOptions::default();
            if let Some(Value::Hash(dm)) = get(hash, "deep_merge_options") {
                for (k, v) in dm.iter() {
                    match (text(k).as_str(), v) {
                        ("knockout_prefix", Value::String(p)) => {
                            options.knockout_prefix = Some(p.to_string())
                        }
                        ("sort_merged_arrays", Value::Boolean(b)) => {
                            options.sort_merged_arrays = *b
                        }
                        ("merge_hash_arrays", Value::Boolean(b)) => options.merge_hash_arrays = *b,
                        _ => {}
                    }
                }
            }
            Some(if kind == "deep" {
                Merge::ReverseDeep(options)
            } else {
                Merge::Deep(options)
            })
        }
        Some(other) => {
            return Err(format!(
                "{} entry 'merge_behavior' expects a match for Enum['deep', 'deeper', 'native'], got '{other}'",
                lc(path)
            ));
        }
    };
    let default_datadir = format!(
        "{}/environments/%{{::environment}}/hieradata",
        codedir.display()
    );
    let mut hierarchy = Vec::new();
    for backend in &backends {
        if hierarchy.iter().any(|e: &Entry| &e.name == backend) {
            return Err(format!("Backend '{backend}' is defined more than once."));
        }
        let backend_config = match get(hash, backend) {
            Some(Value::Hash(h)) => (**h).clone(),
            _ => PHash::new(),
        };
        let datadir = backend_config
            .get(&Value::string("datadir"))
            .map(text)
            .unwrap_or_else(|| default_datadir.clone());
        let extension = match backend_config.get(&Value::string("extension")) {
            Some(ext) => format!(".{}", text(ext)),
            None if backend == "hocon" => ".conf".into(),
            None => format!(".{backend}"),
        };
        let (kind, function) = match backend.as_str() {
            "yaml" => (FunctionKind::DataHash, "yaml_data"),
            "json" => (FunctionKind::DataHash, "json_data"),
            "hocon" => (FunctionKind::DataHash, "hocon_data"),
            "eyaml" => (FunctionKind::LookupKey, "eyaml_lookup_key"),
            other => {
                return Err(format!(
                    "Hiera 3 backend '{other}' is not supported (only yaml, json, hocon and eyaml are)"
                ));
            }
        };
        let mut options = PHash::new();
        if backend == "eyaml" {
            for (k, v) in backend_config.iter() {
                let k = text(k);
                if k != "datadir" && k != "extension" {
                    options.insert(Value::string(k), v.clone());
                }
            }
        }
        hierarchy.push(Entry {
            name: backend.clone(),
            kind,
            function: function.into(),
            datadir,
            locations: Locations::Paths(paths.clone()),
            options,
            extension: Some(extension),
        });
    }
    Ok(Config {
        path: Some(path.to_path_buf()),
        root: root.to_path_buf(),
        version: 3,
        hierarchy,
        default_hierarchy: Vec::new(),
        v3_merge,
        problem: None,
    })
}
