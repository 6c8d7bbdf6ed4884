//! `file` on POSIX systems, through the standard library's file functions.
//!
//! No program is run except the user's own `validate_cmd`, and that one as
//! argv without a shell. Content is always written to a temporary file
//! that already has its final owner and mode, flushed to disk and renamed
//! over the target, so no reader ever sees a half-written file. Whatever
//! is replaced or removed is backed up first (see the type's `backup`).

use std::borrow::Cow;
use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::providers::exec;
use marionette_ral::attribute::value_text;
use marionette_ral::{
    CommandSpec, Confine, Context, DeferredFailure, Instance, Level, PropertyProvider, ProviderDef,
    ProviderError, Resource,
};
use marionette_values::Value;

use crate::types::file::{
    DEFAULT_DIR_MODE, DEFAULT_FILE_MODE, checksum_type, content_bytes, desired_mode, first_source,
    follows, group_name, is_link_target, kind_of, mode_text, parse_checksum, resolve_gid,
    resolve_uid, time_text, user_name,
};

struct Posix;

fn text(value: &str) -> Value {
    Value::String(value.into())
}

/// What is at a path ([`kind_of`]) as a value, shared: every file's
/// evaluation reads it.
fn kind_value(kind: &'static str) -> Value {
    static KINDS: std::sync::OnceLock<Vec<(&'static str, Value)>> = std::sync::OnceLock::new();
    let kinds = KINDS.get_or_init(|| {
        ["file", "directory", "link"]
            .into_iter()
            .map(|kind| (kind, text(kind)))
            .collect()
    });
    kinds
        .iter()
        .find(|(known, _)| *known == kind)
        .map_or_else(|| text(kind), |(_, value)| value.clone())
}

/// The resource's path, borrowed from it: the provider asks for it for
/// each property of each file.
fn path_of(resource: &Resource) -> Cow<'_, Path> {
    match resource.name_str() {
        Cow::Borrowed(name) => Cow::Borrowed(Path::new(name)),
        Cow::Owned(name) => Cow::Owned(PathBuf::from(name)),
    }
}

fn failure(action: &str, path: &Path, error: impl std::fmt::Display) -> ProviderError {
    ProviderError::new(format!("Could not {action} {}: {error}", path.display()))
}

/// The file at a path, links not followed; `None` when nothing is there.
fn lstat(path: &Path) -> Result<Option<fs::Metadata>, ProviderError> {
    match crate::types::file::cached_lstat(path) {
        Ok(found) => Ok(found),
        Err(e) => Err(failure("stat", path, e)),
    }
}

/// The file at the resource's path as the resource sees it: through a
/// link with `links => follow`, else the link itself; `None` when nothing
/// is there.
fn look(resource: &Resource, path: &Path) -> Result<Option<fs::Metadata>, ProviderError> {
    crate::types::file::cached_stat(path, follows(resource)).map_err(|e| failure("stat", path, e))
}

/// Where a dangling link at `path` points, resolved against the link's
/// directory; `None` when `path` is not a dangling link.
fn dangling_destination(path: &Path) -> Option<PathBuf> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_symlink() || fs::metadata(path).is_ok() {
        return None;
    }
    let target = fs::read_link(path).ok()?;
    Some(match path.parent() {
        Some(parent) if target.is_relative() => parent.join(target),
        _ => target,
    })
}

/// What the path should become.
#[derive(Debug)]
enum Kind {
    File,
    Directory,
    Link(String),
}

impl Kind {
    fn name(&self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Directory => "directory",
            Kind::Link(_) => "link",
        }
    }
}

/// The kind an `ensure` value asks for. `present` picks one from the
/// other attributes: a link with `target`, a directory when the source is
/// one, else a regular file.
fn wanted_kind(resource: &Resource, ensure: &str) -> Result<Kind, ProviderError> {
    let target = || {
        resource
            .text("target")
            .ok_or_else(|| ProviderError::new("Cannot create a symlink without a target"))
    };
    Ok(match ensure {
        "file" => Kind::File,
        "directory" => Kind::Directory,
        "link" => Kind::Link(target()?),
        path if is_link_target(path) => Kind::Link(path.to_string()),
        "present" => {
            if let Some(target) = resource.text("target") {
                Kind::Link(target)
            } else if first_source(resource).is_some_and(|(_, meta)| meta.is_dir()) {
                Kind::Directory
            } else {
                Kind::File
            }
        }
        other => return Err(ProviderError::new(format!("cannot ensure '{other}'"))),
    })
}

/// Fails when the resource has sources but none can be copied: none
/// exists, the one found cannot be read, or it is a directory where a
/// file is wanted. Silently keeping the old file would hide the problem.
fn check_sources(resource: &Resource) -> Result<(), ProviderError> {
    if resource.get("source").is_none() {
        return Ok(());
    }
    let ensure = resource.text("ensure").unwrap_or_default();
    if ensure == "absent" {
        return Ok(());
    }
    if !crate::types::file::announce_web_source(resource) {
        return Err(ProviderError::new(
            "a web source is asked when its resource is evaluated",
        ));
    }
    match crate::types::file::web_source(resource) {
        Ok(Some(_)) => return Ok(()),
        Err(reason) => return Err(ProviderError::new(reason)),
        Ok(None) => {}
    }
    match first_source(resource) {
        None => Err(ProviderError::new(crate::types::file::sources_not_found(
            resource,
        ))),
        // A source link is copied as a link (`links => manage`): there is
        // nothing to read.
        Some((_, meta)) if meta.file_type().is_symlink() => Ok(()),
        Some((path, meta)) if meta.is_dir() => {
            if ensure == "file" {
                Err(ProviderError::new(format!(
                    "The source {} is a directory; use ensure => directory",
                    path.display()
                )))
            } else {
                Ok(())
            }
        }
        Some((path, _)) => fs::File::open(&path).map(|_| ()).map_err(|e| {
            ProviderError::new(format!("Could not read the source {}: {e}", path.display()))
        }),
    }
}

