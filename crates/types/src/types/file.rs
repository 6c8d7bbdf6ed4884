//! `file`: files, directories and symbolic links, with their content,
//! ownership and permissions.
//!
//! The helpers below (modes, checksums, sources, backups) are shared with
//! the `posix` provider: the type needs them to compare values and word
//! messages, the provider to change the system.

use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_ral::attribute::{parse_boolean, value_str, value_text};
use marionette_ral::{AttrDef, GenerateError, Generated, Generation, Resource, TypeDef};
use marionette_values::Value;

use crate::system;
use crate::web;

/// The checksum types Puppet knows; only those in [`SUPPORTED_CHECKSUMS`]
/// work here, the others are refused with a clear message.
const KNOWN_CHECKSUMS: &[&str] = &[
    "md5",
    "md5lite",
    "sha256",
    "sha256lite",
    "sha512",
    "sha384",
    "sha224",
    "sha1",
    "sha1lite",
    "mtime",
    "ctime",
    "none",
];

/// The checksum types this implementation computes.
pub const SUPPORTED_CHECKSUMS: &[&str] = &["sha256", "md5", "mtime", "ctime", "none"];

/// Checksum types that describe a file's timestamps or nothing at all: they
/// cannot describe a `content` string, only a `source` file.
const SOURCE_ONLY_CHECKSUMS: &[&str] = &["mtime", "ctime", "none"];

/// The mode of a new file when the manifest gives none and the text base
/// of a symbolic mode on a new file (Puppet's default).
pub const DEFAULT_FILE_MODE: u32 = 0o644;
/// The base of a symbolic mode on a new directory.
pub const DEFAULT_DIR_MODE: u32 = 0o755;

// ---------------------------------------------------------------------------
// Modes

/// Whether a mode is written in octal: one to four octal digits, with an
/// optional extra leading zero (`644`, `0644`, `04755`, `00644`).
fn is_octal_mode(text: &str) -> bool {
    let digits = text
        .strip_prefix('0')
        .filter(|rest| !rest.is_empty())
        .unwrap_or(text);
    (1..=4).contains(&digits.len()) && digits.bytes().all(|b| (b'0'..=b'7').contains(&b))
}

/// Whether a mode is spelled as [`normalize_mode`] spells it already: four
/// octal digits, as manifests nearly always write modes.
fn is_canonical_mode(text: &str) -> bool {
    text.len() == 4 && text.bytes().all(|b| (b'0'..=b'7').contains(&b))
}

/// A mode value in its canonical spelling ([`normalize_mode`]): the value
/// itself when it is spelled so already.
fn normalize_mode_value(value: Value) -> Result<Value, String> {
    match &value {
        Value::String(text) if is_canonical_mode(text) => Ok(value),
        other => Ok(Value::String(normalize_mode(&value_text(other))?.into())),
    }
}

/// The canonical spelling of a mode: octal modes as four digits (`644`
/// becomes `0644`), symbolic modes unchanged.
pub fn normalize_mode(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("The file mode specification is invalid: an empty mode".into());
    }
    if is_octal_mode(text) {
        let value = u32::from_str_radix(text, 8).map_err(|e| e.to_string())?;
        return Ok(format!("{value:04o}"));
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "The file mode specification is invalid: {text:?} (numeric modes are octal, digits 0 to 7, at most four of them)"
        ));
    }
    // Resolving against any mode checks the syntax.
    apply_symbolic(text, 0, false)
        .map(|_| text.to_string())
        .map_err(|e| format!("The file mode specification is invalid: {text:?}: {e}"))
}

/// Gives the search (execute) bit wherever the read bit is set: a
/// directory that can be read but not searched is of no use, so numeric
/// modes on directories are widened this way, as Puppet does.
pub fn dirmask(mode: u32) -> u32 {
    mode | ((mode & 0o444) >> 2)
}

/// The mode a desired mode leads to from the current one: an octal mode
/// replaces it (widened for directories), a symbolic mode edits it.
pub fn desired_mode(spec: &str, current: u32, is_dir: bool) -> Result<u32, String> {
    let spec = spec.trim();
    if is_octal_mode(spec) {
        let value = u32::from_str_radix(spec, 8).map_err(|e| e.to_string())?;
        return Ok(if is_dir { dirmask(value) } else { value });
    }
    apply_symbolic(spec, current, is_dir)
}

/// Applies a symbolic mode (`u=rw,go=r`, `a+x`, `g+X`, `o-rwx`, `u+s`,
/// `g=u`) to a mode, the way `chmod` does. `X` adds search permission only
/// to directories and to files that someone can already execute.
pub fn apply_symbolic(spec: &str, current: u32, is_dir: bool) -> Result<u32, String> {
    let original = current & 0o7777;
    let mut mode = original;
    let executable = is_dir || original & 0o111 != 0;
    for clause in spec.split(',') {
        let clause = clause.trim();
        let start = clause
            .find(['+', '-', '='])
            .ok_or_else(|| format!("missing operator (+, - or =) in {clause:?}"))?;
        let (who_text, actions) = clause.split_at(start);
        let mut classes: Vec<char> = Vec::new();
        for who in who_text.chars() {
            match who {
                'u' | 'g' | 'o' => classes.push(who),
                'a' => classes.extend(['u', 'g', 'o']),
                other => return Err(format!("unknown class {other:?} in {clause:?}")),
            }
        }
        if classes.is_empty() {
            classes.extend(['u', 'g', 'o']);
        }
        // Copies such as `g=u` read the mode as it was before this clause.
        let snapshot = mode;
        let mut op = None;
        let mut perms: Vec<char> = Vec::new();
        let mut steps: Vec<(char, Vec<char>)> = Vec::new();
        for c in actions.chars() {
            match c {
                '+' | '-' | '=' => {
                    if let Some(previous) = op.take() {
                        steps.push((previous, std::mem::take(&mut perms)));
                    }
                    op = Some(c);
                }
                'r' | 'w' | 'x' | 'X' | 's' | 't' | 'u' | 'g' | 'o' => perms.push(c),
                other => return Err(format!("unknown permission {other:?} in {clause:?}")),
            }
        }
        if let Some(last) = op {
            steps.push((last, perms));
        }
        for (op, perms) in steps {
            for class in &classes {
                let shift = match class {
                    'u' => 6,
                    'g' => 3,
                    _ => 0,
                };
                let special_of_class = match class {
                    'u' => 0o4000,
                    'g' => 0o2000,
                    _ => 0,
                };
                let mut bits = 0u32;
                let mut special = 0u32;
                for perm in &perms {
                    match perm {
                        'r' => bits |= 4,
                        'w' => bits |= 2,
                        'x' => bits |= 1,
                        'X' if executable => bits |= 1,
                        'X' => {}
                        's' => special |= special_of_class,
                        't' => special |= 0o1000,
                        'u' => bits |= (snapshot >> 6) & 7,
                        'g' => bits |= (snapshot >> 3) & 7,
                        'o' => bits |= snapshot & 7,
                        _ => {}
                    }
                }
                let class_bits = 7 << shift;
                match op {
                    '+' => mode |= (bits << shift) | special,
                    '-' => mode &= !((bits << shift) | special),
                    _ => {
                        mode &= !(class_bits | special_of_class);
                        mode |= (bits << shift) | special;
                    }
                }
            }
        }
    }
    Ok(mode & 0o7777)
}

/// A mode as the logs show it: four octal digits.
pub fn mode_text(mode: u32) -> String {
    format!("{:04o}", mode & 0o7777)
}

// ---------------------------------------------------------------------------
// Checksums and content

/// The checksum type of a resource (`sha256` unless set). Content from a
/// web server is compared by what the server tells of it, as in Puppet
/// (which sets the resource's `checksum` to that): a checksum header's
/// kind, or `mtime`.
pub fn checksum_type(resource: &Resource) -> &str {
    if let Ok(Some(remote)) = web_source(resource) {
        return remote.kind;
    }
    resource.str("checksum").unwrap_or("sha256")
}

/// A value written as a checksum, `{sha256}hex`: its type and data.
pub fn parse_checksum(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix('{')?;
    let (kind, data) = rest.split_once('}')?;
    KNOWN_CHECKSUMS.contains(&kind).then_some((kind, data))
}

/// Bytes in lower-case hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(DIGITS[usize::from(b >> 4)] as char);
        text.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    text
}

/// A running digest of one of the supported kinds.
enum Hasher {
    Sha256(sha2::Sha256),
    Md5(md5::Md5),
    /// Only for a web server that names its files by SHA-1
    /// (`X-Checksum-Sha1`); a resource's `checksum` cannot ask for it yet.
    Sha1(sha1::Sha1),
}

impl Hasher {
    fn new(kind: &str) -> Option<Hasher> {
        use sha2::Digest;
        match kind {
            "sha256" => Some(Hasher::Sha256(sha2::Sha256::new())),
            "md5" => Some(Hasher::Md5(md5::Md5::new())),
            "sha1" => Some(Hasher::Sha1(sha1::Sha1::new())),
            _ => None,
        }
    }

    fn update(&mut self, bytes: &[u8]) {
        use sha2::Digest;
        match self {
            Hasher::Sha256(h) => h.update(bytes),
            Hasher::Md5(h) => h.update(bytes),
            Hasher::Sha1(h) => h.update(bytes),
        }
    }

    fn finish(self) -> String {
        use sha2::Digest;
        match self {
            Hasher::Sha256(h) => hex(&h.finalize()),
            Hasher::Md5(h) => hex(&h.finalize()),
            Hasher::Sha1(h) => hex(&h.finalize()),
        }
    }
}

