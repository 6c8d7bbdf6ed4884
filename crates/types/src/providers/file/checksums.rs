//! The content checksums of managed files, remembered from one run to the
//! next.
//!
//! To tell whether a file's content is the manifest's, the provider needs
//! the file's checksum, and reading thousands of files is most of what a
//! run that changes nothing does. Like git's index, the provider keeps in
//! the state directory each checksum it computed, together with what
//! `lstat` said of the file then: device, inode, size, and the modification
//! and change times to the nanosecond. While `lstat` still says exactly
//! that, the file has not been written since: any write, any rename over
//! it and any change to its metadata set its change time to the present,
//! and no program can set a change time back (short of setting the
//! system's clock back).
//!
//! A checksum is kept only when the file last changed some seconds before
//! the run began. File systems take times from a coarse clock (a few
//! milliseconds; two seconds on FAT), so a write in the same tick as the
//! run's read could leave the same times on new content; a file that old
//! cannot share a tick with anything written during the run. Only digests
//! of the bytes (`md5`, `sha256`) are kept. When the run ends the record is
//! written again if anything in it changed, with only the files the run
//! looked at: files no longer managed drop out.
//!
//! Whoever can write the state directory can make a file look in sync;
//! it is the root-only directory that also holds the run lock and the
//! reports.

use std::collections::HashMap;
use std::fs;
use std::io::{self, BufRead, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use marionette_ral::{Context, Level};
use marionette_values::fasthash::FastBuild;

use crate::types::file::{is_content_digest, sum_file};

/// The record's name in the state directory.
const FILE_NAME: &str = "file_checksums";

/// The record's first line; a record without it is ignored.
const HEADER: &[u8] = b"marionette file checksums 1\n";

/// How long before the run a file must have last changed for its
/// checksum to be kept: more than any file system's clock tick.
const SETTLED: Duration = Duration::from_secs(3);

/// What `lstat` says of a file that changes whenever the file does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    fn of(meta: &fs::Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Whether both times are at or before `cutoff`.
    fn settled(&self, cutoff: (i64, i64)) -> bool {
        self.mtime <= cutoff && self.ctime <= cutoff
    }

    fn parse(fields: &[&[u8]]) -> Option<Stamp> {
        let number = |i: usize| {
            std::str::from_utf8(fields.get(i)?)
                .ok()?
                .parse::<i64>()
                .ok()
        };
        let unsigned = |i: usize| {
            std::str::from_utf8(fields.get(i)?)
                .ok()?
                .parse::<u64>()
                .ok()
        };
        Some(Stamp {
            dev: unsigned(0)?,
            ino: unsigned(1)?,
            size: unsigned(2)?,
            mtime: (number(3)?, number(4)?),
            ctime: (number(5)?, number(6)?),
        })
    }
}

/// The kinds of checksum kept, by [`Sum::kind`].
const KINDS: [&str; 2] = ["md5", "sha256"];

/// A checksum as bytes: a record of thousands of files holds them in
/// less memory than their text, and with no allocation each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sum {
    kind: u8,
    len: u8,
    bytes: [u8; 32],
}

impl Sum {
    /// `{sha256}hex`; `None` for another kind or malformed text.
    fn parse(text: &str) -> Option<Sum> {
        let (kind, hex) = text.strip_prefix('{')?.split_once('}')?;
        let kind = KINDS.iter().position(|k| *k == kind)?;
        if hex.len() % 2 != 0 || hex.len() > 64 {
            return None;
        }
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(hex.as_bytes().chunks(2)) {
            *byte = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(Sum {
            kind: u8::try_from(kind).ok()?,
            len: u8::try_from(hex.len() / 2).ok()?,
            bytes,
        })
    }

    fn kind(&self) -> &'static str {
        KINDS[usize::from(self.kind)]
    }

