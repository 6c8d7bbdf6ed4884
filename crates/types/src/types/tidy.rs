//! `tidy`: removes files by age, size or name. Like Puppet, it works by
//! generating a `file` resource with `ensure => absent` for every file to
//! remove, so removals are logged, backed up (when asked) and reported as
//! any file change is.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use marionette_ral::attribute::value_text;
use marionette_ral::{
    AttrDef, GenerateError, Generated, Generation, PropertyProvider, ProviderDef, Resource, TypeDef,
};
use marionette_values::Value;

/// A count and its unit letter (lower case), as `age` and `size` write
/// them: `12h`, `4k`, or a bare number.
fn count_and_unit(text: &str) -> Option<(u64, Option<char>)> {
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let count = text[..digits].parse().ok()?;
    let unit = text[digits..]
        .chars()
        .next()
        .map(|c| c.to_ascii_lowercase());
    Some((count, unit))
}

/// `1w`, `3d`, `12h`, `30m`, `90s`, or a bare number of days, in seconds.
pub fn parse_age(text: &str) -> Option<u64> {
    let (count, unit) = count_and_unit(text)?;
    let seconds = match unit {
        None => 86_400,
        Some('s') => 1,
        Some('m') => 60,
        Some('h') => 3_600,
        Some('d') => 86_400,
        Some('w') => 604_800,
        Some(_) => return None,
    };
    count.checked_mul(seconds)
}

/// `100b`, `4k`, `2m`, `1g`, `1t`, or a bare number of kilobytes, in bytes.
pub fn parse_size(text: &str) -> Option<u64> {
    let (count, unit) = count_and_unit(text)?;
    let power = match unit {
        None | Some('k') => 1,
        Some('b') => 0,
        Some('m') => 2,
        Some('g') => 3,
        Some('t') => 4,
        Some(_) => return None,
    };
    count.checked_mul(1024u64.checked_pow(power)?)
}