/// Where new content comes from.
enum Data<'a> {
    Bytes(Cow<'a, [u8]>),
    Copy(PathBuf),
    /// A web server's file, fetched as it is written.
    Download(Arc<crate::web::Remote>),
}

/// With `--show_diff` (and the resource's `show_diff` left on), logs the
/// content change as a unified diff. Sensitive or binary content is never
/// shown.
fn show_diff(cx: &Context, resource: &Resource, path: &Path, data: &Data<'_>) {
    if !cx.show_diff
        || resource.get("show_diff") == Some(&Value::Boolean(false))
        || resource.is_sensitive("content")
    {
        return;
    }
    let new = match data {
        Data::Bytes(bytes) => bytes.to_vec(),
        Data::Copy(source) => match fs::read(source) {
            Ok(bytes) => bytes,
            Err(_) => return,
        },
        Data::Download(remote) => {
            let mut bytes = Vec::new();
            if crate::web::download(&remote.url, &mut bytes).is_err() {
                return;
            }
            bytes
        }
    };
    let Ok(old) = fs::read(path) else { return };
    let (Ok(old), Ok(new)) = (String::from_utf8(old), String::from_utf8(new)) else {
        return;
    };
    let shown = path.display().to_string();
    let diff = similar::TextDiff::from_lines(&old, &new)
        .unified_diff()
        .context_radius(3)
        .header(&shown, &format!("{shown} (new)"))
        .to_string();
    if !diff.is_empty() {
        cx.logger.log(
            marionette_ral::Level::Notice,
            &format!("{}/content", resource.path()),
            &format!("\n{}", diff.trim_end()),
        );
    }
}

/// The bucket content given as a checksum comes from: the one `backup`
/// names, else the run's own.
fn content_bucket(
    cx: &Context,
    resource: &Resource,
) -> Result<Option<marionette_ral::Filebucket>, ProviderError> {
    match resource.get("backup") {
        Some(Value::String(name)) if !name.starts_with('.') => {
            crate::types::filebucket::resolve(cx, name).map_err(ProviderError::new)
        }
        _ => Ok(cx.filebucket.clone()),
    }
}

/// The content a new or rewritten file gets: the `content` text, the
/// filebucket's copy when `content` is a checksum, the first source, or
/// nothing.
fn content_data<'a>(cx: &Context, resource: &'a Resource) -> Result<Data<'a>, ProviderError> {
    if resource.is_given("content") {
        let value = resource.get("content").unwrap_or(&Value::Undef);
        if let Value::String(written) = value
            && let Some((kind, sum)) = parse_checksum(written)
        {
            if kind != "sha256" {
                return Err(ProviderError::new(format!(
                    "Could not retrieve content for {written} from the filebucket: it keeps sha256 checksums only"
                )));
            }
            let bucket = content_bucket(cx, resource)?.ok_or_else(|| {
                ProviderError::new(format!(
                    "Could not retrieve content for {written}: this run has no filebucket"
                ))
            })?;
            let bytes = bucket.get(sum).map_err(|e| {
                ProviderError::new(format!(
                    "Could not retrieve content for {written} from the filebucket: {e}"
                ))
            })?;
            return Ok(Data::Bytes(Cow::Owned(bytes)));
        }
        return Ok(Data::Bytes(Cow::Borrowed(
            content_bytes(value).unwrap_or_default(),
        )));
    }
    if resource.get("source").is_some() {
        if let Some(remote) =
            crate::types::file::web_source(resource).map_err(ProviderError::new)?
        {
            return Ok(Data::Download(remote));
        }
        return match first_source(resource) {
            Some((path, meta)) if meta.is_dir() => Err(ProviderError::new(format!(
                "Cannot copy the directory {} into a file; use ensure => directory",
                path.display()
            ))),
            Some((path, _)) => Ok(Data::Copy(path)),
            None => Err(check_sources(resource).unwrap_err()),
        };
    }
    Ok(Data::Bytes(Cow::Borrowed(&[])))
}

/// A uid and a gid, each optional.
#[derive(Clone, Copy, Debug, Default)]
struct Owners {
    uid: Option<u32>,
    gid: Option<u32>,
}

impl Owners {
    fn any(&self) -> bool {
        self.uid.is_some() || self.gid.is_some()
    }
}

/// The owner and group the resource asks for, resolved now so an unknown
/// name fails before anything is touched.
fn wanted_owners(resource: &Resource) -> Result<Owners, ProviderError> {
    let uid = match resource.text("owner") {
        Some(user) => Some(
            resolve_uid(&user)
                .ok_or_else(|| ProviderError::new(format!("Could not find user {user}")))?,
        ),
        None => None,
    };
    let gid = match resource.text("group") {
        Some(group) => Some(
            resolve_gid(&group)
                .ok_or_else(|| ProviderError::new(format!("Could not find group {group}")))?,
        ),
        None => None,
    };
    Ok(Owners { uid, gid })
}

