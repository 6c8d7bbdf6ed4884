//! Facter's fact cache: facts named in `facter.conf`'s `facts.ttls` keep
//! their values for that long, in one JSON file per group under Facter's
//! cache directory, so that a costly fact (apt's simulated upgrades) is
//! resolved once a day rather than at every run.
//!
//! The files are Facter 4's own: a group's file holds its facts' values and
//! `"cache_format_version": 1`; it is fresh while its modification time
//! plus the group's time to live is in the future, is deleted once expired,
//! and is written again only when it is missing, expired, or lacks a fact
//! that was resolved (so a group's life counts from its first writing). A
//! machine moved from Puppet keeps its configuration and its cache, and
//! the two tools read each other's files.
//!
//! A `ttls` entry names a group of `fact-groups` (each of its facts), or
//! else a fact, which then covers its own dotted children (`os` covers
//! `os.family`). Facter's built-in group names ("operating system", ...)
//! are not known here: such an entry caches nothing, so those facts are
//! resolved at every run (Marionette resolves them natively, quickly).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

/// The configuration read, and where the cache files are.
#[derive(Clone, Debug, PartialEq)]
pub struct FactCache {
    dir: PathBuf,
    /// Each fact (or fact prefix) a `ttls` entry covers, with its group and
    /// its time to live; the longest wins for a fact listed twice.
    facts: BTreeMap<String, (String, Duration)>,
}

/// Why `facter.conf` could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    #[error("Could not read {}: {message}", path.display())]
    Read { path: PathBuf, message: String },
    #[error("Could not parse {} (line: {line}, column: {column}): {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
}

impl FactCache {
    /// The cache `facter.conf` configures, looked for where Facter looks
    /// under `etc` (normally `/etc`): Puppet's own packages' file
    /// (`puppetlabs/facter/facter.conf`, cache under `/opt/puppetlabs`),
    /// else Debian's (`facter/facter.conf`, cache under `/var/cache`).
    /// `None` when there is no file or it names no `ttls`.
    pub fn configured(etc: &Path) -> Result<Option<FactCache>, CacheError> {
        let places = [
            (
                etc.join("puppetlabs/facter/facter.conf"),
                "/opt/puppetlabs/facter/cache/cached_facts",
            ),
            (etc.join("facter/facter.conf"), "/var/cache/facter/facts"),
        ];
        for (conf, dir) in places {
            if conf.is_file() {
                return FactCache::from_file(&conf, PathBuf::from(dir));
            }
        }
        Ok(None)
    }

    /// The cache a `facter.conf` configures, its files in `dir`.
    pub fn from_file(conf: &Path, dir: PathBuf) -> Result<Option<FactCache>, CacheError> {
        let text = std::fs::read_to_string(conf).map_err(|e| CacheError::Read {
            path: conf.to_path_buf(),
            message: e.to_string(),
        })?;
        let config = hocon::parse(&text).map_err(|e| CacheError::Parse {
            path: conf.to_path_buf(),
            line: e.line,
            column: e.column,
            message: e.message,
        })?;
        let invalid = |message: String| CacheError::Invalid {
            path: conf.to_path_buf(),
            message,
        };
        let groups = match config.get("fact-groups") {
            None => Map::new(),
            Some(Value::Object(groups)) => groups.clone(),
            Some(_) => return Err(invalid("fact-groups must be an object".into())),
        };
        let ttls = match config.get("facts").and_then(|f| f.get("ttls")) {
            None => return Ok(None),
            Some(Value::Array(entries)) => entries,
            Some(_) => return Err(invalid("facts.ttls must be a list".into())),
        };
        let mut facts: BTreeMap<String, (String, Duration)> = BTreeMap::new();
        for entry in ttls {
            let Value::Object(entry) = entry else {
                return Err(invalid(
                    "each entry of facts.ttls must be an object, such as { \"name\": \"1 day\" }"
                        .into(),
                ));
            };
            for (group, ttl) in entry {
                let ttl = ttl.as_str().and_then(duration).ok_or_else(|| {
                    invalid(format!(
                        "the time to live of '{group}' is not a duration such as \"30 days\": {ttl}"
                    ))
                })?;
                let members: Vec<String> = match groups.get(group) {
                    Some(Value::Array(members)) => members
                        .iter()
                        .filter_map(|m| m.as_str().map(str::to_string))
                        .collect(),
                    _ => vec![group.clone()],
                };
                for fact in members {
                    let longer = facts.get(&fact).is_none_or(|(_, known)| *known < ttl);
                    if longer {
                        facts.insert(fact, (group.clone(), ttl));
                    }
                }
            }
        }
        Ok((!facts.is_empty()).then_some(FactCache { dir, facts }))
    }