/// Whether a checksum type digests a file's bytes (`md5`, `sha256`), as
/// opposed to naming a timestamp or nothing.
pub fn is_content_digest(kind: &str) -> bool {
    Hasher::new(kind).is_some()
}

/// The checksum of some bytes, `{kind}data`. Timestamp and `none`
/// checksums cannot describe bytes: they give the bare `{kind}`.
pub fn sum_bytes(kind: &str, bytes: &[u8]) -> String {
    match Hasher::new(kind) {
        Some(mut hasher) => {
            hasher.update(bytes);
            format!("{{{kind}}}{}", hasher.finish())
        }
        None => format!("{{{kind}}}"),
    }
}

/// Seconds since the epoch as `YYYY-MM-DD HH:MM:SS +0000`: fixed width, so
/// two such texts compare as their times do.
pub fn time_text(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    format!(
        "{} {:02}:{:02}:{:02} +0000",
        system::days_to_date(days),
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

thread_local! {
    static READ_BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The checksum of a file on disk, read in pieces so large files cost
/// little memory.
pub fn sum_file(kind: &str, path: &Path) -> io::Result<String> {
    match kind {
        "mtime" => Ok(format!(
            "{{mtime}}{}",
            time_text(fs::metadata(path)?.mtime())
        )),
        "ctime" => Ok(format!(
            "{{ctime}}{}",
            time_text(fs::metadata(path)?.ctime())
        )),
        "none" => Ok("{none}".to_string()),
        _ => {
            let mut hasher = Hasher::new(kind).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::Unsupported,
                    format!("checksum {kind} is not supported yet"),
                )
            })?;
            let mut file = fs::File::open(path)?;
            // One buffer per thread: a run sums thousands of small files,
            // and a fresh zeroed buffer for each cost more than the hashing.
            READ_BUFFER.with(|buffer| -> io::Result<()> {
                let mut buffer = buffer.borrow_mut();
                if buffer.is_empty() {
                    buffer.resize(64 * 1024, 0);
                }
                loop {
                    let read = file.read(&mut buffer)?;
                    if read == 0 {
                        return Ok(());
                    }
                    hasher.update(&buffer[..read]);
                }
            })?;
            Ok(format!("{{{kind}}}{}", hasher.finish()))
        }
    }
}

/// The bytes of a `content` value: a string's UTF-8 or a binary's bytes.
pub fn content_bytes(value: &Value) -> Option<&[u8]> {
    match value {
        Value::String(text) => Some(text.as_bytes()),
        Value::Binary(bytes) => Some(bytes.as_slice()),
        Value::Sensitive(inner) => content_bytes(inner),
        _ => None,
    }
}

/// Whether the desired content is a checksum rather than literal text:
/// it came from `source` (the source's checksum), or the manifest gave a
/// checksum, which Puppet reads as "the content with this sum, from the
/// filebucket".
pub fn content_is_checksum(value: &Value) -> bool {
    matches!(value, Value::String(text) if parse_checksum(text).is_some())
}

/// The checksum the desired content must have. Content from a source is
/// summed again when the resource is applied, not when it was built: an
/// earlier resource of the same run may have changed the source.
pub fn desired_sum(resource: &Resource, desired: &Value) -> String {
    if !resource.is_given("content")
        && let Ok(Some(remote)) = web_source(resource)
    {
        return remote.checksum.clone();
    }
    if !resource.is_given("content")
        && let Some((path, meta)) = first_source(resource)
        && meta.is_file()
        && let Ok(sum) = sum_file(checksum_type(resource), &path)
    {
        return sum;
    }
    match desired {
        Value::String(text) if parse_checksum(text).is_some() => text.to_string(),
        other => sum_bytes(
            checksum_type(resource),
            content_bytes(other).unwrap_or_default(),
        ),
    }
}