/// The process's file creation mask, from `/proc` (reading it through
/// `umask(2)` would briefly change it for every thread).
fn umask() -> u32 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("Umask:"))
                .and_then(|mask| u32::from_str_radix(mask.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// The mode of something new: the desired mode resolved against Puppet's
/// defaults, or what the umask allows.
fn new_mode(resource: &Resource, is_dir: bool) -> Result<u32, ProviderError> {
    match resource.text("mode") {
        Some(spec) => {
            let base = if is_dir {
                DEFAULT_DIR_MODE
            } else {
                DEFAULT_FILE_MODE
            };
            desired_mode(&spec, base, is_dir).map_err(ProviderError::new)
        }
        None => Ok((if is_dir { 0o777 } else { 0o666 }) & !umask()),
    }
}

/// The parent directory must exist: Puppet never creates missing parents.
fn check_parent(path: &Path) -> Result<(), ProviderError> {
    let Some(parent) = path.parent() else {
        return Ok(());
    };
    match fs::metadata(parent) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(ProviderError::new(format!(
            "Cannot create {}; {} is not a directory",
            path.display(),
            parent.display()
        ))),
        Err(_) => Err(ProviderError::new(format!(
            "Cannot create {}; parent directory {} does not exist",
            path.display(),
            parent.display()
        ))),
    }
}

/// A new file whose directory is missing (or is no directory), in the
/// words Puppet's ensure gives, from Ruby: opening the path for a file
/// without content, else making the lock of the temporary file the
/// content goes through first (Puppet's `Uniquefile`, whose name holds
/// the date, the process id and a random part).
fn unwritable_file(resource: &Resource, path: &Path) -> ProviderError {
    let not_a_directory = path
        .parent()
        .and_then(|parent| fs::metadata(parent).ok())
        .is_some_and(|meta| !meta.is_dir());
    let through_temporary = resource.is_given("content") || resource.get("source").is_some();
    let detail = match (through_temporary, not_a_directory) {
        (false, false) => format!(
            "No such file or directory @ rb_sysopen - {}",
            path.display()
        ),
        (false, true) => format!("Not a directory @ rb_sysopen - {}", path.display()),
        (true, not_a_directory) => {
            let lock = format!("{}{}.lock", path.display(), uniquefile_suffix());
            if not_a_directory {
                format!("Not a directory @ dir_s_mkdir - {lock}")
            } else {
                format!(
                    "No such file or directory - A directory component in {lock} does not exist or is a dangling symbolic link"
                )
            }
        }
    };
    let ensure = resource
        .text("ensure")
        .unwrap_or_else(|| "file".to_string());
    ProviderError::new(format!(
        "Could not set '{ensure}' on ensure: {detail}{}",
        resource.origin()
    ))
}

/// What Ruby's temporary files add to a name: `20261202-4711-1x9k2q`.
fn uniquefile_suffix() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut random = std::collections::hash_map::RandomState::new().build_hasher();
    random.write_u64(TEMP_COUNTER.fetch_add(1, Ordering::Relaxed));
    let mut number = random.finish() & 0xffff_ffff;
    let mut base36 = Vec::new();
    loop {
        base36.push(b"0123456789abcdefghijklmnopqrstuvwxyz"[(number % 36) as usize]);
        number /= 36;
        if number == 0 {
            break;
        }
    }
    base36.reverse();
    format!(
        "{}-{}-{}",
        marionette_values::Timestamp::now().format("%Y%m%d"),
        std::process::id(),
        String::from_utf8_lossy(&base36)
    )
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh name beside `path` (or in `dir`), hidden and unlikely to
/// collide; the caller creates it exclusively and retries on a clash.
fn temp_name(dir: &Path, path: &Path, what: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Keep the whole name under the usual 255-byte limit.
    let mut short = name.as_str();
    while short.len() > 180 {
        let mut end = short.len() - 1;
        while !short.is_char_boundary(end) {
            end -= 1;
        }
        short = &short[..end];
    }
    sweep_once(dir);
    let count = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(
        ".{short}.marionette-{what}-{}-{count}",
        std::process::id()
    ))
}

/// Removes, once per directory and run, the temporary files that killed
/// runs left there (`.NAME.marionette-WHAT-PID-N` of a process that is
/// gone): each can be as large as the file it was replacing.
fn sweep_once(dir: &Path) {
    static SWEPT: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
        if swept.iter().any(|d| d == dir) {
            return;
        }
        swept.push(dir.to_path_buf());
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !name.starts_with('.') || !name.contains(".marionette-") {
            continue;
        }
        let mut parts = name.rsplit('-');
        let (Some(count), Some(pid)) = (parts.next(), parts.next()) else {
            continue;
        };
        let (Ok(_), Ok(pid)) = (count.parse::<u64>(), pid.parse::<i32>()) else {
            continue;
        };
        // SAFETY: kill(2) with signal 0 only asks whether the process exists.
        let gone = pid > 0
            && unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Removes a temporary file unless the work succeeded, so a failure never
/// leaves one behind.
struct Cleanup(Option<PathBuf>);

impl Drop for Cleanup {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = fs::remove_file(path);
        }
    }
}