    /// Where the group files are.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `fact` is cached at all.
    pub fn covers(&self, fact: &str) -> bool {
        self.entry(fact).is_some()
    }

    /// The group and time to live of `fact`: its own entry, else the entry
    /// of a fact it is a dotted child of.
    fn entry(&self, fact: &str) -> Option<&(String, Duration)> {
        self.facts.get(fact).or_else(|| {
            self.facts.iter().find_map(|(name, entry)| {
                fact.strip_prefix(name.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
                    .then_some(entry)
            })
        })
    }

    fn groups(&self) -> BTreeMap<&str, Duration> {
        let mut groups = BTreeMap::new();
        for (group, ttl) in self.facts.values() {
            groups.insert(group.as_str(), *ttl);
        }
        groups
    }

    /// The values of every fresh group file, the facts each group covers;
    /// an expired or unreadable file is deleted, as Facter deletes it.
    pub fn fresh(&self) -> Map<String, Value> {
        let mut values = Map::new();
        for (group, ttl) in self.groups() {
            let Some(data) = self.read_group(group, ttl) else {
                continue;
            };
            for (name, value) in data {
                let ours = self.entry(&name).is_some_and(|(g, _)| g == group);
                if ours && !value.is_null() {
                    values.insert(name, value);
                }
            }
        }
        values
    }

    /// A group's cached facts, if its file is fresh and of Facter's format.
    fn read_group(&self, group: &str, ttl: Duration) -> Option<Map<String, Value>> {
        let path = self.dir.join(group);
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
        if modified + ttl <= SystemTime::now() {
            let _ = std::fs::remove_file(&path);
            return None;
        }
        let parsed = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str::<Map<String, Value>>(&text).ok())
            .filter(|data| data.get("cache_format_version") == Some(&Value::from(1)));
        let Some(mut data) = parsed else {
            let _ = std::fs::remove_file(&path);
            return None;
        };
        data.remove("cache_format_version");
        Some(data)
    }

    /// Keeps the values of the cached facts among `resolved`: each group's
    /// file is written, atomically, when it is missing, expired, or lacks
    /// one of them. Says what could not be written.
    pub fn store(&self, resolved: &Map<String, Value>) -> Result<(), std::io::Error> {
        let mut by_group: BTreeMap<&str, Map<String, Value>> = BTreeMap::new();
        for (name, value) in resolved {
            if value.is_null() {
                continue;
            }
            if let Some((group, _)) = self.entry(name) {
                by_group
                    .entry(group.as_str())
                    .or_default()
                    .insert(name.clone(), value.clone());
            }
        }
        let groups = self.groups();
        for (group, mut data) in by_group {
            let path = self.dir.join(group);
            // A fresh file that lacks a fact (one resolved alone, as a
            // compile reads it) keeps what it had and its age.
            let mut born = None;
            if let Some(cached) = self.read_group(group, groups[group]) {
                if data.keys().all(|k| cached.contains_key(k)) {
                    continue;
                }
                born = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
                for (name, value) in cached {
                    data.entry(name).or_insert(value);
                }
            }
            std::fs::create_dir_all(&self.dir)?;
            data.insert("cache_format_version".into(), Value::from(1));
            let text = serde_json::to_string_pretty(&Value::Object(data))?;
            let temporary = self.dir.join(format!(".{group}.{}", std::process::id()));
            let written = std::fs::write(&temporary, text)
                .and_then(|()| match born {
                    Some(time) => std::fs::File::options()
                        .write(true)
                        .open(&temporary)?
                        .set_modified(time),
                    None => Ok(()),
                })
                .and_then(|()| std::fs::rename(&temporary, &path));
            if written.is_err() {
                let _ = std::fs::remove_file(&temporary);
            }
            written?;
        }
        Ok(())
    }
}