/// Whether a file's checksum satisfies the desired one: equal, or, for
/// timestamps, at least as recent.
pub fn sums_match(current: &str, desired: &str) -> bool {
    if current == desired {
        return true;
    }
    // Both are in UTC: a file's time ends in `+0000`, a web server's
    // `Last-Modified` in `UTC`, as Ruby writes them.
    let instant = |time: &'_ str| {
        time.strip_suffix(" +0000")
            .or_else(|| time.strip_suffix(" UTC"))
            .unwrap_or(time)
            .to_string()
    };
    match (parse_checksum(current), parse_checksum(desired)) {
        (Some((a, now)), Some((b, wanted))) if a == b && matches!(a, "mtime" | "ctime") => {
            instant(now) >= instant(wanted)
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Sources

/// Puppet's words when no source of a resource can be found, naming the
/// sources as Puppet's `source` parameter keeps them: an absolute path as
/// a `file://` URI, anything else as written.
pub fn sources_not_found(resource: &Resource) -> String {
    let environment = marionette_ral::served::environment();
    let written: Vec<String> = resource
        .list("source")
        .into_iter()
        .map(value_text)
        .map(|source| {
            // Puppet names each source as its parameter keeps it: without
            // trailing slashes.
            let source = match source.trim_end_matches('/') {
                "" => source,
                trimmed => trimmed.to_string(),
            };
            if source.starts_with('/') {
                format!("file://{source}")
            } else {
                source
            }
        })
        .collect();
    format!(
        "Could not retrieve information from environment {} source(s) {}",
        environment,
        written.join(", ")
    )
}

/// `puppet:///modules/MODULE/PATH` (any server named in the URI is the
/// local one): `MODULE/files/PATH` in the first module directory that has
/// it, else where the first would have it (so a missing file is reported
/// as a missing source, with its path).
fn module_source(entry: &str) -> Result<String, String> {
    let rest = entry.strip_prefix("puppet://").unwrap_or("");
    let path = rest.split_once('/').map(|(_, path)| path).unwrap_or("");
    let Some(inside) = path.strip_prefix("modules/") else {
        return Err(format!(
            "Only the modules mount is served ('{entry}'): use puppet:///modules/MODULE/PATH"
        ));
    };
    let Some((module, file)) = inside
        .split_once('/')
        .filter(|(m, f)| !m.is_empty() && !f.is_empty())
    else {
        return Err(format!(
            "The source '{entry}' names no module file: use puppet:///modules/MODULE/PATH"
        ));
    };
    if file.split('/').any(|part| part == "..") {
        return Err(format!("The source '{entry}' must stay inside its module"));
    }
    let modulepath = marionette_ral::served::modulepath();
    let candidates: Vec<PathBuf> = modulepath
        .iter()
        .map(|dir| dir.join(module).join("files").join(file))
        .collect();
    // Without a module path there is nowhere to look: the source is
    // then reported missing when the resource is applied, as any other.
    match candidates
        .iter()
        .find(|c| c.exists())
        .or(candidates.first())
    {
        Some(found) => Ok(found.display().to_string()),
        None => Err(NO_MODULE_PATH.to_string()),
    }
}

/// Why a module source resolved to nothing: no module path was given.
/// Not a mistake in the manifest, so validation lets it pass.
const NO_MODULE_PATH: &str = "no module path is set";

/// A `source` entry as a local path: absolute paths as they are, `file:`
/// URIs decoded, `puppet:///modules/...` found in the module path. Other
/// remote sources are refused with the reason.
pub fn source_path(entry: &str) -> Result<String, String> {
    if entry.starts_with('/') {
        return Ok(entry.to_string());
    }
    if let Some(rest) = entry.strip_prefix("file://") {
        let path = rest.strip_prefix("localhost").unwrap_or(rest);
        if !path.starts_with('/') {
            return Err(format!(
                "Cannot use the file URI '{entry}': only local files (file:///path) can be sources"
            ));
        }
        return percent_decode(path).ok_or_else(|| format!("The URI '{entry}' is not valid"));
    }
    if let Some(rest) = entry.strip_prefix("file:")
        && rest.starts_with('/')
    {
        return percent_decode(rest).ok_or_else(|| format!("The URI '{entry}' is not valid"));
    }
    if entry.starts_with("puppet://") {
        return module_source(entry);
    }
    match entry.split_once("://") {
        Some((scheme, _)) => Err(format!(
            "{scheme} sources ('{entry}') are not supported yet; use a local path or a file:/// URI"
        )),
        None => Err(format!(
            "Cannot use relative URLs '{entry}': a source must be an absolute path or a URI"
        )),
    }
}

pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let pair = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(pair, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The sources of a resource as local paths, in order.
pub fn sources(resource: &Resource) -> Vec<String> {
    resource
        .list("source")
        .into_iter()
        .filter_map(|value| source_path(&value_text(value)).ok())
        .collect()
}

/// Whether `links => follow` applies: the resource then manages what a
/// link at its path points to, and copies what a source link points to.
/// A resource that manages a link itself (`target`, `ensure => link` or a
/// link target as `ensure`) always looks at the link: following it would
/// compare the link's destination with the wanted link and never agree.
pub fn follows(resource: &Resource) -> bool {
    resource.str("links") == Some("follow")
        && !resource.is_given("target")
        && !resource
            .text("ensure")
            .is_some_and(|ensure| ensure == "link" || is_link_target(&ensure))
}

/// What is at a path, links followed or not; `None` when nothing is
/// there (a dangling link counts as nothing when followed).
pub fn stat(path: &Path, follow: bool) -> io::Result<Option<fs::Metadata>> {
    let found = if follow {
        fs::metadata(path)
    } else {
        fs::symlink_metadata(path)
    };
    match found {
        Ok(meta) => Ok(Some(meta)),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) || e.raw_os_error() == Some(libc::ELOOP) =>
        {
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The first source that exists, with its metadata. With `links =>
/// follow` a source link stands for what it points to (a dangling one is
/// skipped); otherwise a source link is itself the thing to copy, and its
/// metadata says it is a link.
pub fn first_source(resource: &Resource) -> Option<(PathBuf, fs::Metadata)> {
    let follow = resource.str("links") == Some("follow");
    sources(resource).into_iter().find_map(|path| {
        let path = PathBuf::from(path);
        stat(&path, follow).ok().flatten().map(|meta| (path, meta))
    })
}

/// When the first source of a resource that exists is on a web server,
/// what the server says of it (asked once per run); `None` when a local
/// source comes first or none exists; an error when a server could not be
/// asked, which fails the resource, as in Puppet.
pub fn web_source(resource: &Resource) -> Result<Option<Arc<web::Remote>>, String> {
    let Some(source) = resource.get("source") else {
        return Ok(None);
    };
    let entries: Vec<&Value> = match source {
        Value::Array(items) => items.iter().collect(),
        single => vec![single],
    };
    if !entries
        .iter()
        .any(|entry| matches!(entry, Value::String(text) if web::is_web(text)))
    {
        return Ok(None);
    }
    let follow = resource.str("links") == Some("follow");
    let preferred = resource.str("checksum");
    for entry in entries {
        let text = value_text(entry);
        if web::is_web(&text) {
            if let Some(remote) = web::metadata(&text, preferred)? {
                return Ok(Some(remote));
            }
        } else if let Ok(path) = source_path(&text)
            && stat(Path::new(&path), follow).ok().flatten().is_some()
        {
            return Ok(None);
        }
    }
    Ok(None)
}

/// Says what using the resource's first web source warrants, now that
/// the resource is evaluated ([`web::announce`]); false, saying nothing,
/// when the resource is read ahead of its evaluation
/// ([`marionette_ral::reading_ahead`]), which then is left to it.
pub fn announce_web_source(resource: &Resource) -> bool {
    let Some(source) = resource.get("source") else {
        return true;
    };
    let first = match source {
        Value::Array(items) => items.iter().map(value_text).find(|text| web::is_web(text)),
        single => Some(value_text(single)).filter(|text| web::is_web(text)),
    };
    match first {
        Some(_) if marionette_ral::reading_ahead() => false,
        Some(url) => {
            web::announce(&url);
            true
        }
        None => true,
    }
}

/// With `source_permissions => use` (or `use_when_creating`, for a path
/// not there yet), the owner, group or mode of the first local source, for
/// a resource that gives none, as Puppet copies them from the source's
/// metadata: owner and group by name, and only when running as root.
fn source_permission(resource: &Resource, attr: &str) -> Option<Value> {
    match resource.str("source_permissions") {
        Some("use") => {}
        Some("use_when_creating") if !Path::new(&*resource.name_str()).exists() => {}
        _ => return None,
    }
    // SAFETY: geteuid(2) has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let (_, meta) = first_source(resource)?;
    let text = match attr {
        "owner" if root => user_name(meta.uid()),
        "group" if root => group_name(meta.gid()),
        "mode" => format!("{:04o}", meta.mode() & 0o7777),
        _ => return None,
    };
    Some(Value::String(text.into()))
}

/// With `links => manage`, when the first source is a link, where it
/// points: the resource then makes the same link rather than copying
/// content, as Puppet does.
pub fn source_link_target(resource: &Resource) -> Option<String> {
    if resource.is_given("content") || resource.is_given("target") {
        return None;
    }
    let (path, meta) = first_source(resource)?;
    if !meta.file_type().is_symlink() {
        return None;
    }
    fs::read_link(path)
        .ok()
        .map(|target| target.to_string_lossy().into_owned())
}

// ---------------------------------------------------------------------------
// Paths

/// Puppet's normal form of an absolute path: repeated slashes and `.`
/// dropped, `..` resolved by the text alone, no trailing slash except for
/// `/` itself.
pub fn normalize_path(path: &str) -> String {
    if is_normal_path(path) {
        return path.to_string();
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Whether [`normalize_path`] would leave `path` as it is: absolute, with
/// no empty, `.` or `..` segment and no trailing slash.
fn is_normal_path(path: &str) -> bool {
    path == "/"
        || path
            .strip_prefix('/')
            .is_some_and(|rest| rest.split('/').all(|part| !matches!(part, "" | "." | "..")))
}

/// A path value normalized ([`normalize_path`]): the value itself when it
/// is normal already, as nearly every path in a manifest is.
pub fn normalize_path_value(value: Value) -> Value {
    match &value {
        Value::String(path) if is_normal_path(path) => value,
        other => Value::String(normalize_path(&value_text(other)).into()),
    }
}

/// Every directory above a path, nearest first (`/a/b/c` gives `/a/b`,
/// `/a`, `/`).
pub fn ancestors(path: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = path.trim_end_matches('/');
    while let Some(slash) = rest.rfind('/') {
        let parent = rest[..slash].trim_end_matches('/');
        found.push(if parent.is_empty() { "/" } else { parent }.to_string());
        rest = parent;
    }
    found
}

// ---------------------------------------------------------------------------
// Accounts

/// A user name or uid as a uid.
pub fn resolve_uid(user: &str) -> Option<u32> {
    if let Ok(uid) = user.parse() {
        return Some(uid);
    }
    system::passwd(Path::new("/"))
        .ok()?
        .into_iter()
        .find(|entry| entry.name == user)
        .and_then(|entry| u32::try_from(entry.uid).ok())
}

/// A group name or gid as a gid.
pub fn resolve_gid(group: &str) -> Option<u32> {
    system::resolve_gid(Path::new("/"), group).and_then(|gid| u32::try_from(gid).ok())
}

/// The name of a uid, or the number when no account has it.
pub fn user_name(uid: u32) -> String {
    system::passwd(Path::new("/"))
        .ok()
        .and_then(|entries| {
            entries
                .into_iter()
                .find(|e| e.uid == i64::from(uid))
                .map(|e| e.name)
        })
        .unwrap_or_else(|| uid.to_string())
}

/// The name of a gid, or the number when no group has it.
pub fn group_name(gid: u32) -> String {
    system::groups(Path::new("/"))
        .ok()
        .and_then(|entries| {
            entries
                .into_iter()
                .find(|e| e.gid == i64::from(gid))
                .map(|e| e.name)
        })
        .unwrap_or_else(|| gid.to_string())
}

// ---------------------------------------------------------------------------
// Hooks

thread_local! {
    /// The last path looked at, whether links were followed, and what
    /// was found there. Checking one resource asks about the same path
    /// half a dozen times (ensure, content, mode, owner, group, their
    /// comparisons); this asks the system once. The provider forgets it
    /// whenever it changes anything, and when it starts on a resource.
    static LAST_STAT: std::cell::RefCell<Option<(PathBuf, bool, Option<fs::Metadata>)>> =
        const { std::cell::RefCell::new(None) };
    /// While the provider changes a file, nothing is remembered: what it
    /// looks at changes under it.
    static CHANGING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// `lstat`, remembered for the last path; `None` when nothing is there.
pub fn cached_lstat(path: &Path) -> io::Result<Option<fs::Metadata>> {
    cached_stat(path, false)
}

/// `stat` (links followed) or `lstat`, remembered for the last path;
/// `None` when nothing is there.
pub fn cached_stat(path: &Path, follow: bool) -> io::Result<Option<fs::Metadata>> {
    let changing = CHANGING.with(|c| c.get() > 0);
    if !changing
        && let Some(found) = LAST_STAT.with(|last| {
            last.borrow()
                .as_ref()
                // Compared as bytes: `Path` equality goes component by
                // component, and this runs several times per file.
                .filter(|(seen, followed, _)| {
                    seen.as_os_str() == path.as_os_str() && *followed == follow
                })
                .map(|(_, _, meta)| meta.clone())
        })
    {
        return Ok(found);
    }
    let found = stat(path, follow)?;
    if !changing {
        LAST_STAT
            .with(|last| *last.borrow_mut() = Some((path.to_path_buf(), follow, found.clone())));
    }
    Ok(found)
}

/// Forgets the remembered `lstat`: the file may have changed.
pub fn forget_stat() {
    LAST_STAT.with(|last| *last.borrow_mut() = None);
}

/// `lstat` results taken before the run started, by path (see
/// [`prestat`]). The results are kept in a list and the map holds their
/// positions: growing the map then moves small entries, not results.
struct Prestats {
    positions: marionette_values::fasthash::FastMap<Vec<u8>, usize>,
    looks: Vec<Option<Option<fs::Metadata>>>,
}

static PRESTATS: std::sync::Mutex<Option<Prestats>> = std::sync::Mutex::new(None);

fn prestats() -> std::sync::MutexGuard<'static, Option<Prestats>> {
    PRESTATS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Looks at `path` (`lstat`) ahead of a run, for the run to take instead
/// of looking itself: the CLI does so for each file the catalog declares
/// while the catalog is still being compiled, on a core that would
/// otherwise wait. A look that fails is left for the run to make and
/// report.
pub fn prestat(path: PathBuf) {
    use std::os::unix::ffi::OsStringExt;
    if let Ok(found) = stat(&path, false) {
        let mut prestats = prestats();
        let prestats = prestats.get_or_insert_with(|| Prestats {
            positions: marionette_values::fasthash::FastMap::with_capacity_and_hasher(
                1024,
                Default::default(),
            ),
            looks: Vec::with_capacity(1024),
        });
        let at = prestats.looks.len();
        prestats.looks.push(Some(found));
        prestats
            .positions
            .insert(path.into_os_string().into_vec(), at);
    }
}

/// Takes the look at `path` made ahead of the run as the remembered
/// `lstat` (links not followed), if there is one. Only for the first look
/// of a resource's evaluation, and only while the run has changed nothing
/// (the caller knows; any change to files also drops every look made
/// ahead): the look then tells what a fresh one would, but for what other
/// processes did meanwhile, which a look made a moment earlier in the run
/// would miss as well. Each is taken once: looking again reads the file.
pub(crate) fn take_prestat(path: &Path) {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    if CHANGING.with(|c| c.get() > 0) {
        return;
    }
    // The path moves from the looks made ahead to the remembered one.
    let taken = prestats().as_mut().and_then(|prestats| {
        let (path, at) = prestats
            .positions
            .remove_entry(path.as_os_str().as_bytes())?;
        Some((path, prestats.looks.get_mut(at)?.take()?))
    });
    if let Some((path, found)) = taken {
        let path = PathBuf::from(std::ffi::OsString::from_vec(path));
        LAST_STAT.with(|last| *last.borrow_mut() = Some((path, false, found)));
    }
}

/// Marks the start (`true`) or the end (`false`) of a change to files:
/// in between, `lstat` is never remembered.
pub fn changing_files(start: bool) {
    forget_stat();
    if start {
        *prestats() = None;
    }
    CHANGING.with(|c| {
        c.set(if start {
            c.get() + 1
        } else {
            c.get().saturating_sub(1)
        })
    });
}

/// The kind of file at the resource's path, in Puppet's words (`file`,
/// `directory`, `link`, ...), links followed when the resource says so;
/// `None` when nothing is there.
pub fn current_kind(resource: &Resource) -> Option<&'static str> {
    cached_stat(Path::new(&*resource.name_str()), follows(resource))
        .ok()
        .flatten()
        .map(|m| kind_of(&m))
}

/// Every kind [`kind_of`] names.
const FILE_KINDS: &[&str] = &[
    "link",
    "directory",
    "file",
    "fifo",
    "socket",
    "characterSpecial",
    "blockSpecial",
    "unknown",
];

/// Puppet's name of a file type.
pub fn kind_of(meta: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_symlink() {
        "link"
    } else if kind.is_dir() {
        "directory"
    } else if kind.is_file() {
        "file"
    } else if kind.is_fifo() {
        "fifo"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_char_device() {
        "characterSpecial"
    } else if kind.is_block_device() {
        "blockSpecial"
    } else {
        "unknown"
    }
}

/// Whether `ensure` names a link target (any absolute path).
pub fn is_link_target(ensure: &str) -> bool {
    ensure.starts_with('/')
}

/// Whether `replace` allows changing what exists.
pub fn replaces(resource: &Resource) -> bool {
    resource.get("replace") != Some(&Value::Boolean(false))
}

/// Whether the resource wants a regular file given what is there now
/// (Puppet's `should_be_file?`): content is only managed on those.
pub fn should_be_file(resource: &Resource, current: Option<&str>) -> bool {
    match resource.str("ensure") {
        Some("file") => true,
        Some("present") => matches!(current, None | Some("file")),
        Some(_) => false,
        None => resource.is_given("content") || current == Some("file"),
    }
}

/// `ensure` is in sync: `present` accepts any kind, a link target needs
/// a link (its destination is compared through the provider's answer),
/// and with `replace => false` anything that exists is left alone.
fn ensure_insync(resource: &Resource, current: &Value, desired: &Value) -> bool {
    let current = value_str(current);
    let desired = value_str(desired);
    if current != "absent" && !replaces(resource) {
        return true;
    }
    match desired.as_ref() {
        "present" if current == "absent" => {
            // The framework implies `present` once another property is
            // managed; Puppet never creates a file for a mode or an owner
            // alone, so an implied `present` leaves a missing file alone.
            !resource.is_given("ensure")
        }
        "present" => true,
        _ => current == desired,
    }
}

/// Whether the resource writes content when it creates a regular file.
fn creates_content(resource: &Resource, desired: &str) -> bool {
    matches!(desired, "file" | "present")
        && resource.get("content").is_some()
        && resource.get("target").is_none()
}

/// Whether the content must stay out of messages: given as `Sensitive`,
/// directly or through a sensitive `source`.
fn content_hidden(resource: &Resource) -> bool {
    resource.is_sensitive("content") || resource.is_sensitive("source")
}

fn ensure_message(resource: &Resource, current: &Value, desired: &Value) -> String {
    let current = value_text(current);
    let desired = value_text(desired);
    if desired == "absent" {
        return "removed".to_string();
    }
    // Like Puppet, a regular file written with content is described by
    // that content, whatever was there before.
    if creates_content(resource, &desired) {
        if content_hidden(resource) {
            return "changed [redacted] to [redacted]".to_string();
        }
        if let Some(content) = resource.get("content") {
            return format!("defined content as '{}'", desired_sum(resource, content));
        }
    }
    if current == "absent" {
        return "created".to_string();
    }
    // With a link target as `ensure`, the provider reports an existing
    // link by where it points, which may be a relative path.
    if is_link_target(&desired) && !FILE_KINDS.contains(&current.as_str()) {
        return format!("target changed '{current}' to '{desired}'");
    }
    let shown = |kind: &str| {
        if is_link_target(kind) {
            "link".to_string()
        } else {
            kind.to_string()
        }
    };
    format!(
        "ensure changed '{}' to '{}'",
        shown(&current),
        shown(&desired)
    )
}

fn content_insync(resource: &Resource, current: &Value, desired: &Value) -> bool {
    let kind = current_kind(resource);
    if !should_be_file(resource, kind) {
        return true;
    }
    if kind.is_none() {
        return false;
    }
    if !replaces(resource) {
        return true;
    }
    match current {
        Value::String(now) => sums_match(now, &desired_sum(resource, desired)),
        _ => false,
    }
}

fn content_message(resource: &Resource, current: &Value, desired: &Value) -> String {
    if content_hidden(resource) {
        return "changed [redacted] to [redacted]".to_string();
    }
    let wanted = desired_sum(resource, desired);
    match current {
        Value::String(now) if &**now != "absent" => {
            format!("content changed '{now}' to '{wanted}'")
        }
        _ => format!("defined content as '{wanted}'"),
    }
}

/// How logs show content: its checksum, never the text.
fn content_format(value: &Value) -> String {
    format!("'{}'", content_checksum(value))
}

/// A content as its checksum (`{sha256}...`), as Puppet shows and reports
/// it: never the text itself.
fn content_checksum(value: &Value) -> String {
    match value {
        Value::String(text) if parse_checksum(text).is_some() => text.to_string(),
        other => sum_bytes("sha256", content_bytes(other).unwrap_or_default()),
    }
}

fn target_insync(resource: &Resource, current: &Value, desired: &Value) -> bool {
    if !replaces(resource) && current_kind(resource).is_some() {
        return true;
    }
    // A target taken from a source link means nothing when `ensure` asks
    // for a file or a directory.
    if !resource.is_given("target")
        && resource
            .text("ensure")
            .is_some_and(|ensure| matches!(ensure.as_str(), "file" | "directory"))
    {
        return true;
    }
    value_text(current) == value_text(desired)
}

/// The current mode and whether the path is a directory or a link.
fn mode_context(resource: &Resource) -> (bool, bool) {
    match cached_stat(Path::new(&*resource.name_str()), follows(resource)) {
        Ok(Some(meta)) => (meta.is_dir(), meta.file_type().is_symlink()),
        _ => (false, false),
    }
}

fn mode_insync(resource: &Resource, current: &Value, desired: &Value) -> bool {
    let (is_dir, is_link) = mode_context(resource);
    // Links have no mode of their own to manage.
    if is_link {
        return true;
    }
    let Ok(now) = u32::from_str_radix(&value_str(current), 8) else {
        return false;
    };
    desired_mode(&value_str(desired), now, is_dir).is_ok_and(|wanted| wanted == now)
}

fn mode_message(resource: &Resource, current: &Value, desired: &Value) -> String {
    let (is_dir, _) = mode_context(resource);
    let spec = value_text(desired);
    let Ok(now) = u32::from_str_radix(&value_text(current), 8) else {
        return format!("mode changed '{}' to '{spec}'", value_text(current));
    };
    match desired_mode(&spec, now, is_dir) {
        Ok(wanted) if is_octal_mode(&spec) => {
            format!(
                "mode changed '{}' to '{}'",
                mode_text(now),
                mode_text(wanted)
            )
        }
        Ok(wanted) => format!(
            "mode changed '{}' to '{}' ({spec})",
            mode_text(now),
            mode_text(wanted)
        ),
        Err(_) => format!("mode changed '{}' to '{spec}'", mode_text(now)),
    }
}

/// A noop run's words for a mode: a directory's numeric mode with the
/// search permission it would be given (Puppet masks the desired mode
/// once it finds the file), any other as given.
fn mode_noop_message(resource: &Resource, current: &Value, desired: &Value) -> String {
    let (is_dir, _) = mode_context(resource);
    let spec = value_text(desired);
    let shown = match u32::from_str_radix(&spec, 8) {
        Ok(mode) if is_dir && is_octal_mode(&spec) => mode_text(dirmask(mode)),
        _ => spec,
    };
    format!(
        "current_value '{}', should be '{shown}' (noop)",
        value_text(current)
    )
}

fn owner_insync(_resource: &Resource, current: &Value, desired: &Value) -> bool {
    match (
        resolve_uid(&value_text(current)),
        resolve_uid(&value_text(desired)),
    ) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn group_insync(_resource: &Resource, current: &Value, desired: &Value) -> bool {
    match (
        resolve_gid(&value_text(current)),
        resolve_gid(&value_text(desired)),
    ) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Shows a numeric owner by its name when an account has that number.
fn owner_message(_resource: &Resource, current: &Value, desired: &Value) -> String {
    let wanted = value_text(desired);
    let shown = match wanted.parse::<u32>() {
        Ok(uid) => user_name(uid),
        Err(_) => wanted,
    };
    format!("owner changed '{}' to '{shown}'", value_text(current))
}

fn group_message(_resource: &Resource, current: &Value, desired: &Value) -> String {
    let wanted = value_text(desired);
    let shown = match wanted.parse::<u32>() {
        Ok(gid) => group_name(gid),
        Err(_) => wanted,
    };
    format!("group changed '{}' to '{shown}'", value_text(current))
}

/// Whether SELinux is enabled on this machine (its file system is
/// mounted), where its contexts would be Puppet's to manage.
fn selinux_enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| Path::new("/sys/fs/selinux/enforce").exists())
}

/// The check of an attribute that only accepts its default for now: any
/// other value is refused rather than silently ignored.
fn only_default(
    name: &'static str,
    accepted: impl Fn(&Value) -> bool + Send + Sync + 'static,
    hint: &'static str,
) -> impl Fn(&marionette_ral::typedef::Hooked<'_>, &Value) -> Result<(), String> + Send + Sync + 'static
{
    move |_, value| {
        if accepted(value) {
            Ok(())
        } else {
            Err(format!("{name} is not supported yet; {hint}"))
        }
    }
}

/// A `max_files` value as a number: zero or more, or -1.
fn max_files_value(value: &Value) -> Option<i64> {
    let number = match value {
        Value::Integer(n) => *n,
        Value::String(text) => text.trim().parse().ok()?,
        _ => return None,
    };
    (number >= -1).then_some(number)
}

fn is_false(value: &Value) -> bool {
    parse_boolean(value) == Some(false)
}

/// Single values only: several desired values make no sense for a file.
fn single(resource: &Resource, attr: &str) -> Result<(), String> {
    match resource.get(attr) {
        Some(Value::Array(_)) => Err(format!("{attr} takes a single value, not an array")),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------
// Recursion

/// Parameters a generated child takes from the recursing directory.
const INHERITED: &[&str] = &[
    "owner",
    "group",
    "mode",
    "backup",
    "replace",
    "force",
    "checksum",
    "show_diff",
    "links",
    // Each child copies its own source's owner, group and mode, as
    // Puppet's children keep every parameter of their parent but a few.
    "source_permissions",
];

/// How a tree is walked: how deep, which names are skipped, and whether
/// links to directories are descended into.
struct Walk<'a> {
    depth: u32,
    ignore: &'a [String],
    follow: bool,
}

impl Walk<'_> {
    /// The entries below `dir` as relative paths, without the ignored
    /// names. A directory reached twice on one branch through links (a
    /// loop) is not descended into again.
    fn entries(&self, dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut branch = Vec::new();
        if let Ok(meta) = fs::metadata(dir) {
            branch.push((meta.dev(), meta.ino()));
        }
        self.below(dir, self.depth, Path::new(""), &mut branch, &mut out);
        out
    }

    fn below(
        &self,
        dir: &Path,
        depth: u32,
        prefix: &Path,
        branch: &mut Vec<(u64, u64)>,
        out: &mut Vec<PathBuf>,
    ) {
        if depth == 0 {
            return;
        }
        let Ok(read) = fs::read_dir(dir) else { return };
        let mut names: Vec<std::ffi::OsString> =
            read.filter_map(|e| e.ok().map(|e| e.file_name())).collect();
        names.sort();
        for name in names {
            let text = name.to_string_lossy();
            if self
                .ignore
                .iter()
                .any(|pattern| crate::types::tidy::glob_match(pattern, &text))
            {
                continue;
            }
            let relative = prefix.join(&name);
            let full = dir.join(&name);
            out.push(relative.clone());
            let Ok(Some(meta)) = stat(&full, self.follow) else {
                continue;
            };
            let id = (meta.dev(), meta.ino());
            if meta.is_dir() && !branch.contains(&id) {
                branch.push(id);
                self.below(&full, depth - 1, &relative, branch, out);
                branch.pop();
            }
        }
    }
}

/// Above this many entries, recursion with the default `max_files` warns.
const SOFT_MAX_FILES: usize = 1000;

/// Applies `max_files` to the entries found below one directory: an error
/// above a positive limit, a warning above the soft limit with `0`.
fn check_max_files(
    dir: &Path,
    entries: usize,
    max_files: i64,
    run: &dyn Generation,
) -> Result<(), GenerateError> {
    let dir = dir.display();
    if max_files > 0 && entries as u64 > max_files as u64 {
        return Err(GenerateError::Failed(format!(
            "The directory '{dir}' contains {entries} entries, which exceeds the limit of {max_files} specified by the max_files parameter for this resource. The limit may be increased, but be aware that large number of file resources can result in excessive resource consumption and degraded performance. Consider using an alternate method to manage large directory trees"
        )));
    }
    if max_files == 0 && entries > SOFT_MAX_FILES {
        run.warning(&format!(
            "The directory '{dir}' contains {entries} entries, which exceeds the default soft limit {SOFT_MAX_FILES} and may cause excessive resource consumption and degraded performance. To remove this warning set a value for `max_files` parameter or consider using an alternate method to manage large directory trees"
        ));
    }
    Ok(())
}

/// The entries of the source trees a recursive copy takes, each relative
/// path with the file it is copied from. With `sourceselect => first`,
/// the first source that exists is the whole tree; with `all`, the trees
/// of every source are merged and the earliest source wins a path. A
/// source that is not a directory leaves nothing to recurse into.
fn source_entries(
    resource: &Resource,
    walk: &Walk<'_>,
    max_files: i64,
    run: &dyn Generation,
) -> Result<Vec<(PathBuf, PathBuf)>, GenerateError> {
    let all = resource.text("sourceselect").as_deref() == Some("all");
    let mut merged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for source in sources(resource).into_iter().map(PathBuf::from) {
        let Ok(meta) = fs::metadata(&source) else {
            continue;
        };
        if !meta.is_dir() {
            return Ok(Vec::new());
        }
        let entries = walk.entries(&source);
        check_max_files(&source, entries.len(), max_files, run)?;
        for relative in entries {
            if seen.insert(relative.clone()) {
                let origin = source.join(&relative);
                merged.push((relative, origin));
            }
        }
        if !all {
            break;
        }
    }
    Ok(merged)
}

/// The parameters that make a generated child a copy of `origin`: a
/// directory, a link with the same target (when links are managed), or a
/// file sourced from it.
fn copy_params(origin: &Path, follow: bool) -> Option<Vec<(String, Value)>> {
    let meta = stat(origin, follow).ok().flatten()?;
    let text = |t: &str| Value::String(t.into());
    Some(if meta.is_dir() {
        vec![("ensure".into(), text("directory"))]
    } else if meta.file_type().is_symlink() {
        let target = fs::read_link(origin).ok()?;
        vec![
            ("ensure".into(), text("link")),
            ("target".into(), text(&target.to_string_lossy())),
        ]
    } else {
        vec![
            ("ensure".into(), text("file")),
            ("source".into(), text(&origin.display().to_string())),
        ]
    })
}

/// With `recurse`, one `file` resource per entry: copies of the source
/// trees (directories made, links copied or followed as `links` says,
/// files sourced one by one), the existing entries given the directory's
/// owner, group and mode, and with `purge` the entries nothing asks for
/// removed. What the catalog manages itself is left to it. Children come
/// in the order of their paths, as Puppet's do.
fn recurse(resource: &Resource, run: &dyn Generation) -> Result<Vec<Generated>, GenerateError> {
    if resource.get("recurse") != Some(&Value::Boolean(true))
        || matches!(
            resource.text("ensure").as_deref(),
            Some("absent" | "link" | "file")
        )
    {
        return Ok(Vec::new());
    }
    let depth = resource
        .text("recurselimit")
        .and_then(|l| l.parse::<u32>().ok())
        .unwrap_or(u32::MAX);
    let ignore: Vec<String> = resource
        .list("ignore")
        .into_iter()
        .map(value_text)
        .collect();
    let follow = resource.str("links") == Some("follow");
    let max_files = resource
        .get("max_files")
        .and_then(max_files_value)
        .unwrap_or(0);
    let walk = Walk {
        depth,
        ignore: &ignore,
        follow,
    };
    let root = PathBuf::from(resource.name());
    let existing = walk.entries(&root);
    check_max_files(&root, existing.len(), max_files, run)?;
    let has_source = resource.get("source").is_some();
    let from_source: std::collections::HashMap<PathBuf, PathBuf> = if has_source {
        source_entries(resource, &walk, max_files, run)?
            .into_iter()
            .collect()
    } else {
        std::collections::HashMap::new()
    };
    let purge = resource.get("purge") == Some(&Value::Boolean(true));
    let inherited: Vec<(String, Value)> = INHERITED
        .iter()
        .filter_map(|name| resource.get(name).map(|v| (name.to_string(), v.clone())))
        .filter(|(name, _)| resource.is_given(name))
        .collect();
    let mut relatives: Vec<&PathBuf> = from_source.keys().chain(existing.iter()).collect();
    relatives.sort_by(|a, b| {
        a.as_os_str()
            .as_encoded_bytes()
            .cmp(b.as_os_str().as_encoded_bytes())
    });
    relatives.dedup();
    let mut generated = Vec::new();
    for relative in relatives {
        let path = root.join(relative);
        let title = path.display().to_string();
        if run.manages("file", &title) {
            continue;
        }
        let mut params = inherited.clone();
        if let Some(origin) = from_source.get(relative) {
            let Some(copy) = copy_params(origin, follow) else {
                continue;
            };
            params.extend(copy);
        } else if purge {
            params = vec![
                ("ensure".into(), Value::String("absent".into())),
                ("force".into(), Value::Boolean(true)),
            ];
            if let Some(backup) = resource.get("backup").filter(|_| has_source) {
                params.push(("backup".into(), backup.clone()));
            }
        } else if (has_source || params.is_empty()) && !run.every_entry() {
            // Not in the source, or nothing to give the entries: leave
            // them alone.
            continue;
        }
        generated.push(Generated {
            type_name: "file".into(),
            title,
            params,
            by: marionette_ral::GeneratedBy::EvalGenerate,
        });
    }
    Ok(generated)
}

/// Checks across attributes, once all are set.
fn validate(resource: &Resource) -> Result<(), String> {
    for attr in ["ensure", "content", "target", "owner", "group", "mode"] {
        single(resource, attr)?;
    }
    let creators = ["content", "source", "target"]
        .iter()
        .filter(|name| resource.is_given(name))
        .count();
    if creators > 1 {
        return Err("You cannot specify more than one of content, source, target".into());
    }
    let checksum = checksum_type(resource);
    if checksum == "none" && resource.get("source").is_some() {
        return Err("You cannot specify source when using checksum 'none'".into());
    }
    if SOURCE_ONLY_CHECKSUMS.contains(&checksum) && resource.is_given("content") {
        return Err(format!(
            "You cannot specify content when using checksum '{checksum}'"
        ));
    }
    let ensure = resource
        .get("ensure")
        .map(marionette_ral::attribute::value_str)
        .unwrap_or_default();
    if is_link_target(&ensure) && resource.is_given("target") {
        return Err(format!(
            "ensure => '{ensure}' already names the link target; do not set target as well"
        ));
    }
    if matches!(&*ensure, "file" | "directory") && resource.is_given("target") {
        return Err(format!(
            "target only applies to links, not to ensure => {ensure}"
        ));
    }
    if ensure == "link" && resource.get("target").is_none() {
        return Err("Cannot create a symlink without a target".into());
    }
    Ok(())
}

pub fn definition() -> TypeDef {
    let mut def = TypeDef::new("file")
        .doc(
            "Manages a file, a directory or a symbolic link: whether it exists and
            of which kind, its content, its owner, its group and its permissions.

            Content comes from `content` (a string, usually from a template) or
            from `source` (a local file). New content is written to a temporary
            file beside the target, with the final owner and mode, flushed to disk
            and renamed over the target, so a file is never seen half-written.
            The previous content is saved first (see `backup`).

            Example:

                file { '/etc/motd':
                  ensure  => file,
                  content => \"Managed by marionette\\n\",
                  owner   => 'root',
                  group   => 'root',
                  mode    => '0644',
                }

            **Autorequires:** the nearest parent directory, the owner (`user`)
            and the group (`group`), when the catalog manages them, and the link
            target when it is managed as a file.",
        )
        .feature(
            "manages_symlinks",
            "The provider can create and manage symbolic links.",
            &[],
        )
        .attr(
            AttrDef::param("path")
                .namevar()
                .doc(
                    "The absolute path of the file; defaults to the title. Trailing
                    slashes are dropped, so `/tmp/dir/` and `/tmp/dir` are the same
                    file.",
                )
                .validate(|_, value| {
                    let text = value_text(value);
                    if matches!(value, Value::String(_)) && text.starts_with('/') {
                        Ok(())
                    } else {
                        Err(format!("File paths must be fully qualified, not '{text}'"))
                    }
                })
                .munge(|_, value| Ok(normalize_path_value(value))),
        )
        .attr(
            AttrDef::param("backup")
                .doc(
                    "Where the old content goes before a file is changed or removed.
                    `puppet` (the default) saves it in the run's filebucket, where it
                    can be found again by its sha256 checksum; the name of a
                    `filebucket` resource saves it in that bucket's directory; a value
                    starting with a dot, such as `.bak`, copies the file beside itself
                    with that suffix; `true` means `.puppet-bak`; `false` keeps no
                    backup. Naming a bucket the catalog does not declare fails the
                    resource when a backup is needed.",
                )
                .default_value(Value::String("puppet".into()))
                .validate(|_, value| match value {
                    Value::Boolean(_) => Ok(()),
                    Value::String(text) if !text.is_empty() => Ok(()),
                    other => Err(format!(
                        "Invalid backup type {}",
                        marionette_ral::attribute::inspect(other)
                    )),
                })
                .munge(|_, value| {
                    Ok(match parse_boolean(&value) {
                        Some(false) => Value::Boolean(false),
                        Some(true) => Value::String(".puppet-bak".into()),
                        None => value,
                    })
                }),
        )
        .attr(
            AttrDef::param("checksum")
                .doc(
                    "How content is compared: `sha256` (the default) or `md5`
                    checksums of the bytes; with `source`, also `mtime` or `ctime`,
                    which replace the file when the source is newer than it. As in
                    Puppet, `none` goes with neither `content` nor `source`. The
                    other checksum types Puppet knows are not supported yet.",
                )
                .values(KNOWN_CHECKSUMS)
                .default_value(Value::String("sha256".into()))
                .validate(|hooked, value| {
                    hooked.default_validate(value)?;
                    let text = value_text(value);
                    if SUPPORTED_CHECKSUMS.contains(&text.as_str()) {
                        Ok(())
                    } else {
                        Err(format!(
                            "checksum {text} is not supported yet; use one of {}",
                            SUPPORTED_CHECKSUMS.join(", ")
                        ))
                    }
                }),
        )
        .attr(
            AttrDef::property("checksum_value")
                .doc("The expected checksum of the content. Not supported yet: setting it is an error.")
                .validate(only_default(
                    "checksum_value",
                    |_| false,
                    "manage the content with content or source instead",
                )),
        )
        .attr(
            // Declared before `source`, `content`, `target` and `ensure`:
            // their defaults depend on it.
            AttrDef::param("links")
                .doc(
                    "What to do with links. `manage` (the default) manages a link at
                    the path as a link, and copies a source that is a link as a link
                    with the same target. `follow` manages what a link at the path
                    points to (its content, owner, group and mode; a dangling link
                    counts as missing) and copies what a source link points to; in
                    a recursive copy, linked files are copied as files and linked
                    directories are descended into. As in Puppet, new content for
                    a followed link replaces the link with a regular file (with the
                    mode of the file it pointed to unless `mode` says otherwise),
                    and removing it removes the link.",
                )
                .values(&["follow", "manage"])
                .default_value(Value::String("manage".into())),
        )
        .attr(
            AttrDef::param("source")
                .doc(
                    "Where the content comes from: an absolute path or a `file:///`
                    URI on this machine, `puppet:///modules/MODULE/PATH` for the file
                    `MODULE/files/PATH` of a module on the module path, or an `http://`
                    or `https://` URL (compared by the checksum header the server sends,
                    else by its `Last-Modified` time, and fetched only when it must be
                    written; credentials in the URL are sent, and HTTPS servers are
                    trusted through the system's certificates, the agent's CA and
                    `ssl_trust_store`). With several,
                    the first that exists is used. A directory as source makes a
                    directory; with `recurse`, its tree is copied too. Cannot be
                    combined with `content` or `target`.",
                )
                .validate(|_, value| {
                    let entries: Vec<&Value> = match value {
                        Value::Array(items) => items.iter().collect(),
                        single => vec![single],
                    };
                    for entry in entries {
                        if !matches!(entry, Value::String(_)) {
                            return Err(format!(
                                "source must be a string or an array of strings, not {}",
                                marionette_ral::attribute::inspect(entry)
                            ));
                        }
                        let text = value_text(entry);
                        if web::is_web(&text) {
                            continue;
                        }
                        match source_path(&text) {
                            Err(reason) if reason != NO_MODULE_PATH => return Err(reason),
                            _ => {}
                        }
                    }
                    Ok(())
                }),
        )
        .attr(
            AttrDef::param("source_permissions")
                .doc(
                    "Whether the owner, group and mode of a local source are copied
                    where the resource gives none: `ignore` (the default), `use`, or
                    `use_when_creating` (only when the path does not exist yet). Owner
                    and group are copied only when running as root. Deprecated, as in
                    Puppet: give `owner`, `group` and `mode`.",
                )
                .values(&["use", "use_when_creating", "ignore"])
                .default_value(Value::String("ignore".into()))
                .deprecated(|value| {
                    (value_text(value) != "ignore").then(|| {
                        "The `source_permissions` parameter is deprecated. Explicitly set `owner`, `group`, and `mode`.".to_string()
                    })
                }),
        )
        .attr(
            AttrDef::property("content")
                // A sensitive source is copied as sensitive content.
                .sensitive_with(&["source"])
                .doc(
                    "The content of the file, as a string or a `Binary`; it may be
                    `Sensitive`, which keeps it out of every log. The file's current
                    content is shown, and compared, as its checksum
                    (`{sha256}...`). With `replace => false`, the content of an
                    existing file is never changed. Cannot be combined with `source`
                    or `target`.",
                )
                .validate(|_, value| match value {
                    Value::String(_) | Value::Binary(_) => Ok(()),
                    other => Err(format!(
                        "content must be a String or a Binary, not {}",
                        marionette_ral::attribute::inspect(other)
                    )),
                })
                // With a source, the desired content is the source's checksum,
                // compared like any content; the provider copies the file. A
                // source missing for now still makes the content managed: it
                // is looked for again when the resource is applied.
                .default_fn(|resource| {
                    resource.get("source")?;
                    if let Ok(Some(remote)) = web_source(resource) {
                        return Some(Value::String(remote.checksum.as_str().into()));
                    }
                    let kind = checksum_type(resource);
                    let sum = match first_source(resource) {
                        // A directory has no content; a source link (with
                        // `links => manage`) is copied as a link.
                        Some((_, meta)) if meta.is_dir() || meta.file_type().is_symlink() => {
                            return None;
                        }
                        Some((path, _)) => {
                            sum_file(kind, &path).unwrap_or_else(|_| format!("{{{kind}}}"))
                        }
                        None => format!("{{{kind}}}"),
                    };
                    Some(Value::String(sum.into()))
                })
                .insync(content_insync)
                .change_message(content_message)
                .format(content_format)
                .report(content_checksum),
        )
        .attr(
            AttrDef::property("target")
                .doc(
                    "The destination of a link (`ensure => link`): an absolute or a
                    relative path, stored as written. Cannot be combined with
                    `content` or `source`. With a `source` that is itself a link (and
                    `links => manage`), the link is copied: the target defaults to
                    where the source points.",
                )
                .default_fn(|resource| source_link_target(resource).map(|t| Value::String(t.into())))
                .validate(|_, value| {
                    if value_text(value).is_empty() {
                        Err("target must not be empty".into())
                    } else {
                        Ok(())
                    }
                })
                .insync(target_insync)
                .change_message(|_, current, desired| {
                    // A path that is not a link has no target: Puppet
                    // calls that `notlink`.
                    let current = match current {
                        Value::Undef => "notlink".to_string(),
                        Value::String(s) if &**s == "absent" => "notlink".to_string(),
                        other => value_text(other),
                    };
                    format!("target changed '{current}' to '{}'", value_text(desired))
                }),
        )
        .attr(
            AttrDef::property("ensure")
                // Making the file writes its content: Puppet's File marks
                // ensure sensitive with content or source.
                .sensitive_with(&["content", "source"])
                .doc(
                    "What should be at the path: `file`, `directory`, `link` (with
                    `target`), `absent`, or `present`, which accepts whatever kind
                    exists and creates a regular file when nothing does. An absolute
                    path means a link to that path. Without `ensure`, a resource with
                    `content` or `source` makes a file (or a directory when the source
                    is one), one with `target` a link; a resource that only sets
                    owner, group or mode changes an existing file and creates nothing.

                    Directories are only removed or replaced with `force => true`.",
                )
                .values(&["present", "absent", "file", "directory", "link"])
                .alias_value("false", "absent")
                .pattern(r"\A/")
                .default_fn(|resource| {
                    // `target` may also come from a source link.
                    let kind = if resource.get("target").is_some() {
                        "link"
                    } else if resource.is_given("content") {
                        "file"
                    } else if resource.get("source").is_some() {
                        match first_source(resource) {
                            Some((_, meta)) if meta.is_dir() => "directory",
                            _ => "file",
                        }
                    } else {
                        return None;
                    };
                    Some(Value::String(kind.into()))
                })
                .insync(ensure_insync)
                .change_message(ensure_message),
        )
        .attr(
            AttrDef::property("owner")
                .doc(
                    "The user owning the file, by name or uid. The current owner is
                    shown by name; names and numbers are compared by uid.",
                )
                .validate(|_, value| account_value("owner", value))
                .default_fn(|resource| source_permission(resource, "owner"))
                .insync(owner_insync)
                .change_message(owner_message),
        )
        .attr(
            AttrDef::property("group")
                .doc(
                    "The group owning the file, by name or gid. The current group is
                    shown by name; names and numbers are compared by gid.",
                )
                .validate(|_, value| account_value("group", value))
                .default_fn(|resource| source_permission(resource, "group"))
                .insync(group_insync)
                .change_message(group_message),
        )
        .attr(
            AttrDef::property("mode")
                .doc(
                    "The permissions, as a string: octal (`'0644'`, `'755'`; stored
                    as four digits) or symbolic like `chmod` (`'u=rw,go=r'`, `'a+x'`,
                    `'g+X'`, where `X` grants search only to directories and to files
                    someone can already execute). A symbolic mode changes only the
                    bits it names. An octal mode on a directory also grants search
                    wherever it grants read. Links have no mode to manage. Without a
                    mode, new files get `0666` and new directories `0777`, less the
                    umask.",
                )
                .validate(|_, value| match value {
                    Value::String(text) if is_canonical_mode(text) => Ok(()),
                    Value::String(text) => normalize_mode(text).map(|_| ()),
                    other => Err(format!(
                        "The file mode specification must be a string, not '{}'",
                        marionette_values::PType::infer(other).generalize()
                    )),
                })
                .munge(|_, value| normalize_mode_value(value))
                .default_fn(|resource| source_permission(resource, "mode"))
                .insync(mode_insync)
                .change_message(mode_message)
                .noop_message(mode_noop_message),
        )
        .attr(AttrDef::read_only("type").doc("The kind of file found: `file`, `directory`, `link`, `fifo`, `socket`, `characterSpecial` or `blockSpecial`. Reported only."))
        .attr(AttrDef::read_only("ctime").doc("When the file's metadata last changed. Reported only."))
        .attr(AttrDef::read_only("mtime").doc("When the file's content last changed. Reported only."))
        .attr(
            AttrDef::param("seluser")
                .doc("The SELinux user of the file. Ignored where SELinux is not enabled, as Puppet ignores it; where it is, not supported yet (an error).")
                .validate(only_default("seluser", |_| !selinux_enabled(), "SELinux contexts cannot be managed")),
        )
        .attr(
            AttrDef::param("selrole")
                .doc("The SELinux role of the file. Ignored where SELinux is not enabled, as Puppet ignores it; where it is, not supported yet (an error).")
                .validate(only_default("selrole", |_| !selinux_enabled(), "SELinux contexts cannot be managed")),
        )
        .attr(
            AttrDef::param("seltype")
                .doc("The SELinux type of the file. Ignored where SELinux is not enabled, as Puppet ignores it; where it is, not supported yet (an error).")
                .validate(only_default("seltype", |_| !selinux_enabled(), "SELinux contexts cannot be managed")),
        )
        .attr(
            AttrDef::param("selrange")
                .doc("The SELinux range of the file. Ignored where SELinux is not enabled, as Puppet ignores it; where it is, not supported yet (an error).")
                .validate(only_default("selrange", |_| !selinux_enabled(), "SELinux contexts cannot be managed")),
        )
        .attr(
            AttrDef::param("selinux_ignore_defaults")
                .doc("Whether to skip the SELinux policy's default context. Ignored where SELinux is not enabled, as Puppet ignores it; where it is, only `false` is supported so far.")
                .boolean()
                .default_value(Value::Boolean(false))
                .validate(only_default(
                    "selinux_ignore_defaults",
                    |value| is_false(value) || !selinux_enabled(),
                    "leave it false",
                )),
        )
        .attr(
            AttrDef::param("replace")
                .doc(
                    "Whether an existing file may be changed to match `content`,
                    `source`, `target` or `ensure`. With `false`, a file is written
                    only when it is missing (owner, group and mode are still
                    managed).",
                )
                .boolean()
                .default_value(Value::Boolean(true)),
        )
        .attr(
            AttrDef::param("force")
                .doc(
                    "Whether a directory may be removed (`ensure => absent`) or
                    replaced by a file or a link. Without it, such a change fails
                    and the directory is left as it is.",
                )
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .attr(
            AttrDef::param("recurse")
                .doc(
                    "Whether to manage what is inside a directory too: `true` (or
                    `remote`) for every level, `false` (the default) for the directory
                    alone. With a directory `source`, its tree is copied; without one,
                    the files already there get this resource's owner, group and mode.",
                )
                .values(&["true", "false", "remote", "inf"])
                .munge(|_, value| {
                    Ok(match value_text(&value).as_str() {
                        "true" | "remote" | "inf" => Value::Boolean(true),
                        _ => Value::Boolean(false),
                    })
                })
                .default_value(Value::Boolean(false)),
        )
        .attr(
            AttrDef::param("recurselimit")
                .doc("How many levels below the directory recursion goes (1: its entries only).")
                .pattern(r"\A[0-9]+\z"),
        )
        .attr(
            AttrDef::param("ignore")
                .doc("Shell glob patterns of names that recursion skips (and never purges), such as `.git` or `*.swp`.")
                .validate(|_, value| {
                    let patterns: Vec<String> = match value {
                        Value::Array(items) => items.iter().map(value_text).collect(),
                        other => vec![value_text(other)],
                    };
                    match patterns.iter().find(|p| p.contains('/')) {
                        Some(p) => Err(format!("ignore patterns match names, not paths: '{p}' contains '/'")),
                        None => Ok(()),
                    }
                }),
        )
        .attr(
            AttrDef::param("purge")
                .doc("With `recurse`: whether files inside the directory that neither the source nor the catalog has are removed.")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .attr(
            AttrDef::param("max_files")
                .doc(
                    "A limit on the entries recursion may manage: when the directory, or
                    a source directory, holds more entries than this, generating its
                    resources fails (the directory itself is still managed). `0`, the
                    default, only warns above 1000 entries; `-1` neither fails nor
                    warns.",
                )
                .default_value(Value::Integer(0))
                .validate(|_, value| match max_files_value(value) {
                    Some(_) => Ok(()),
                    None => Err(format!(
                        "Invalid value {}. Valid values match /^[0-9]+$/, /^-1$/.",
                        marionette_ral::attribute::inspect(value)
                    )),
                })
                .munge(|_, value| {
                    Ok(max_files_value(&value).map_or(value, Value::Integer))
                }),
        )
        .attr(
            AttrDef::param("sourceselect")
                .doc(
                    "With several sources and `recurse`: `first` (the default) copies
                    the tree of the first source that exists; `all` merges the trees
                    of every source that exists, the earliest source in the list
                    winning for a path found in several.",
                )
                .values(&["first", "all"])
                .default_value(Value::String("first".into())),
        )
        .attr(
            AttrDef::param("show_diff")
                .doc("Whether a content change of this file is shown as a diff when the run asks for diffs (`--show_diff`). Turn it off for files whose content must not appear in logs.")
                .boolean()
                .default_value(Value::Boolean(true)),
        )
        .attr(
            AttrDef::param("staging_location")
                .doc(
                    "The directory where new content is written before it is moved
                    into place; by default the file's own directory. The move is
                    atomic only within one filesystem, and fails across two.",
                )
                .validate(|_, value| {
                    let text = value_text(value);
                    if text.starts_with('/') {
                        Ok(())
                    } else {
                        Err(format!("File paths must be fully qualified, not '{text}'"))
                    }
                })
                .munge(|_, value| Ok(normalize_path_value(value))),
        )
        .attr(
            AttrDef::param("validate_cmd")
                .doc(
                    "A command that checks new content before it replaces the file.
                    The content is written to a temporary file, the placeholder (see
                    `validate_replacement`) in the command is replaced by that file's
                    path, and the file is replaced only if the command exits with 0.
                    The command is split into words at blanks (quotes group words)
                    and run without a shell.",
                ),
        )
        .attr(
            AttrDef::param("validate_replacement")
                .doc("The placeholder in `validate_cmd` that stands for the file to check.")
                .default_value(Value::String("%".into())),
        )
        .validate(validate)
        .generate(recurse)
        // Puppet's file requires its nearest managed parent directory
        // only, and the target of a link.
        .autorequire_first_found("file", |resource| ancestors(&resource.name_str()))
        .autorequire("file", |resource| resource.text("target").into_iter().collect())
        .autorequire("user", |resource| named_account(resource, "owner"))
        .autorequire("group", |resource| named_account(resource, "group"));
    // `ensure` is declared after content, source and target so that its
    // default can depend on them; the framework finds it by name and syncs
    // it first all the same.
    def.ensurable = true;
    def
}

fn account_value(attr: &str, value: &Value) -> Result<(), String> {
    match value {
        Value::Integer(id) if *id >= 0 => Ok(()),
        Value::String(text) if !text.is_empty() && !text.contains([':', '\n']) => Ok(()),
        other => Err(format!(
            "{attr} must be a name or a number, not {}",
            marionette_ral::attribute::inspect(other)
        )),
    }
}

/// An owner or group given by name (numbers name no resource).
fn named_account(resource: &Resource, attr: &str) -> Vec<String> {
    resource
        .text(attr)
        .filter(|name| name.parse::<u32>().is_err())
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_modes_are_four_digits() {
        assert_eq!(normalize_mode("644").unwrap(), "0644");
        assert_eq!(normalize_mode("0644").unwrap(), "0644");
        assert_eq!(normalize_mode("4755").unwrap(), "4755");
        assert_eq!(normalize_mode("00600").unwrap(), "0600");
        assert_eq!(normalize_mode("7").unwrap(), "0007");
        assert!(normalize_mode("0989").is_err());
        assert!(normalize_mode("12345").is_err());
        assert!(normalize_mode("").is_err());
        assert!(normalize_mode("u=rwz").is_err());
        assert!(normalize_mode("rw").is_err());
        assert_eq!(normalize_mode("u=rw,go=r").unwrap(), "u=rw,go=r");
        for mode in ["0644", "4755", "0000", "0777"] {
            assert!(is_canonical_mode(mode));
            assert_eq!(normalize_mode(mode).unwrap(), mode);
            assert_eq!(
                normalize_mode_value(Value::string(mode)).unwrap(),
                Value::string(mode)
            );
        }
        for mode in ["644", "00644", "0648", "u=rw"] {
            assert!(!is_canonical_mode(mode));
        }
        assert_eq!(
            normalize_mode_value(Value::string("644")).unwrap(),
            Value::string("0644")
        );
    }

    #[test]
    fn symbolic_modes_edit_the_current_mode() {
        assert_eq!(apply_symbolic("u=rw,go=r", 0o777, false).unwrap(), 0o644);
        assert_eq!(apply_symbolic("a+x", 0o644, false).unwrap(), 0o755);
        assert_eq!(apply_symbolic("+x", 0o600, false).unwrap(), 0o711);
        assert_eq!(apply_symbolic("o-rwx", 0o755, false).unwrap(), 0o750);
        assert_eq!(apply_symbolic("g=u", 0o740, false).unwrap(), 0o770);
        assert_eq!(apply_symbolic("u+s,+t", 0o755, false).unwrap(), 0o5755);
        assert_eq!(apply_symbolic("ug=rw,o=", 0o777, false).unwrap(), 0o660);
        assert_eq!(
            apply_symbolic("u=rwx,g=rx,o=", 0o4000, false).unwrap(),
            0o750
        );
        assert!(apply_symbolic("u", 0o644, false).is_err());
        assert!(apply_symbolic("z+x", 0o644, false).is_err());
    }

    #[test]
    fn capital_x_searches_directories_and_executables_only() {
        assert_eq!(apply_symbolic("a+X", 0o644, false).unwrap(), 0o644);
        assert_eq!(apply_symbolic("a+X", 0o744, false).unwrap(), 0o755);
        assert_eq!(apply_symbolic("a+X", 0o644, true).unwrap(), 0o755);
    }

    #[test]
    fn octal_modes_on_directories_grant_search_with_read() {
        assert_eq!(desired_mode("0644", 0, true).unwrap(), 0o755);
        assert_eq!(desired_mode("0640", 0, true).unwrap(), 0o750);
        assert_eq!(desired_mode("0644", 0, false).unwrap(), 0o644);
    }

    #[test]
    fn checksums() {
        assert_eq!(
            sum_bytes("sha256", b"hello\n"),
            "{sha256}5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
        );
        assert_eq!(
            sum_bytes("md5", b"hello\n"),
            "{md5}b1946ac92492d2347c6235b4d2611184"
        );
        assert_eq!(parse_checksum("{md5}abc"), Some(("md5", "abc")));
        assert_eq!(parse_checksum("{nope}abc"), None);
        assert!(sums_match(
            "{mtime}2024-05-01 10:00:00 +0000",
            "{mtime}2024-04-30 10:00:00 +0000"
        ));
        assert!(!sums_match(
            "{mtime}2024-04-01 10:00:00 +0000",
            "{mtime}2024-04-30 10:00:00 +0000"
        ));
        assert!(!sums_match("{md5}a", "{sha256}a"));
        assert_eq!(time_text(0), "1970-01-01 00:00:00 +0000");
        assert_eq!(time_text(86_399), "1970-01-01 23:59:59 +0000");
    }

    #[test]
    fn sources_are_local_paths_or_file_uris() {
        assert_eq!(source_path("/etc/hosts").unwrap(), "/etc/hosts");
        assert_eq!(source_path("file:///tmp/a%20b").unwrap(), "/tmp/a b");
        assert_eq!(source_path("file://localhost/tmp/x").unwrap(), "/tmp/x");
        assert_eq!(source_path("file:/tmp/x").unwrap(), "/tmp/x");
        assert!(
            source_path("puppet:///files/f")
                .unwrap_err()
                .contains("Only the modules mount")
        );
        assert!(source_path("puppet:///modules/m/../x").is_err());
        assert!(
            source_path("https://example.com/f")
                .unwrap_err()
                .contains("https")
        );
        assert!(
            source_path("relative/path")
                .unwrap_err()
                .contains("relative")
        );
        assert!(source_path("file://host/x").is_err());
    }

    #[test]
    fn paths_are_normalized() {
        assert_eq!(normalize_path("/tmp/dir/"), "/tmp/dir");
        assert_eq!(normalize_path("/"), "/");
        assert_eq!(normalize_path("//tmp//a/./b/../c"), "/tmp/a/c");
        for path in ["/", "/tmp", "/tmp/a.b/c", "/tmp/.d"] {
            assert!(is_normal_path(path), "{path}");
            assert_eq!(normalize_path(path), path);
        }
        for path in [
            "", "tmp", "//", "/tmp/", "/tmp//a", "/tmp/./a", "/tmp/..", "/.",
        ] {
            assert!(!is_normal_path(path), "{path}");
        }
        let normal = Value::string("/tmp/a");
        assert!(matches!(
            (&normal, &normalize_path_value(normal.clone())),
            (Value::String(a), Value::String(b)) if std::sync::Arc::ptr_eq(a, b)
        ));
        assert_eq!(
            normalize_path_value(Value::string("/tmp//a/")),
            Value::string("/tmp/a")
        );
        assert_eq!(ancestors("/a/b/c"), ["/a/b", "/a", "/"]);
        assert!(ancestors("/").is_empty());
    }
}