/// Runs `validate_cmd` on the new content; an error refuses the change.
fn validate_content(
    cx: &Context,
    resource: &Resource,
    command: &str,
    candidate: &Path,
) -> Result<(), ProviderError> {
    let token = resource
        .text("validate_replacement")
        .unwrap_or_else(|| "%".to_string());
    let candidate = candidate.display().to_string();
    // The command runs as Puppet runs a command string (see
    // `exec::command_argv`): through the shell when it holds shell syntax,
    // the file's path then quoted, so that a path is never read as shell
    // code; else split into words, the path replacing the token in each.
    // The command as Puppet shows it: the token replaced by the bare path.
    let through_shell = !token.is_empty() && exec::runs_in_shell(command);
    let (shown, argv) = if token.is_empty() {
        let argv = exec::command_argv(command)
            .map_err(|e| ProviderError::new(format!("Invalid validate_cmd: {e}")))?;
        (command.to_string(), argv)
    } else if through_shell {
        let quoted = format!("'{}'", candidate.replace('\'', "'\\''"));
        let line = command.replace(&token, &quoted);
        (command.replace(&token, &candidate), vec![line])
    } else {
        let words = exec::split_words(command)
            .map_err(|e| ProviderError::new(format!("Invalid validate_cmd: {e}")))?;
        let argv: Vec<String> = words
            .iter()
            .map(|w| w.replace(&token, &candidate))
            .collect();
        (argv.join(" "), argv)
    };
    if argv.is_empty() {
        return Err(ProviderError::new(
            "Invalid validate_cmd: the command is empty",
        ));
    }
    let refused = |detail: String| {
        ProviderError::new(format!(
            "validate_cmd refused the new content of {}: {detail}",
            resource.name()
        ))
    };
    // A shell line runs as Ruby's `exec` runs one, so the shell's own
    // errors name it `sh`, as in Puppet's.
    let spec = if through_shell {
        CommandSpec::shell(&argv[0]).as_ruby()
    } else {
        CommandSpec::new(&argv)
    };
    let output = cx
        .run(&spec.combined().unchecked())
        .map_err(|e| refused(e.to_string()))?;
    if output.success() {
        return Ok(());
    }
    // Puppet's words: its transaction logs the failure on a line of its
    // own, then fails the change with it.
    let status = output
        .status
        .map_or("a signal".to_string(), |s| s.to_string());
    let message = format!(
        "Execution of '{shown}' returned {status}: {}",
        output.stdout.trim()
    );
    cx.logger.log(marionette_ral::log::Level::Err, "", &message);
    Err(ProviderError::new(message))
}

/// Everything that decides how a file is written.
struct Plan<'a> {
    data: Data<'a>,
    mode: u32,
    /// Owner and group the manifest asks for: failing to set them fails.
    wanted: Owners,
    /// Owner and group kept from the old file: set when permitted.
    kept: Owners,
}

/// Writes a file atomically: a temporary file with the final owner and
/// mode, the content, `validate_cmd`, then a rename over the path.
///
/// Replacing an existing file also syncs the new content and the directory
/// to disk around the rename, so a crash leaves the old content or the
/// new, never an empty file. A new file is not synced: a crash can only
/// lose it, and the next run writes it again; syncing thousands of new
/// files one by one would cost a disk flush each.
fn write_file(
    cx: &Context,
    resource: &Resource,
    path: &Path,
    plan: Plan<'_>,
) -> Result<(), ProviderError> {
    check_parent(path)?;
    let replacing = fs::symlink_metadata(path).is_ok();
    let parent = path.parent().unwrap_or(Path::new("/"));
    let staging = resource
        .text("staging_location")
        .map(PathBuf::from)
        .unwrap_or_else(|| parent.to_path_buf());
    // Content a command validates is written under the name Ruby's
    // temporary files have, which Puppet's validation shows.
    let ruby_named = resource.text("validate_cmd").is_some();
    let (temp, mut file) = create_exclusive(&staging, path, ruby_named)?;
    let mut cleanup = Cleanup(Some(temp.clone()));
    // The owner first: changing it clears set-id bits that the mode sets.
    if plan.wanted.any() {
        std::os::unix::fs::fchown(&file, plan.wanted.uid, plan.wanted.gid)
            .map_err(|e| failure("set the owner of", path, e))?;
    }
    if plan.kept.any()
        && let Err(e) = std::os::unix::fs::fchown(&file, plan.kept.uid, plan.kept.gid)
    {
        cx.logger.debug(
            &resource.path(),
            &format!("could not keep the owner of {}: {e}", path.display()),
        );
    }
    file.set_permissions(fs::Permissions::from_mode(plan.mode))
        .map_err(|e| failure("set the mode of", path, e))?;
    match plan.data {
        Data::Bytes(bytes) => file.write_all(&bytes),
        Data::Copy(source) => fs::File::open(&source)
            .and_then(|mut from| io::copy(&mut from, &mut file))
            .map(|_| ()),
        Data::Download(remote) => {
            crate::web::download(&remote.url, &mut file).map_err(ProviderError::new)?;
            // As Puppet's file type, a written file whose digest is not the
            // one the server announced is thrown away.
            if crate::types::file::is_content_digest(remote.kind) {
                let written = crate::types::file::sum_file(remote.kind, &temp)
                    .map_err(|e| failure("read back", &temp, e))?;
                if written != remote.checksum {
                    let message = format!(
                        "File written to disk did not match desired checksum; discarding changes ({written} vs {})",
                        remote.checksum
                    );
                    // Logged on its own line before the failed change, as
                    // Puppet's file type fails there.
                    cx.logger.log(marionette_ral::Level::Err, "", &message);
                    return Err(ProviderError::new(message));
                }
            }
            Ok(())
        }
    }
    .map_err(|e| failure("write", path, e))?;
    if replacing {
        file.sync_all().map_err(|e| failure("write", path, e))?;
    }
    drop(file);
    if let Some(command) = resource.text("validate_cmd") {
        validate_content(cx, resource, &command, &temp)?;
    }
    fs::rename(&temp, path).map_err(|e| failure("replace", path, e))?;
    cleanup.0 = None;
    if replacing {
        sync_dir(parent);
    }
    Ok(())
}

/// Creates a new temporary file for writing, readable by its owner only
/// until its final mode is set.
fn create_exclusive(
    dir: &Path,
    path: &Path,
    ruby_named: bool,
) -> Result<(PathBuf, fs::File), ProviderError> {
    let mut last = None;
    for _ in 0..100 {
        let temp = match path.file_name() {
            Some(name) if ruby_named => {
                let mut name = name.to_os_string();
                name.push(uniquefile_suffix());
                dir.join(name)
            }
            _ => temp_name(dir, path, "new"),
        };
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(failure("create a temporary file in", dir, e)),
        }
    }
    Err(failure(
        "create a temporary file in",
        dir,
        last.map_or("too many clashes".to_string(), |e| e.to_string()),
    ))
}