/// A time to live as Facter reads one: a number and a unit (`30 days`,
/// `1 h`, `90 minutes`, `500` milliseconds when none), the unit's `s`
/// optional.
fn duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    let (count, unit) = text.split_once(' ').unwrap_or((text, ""));
    let count: u64 = count.parse().ok()?;
    let unit = unit.trim();
    let unit = if unit.len() > 2 && !unit.ends_with('s') {
        format!("{unit}s")
    } else {
        unit.to_string()
    };
    let nanos: u64 = match unit.as_str() {
        "ns" | "nanos" | "nanoseconds" => 1,
        "us" | "micros" | "microseconds" => 1_000,
        "" | "ms" | "milis" | "milliseconds" => 1_000_000,
        "s" | "seconds" => 1_000_000_000,
        "m" | "minutes" => 60_000_000_000,
        "h" | "hours" => 3_600_000_000_000,
        "d" | "days" => 86_400_000_000_000,
        _ => return None,
    };
    Some(Duration::from_nanos(count.checked_mul(nanos)?))
}

/// The part of HOCON (the configuration language `facter.conf` is written
/// in) that such files use: objects, with or without braces at the root
/// and with `:`, `=` or nothing before a `{`; lists; quoted strings, and
/// unquoted ones that run to the end of the line or to `,` `]` `}`;
/// numbers and booleans as unquoted strings; dotted keys as paths; `#` and
/// `//` comments; members apart by commas or lines. Objects given twice
/// are merged, as HOCON merges them.
mod hocon {
    use serde_json::{Map, Value};

    #[derive(Debug)]
    pub(super) struct Error {
        pub line: usize,
        pub column: usize,
        pub message: String,
    }

    pub(super) fn parse(text: &str) -> Result<Map<String, Value>, Error> {
        let mut parser = Parser {
            chars: text.chars().collect(),
            at: 0,
        };
        parser.blank(true);
        let root = if parser.peek() == Some('{') {
            parser.at += 1;
            let object = parser.members(Some('}'))?;
            parser.at += 1;
            object
        } else {
            parser.members(None)?
        };
        parser.blank(true);
        match parser.peek() {
            None => Ok(root),
            Some(c) => Err(parser.error(format!("unexpected '{c}'"))),
        }
    }

    struct Parser {
        chars: Vec<char>,
        at: usize,
    }

    impl Parser {
        fn peek(&self) -> Option<char> {
            self.chars.get(self.at).copied()
        }

        fn error(&self, message: String) -> Error {
            let before = &self.chars[..self.at.min(self.chars.len())];
            let line = before.iter().filter(|c| **c == '\n').count() + 1;
            let column = before.iter().rev().take_while(|c| **c != '\n').count() + 1;
            Error {
                line,
                column,
                message,
            }
        }

        /// Skips blanks and comments, and line ends when `lines`.
        fn blank(&mut self, lines: bool) {
            while let Some(c) = self.peek() {
                let comment = c == '#' || (c == '/' && self.chars.get(self.at + 1) == Some(&'/'));
                if comment {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.at += 1;
                    }
                } else if c == ' ' || c == '\t' || c == '\r' || (lines && c == '\n') {
                    self.at += 1;
                } else {
                    break;
                }
            }
        }

        /// Skips what may separate two members or elements: a comma, line
        /// ends, blanks and comments.
        fn separator(&mut self) {
            self.blank(true);
            if self.peek() == Some(',') {
                self.at += 1;
                self.blank(true);
            }
        }

        fn members(&mut self, close: Option<char>) -> Result<Map<String, Value>, Error> {
            let mut object = Map::new();
            loop {
                self.blank(true);
                match self.peek() {
                    None if close.is_none() => return Ok(object),
                    None => return Err(self.error("an object is not closed with '}'".into())),
                    Some(c) if Some(c) == close => return Ok(object),
                    _ => {}
                }
                let path = self.key()?;
                self.blank(false);
                let value = match self.peek() {
                    Some(':') | Some('=') => {
                        self.at += 1;
                        self.blank(true);
                        self.value()?
                    }
                    Some('{') => self.value()?,
                    _ => {
                        return Err(
                            self.error(format!("expected ':' or '=' after '{}'", path.join(".")))
                        );
                    }
                };
                insert(&mut object, &path, value);
                self.separator();
            }
        }

