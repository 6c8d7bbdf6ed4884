//! How the host's program reaches Ruby. Without a cache directory each
//! part is an `-e` argument, which Ruby compiles at every start. With one,
//! the parts are kept there as files and each start loads them as Ruby's
//! compiled instruction sequences, compiling (and keeping) only those not
//! compiled yet by this Ruby: the host then starts in about half the time,
//! which is most of what a one-off compile that needs Ruby waits for.
//!
//! The directory holds code the host runs, so it is used only when it is
//! the user's own and no one else may write to it. Its entries are named
//! by a digest of the program, so a new Marionette never loads an older
//! one's parts.

use std::hash::{Hash, Hasher};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The arguments that make `ruby` run `parts` (each a name and its
/// source, in load order), from `cache` when it can be used.
pub(crate) fn arguments(parts: &[(&str, &str)], cache: Option<&Path>) -> Vec<String> {
    match cache.and_then(|cache| kept(parts, cache)) {
        Some(dir) => vec!["-e".into(), loader(parts, &dir)],
        None => parts
            .iter()
            .flat_map(|(_, source)| ["-e".to_string(), source.to_string()])
            .collect(),
    }
}

/// The directory of `cache` holding this program's parts, written now if
/// they are not there; `None` when the cache is not private to the user
/// or cannot be written.
fn kept(parts: &[(&str, &str)], cache: &Path) -> Option<PathBuf> {
    let mut digest = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut digest);
    let dir = private_dir(cache, &format!("host-{:016x}", digest.finish()))?;
    for (name, source) in parts {
        let file = dir.join(format!("{name}.rb"));
        if std::fs::read(&file).is_ok_and(|kept| kept == source.as_bytes()) {
            continue;
        }
        // Written whole under another name, then renamed: a host started
        // meanwhile sees the old file or the new one, never half of one.
        let temporary = dir.join(format!(".{name}.rb.{}", std::process::id()));
        let written = std::fs::File::create(&temporary).and_then(|mut f| {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
            f.write_all(source.as_bytes())
        });
        if written
            .and_then(|()| std::fs::rename(&temporary, &file))
            .is_err()
        {
            let _ = std::fs::remove_file(&temporary);
            return None;
        }
    }
    Some(dir)
}

/// `cache`'s directory `name`, made if missing: `None` unless both are
/// the user's own and no one else may write to them, since the host runs
/// what is kept there.
pub(crate) fn private_dir(cache: &Path, name: &str) -> Option<PathBuf> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(cache)
        .ok()?;
    let private = |path: &Path| {
        std::fs::symlink_metadata(path).is_ok_and(|meta| {
            // SAFETY: geteuid(2) only reads the process's effective user.
            meta.is_dir() && meta.uid() == unsafe { libc::geteuid() } && meta.mode() & 0o022 == 0
        })
    };
    if !private(cache) {
        return None;
    }
    let dir = cache.join(name);
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => Some(dir),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && private(&dir) => Some(dir),
        Err(_) => None,
    }
}

/// The one `-e` program that loads the parts kept in `dir`: each from its
/// compiled form for this Ruby when there is one that loads, else
/// compiled from its source and kept for the next start (a form that
/// cannot be kept costs nothing but the time). Each is compiled as the
/// file `-e`, as its `-e` argument would be, so that the host tells its
/// own lines from a module's in a backtrace as it does without a cache.
fn loader(parts: &[(&str, &str)], dir: &Path) -> String {
    let names: Vec<&str> = parts.iter().map(|(name, _)| *name).collect();
    format!(
        r##"marionette_kept = '{dir}'
%w[{names}].each do |part|
  compiled = File.join(marionette_kept, "#{{part}}-#{{RUBY_VERSION}}-#{{RUBY_PLATFORM}}-#{{RUBY_REVISION}}.bin")
  iseq = begin
    RubyVM::InstructionSequence.load_from_binary(File.binread(compiled))
  rescue StandardError
    seq = RubyVM::InstructionSequence.compile(File.read(File.join(marionette_kept, "#{{part}}.rb")), '-e', '-e', 1)
    begin
      temporary = "#{{compiled}}.#{{Process.pid}}"
      File.binwrite(temporary, seq.to_binary)
      File.rename(temporary, compiled)
    rescue StandardError
      File.unlink(temporary) rescue nil
    end
    seq
  end
  iseq.eval
end
"##,
        dir = ruby_quoted(&dir.to_string_lossy()),
        names = names.join(" "),
    )
}

/// Text as it reads between Ruby's single quotes.
fn ruby_quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\'', "\\'")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARTS: &[(&str, &str)] = &[("one", "A = 1\n"), ("two", "puts A + 1\n")];

    #[test]
    fn without_a_cache_each_part_is_an_argument() {
        assert_eq!(
            arguments(PARTS, None),
            ["-e", "A = 1\n", "-e", "puts A + 1\n"]
        );
    }

    #[test]
    fn a_cache_keeps_the_parts_and_loads_them_with_one_argument() {
        let cache = tempfile::tempdir().unwrap();
        let args = arguments(PARTS, Some(cache.path()));
        assert_eq!(args.len(), 2, "{args:?}");
        let dir = std::fs::read_dir(cache.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        assert_eq!(
            std::fs::read_to_string(dir.join("two.rb")).unwrap(),
            "puts A + 1\n"
        );
        assert!(args[1].contains(&dir.to_string_lossy().into_owned()));
    }

    #[test]
    fn a_cache_others_may_write_to_is_not_used() {
        let cache = tempfile::tempdir().unwrap();
        std::fs::set_permissions(cache.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(arguments(PARTS, Some(cache.path())).len(), 4);
    }

    #[test]
    fn quotes_are_escaped() {
        assert_eq!(ruby_quoted(r"/a'b\c"), r"/a\'b\\c");
    }
}
