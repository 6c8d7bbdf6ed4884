//! A type's description read from its file without running Ruby: the
//! plain declarations `ensurable`, `newparam(:x ...)` and
//! `newproperty(:x ...)`, with `namevar: true` or `isnamevar` marking the
//! namevar. Enough for types that declare their attributes plainly, as
//! nearly all do; the host describes the others by running their DSL.

use crate::{Attribute, TypeSpec};

/// Reads the declarations of the type `name` from its file's text.
pub fn scan_type(name: &str, text: &str) -> TypeSpec {
    if text.contains("register_type")
        && let Some(spec) = crate::resource_api::scan(name, text)
    {
        return spec;
    }
    let mut doc = String::new();
    let mut attributes: Vec<Attribute> = Vec::new();
    let mut ensurable = false;
    let mut validates = false;
    let mut features = Vec::new();
    let mut autorelations = Vec::new();
    // The attribute whose block is open, by the indentation of its
    // declaration: deeper lines are its own (`validate`, `defaultto`).
    let mut open: Option<usize> = None;
    let mut lines = text.lines();
    while let Some(raw) = lines.next() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        // Documentation: the type's `@doc`, an attribute's `desc`.
        if let Some(rest) = line
            .strip_prefix("@doc =")
            .or_else(|| line.strip_prefix("desc "))
            .or_else(|| line.strip_prefix("desc("))
        {
            let text = documentation(rest.trim().trim_end_matches(')'), &mut lines);
            match (line.starts_with("@doc"), open.and(attributes.last_mut())) {
                (false, Some(last)) if indent > open.unwrap_or(0) => last.doc = text,
                // `@doc`, or `desc` outside any attribute's block.
                _ if doc.is_empty() => doc = text,
                _ => {}
            }
            continue;
        }
        if let Some(depth) = open
            && indent > depth
        {
            if let Some(last) = attributes.last_mut() {
                let word = |w: &str| {
                    line == w
                        || line.starts_with(&format!("{w} "))
                        || line.starts_with(&format!("{w}("))
                };
                if word("isnamevar") {
                    last.namevar = true;
                } else if word("defaultto") {
                    last.default = true;
                } else if word("validate") || word("newvalues") || word("newvalue") {
                    last.checked = true;
                }
            }
            continue;
        }
        open = None;
        if line == "ensurable" || line.starts_with("ensurable ") || line.starts_with("ensurable(") {
            ensurable = true;
            attributes.push(Attribute {
                name: "ensure".into(),
                property: true,
                namevar: false,
                boolean: false,
                default: false,
                checked: false,
                doc: String::new(),
            });
            continue;
        }
        if line.starts_with("validate do") || line.starts_with("validate {") {
            validates = true;
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("feature ")
            .or_else(|| line.strip_prefix("feature("))
        {
            let feature: String = rest
                .trim_start_matches([' ', ':'])
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !feature.is_empty() {
                features.push(feature);
            }
            continue;
        }
        let declared = [("newparam", false), ("newproperty", true)]
            .iter()
            .find_map(|(word, property)| Some((line.strip_prefix(word)?, *property)))
            .and_then(|(rest, property)| {
                let rest = rest.trim_start_matches(['(', ' ']).strip_prefix(':')?;
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                (!name.is_empty()).then_some((name, property))
            });
        if let Some((attribute, property)) = declared {
            attributes.retain(|a| a.name != attribute);
            attributes.push(Attribute {
                doc: String::new(),
                default: false,
                // A parent class may bring checks of its own.
                checked: line.contains("parent:") || line.contains(":parent =>"),
                namevar: line.contains("namevar: true") || line.contains(":namevar => true"),
                boolean: line.contains("boolean: true") || line.contains(":boolean => true"),
                name: attribute,
                property,
            });
            if line.ends_with(" do") || line.contains(" do |") {
                open = Some(indent);
            }
        } else if let Some((kind, target)) = relation(line) {
            autorelations.push((kind.to_string(), target));
        }
    }
    // Puppet takes `name` as the namevar when none is marked.
    if !attributes.iter().any(|a| a.namevar)
        && let Some(named) = attributes.iter_mut().find(|a| a.name == "name")
    {
        named.namevar = true;
    }
    TypeSpec {
        name: name.to_string(),
        doc,
        attributes,
        ensurable,
        validates,
        features,
        title_patterns: Vec::new(),
        autorelations,
        api: None,
    }
}

/// A documentation string: quoted on its line, or a heredoc whose lines
/// follow (`<<-EOT`, `<<~EOT`), its common indentation removed.
fn documentation<'a>(start: &str, lines: &mut impl Iterator<Item = &'a str>) -> String {
    if let Some(marker) = start
        .strip_prefix("<<-")
        .or_else(|| start.strip_prefix("<<~"))
    {
        let marker = marker.trim_matches(|c| c == '\'' || c == '"');
        let body: Vec<&str> = lines.take_while(|l| l.trim() != marker).collect();
        let indent = body
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        return body
            .iter()
            .map(|l| l.get(indent..).unwrap_or("").trim_end())
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string();
    }
    let quote = start.chars().next().filter(|c| *c == '\'' || *c == '"');
    match quote {
        Some(q) => start[1..]
            .rsplit_once(q)
            .map(|(text, _)| text.to_string())
            .unwrap_or_default(),
        None => String::new(),
    }
}

/// `autorequire(:service) do` as `("require", "service")`.
fn relation(line: &str) -> Option<(&'static str, String)> {
    let (kind, rest) = [
        ("autorequire", "require"),
        ("autobefore", "before"),
        ("autonotify", "notify"),
        ("autosubscribe", "subscribe"),
    ]
    .iter()
    .find_map(|(word, kind)| Some((*kind, line.strip_prefix(word)?)))?;
    let target: String = rest
        .trim_start_matches(['(', ' '])
        .strip_prefix(':')?
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!target.is_empty()).then_some((kind, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_read_from_the_file() {
        let text = "Puppet::Type.newtype(:demo) do\n  ensurable do\n    defaultto :present\n  end\n  newparam(:path, namevar: true) do\n  end\n  newproperty(:value) do\n  end\n  # newparam(:commented)\n  newparam :force, boolean: true\nend\n";
        let spec = scan_type("demo", text);
        let names: Vec<(&str, bool, bool)> = spec
            .attributes
            .iter()
            .map(|a| (a.name.as_str(), a.property, a.namevar))
            .collect();
        assert_eq!(
            names,
            [
                ("ensure", true, false),
                ("path", false, true),
                ("value", true, false),
                ("force", false, false)
            ]
        );
        assert!(spec.ensurable && spec.attributes[3].boolean);
        let spec = scan_type(
            "other",
            "newparam(:title) do\n  isnamevar\nend\nnewparam(:name)\n",
        );
        assert!(spec.attributes[0].namevar && !spec.attributes[1].namevar);
        let spec = scan_type("plain", "newparam(:name) do\nend\n");
        assert!(spec.attributes[0].namevar);
    }
}