        /// A key: quoted (taken whole), or unquoted (its dots make a path).
        fn key(&mut self) -> Result<Vec<String>, Error> {
            if self.peek() == Some('"') {
                return Ok(vec![self.quoted()?]);
            }
            let start = self.at;
            while self.peek().is_some_and(|c| {
                !matches!(
                    c,
                    ':' | '=' | '{' | ' ' | '\t' | '\n' | '\r' | ',' | '}' | '#'
                )
            }) {
                self.at += 1;
            }
            if self.at == start {
                return Err(self.error("expected a key".into()));
            }
            let key: String = self.chars[start..self.at].iter().collect();
            Ok(key.split('.').map(str::to_string).collect())
        }

        fn quoted(&mut self) -> Result<String, Error> {
            self.at += 1;
            let mut text = String::new();
            loop {
                match self.peek() {
                    None | Some('\n') => return Err(self.error("a string is not closed".into())),
                    Some('"') => {
                        self.at += 1;
                        return Ok(text);
                    }
                    Some('\\') => {
                        self.at += 1;
                        let escaped = match self.peek() {
                            Some('n') => '\n',
                            Some('t') => '\t',
                            Some(c) => c,
                            None => return Err(self.error("a string is not closed".into())),
                        };
                        text.push(escaped);
                        self.at += 1;
                    }
                    Some(c) => {
                        text.push(c);
                        self.at += 1;
                    }
                }
            }
        }

        fn value(&mut self) -> Result<Value, Error> {
            match self.peek() {
                Some('{') => {
                    self.at += 1;
                    let object = self.members(Some('}'))?;
                    self.at += 1;
                    Ok(Value::Object(object))
                }
                Some('[') => {
                    self.at += 1;
                    let mut list = Vec::new();
                    loop {
                        self.blank(true);
                        match self.peek() {
                            Some(']') => {
                                self.at += 1;
                                return Ok(Value::Array(list));
                            }
                            None => return Err(self.error("a list is not closed with ']'".into())),
                            _ => {}
                        }
                        list.push(self.value()?);
                        self.separator();
                    }
                }
                Some('"') => {
                    // A quoted string and what follows it on the line are
                    // one value ("30" days).
                    let mut text = self.quoted()?;
                    text.push_str(&self.unquoted());
                    Ok(Value::String(text.trim_end().to_string()))
                }
                _ => {
                    let text = self.unquoted();
                    let text = text.trim();
                    if text.is_empty() {
                        return Err(self.error("expected a value".into()));
                    }
                    Ok(Value::String(text.to_string()))
                }
            }
        }

