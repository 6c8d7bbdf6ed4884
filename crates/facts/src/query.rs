//! Dotted fact queries, as `facter os.family` takes them.

use serde_json::{Map, Value};

/// The value at a dotted path: `os.family`, `networking.interfaces.eth0.ip`,
/// `processors.models.0` (a number indexes an array).
///
/// A fact whose own name contains dots (an external fact called `a.b`) is
/// found by its whole name first; at every level a key containing dots
/// (`mountpoints./mnt/data.old`) is tried before shorter ones.
pub fn query<'a>(facts: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    if let Some(value) = facts.get(path) {
        return Some(value);
    }
    let segments: Vec<&str> = path.split('.').collect();
    for split in (1..segments.len()).rev() {
        let key = segments[..split].join(".");
        if let Some(value) = facts.get(&key)
            && let Some(found) = descend(value, &segments[split..])
        {
            return Some(found);
        }
    }
    None
}

fn descend<'a>(value: &'a Value, segments: &[&str]) -> Option<&'a Value> {
    let Some((first, rest)) = segments.split_first() else {
        return Some(value);
    };
    match value {
        Value::Object(map) => {
            // Try the longest key first, so keys with dots are found.
            for take in (1..=segments.len()).rev() {
                let key = segments[..take].join(".");
                if let Some(child) = map.get(&key)
                    && let Some(found) = descend(child, &segments[take..])
                {
                    return Some(found);
                }
            }
            None
        }
        Value::Array(items) => {
            let index: usize = first.parse().ok()?;
            descend(items.get(index)?, rest)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn queries_find_what_facter_finds() {
        let facts = json!({
            "os": {"family": "Debian", "release": {"major": "12"}},
            "processors": {"models": ["AMD EPYC", "Intel"]},
            "mountpoints": {"/mnt/data.old": {"size": "1.00 GiB"}},
            "a.b": 1,
            "a": {"c": 2},
        });
        let facts = facts.as_object().cloned().unwrap_or_default();
        let cases = [
            ("os.family", Some(json!("Debian"))),
            ("os.release.major", Some(json!("12"))),
            ("os", Some(facts["os"].clone())),
            ("processors.models.0", Some(json!("AMD EPYC"))),
            ("processors.models.1", Some(json!("Intel"))),
            ("processors.models.2", None),
            ("processors.models.x", None),
            ("mountpoints./mnt/data.old.size", Some(json!("1.00 GiB"))),
            ("a.b", Some(json!(1))),
            ("a.c", Some(json!(2))),
            ("os.family.extra", None),
            ("nothing", None),
            ("", None),
        ];
        for (path, expected) in cases {
            assert_eq!(query(&facts, path).cloned(), expected, "{path}");
        }
    }
}