    fn text(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let kind = self.kind();
        let mut text = String::with_capacity(kind.len() + 2 + 2 * usize::from(self.len));
        text.push('{');
        text.push_str(kind);
        text.push('}');
        for byte in &self.bytes[..usize::from(self.len)] {
            text.push(char::from(DIGITS[usize::from(byte >> 4)]));
            text.push(char::from(DIGITS[usize::from(byte & 0xf)]));
        }
        text
    }
}

struct Entry {
    stamp: Stamp,
    sum: Sum,
    /// Looked at since the record was last written.
    used: bool,
}

/// The record of one state directory.
struct Book {
    file: PathBuf,
    entries: HashMap<Box<[u8]>, Entry, FastBuild>,
    /// Files whose times are at or before this may be remembered.
    cutoff: (i64, i64),
    /// Entries added or replaced since the record was last written.
    added: bool,
    /// Entries looked at since the record was last written.
    used: usize,
}

impl Book {
    fn load(dir: &Path) -> Book {
        let file = dir.join(FILE_NAME);
        let mut book = Book {
            entries: HashMap::default(),
            cutoff: cutoff(),
            added: false,
            used: 0,
            file,
        };
        // A missing, unreadable or foreign record is an empty one: every
        // file is then read, as without it. It is read a line at a time,
        // never whole.
        let Ok(file) = fs::File::open(&book.file) else {
            return book;
        };
        let mut input = io::BufReader::new(file);
        let mut line = Vec::new();
        if input.read_until(b'\n', &mut line).is_err() || line != HEADER {
            return book;
        }
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            // dev ino size mtime mtime_ns ctime ctime_ns sum path
            let mut fields: [&[u8]; 9] = [&[]; 9];
            let mut count = 0;
            for (slot, field) in fields.iter_mut().zip(text.splitn(9, |b| *b == b' ')) {
                *slot = field;
                count += 1;
            }
            let fields = &fields[..count];
            let (Some(stamp), Some(sum), Some(path)) = (
                Stamp::parse(fields),
                fields
                    .get(7)
                    .and_then(|s| std::str::from_utf8(s).ok())
                    .and_then(Sum::parse),
                fields.get(8).filter(|p| !p.is_empty()),
            ) else {
                continue;
            };
            book.entries.insert(
                (*path).into(),
                Entry {
                    stamp,
                    sum,
                    used: false,
                },
            );
        }
        book
    }

    /// The checksum of kind `kind` remembered for `path`, if the file still
    /// has `stamp`.
    fn remembered(&mut self, path: &[u8], kind: &str, stamp: Stamp) -> Option<String> {
        let entry = self.entries.get_mut(path)?;
        if entry.stamp != stamp || entry.sum.kind() != kind {
            return None;
        }
        if !entry.used {
            entry.used = true;
            self.used += 1;
        }
        Some(entry.sum.text())
    }

    fn remember(&mut self, path: &[u8], stamp: Stamp, sum: &str) {
        // A path with a line break cannot be written on one line.
        if !stamp.settled(self.cutoff) || path.contains(&b'\n') {
            return;
        }
        let Some(sum) = Sum::parse(sum) else {
            return;
        };
        let was_used = self
            .entries
            .insert(
                path.into(),
                Entry {
                    stamp,
                    sum,
                    used: true,
                },
            )
            .is_some_and(|old| old.used);
        if !was_used {
            self.used += 1;
        }
        self.added = true;
    }

    /// Whether the record on disk differs from what the next run needs.
    fn stale(&self) -> bool {
        self.added || self.used < self.entries.len()
    }

    /// Writes the files looked at, replacing the record atomically, and
    /// starts counting afresh for a next run of this process.
    fn write(&mut self) -> io::Result<()> {
        self.entries.retain(|_, entry| entry.used);
        let mut text = Vec::with_capacity(HEADER.len() + self.entries.len() * 128);
        text.extend_from_slice(HEADER);
        for (path, entry) in &self.entries {
            let s = &entry.stamp;
            write!(
                text,
                "{} {} {} {} {} {} {} {} ",
                s.dev,
                s.ino,
                s.size,
                s.mtime.0,
                s.mtime.1,
                s.ctime.0,
                s.ctime.1,
                entry.sum.text()
            )?;
            text.extend_from_slice(path);
            text.push(b'\n');
        }
        marionette_ral::state_file::replace(&self.file, &text)?;
        self.begin_again();
        Ok(())
    }

    fn begin_again(&mut self) {
        for entry in self.entries.values_mut() {
            entry.used = false;
        }
        self.used = 0;
        self.added = false;
        self.cutoff = cutoff();
    }
}