/// Flushes a directory's entries, so a rename survives a crash. Best
/// effort: some filesystems refuse to sync directories.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}

/// Creates a symbolic link atomically (a temporary link renamed over the
/// path), owned as asked.
fn make_link(path: &Path, target: &str, owners: Owners) -> Result<(), ProviderError> {
    check_parent(path)?;
    let replacing = fs::symlink_metadata(path).is_ok();
    let parent = path.parent().unwrap_or(Path::new("/"));
    let mut attempt = 0;
    let temp = loop {
        let temp = temp_name(parent, path, "link");
        match std::os::unix::fs::symlink(target, &temp) {
            Ok(()) => break temp,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(failure("create the link", path, e)),
        }
    };
    let mut cleanup = Cleanup(Some(temp.clone()));
    if owners.any() {
        std::os::unix::fs::lchown(&temp, owners.uid, owners.gid)
            .map_err(|e| failure("set the owner of", path, e))?;
    }
    fs::rename(&temp, path).map_err(|e| failure("replace", path, e))?;
    cleanup.0 = None;
    // As for files: only a replaced link needs the rename on disk now.
    if replacing {
        sync_dir(parent);
    }
    Ok(())
}

/// Sets a mode without following a link: the file is opened with
/// `O_NOFOLLOW` and checked to be the one `lstat` saw, so a link swapped
/// in meanwhile (in a directory others can write) never redirects a
/// `chmod` run as root. Kinds that cannot be opened harmlessly (devices,
/// fifos, sockets) are changed by path.
fn set_mode(path: &Path, mode: u32) -> Result<(), ProviderError> {
    let permissions = fs::Permissions::from_mode(mode);
    let seen = lstat(path)?
        .ok_or_else(|| ProviderError::new(format!("{} does not exist", path.display())))?;
    if seen.file_type().is_symlink() {
        return Err(ProviderError::new(format!(
            "Could not set the mode of {}: it is a link",
            path.display()
        )));
    }
    if !seen.is_file() && !seen.is_dir() {
        return fs::set_permissions(path, permissions)
            .map_err(|e| failure("set the mode of", path, e));
    }
    let handle = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| failure("set the mode of", path, e))?;
    let opened = handle
        .metadata()
        .map_err(|e| failure("set the mode of", path, e))?;
    if (opened.dev(), opened.ino()) != (seen.dev(), seen.ino()) {
        return Err(ProviderError::new(format!(
            "Could not set the mode of {}: it changed while being set",
            path.display()
        )));
    }
    handle
        .set_permissions(permissions)
        .map_err(|e| failure("set the mode of", path, e))
}

/// Creates a directory with its owner and exact mode (the umask does not
/// apply: the mode is set after creation).
fn make_dir(path: &Path, owners: Owners, mode: u32) -> Result<(), ProviderError> {
    check_parent(path)?;
    match fs::DirBuilder::new().mode(0o700).create(path) {
        Ok(()) => {}
        // Another run (or program) made the directory since this one
        // looked: that is what was asked for, and its owner and mode are
        // still set below. Anything else in the way is an error.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && is_real_dir(path) => {}
        Err(e) => return Err(failure("create", path, e)),
    }
    if owners.any() {
        std::os::unix::fs::lchown(path, owners.uid, owners.gid)
            .map_err(|e| failure("set the owner of", path, e))?;
    }
    set_mode(path, mode)
}

/// Whether `path` is a directory itself, not a link to one.
fn is_real_dir(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir())
}

// ---------------------------------------------------------------------------
// Backups

fn forced(resource: &Resource) -> bool {
    resource.get("force") == Some(&Value::Boolean(true))
}

/// Saves what is at `path` before it is changed or removed, as `backup`
/// says: in the filebucket, as a copy with a suffix, or not at all. Only
/// regular files hold data; a directory's files are saved one by one.
fn backup(
    cx: &Context,
    resource: &Resource,
    path: &Path,
    meta: &fs::Metadata,
) -> Result<(), ProviderError> {
    let kind = kind_of(meta);
    if !matches!(kind, "file" | "directory") {
        return Ok(());
    }
    // `meta` describes what a followed link points to: that is what is
    // saved.
    let follow = follows(resource);
    let failed = |e: io::Error| {
        ProviderError::new(format!(
            "Could not back up {}: {e}; it was left unchanged",
            path.display()
        ))
    };
    match resource.get("backup") {
        None | Some(Value::Boolean(false)) => Ok(()),
        Some(Value::String(suffix)) if suffix.starts_with('.') => {
            let mut copy = path.as_os_str().to_owned();
            copy.push(&**suffix);
            let copy = PathBuf::from(copy);
            if let Some(old) = lstat(&copy)? {
                if old.is_dir() {
                    fs::remove_dir_all(&copy)
                } else {
                    fs::remove_file(&copy)
                }
                .map_err(failed)?;
            }
            copy_tree(path, &copy, follow).map_err(failed)?;
            cx.logger.debug(
                &resource.path(),
                &format!("Backed up {} to {}", path.display(), copy.display()),
            );
            Ok(())
        }
        Some(name) => {
            let name = value_text(name);
            let bucket =
                crate::types::filebucket::resolve(cx, &name).map_err(ProviderError::new)?;
            let Some(bucket) = bucket else {
                cx.logger.debug(
                    &resource.path(),
                    &format!(
                        "This run keeps no filebucket; {} is not backed up",
                        path.display()
                    ),
                );
                return Ok(());
            };
            let mut files = Vec::new();
            regular_files(path, follow, &mut files).map_err(failed)?;
            for file in files {
                let sum = bucket.backup(&file).map_err(failed)?;
                cx.logger.log(
                    Level::Info,
                    &resource.path(),
                    &format!("Filebucketed {} to {name} with sum {sum}", file.display()),
                );
            }
            Ok(())
        }
    }
}