/// Shell glob matching of a file name (`*`, `?`, `[a-z]`, `[!x]`, `\`
/// escapes); `*` also matches a leading dot, as Puppet's `FNM_DOTMATCH`.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    fn matches(p: &[char], n: &[char]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some('*') => (0..=n.len()).any(|skip| matches(&p[1..], &n[skip..])),
            Some('?') => !n.is_empty() && matches(&p[1..], &n[1..]),
            Some('[') => {
                let Some(close) = p.iter().skip(2).position(|c| *c == ']').map(|i| i + 2) else {
                    return n.first() == Some(&'[') && matches(&p[1..], &n[1..]);
                };
                let Some(&c) = n.first() else { return false };
                let (negate, set) = match p[1] {
                    '!' | '^' => (true, &p[2..close]),
                    _ => (false, &p[1..close]),
                };
                let mut hit = false;
                let mut i = 0;
                while i < set.len() {
                    if i + 2 < set.len() && set[i + 1] == '-' {
                        hit |= set[i] <= c && c <= set[i + 2];
                        i += 3;
                    } else {
                        hit |= set[i] == c;
                        i += 1;
                    }
                }
                hit != negate && matches(&p[close + 1..], &n[1..])
            }
            Some('\\') if p.len() > 1 => n.first() == Some(&p[1]) && matches(&p[2..], &n[1..]),
            Some(c) => n.first() == Some(c) && matches(&p[1..], &n[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    matches(&p, &n)
}

/// How deep to look: `None` for only the path itself, else the number of
/// levels below it (`u32::MAX` for no limit).
fn depth(resource: &Resource) -> Option<u32> {
    match resource.get("recurse").map(value_text).as_deref() {
        None | Some("false") | Some("0") => None,
        Some("true") | Some("inf") => Some(u32::MAX),
        Some(n) => n.parse().ok(),
    }
}

/// Every path below `root` (and `root` itself), children after their
/// parent.
fn walk(root: &Path, depth: Option<u32>, out: &mut Vec<PathBuf>) {
    out.push(root.to_path_buf());
    let Some(depth) = depth else { return };
    if depth == 0 {
        return;
    }
    let Ok(meta) = fs::symlink_metadata(root) else {
        return;
    };
    if !meta.is_dir() {
        return;
    }
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        walk(&child, Some(depth - 1), out);
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Whether one path is to be removed: not managed, a directory only with
/// `rmdirs`, its name matching, and old or large enough (either; all files
/// when neither is asked).
fn tidy(resource: &Resource, run: &dyn Generation, path: &Path) -> bool {
    if run.manages("file", &path.display().to_string()) {
        return false;
    }
    let Ok(meta) = fs::symlink_metadata(path) else {
        return false;
    };
    let rmdirs = resource.get("rmdirs") == Some(&Value::Boolean(true));
    if meta.is_dir() && !rmdirs {
        return false;
    }
    let patterns = resource.list("matches");
    if !patterns.is_empty() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !patterns.iter().any(|p| glob_match(&value_text(p), &name)) {
            return false;
        }
    }
    let age = resource.get("age").and_then(|a| parse_age(&value_text(a)));
    let size = resource
        .get("size")
        .and_then(|s| parse_size(&value_text(s)));
    if age.is_none() && size.is_none() {
        return true;
    }
    let stamp = match resource.text("type").as_deref() {
        Some("mtime") => meta.mtime(),
        Some("ctime") => meta.ctime(),
        _ => meta.atime(),
    };
    age.is_some_and(|age| now() - stamp >= age as i64)
        || size.is_some_and(|size| meta.len() >= size)
}

fn generate(resource: &Resource, run: &dyn Generation) -> Result<Vec<Generated>, GenerateError> {
    let root = PathBuf::from(resource.name());
    if fs::symlink_metadata(&root).is_err() {
        return Ok(Vec::new());
    }
    let mut paths = Vec::new();
    walk(&root, depth(resource), &mut paths);
    let limit: usize = resource
        .text("max_files")
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if limit > 0 && paths.len() > limit {
        // What the directory holds, not the resource, is at fault: the
        // run goes on without tidying it.
        return Err(GenerateError::Failed(format!(
            "More than {limit} files were found below {}: raise max_files to tidy them",
            root.display()
        )));
    }
    let mut chosen: Vec<PathBuf> = paths
        .into_iter()
        .filter(|p| tidy(resource, run, p))
        .collect();
    // Deepest first, as Puppet orders them.
    chosen.sort_by(|a, b| b.cmp(a));
    if !chosen.is_empty() {
        run.notice(resource, &format!("Tidying {} files", chosen.len()));
    }
    let backup = resource
        .get("backup")
        .cloned()
        .unwrap_or(Value::Boolean(false));
    Ok(chosen
        .iter()
        .map(|path| {
            let mut params = vec![
                ("ensure".to_string(), Value::String("absent".into())),
                ("force".to_string(), Value::Boolean(true)),
                ("backup".to_string(), backup.clone()),
            ];
            // A directory goes after the files in it.
            let inside: Vec<Value> = chosen
                .iter()
                .filter(|other| other.parent() == Some(path.as_path()))
                .map(|other| Value::String(format!("File[{}]", other.display()).into()))
                .collect();
            if !inside.is_empty() {
                params.push(("require".to_string(), Value::Array(inside.into())));
            }
            Generated {
                type_name: "file".into(),
                title: path.display().to_string(),
                params,
                by: marionette_ral::GeneratedBy::Generate,
            }
        })
        .collect())
}

pub fn definition() -> TypeDef {
    TypeDef::new("tidy")
        .doc(
            "Removes files that match criteria: older than `age`, at least `size`
            large, or named like one of `matches`. Age and size are alternatives: a
            file that meets either is removed; with neither, every file found is.
            Files the catalog manages are left alone. Each removal is an ordinary
            `file` resource with `ensure => absent`, so it is logged and reported.",
        )
        .attr(
            AttrDef::param("path")
                .doc("The file or directory to tidy. Must be an absolute path.")
                .namevar()
                .validate(|_, value| {
                    if value_text(value).starts_with('/') {
                        Ok(())
                    } else {
                        Err(format!("File paths must be fully qualified, not '{}'", value_text(value)))
                    }
                }),
        )
        .attr(
            AttrDef::param("recurse")
                .doc("Whether to look below the path: `true` or `inf` for every level, a number for that many levels.")
                .values(&["true", "false", "inf"])
                .pattern(r"\A[0-9]+\z")
                .default_value(Value::String("false".into())),
        )
        .attr(
            AttrDef::param("max_files")
                .doc("Refuses to tidy when more files than this are found (0, the default, for no limit).")
                .pattern(r"\A[0-9]+\z")
                .default_value(Value::String("0".into())),
        )
        .attr(
            AttrDef::param("matches")
                .doc("Shell glob patterns; only files whose name matches one are tidied. Needs `recurse`.")
                .validate(|_, value| {
                    let patterns = match value {
                        Value::Array(items) => items.iter().map(value_text).collect(),
                        other => vec![value_text(other)],
                    };
                    match patterns.iter().find(|p| p.contains('/')) {
                        Some(p) => Err(format!("Patterns match file names, not paths: '{p}' contains '/'")),
                        None => Ok(()),
                    }
                }),
        )
        .attr(AttrDef::param("backup").doc("Passed to the file resources that remove the files; `false` (the default) keeps no copy."))
        .attr(
            AttrDef::param("age")
                .doc("Tidy files at least this old: a number and a unit, `s`, `m`, `h`, `d` or `w` (`2w`); a bare number is days.")
                .validate(|_, value| {
                    parse_age(&value_text(value)).map(|_| ()).ok_or_else(|| format!("Invalid tidy age {}", value_text(value)))
                }),
        )
        .attr(
            AttrDef::param("size")
                .doc("Tidy files at least this large: a number and a unit, `b`, `k`, `m`, `g` or `t`; a bare number is kilobytes.")
                .validate(|_, value| {
                    parse_size(&value_text(value)).map(|_| ()).ok_or_else(|| format!("Invalid tidy size {}", value_text(value)))
                }),
        )
        .attr(
            AttrDef::param("type")
                .doc("Which time `age` compares: `atime` (the default), `mtime` or `ctime`.")
                .values(&["atime", "mtime", "ctime"])
                .default_value(Value::String("atime".into())),
        )
        .attr(
            AttrDef::param("rmdirs")
                .doc("Whether directories are tidied too (after the files in them).")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .validate(|resource| {
            if !resource.list("matches").is_empty() && depth(resource).is_none() {
                return Err("Tidy can't use matches with recurse 0, false, or undef".into());
            }
            Ok(())
        })
        .generate(generate)
        .depth_first()
}

/// Nothing happens at evaluation: the generated file resources remove.
struct Sweep;

impl PropertyProvider for Sweep {}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("tidy", "tidy", Sweep).implicit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_and_sizes_take_units() {
        assert_eq!(parse_age("1w"), Some(604_800));
        assert_eq!(parse_age("3"), Some(259_200));
        assert_eq!(parse_age("90s"), Some(90));
        assert_eq!(parse_age("2x"), None);
        assert_eq!(parse_size("4"), Some(4096));
        assert_eq!(parse_size("100b"), Some(100));
        assert_eq!(parse_size("1m"), Some(1_048_576));
        assert_eq!(parse_size("k"), None);
    }

    #[test]
    fn globs_match_names() {
        assert!(glob_match("*.tmp", "a.tmp"));
        assert!(glob_match("*.tmp", ".hidden.tmp"));
        assert!(glob_match("[0-9]pub*.tmp", "3public.tmp"));
        assert!(!glob_match("[0-9]pub*.tmp", "xpub.tmp"));
        assert!(glob_match("tmpfile?", "tmpfile1"));
        assert!(!glob_match("tmpfile?", "tmpfile"));
        assert!(glob_match("[!a]*", "b"));
        assert!(!glob_match("[!a]*", "a"));
    }
}