/// Now, less [`SETTLED`], as seconds and nanoseconds since the epoch.
fn cutoff() -> (i64, i64) {
    let since = SystemTime::now()
        .checked_sub(SETTLED)
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .unwrap_or_default();
    (
        i64::try_from(since.as_secs()).unwrap_or(i64::MAX),
        i64::from(since.subsec_nanos()),
    )
}

type Books = Mutex<Vec<(PathBuf, Arc<Mutex<Book>>)>>;

/// The records of this process, one per state directory.
fn books() -> MutexGuard<'static, Vec<(PathBuf, Arc<Mutex<Book>>)>> {
    static BOOKS: OnceLock<Books> = OnceLock::new();
    BOOKS
        .get_or_init(Books::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The record of `dir`, read on first use.
fn book(dir: &Path) -> Arc<Mutex<Book>> {
    let mut books = books();
    if let Some((_, book)) = books.iter().find(|(d, _)| d == dir) {
        return book.clone();
    }
    let book = Arc::new(Mutex::new(Book::load(dir)));
    books.push((dir.to_path_buf(), book.clone()));
    book
}

fn lock(book: &Mutex<Book>) -> MutexGuard<'_, Book> {
    book.lock().unwrap_or_else(|e| e.into_inner())
}

/// The checksum of kind `kind` of the file at `path`, for which `lstat`
/// (or `stat`, when links are followed) gave `meta`: the one remembered
/// when the file is as it was then, read from the file otherwise.
pub(crate) fn sum(
    cx: &Context,
    kind: &str,
    path: &Path,
    meta: &fs::Metadata,
) -> io::Result<String> {
    let Some(dir) = cx.state_dir.as_deref().filter(|_| is_content_digest(kind)) else {
        return sum_file(kind, path);
    };
    let stamp = Stamp::of(meta);
    let key = path.as_os_str().as_bytes();
    let book = book(dir);
    if let Some(sum) = lock(&book).remembered(key, kind, stamp) {
        return Ok(sum);
    }
    let sum = sum_file(kind, path)?;
    lock(&book).remember(key, stamp, &sum);
    Ok(sum)
}