/// The regular files at or under a path; links below it are not
/// followed, a link at the path itself only with `follow`.
fn regular_files(path: &Path, follow: bool, found: &mut Vec<PathBuf>) -> io::Result<()> {
    let meta = if follow {
        fs::metadata(path)?
    } else {
        fs::symlink_metadata(path)?
    };
    if meta.is_file() {
        found.push(path.to_path_buf());
    } else if meta.is_dir() {
        let mut entries: Vec<PathBuf> = fs::read_dir(path)?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<io::Result<_>>()?;
        entries.sort();
        for entry in entries {
            regular_files(&entry, false, found)?;
        }
    }
    Ok(())
}

/// Copies a file or a directory tree, keeping modes, owners (when
/// permitted) and links; a link at `from` itself is followed with
/// `follow`.
fn copy_tree(from: &Path, to: &Path, follow: bool) -> io::Result<()> {
    let meta = if follow {
        fs::metadata(from)?
    } else {
        fs::symlink_metadata(from)?
    };
    if meta.file_type().is_symlink() {
        std::os::unix::fs::symlink(fs::read_link(from)?, to)?;
    } else if meta.is_dir() {
        fs::DirBuilder::new().mode(0o700).create(to)?;
        for entry in fs::read_dir(from)? {
            let entry = entry?;
            copy_tree(&entry.path(), &to.join(entry.file_name()), false)?;
        }
        fs::set_permissions(to, meta.permissions())?;
    } else if meta.is_file() {
        fs::copy(from, to)?;
    } else {
        return Ok(());
    }
    // Keeping the owner needs root; a copy owned by whoever runs is fine.
    let _ = std::os::unix::fs::lchown(to, Some(meta.uid()), Some(meta.gid()));
    if meta.is_file() {
        fs::set_permissions(to, meta.permissions())?;
    }
    Ok(())
}

/// Makes way for a new kind of file at `path`: backs up what is there and
/// removes what a rename cannot replace (a directory needs `force`).
fn clear_for(
    cx: &Context,
    resource: &Resource,
    path: &Path,
    meta: &fs::Metadata,
    kind: &Kind,
) -> Result<(), ProviderError> {
    match kind_of(meta) {
        // A directory that appeared since the resource was read (another
        // run made it) is what a directory resource asks for.
        "directory" if matches!(kind, Kind::Directory) => Ok(()),
        "directory" => {
            if !forced(resource) {
                return Err(ProviderError::new(format!(
                    "Not replacing directory {} with a {}; use 'force' to override",
                    path.display(),
                    kind.name()
                )));
            }
            backup(cx, resource, path, meta)?;
            fs::remove_dir_all(path).map_err(|e| failure("remove", path, e))
        }
        current @ ("file" | "link" | "fifo" | "socket") => {
            if current == "file" {
                backup(cx, resource, path, meta)?;
            }
            // A file or a link is replaced by a rename; only a directory
            // needs the old entry gone first.
            if matches!(kind, Kind::Directory) {
                fs::remove_file(path).map_err(|e| failure("remove", path, e))?;
            }
            Ok(())
        }
        other => Err(ProviderError::new(format!(
            "Could not remove {}: files of type {other} are not replaced",
            path.display()
        ))),
    }
}

impl Posix {
    /// Makes the path the given kind, in one go: content (or target),
    /// owner, group and mode.
    fn make(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        kind: Kind,
    ) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let mut path = path_of(resource).into_owned();
        // Through a dangling link with `links => follow`, an empty new file
        // is made where the link points, as Puppet makes it (new content
        // replaces the link instead, by the rename every write ends with).
        if matches!(kind, Kind::File)
            && follows(resource)
            && !resource.is_given("content")
            && resource.get("source").is_none()
            && let Some(destination) = dangling_destination(&path)
        {
            path = destination;
        }
        // Everything that can fail on user input is settled before the
        // old file is touched. A missing parent is Puppet's own error for
        // a directory, which its transaction logs before the failed change;
        // for a file, Ruby's, as Puppet's ensure relays it.
        if let Err(e) = check_parent(&path) {
            let e = match kind {
                Kind::File => unwritable_file(resource, &path),
                _ => e,
            };
            // Puppet logs a wrapped Ruby error twice (its own message, then
            // with the wrapped one) before the failed change.
            let logged = match kind {
                Kind::File => 2,
                Kind::Directory => 1,
                Kind::Link(_) => 0,
            };
            for _ in 0..logged {
                cx.logger.log(marionette_ral::log::Level::Err, "", &e.0);
            }
            return Err(e);
        }
        let owners = wanted_owners(resource)?;
        let (data, mode) = match &kind {
            Kind::File => (
                Some(content_data(cx, resource)?),
                new_mode(resource, false)?,
            ),
            Kind::Directory => (None, new_mode(resource, true)?),
            Kind::Link(_) => (None, 0),
        };
        if let Some(meta) = lstat(&path)? {
            clear_for(cx, resource, &path, &meta, &kind)?;
        }
        match kind {
            Kind::File => write_file(
                cx,
                resource,
                &path,
                Plan {
                    data: data.unwrap_or(Data::Bytes(Cow::Borrowed(&[]))),
                    mode,
                    wanted: owners,
                    kept: Owners::default(),
                },
            ),
            Kind::Directory => make_dir(&path, owners, mode),
            Kind::Link(target) => make_link(&path, &target, owners),
        }
    }

    /// Rewrites the content of an existing file, keeping its owner, group
    /// and mode unless the resource manages them.
    fn write_content(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
    ) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let path = path_of(resource);
        // With `links => follow`, the file a link points to: its content is
        // backed up and its owner, group and mode kept, and the new file
        // replaces the link, as in Puppet.
        let Some(meta) = look(resource, &path)? else {
            return self.make(cx, instance, Kind::File);
        };
        if !meta.is_file() {
            return Err(ProviderError::new(format!(
                "Could not write content to {}: it is a {}",
                path.display(),
                kind_of(&meta)
            )));
        }
        let data = content_data(cx, resource)?;
        show_diff(cx, resource, &path, &data);
        let wanted = wanted_owners(resource)?;
        let current_mode = meta.mode() & 0o7777;
        let mode = match resource.text("mode") {
            Some(spec) => desired_mode(&spec, current_mode, false).map_err(ProviderError::new)?,
            None => current_mode,
        };
        let kept = Owners {
            uid: wanted.uid.is_none().then_some(meta.uid()),
            gid: wanted.gid.is_none().then_some(meta.gid()),
        };
        backup(cx, resource, &path, &meta)?;
        // The new file gets its final owner and mode at once, so secret
        // content is never readable by the wrong people; the owner, group
        // and mode steps that follow still report what they found before.
        for (attr, before) in [
            ("owner", user_name(meta.uid())),
            ("group", group_name(meta.gid())),
            ("mode", mode_text(current_mode)),
        ] {
            if resource.get(attr).is_some() {
                instance
                    .property_hash
                    .insert(attr.to_string(), text(&before));
            }
        }
        write_file(
            cx,
            resource,
            &path,
            Plan {
                data,
                mode,
                wanted,
                kept,
            },
        )
    }
}