        /// An unquoted value: to the end of the line, a comment, or one of
        /// `,` `]` `}`.
        fn unquoted(&mut self) -> String {
            let start = self.at;
            while let Some(c) = self.peek() {
                let comment = c == '#' || (c == '/' && self.chars.get(self.at + 1) == Some(&'/'));
                if comment || matches!(c, '\n' | ',' | ']' | '}') {
                    break;
                }
                self.at += 1;
            }
            self.chars[start..self.at].iter().collect()
        }
    }

    /// Puts `value` at `path`, merging objects given twice.
    fn insert(object: &mut Map<String, Value>, path: &[String], value: Value) {
        let (last, parents) = path.split_last().expect("a key has a name");
        let mut target = object;
        for key in parents {
            let entry = target
                .entry(key.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(Map::new());
            }
            target = entry.as_object_mut().expect("an object");
        }
        match (target.get_mut(last), value) {
            (Some(Value::Object(known)), Value::Object(more)) => {
                let mut known_map = std::mem::take(known);
                for (key, value) in more {
                    insert(&mut known_map, &[key], value);
                }
                *known = known_map;
            }
            (_, value) => {
                target.insert(last.clone(), value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cache(conf: &str, dir: &Path) -> FactCache {
        let file = dir.join("facter.conf");
        std::fs::write(&file, conf).unwrap();
        FactCache::from_file(&file, dir.join("cache"))
            .unwrap()
            .expect("ttls configured")
    }

    #[test]
    fn facter_conf_is_read_as_facter_writes_it() {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache(
            r#"
# Facter's example, with a group of our own.
facts : {
    blocklist : [ "file system", "EC2" ],
    ttls : [
        { "timezone" : 30 days },
        { "mrtest-apt": 1 hour },   // a group
        { os: "2 h" }
    ]
}
fact-groups : {
    "mrtest-apt" : ["apt_updates", "apt_has_updates"],
}
global : { external-dir : [ "/etc/x" ] }
"#,
            dir.path(),
        );
        assert_eq!(
            cache.entry("timezone"),
            Some(&("timezone".into(), Duration::from_secs(30 * 86_400)))
        );
        assert_eq!(
            cache.entry("apt_updates"),
            Some(&("mrtest-apt".into(), Duration::from_secs(3_600)))
        );
        assert_eq!(cache.entry("os.family").map(|e| e.0.as_str()), Some("os"));
        assert!(!cache.covers("osfamily"));
        assert!(!cache.covers("apt_reboot_required"));
    }

    #[test]
    fn bad_configuration_is_located() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("facter.conf");
        std::fs::write(&file, "facts : {\n  ttls : [ { \"x\" : 1 day }\n").unwrap();
        let error = FactCache::from_file(&file, dir.path().into()).unwrap_err();
        assert!(
            matches!(error, CacheError::Parse { line: 3, .. }),
            "{error}"
        );
        std::fs::write(&file, "facts : { ttls : [ { x : 3 fortnights } ] }").unwrap();
        let error = FactCache::from_file(&file, dir.path().into()).unwrap_err();
        assert!(error.to_string().contains("'x'"), "{error}");
    }

    #[test]
    fn a_group_is_kept_until_it_expires_in_facters_format() {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache(
            "facts : { ttls : [ { g : 1 hour }, { solo : 1 day } ] }\nfact-groups : { g : [a, b] }",
            dir.path(),
        );
        let resolved =
            json!({"a": 1, "b": {"c": [true]}, "solo": "x", "other": 2, "nothing": null});
        cache.store(resolved.as_object().unwrap()).unwrap();
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("cache/g")).unwrap())
                .unwrap();
        assert_eq!(
            written,
            json!({"a": 1, "b": {"c": [true]}, "cache_format_version": 1})
        );
        assert_eq!(
            Value::Object(cache.fresh()),
            json!({"a": 1, "b": {"c": [true]}, "solo": "x"})
        );

        // Written again only when a value it lacks was resolved, keeping
        // its values and its age.
        let modified = |name: &str| {
            std::fs::metadata(dir.path().join("cache").join(name))
                .unwrap()
                .modified()
                .unwrap()
        };
        let before = modified("g");
        std::thread::sleep(Duration::from_millis(20));
        cache.store(json!({"a": 5}).as_object().unwrap()).unwrap();
        assert_eq!(before, modified("g"));
        std::fs::write(
            dir.path().join("cache/g"),
            r#"{"a": 1, "cache_format_version": 1}"#,
        )
        .unwrap();
        let before = modified("g");
        std::thread::sleep(Duration::from_millis(20));
        cache.store(json!({"b": 2}).as_object().unwrap()).unwrap();
        assert_eq!(before, modified("g"));
        assert_eq!(
            Value::Object(cache.fresh()),
            json!({"a": 1, "b": 2, "solo": "x"})
        );

        // Expired: deleted, and not read.
        let old = SystemTime::now() - Duration::from_secs(7_200);
        std::fs::File::options()
            .write(true)
            .open(dir.path().join("cache/g"))
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert_eq!(Value::Object(cache.fresh()), json!({"solo": "x"}));
        assert!(!dir.path().join("cache/g").exists());

        // Another format version is not read.
        std::fs::write(
            dir.path().join("cache/solo"),
            r#"{"solo": "y", "cache_format_version": 2}"#,
        )
        .unwrap();
        assert_eq!(Value::Object(cache.fresh()), json!({}));
    }

    #[test]
    fn durations_read_as_facters() {
        assert_eq!(duration("30 days"), Some(Duration::from_secs(2_592_000)));
        assert_eq!(duration("1 day"), Some(Duration::from_secs(86_400)));
        assert_eq!(duration("90 minute"), Some(Duration::from_secs(5_400)));
        assert_eq!(duration("2 h"), Some(Duration::from_secs(7_200)));
        assert_eq!(duration("500"), Some(Duration::from_millis(500)));
        assert_eq!(duration("a day"), None);
        assert_eq!(duration("1 fortnight"), None);
    }
}
