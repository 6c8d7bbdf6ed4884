//! File name patterns for `glob` and `globs` entries, as Ruby's
//! `Dir.glob` reads them: `*`, `?`, `[set]`, `{a,b}` and `**/` for any
//! depth. Matches are files (not directories), sorted.

use std::path::{Path, PathBuf};

/// Every file matching `pattern`, an absolute path.
pub(crate) fn expand(pattern: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for alternative in braces(pattern) {
        let (root, rest) = match alternative.strip_prefix('/') {
            Some(rest) => (PathBuf::from("/"), rest.to_string()),
            None => (PathBuf::from("."), alternative.clone()),
        };
        let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
        walk(&root, &parts, &mut out);
    }
    out.retain(|p| !p.is_dir());
    out.sort();
    out.dedup();
    out
}

fn walk(dir: &Path, parts: &[&str], out: &mut Vec<PathBuf>) {
    let Some((first, rest)) = parts.split_first() else {
        out.push(dir.to_path_buf());
        return;
    };
    if *first == "**" {
        // Zero directories, then each subdirectory in turn.
        walk(dir, rest, out);
        for entry in entries(dir) {
            if entry.is_dir() && !hidden(&entry) {
                walk(&entry, parts, out);
            }
        }
        return;
    }
    if !first.contains(['*', '?', '[']) {
        let next = dir.join(first);
        if rest.is_empty() {
            if next.exists() {
                out.push(next);
            }
        } else if next.is_dir() {
            walk(&next, rest, out);
        }
        return;
    }
    for entry in entries(dir) {
        let Some(name) = entry.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if name.starts_with('.') && !first.starts_with('.') {
            continue;
        }
        if matches(first.as_bytes(), name.as_bytes()) {
            if rest.is_empty() {
                out.push(entry);
            } else if entry.is_dir() {
                walk(&entry, rest, out);
            }
        }
    }
}

fn hidden(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut list: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    list.sort();
    list
}

/// `{a,b}` alternatives expanded into whole patterns.
fn braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_string()];
    };
    let mut depth = 0;
    let mut close = None;
    let mut commas = Vec::new();
    for (i, c) in pattern[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(open + i),
            _ => {}
        }
    }
    let Some(close) = close else {
        return vec![pattern.to_string()];
    };
    let mut bounds = vec![open];
    bounds.extend(commas);
    bounds.push(close);
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let mut out = Vec::new();
    for pair in bounds.windows(2) {
        let choice = &pattern[pair[0] + 1..pair[1]];
        out.extend(braces(&format!("{head}{choice}{tail}")));
    }
    out
}

/// Whether `name` matches one path component's pattern.
fn matches(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|i| matches(rest, &name[i..])),
        Some((b'?', rest)) => !name.is_empty() && matches(rest, &name[1..]),
        Some((b'[', rest)) => {
            let Some(end) = rest.iter().position(|&b| b == b']') else {
                return name.first() == Some(&b'[') && matches(rest, &name[1..]);
            };
            let Some((&c, name_rest)) = name.split_first() else {
                return false;
            };
            let (negate, set) = match rest[..end].split_first() {
                Some((b'!' | b'^', set)) => (true, set),
                _ => (false, &rest[..end]),
            };
            let mut hit = false;
            let mut i = 0;
            while i < set.len() {
                if i + 2 < set.len() && set[i + 1] == b'-' {
                    hit |= set[i] <= c && c <= set[i + 2];
                    i += 3;
                } else {
                    hit |= set[i] == c;
                    i += 1;
                }
            }
            hit != negate && matches(&rest[end + 1..], name_rest)
        }
        Some((&b, rest)) => name.first() == Some(&b) && matches(rest, &name[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_names() {
        assert!(matches(b"*.yaml", b"common.yaml"));
        assert!(!matches(b"*.yaml", b"common.json"));
        assert!(matches(b"n?de[0-9].yaml", b"node5.yaml"));
        assert_eq!(braces("a/{b,c}.yaml"), vec!["a/b.yaml", "a/c.yaml"]);
    }

    #[test]
    fn expands_in_a_tree() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        for f in ["a/x.yaml", "a/b/y.yaml", "a/z.json"] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        let base = dir.path().display().to_string();
        let found = expand(&format!("{base}/**/*.yaml"));
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(names, vec!["a/b/y.yaml", "a/x.yaml"]);
    }
}