/// Writes the record of the run's state directory, if the run used it and
/// anything in it changed. A record that cannot be written costs the next
/// run time, not correctness: a warning says so.
pub(crate) fn keep(cx: &Context) {
    let Some(dir) = cx.state_dir.as_deref() else {
        return;
    };
    let Some(book) = books()
        .iter()
        .find(|(d, _)| d == dir)
        .map(|(_, book)| book.clone())
    else {
        return;
    };
    let mut book = lock(&book);
    if !book.stale() {
        book.begin_again();
        return;
    }
    if let Err(error) = book.write() {
        cx.logger.log(
            Level::Warning,
            "",
            &format!(
                "Could not record the checksums of files in {}: {error}",
                book.file.display()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(ctime: i64) -> Stamp {
        Stamp {
            dev: 1,
            ino: 2,
            size: 3,
            mtime: (ctime - 10, 5),
            ctime: (ctime, 7),
        }
    }

    /// A sha256 checksum of 32 bytes `byte`.
    fn sha(byte: &str) -> String {
        format!("{{sha256}}{}", byte.repeat(32))
    }

    fn empty(dir: &Path) -> Book {
        let mut book = Book::load(dir);
        book.cutoff = (1_000, 0);
        book
    }

    #[test]
    fn a_settled_checksum_is_remembered_for_its_stamp_and_kind_only() {
        let dir = tempfile::tempdir().unwrap();
        let mut book = empty(dir.path());
        book.remember(b"/etc/motd", stamp(900), &sha("ab"));
        assert_eq!(
            book.remembered(b"/etc/motd", "sha256", stamp(900))
                .as_deref(),
            Some(sha("ab").as_str())
        );
        assert_eq!(book.remembered(b"/etc/motd", "md5", stamp(900)), None);
        assert_eq!(book.remembered(b"/etc/motd", "sha", stamp(900)), None);
        assert_eq!(book.remembered(b"/etc/motd", "sha256", stamp(901)), None);
        let mut moved = stamp(900);
        moved.ino = 99;
        assert_eq!(book.remembered(b"/etc/motd", "sha256", moved), None);
        assert_eq!(book.remembered(b"/etc/issue", "sha256", stamp(900)), None);
    }

    #[test]
    fn a_file_changed_near_the_run_is_not_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let mut book = empty(dir.path());
        book.remember(b"/a", stamp(1_000), &sha("01"));
        assert_eq!(book.remembered(b"/a", "sha256", stamp(1_000)), None);
        let mut touched = stamp(900);
        touched.mtime = (1_001, 0);
        book.remember(b"/b", touched, &sha("02"));
        assert_eq!(book.remembered(b"/b", "sha256", touched), None);
        book.remember(b"/c\nd", stamp(900), &sha("03"));
        assert_eq!(book.remembered(b"/c\nd", "sha256", stamp(900)), None);
    }

    #[test]
    fn the_record_keeps_what_the_run_looked_at() {
        let dir = tempfile::tempdir().unwrap();
        let mut book = empty(dir.path());
        book.remember(b"/with space/x", stamp(900), &sha("0f"));
        book.remember(b"/two", stamp(800), "{md5}cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd");
        assert!(book.stale());
        book.write().unwrap();
        // Counting starts again for a next run in the same process.
        assert_eq!((book.entries.len(), book.used, book.added), (2, 0, false));

        let mut again = empty(dir.path());
        assert_eq!(
            again
                .remembered(b"/with space/x", "sha256", stamp(900))
                .as_deref(),
            Some(sha("0f").as_str())
        );
        // `/two` was not looked at: the record is rewritten without it.
        assert!(again.stale());
        again.write().unwrap();
        let third = empty(dir.path());
        assert_eq!(third.entries.len(), 1);
        let text = fs::read(dir.path().join(FILE_NAME)).unwrap();
        assert!(
            text.starts_with(HEADER),
            "{}",
            String::from_utf8_lossy(&text)
        );
    }

    #[test]
    fn checksums_are_kept_as_bytes_and_written_back_alike() {
        for text in [sha("ab").as_str(), "{md5}cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"] {
            assert_eq!(
                Sum::parse(text).map(|sum| sum.text()).as_deref(),
                Some(text)
            );
        }
        for bad in [
            "{sha256}abc",
            "{sha256}zz",
            "{mtime}2026",
            "sha256}ab",
            "{sha512}ab",
        ] {
            assert_eq!(Sum::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_damaged_or_foreign_record_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join(FILE_NAME),
            b"something else\n1 2 3 0 5 900 7 {sha256}x /a\n",
        )
        .unwrap();
        assert!(Book::load(dir.path()).entries.is_empty());
        let mut text = HEADER.to_vec();
        let sum = sha("9e");
        text.extend_from_slice(
            format!("1 2 x 0 5 900 7 {sum} /bad\n1 2 3\n\n1 2 3 890 5 900 7 {sum} /a\n").as_bytes(),
        );
        fs::write(dir.path().join(FILE_NAME), text).unwrap();
        let mut book = empty(dir.path());
        assert_eq!(book.entries.len(), 1);
        assert_eq!(
            book.remembered(b"/a", "sha256", stamp(900)).as_deref(),
            Some(sha("9e").as_str())
        );
    }
}