/// Forgets the remembered `lstat` before and after a change, so nothing
/// reads what the file was before it.
struct Changing;

impl Changing {
    fn new() -> Changing {
        crate::types::file::changing_files(true);
        Changing
    }
}

impl Drop for Changing {
    fn drop(&mut self) {
        crate::types::file::changing_files(false);
    }
}

/// Changes the owner or group of the path, or with `links => follow` of
/// what a link there points to.
fn chown(resource: &Resource, path: &Path, uid: Option<u32>, gid: Option<u32>) -> io::Result<()> {
    if follows(resource) {
        std::os::unix::fs::chown(path, uid, gid)
    } else {
        std::os::unix::fs::lchown(path, uid, gid)
    }
}

impl PropertyProvider for Posix {
    /// Puppet shows a content diff in noop runs too (`--noop --show_diff`).
    fn preview(&self, cx: &Context, instance: &Instance<'_>, property: &str, _: &Value) {
        let resource = instance.resource;
        if property != "content" || !cx.show_diff {
            return;
        }
        let path = path_of(resource);
        if !matches!(look(resource, &path), Ok(Some(meta)) if meta.is_file()) {
            return;
        }
        if let Ok(data) = content_data(cx, resource) {
            show_diff(cx, resource, &path, &data);
        }
    }

    /// Looking at a file needs nothing but the file: `get` and `exists`
    /// only read it (and the account databases, for names), on any
    /// thread, so the run may check its files ahead of time.
    fn reads_ahead(&self) -> bool {
        true
    }

    fn exists(&self, _cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        // The start of a resource's evaluation: look afresh.
        crate::types::file::forget_stat();
        let resource = instance.resource;
        Ok(look(resource, &path_of(resource))?.is_some())
    }

    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        if attr == "ensure" {
            // The start of a resource's evaluation: look afresh, or take
            // the look made before the run while it has changed nothing.
            crate::types::file::forget_stat();
            if cx.generation.current() == 0 {
                crate::types::file::take_prestat(&path_of(instance.resource));
            }
        }
        let resource = instance.resource;
        // Set by a content write that already applied the owner, group or
        // mode: what was there before it.
        if let Some(before) = instance.property_hash.get(attr) {
            return Ok(Some(before.clone()));
        }
        let path = path_of(resource);
        let Some(meta) = look(resource, &path)? else {
            if attr == "ensure" {
                check_sources(resource)?;
                return Ok(Some(text("absent")));
            }
            return Ok(None);
        };
        let kind = kind_of(&meta);
        let link_text = || {
            fs::read_link(&path)
                .map(|target| text(&target.to_string_lossy()))
                .map_err(|e| failure("read the link", &path, e))
        };
        Ok(match attr {
            "ensure" => {
                check_sources(resource)?;
                // A link target given as `ensure` is compared with where
                // the link points.
                let wants_target = resource.str("ensure").is_some_and(is_link_target);
                if kind == "link" && wants_target {
                    Some(link_text()?)
                } else {
                    Some(kind_value(kind))
                }
            }
            "content" if kind == "file" => {
                let kind = checksum_type(resource);
                let sum = super::checksums::sum(cx, kind, &path, &meta)
                    .map_err(|e| failure("read", &path, e))?;
                Some(text(&sum))
            }
            "target" if kind == "link" => Some(link_text()?),
            // Something that is not a link has no target: Puppet reads it
            // as `notlink`.
            "target" => Some(text("notlink")),
            "owner" => Some(text(&user_name(meta.uid()))),
            "group" => Some(text(&group_name(meta.gid()))),
            "mode" => Some(text(&mode_text(meta.mode()))),
            "type" => Some(kind_value(kind)),
            "ctime" => Some(text(&time_text(meta.ctime()))),
            "mtime" => Some(text(&time_text(meta.mtime()))),
            _ => None,
        })
    }

    fn create(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let _changing = Changing::new();
        let kind = wanted_kind(instance.resource, "present")?;
        self.make(cx, instance, kind)
    }

    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let _changing = Changing::new();
        let resource = instance.resource;
        let path = path_of(resource);
        // With `links => follow`, what the link points to decides (a
        // directory needs `force`) and is backed up, but only the link is
        // removed: `remove_dir_all` and `remove_file` never follow it.
        let Some(meta) = look(resource, &path)? else {
            return Ok(());
        };
        if meta.is_dir() && !forced(resource) {
            return Err(ProviderError::new(format!(
                "Not removing directory {}; use 'force' to override",
                path.display()
            )));
        }
        backup(cx, resource, &path, &meta)?;
        if meta.is_dir() {
            fs::remove_dir_all(&path)
        } else {
            fs::remove_file(&path)
        }
        .map_err(|e| failure("remove", &path, e))
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        let _changing = Changing::new();
        let resource = instance.resource;
        let path = path_of(resource);
        match attr {
            "ensure" => {
                let kind = wanted_kind(resource, &value_text(value))?;
                self.make(cx, instance, kind)
            }
            "content" => self.write_content(cx, instance),
            "target" => self.make(cx, instance, Kind::Link(value_text(value))),
            "owner" => {
                let user = value_text(value);
                let uid = resolve_uid(&user)
                    .ok_or_else(|| ProviderError::new(format!("Could not find user {user}")))?;
                chown(resource, &path, Some(uid), None)
                    .map_err(|e| failure("set the owner of", &path, e))?;
                instance.property_hash.shift_remove("owner");
                Ok(())
            }
            "group" => {
                let group = value_text(value);
                let gid = resolve_gid(&group)
                    .ok_or_else(|| ProviderError::new(format!("Could not find group {group}")))?;
                chown(resource, &path, None, Some(gid))
                    .map_err(|e| failure("set the group of", &path, e))?;
                instance.property_hash.shift_remove("group");
                Ok(())
            }
            "mode" => {
                // With `links => follow`, the mode of the file the link
                // points to, found without links so `set_mode` can check it.
                let path = if follows(resource) {
                    Cow::Owned(
                        fs::canonicalize(&path)
                            .map_err(|e| failure("set the mode of", &path, e))?,
                    )
                } else {
                    path
                };
                let meta = lstat(&path)?.ok_or_else(|| {
                    ProviderError::new(format!("{} does not exist", path.display()))
                })?;
                let wanted = desired_mode(&value_text(value), meta.mode() & 0o7777, meta.is_dir())
                    .map_err(ProviderError::new)?;
                set_mode(&path, wanted)?;
                instance.property_hash.shift_remove("mode");
                Ok(())
            }
            other => Err(ProviderError::new(format!(
                "the posix provider cannot change {other}"
            ))),
        }
    }

    fn flush(&self, _cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let _changing = Changing::new();
        instance.property_hash.clear();
        Ok(())
    }

    /// The run's checksums are kept for the next one.
    fn post_resource_eval(&self, cx: &Context) -> Result<(), Vec<DeferredFailure>> {
        super::checksums::keep(cx);
        Ok(())
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("file", "posix", Posix)
        .doc(
            "Manages files with the operating system's file calls: POSIX
            ownership and permission bits, symbolic links, atomic replacement
            by rename. Files cannot be listed (`marionette resource file` needs
            a path).",
        )
        .confine(Confine::Feature("posix".into()))
        .has_features(&["manages_symlinks"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_stay_short_and_hidden() {
        let long = "é".repeat(200);
        let name = temp_name(Path::new("/tmp"), &Path::new("/tmp").join(&long), "new");
        let file = name.file_name().unwrap().to_string_lossy().into_owned();
        assert!(file.starts_with('.') && file.len() < 255, "{file}");
    }

    #[test]
    fn the_umask_is_read() {
        assert_eq!(umask() & !0o777, 0);
    }

    #[test]
    fn a_look_made_ahead_stands_for_the_first_look_only_while_the_run_has_changed_nothing() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mrtest-prestat");
        fs::write(&path, "x").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        let def = std::sync::Arc::new(crate::types::file::definition());
        let title = path.to_str().unwrap();
        let params = [("mode".to_string(), Value::String("0600".into()))];
        let resource = Resource::new(def, title, params, Default::default()).unwrap();
        let instance = Instance {
            resource: &resource,
            property_hash: Default::default(),
        };
        let cx = Context::new(
            Default::default(),
            marionette_ral::Logger::with_sink(|_| {}),
        );
        let mode = |cx: &Context| {
            Posix.get(cx, &instance, "ensure").unwrap();
            Posix.get(cx, &instance, "mode").unwrap().unwrap()
        };
        // The looks made ahead are kept for the whole process, and a change
        // to files through the provider drops them all: no other unit test
        // of this crate makes one.
        //
        // Looked at ahead, then changed behind the run's back: the first
        // look of the resource's evaluation is the one made ahead...
        crate::types::file::prestat(path.clone());
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(mode(&cx), Value::String("0644".into()));
        // ... once: the next evaluation looks afresh.
        assert_eq!(mode(&cx), Value::String("0600".into()));
        // Once the run has changed something, a look made ahead is not used.
        crate::types::file::prestat(path.clone());
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        cx.generation.advance();
        assert_eq!(mode(&cx), Value::String("0640".into()));
        // A change to files drops every look made ahead.
        let fresh = Context::new(
            Default::default(),
            marionette_ral::Logger::with_sink(|_| {}),
        );
        crate::types::file::prestat(path.clone());
        fs::set_permissions(&path, fs::Permissions::from_mode(0o604)).unwrap();
        crate::types::file::changing_files(true);
        crate::types::file::changing_files(false);
        assert_eq!(mode(&fresh), Value::String("0604".into()));
    }
}
