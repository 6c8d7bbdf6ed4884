//! Reference documentation generated from type and provider definitions:
//! the text of `marionette describe` and the Markdown of
//! `marionette doc --reference type`, in the shape of Puppet's.

use std::fmt::Write;

use crate::metaparams::METAPARAMETERS;
use crate::provider::ProviderDef;
use crate::registry::Registry;
use crate::typedef::{AttrDef, AttrKind, TypeDef};

/// `describe --list`: each type with the start of its first sentence.
pub fn list(registry: &Registry) -> String {
    let mut out = String::from("These are the types known to marionette:\n");
    for type_def in registry.all_types() {
        let _ = writeln!(
            out,
            "{:<15} - {}",
            type_def.name,
            short_summary(&type_def.doc)
        );
    }
    out
}

/// The first sentence, without its period, cut at 45 characters as Puppet
/// cuts it.
fn short_summary(doc: &str) -> String {
    let flat = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = match flat.find(". ") {
        Some(end) => &flat[..end],
        None => flat.trim_end_matches('.'),
    };
    if sentence.chars().count() > 45 {
        let cut: String = sentence.chars().take(45).collect();
        format!("{cut} ...")
    } else {
        sentence.to_string()
    }
}

/// Attributes sorted by name, as Puppet lists them.
fn sorted_attributes(type_def: &TypeDef) -> Vec<&AttrDef> {
    let mut attrs: Vec<&AttrDef> = type_def.attributes.iter().collect();
    attrs.sort_by(|a, b| a.name.cmp(&b.name));
    attrs
}

/// `describe TYPE`, optionally with each provider's details, or the short
/// form with only names: laid out as `puppet describe` lays them out
/// (see [`describe_wrap`]), from docs built as Puppet builds them.
pub fn describe(registry: &Registry, type_def: &TypeDef, providers: bool, short: bool) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "\n{}\n{}\n",
        type_def.name,
        "=".repeat(type_def.name.len())
    );
    out.push_str(&describe_wrap(&type_def.doc, 0, true));
    out.push_str("\n\n\nParameters\n----------\n");
    let attrs = sorted_attributes(type_def);
    if short {
        let names: Vec<&str> = attrs.iter().map(|a| a.name.as_str()).collect();
        put(&mut out, &describe_wrap(&names.join(", "), 4, false));
    } else {
        let keys = type_def.key_attributes();
        for attr in attrs {
            let namevar = attr.name != "name" && keys.iter().any(|k| k.name == attr.name);
            let mark = if namevar { " (*namevar*)" } else { "" };
            let _ = writeln!(out, "\n- **{}**{mark}", attr.name);
            put(&mut out, &describe_wrap(&attribute_doc(attr), 4, true));
        }
    }
    let documented = registry.documented_providers(&type_def.name);
    if !documented.is_empty() {
        out.push_str("\nProviders\n---------\n");
        if providers && !short {
            let mut documented = documented;
            documented.sort_by(|a, b| a.name.cmp(&b.name));
            for provider in documented {
                let _ = writeln!(out, "\n- **{}**", provider.name);
                put(
                    &mut out,
                    &describe_wrap(&provider_doc(type_def, provider), 4, true),
                );
            }
        } else {
            let mut names: Vec<&str> = documented.iter().map(|p| p.name.as_str()).collect();
            names.sort_unstable();
            put(&mut out, &describe_wrap(&names.join(", "), 4, false));
        }
    }
    out
}

/// Ruby's `puts`: the text, and a line break unless it ends with one.
fn put(out: &mut String, text: &str) {
    out.push_str(text);
    if !text.ends_with('\n') {
        out.push('\n');
    }
}

/// The values an attribute takes, as Puppet's value collection words them:
/// named values (with their aliases), then patterns; empty when any value
/// goes.
fn values_doc(attr: &AttrDef) -> String {
    let mut values = String::new();
    let literals: Vec<String> = attr
        .literals()
        .map(|value| {
            let aliases: Vec<&str> = attr
                .aliases
                .iter()
                .filter(|(_, target)| target == value)
                .map(|(alias, _)| alias.as_str())
                .collect();
            if aliases.is_empty() {
                format!("`{value}`")
            } else {
                format!("`{value}` (also called `{}`)", aliases.join(", "))
            }
        })
        .collect();
    if !literals.is_empty() {
        let _ = write!(values, "Valid values are {}. ", literals.join(", "));
    }
    let patterns: Vec<String> = attr
        .patterns()
        .map(|p| format!("`/{}/`", p.source()))
        .collect();
    if !patterns.is_empty() {
        let _ = write!(values, "Values can match {}.", patterns.join(", "));
    }
    values
}

/// An attribute's doc as Puppet builds it: its own text, then its values
/// (aliases named), then the features it needs, each a paragraph.
fn attribute_doc(attr: &AttrDef) -> String {
    let mut doc = scrub_doc(&attr.doc);
    let values = values_doc(attr);
    if !values.is_empty() {
        let _ = write!(doc, "\n\n{values}");
    }
    if !attr.required_features.is_empty() {
        let _ = write!(
            doc,
            "\n\nRequires features {}.",
            attr.required_features.join(" ")
        );
    }
    doc
}

/// A provider's doc as Puppet builds it: its own text, then a bullet for
/// its commands, its defaults and its features.
fn provider_doc(type_def: &TypeDef, provider: &ProviderDef) -> String {
    let facts = ProviderFacts::of(type_def, provider);
    // Puppet's defaults are one bullet.
    let defaults = (!facts.defaults.is_empty()).then(|| facts.defaults.join(" "));
    let extra = [facts.binaries, defaults, facts.features]
        .into_iter()
        .flatten();
    let extra: Vec<String> = extra.map(|e| format!("* {e}")).collect();
    let doc = scrub_doc(&provider.doc);
    match (doc.is_empty(), extra.is_empty()) {
        (_, true) => doc,
        (true, false) => extra.join("\n"),
        (false, false) => format!("{doc}\n\n{}", extra.join("\n")),
    }
}

/// Puppet's scrubbing of a doc: a one-line doc trimmed; a longer one with
/// the indentation its lines after the first share taken off each line,
/// and trailing blanks dropped.
fn scrub_doc(text: &str) -> String {
    let trimmed = text.trim();
    if !trimmed.contains('\n') {
        return trimmed.to_string();
    }
    let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
    let indent = rest
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| &line[..line.len() - line.trim_start_matches([' ', '\t']).len()])
        .min()
        .unwrap_or("");
    text.lines()
        .map(|line| line.strip_prefix(indent).unwrap_or(line).trim_end())
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

/// `puppet describe`'s layout of a text (its `Formatter#wrap`), kept as
/// it is because users compare the two: with `scrub`, the first run of
/// blanks that starts a line (a line break, when the text has an empty
/// line) is taken off the start of every line; then the text is cut into
/// pieces of at most `76 - indent` characters, each ending before a blank
/// or a line break, and the indent is put before the first piece and
/// after each cut (not before line breaks within the last piece).
fn describe_wrap(text: &str, indent: usize, scrub: bool) -> String {
    if text.is_empty() {
        return String::new();
    }
    let mut work: Vec<char> = if scrub {
        formatter_scrub(text)
    } else {
        text.to_string()
    }
    .chars()
    .collect();
    let length = 76 - indent;
    let prefix = " ".repeat(indent);
    let mut pieces: Vec<String> = Vec::new();
    while work.len() > length {
        // The longest start of at most `length` characters without a line
        // break that a blank or a line break follows.
        let limit = work
            .iter()
            .take(length)
            .position(|c| *c == '\n')
            .unwrap_or(length);
        match (0..=limit)
            .rev()
            .find(|&k| matches!(work.get(k), Some(' ' | '\n')))
        {
            Some(k) => {
                pieces.push(work[..k].iter().collect());
                work.drain(..=k);
            }
            None => {
                pieces.push(work[..length].iter().collect());
                work.drain(..length);
            }
        }
    }
    if !work.is_empty() {
        pieces.push(work.iter().collect());
    }
    format!("{prefix}{}", pieces.join(&format!("\n{prefix}")))
}

/// The scrubbing of `puppet describe`'s formatter (see [`describe_wrap`]).
fn formatter_scrub(text: &str) -> String {
    if !text.contains('\n') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let line_start = |i: usize| i == 0 || bytes[i - 1] == b'\n';
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let Some(start) = (0..bytes.len()).find(|&i| line_start(i) && blank(bytes[i])) else {
        return text.to_string();
    };
    let end = (start..bytes.len())
        .find(|&i| !blank(bytes[i]))
        .unwrap_or(bytes.len());
    let indent = &text[start..end];
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if line_start(i) && text[i..].starts_with(indent) {
            i += indent.len();
            continue;
        }
        let c = text[i..].chars().next().unwrap_or_default();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// What Puppet lists under a provider, each as its sentence: its commands
/// (optional ones too), the facts it is a default for (one sentence an
/// entry), and its features.
struct ProviderFacts {
    binaries: Option<String>,
    defaults: Vec<String>,
    features: Option<String>,
}

impl ProviderFacts {
    fn of(type_def: &TypeDef, provider: &ProviderDef) -> ProviderFacts {
        let binaries: Vec<String> = provider
            .commands
            .iter()
            .chain(&provider.optional_commands)
            .map(|(_, p)| format!("`{p}`"))
            .collect();
        let defaults = provider
            .defaultfor
            .iter()
            .map(|entry| {
                let mut conditions: Vec<String> = entry
                    .iter()
                    .map(|(fact, values)| format!("`{fact}` == `{}`", values.join(", ")))
                    .collect();
                conditions.sort();
                format!("Default for {}.", conditions.join(" and "))
            })
            .collect();
        let mut features = provider.feature_list(type_def);
        features.sort_unstable();
        let features: Vec<String> = features.iter().map(|f| format!("`{f}`")).collect();
        ProviderFacts {
            binaries: (!binaries.is_empty())
                .then(|| format!("Required binaries: {}.", binaries.join(", "))),
            defaults,
            features: (!features.is_empty())
                .then(|| format!("Supported features: {}.", features.join(", "))),
        }
    }
}

/// `doc --reference type`: every type in Markdown.
pub fn reference(registry: &Registry) -> String {
    let mut out = String::from("# Type Reference\n\n");
    out.push_str(
        "Generated by `marionette doc --reference type` from the type and provider \
         definitions; edit those, not this text.\n\n## Resource Types\n\n\
         - The *namevar* identifies a resource on the system; it defaults to the title.\n\
         - *Properties* are observed on the system and changed to match the manifest; \
         *parameters* steer how the resource is managed.\n\
         - *Providers* implement a type on a platform; the default one is chosen from the facts.\n\
         - *Features* are abilities some providers have; some attributes need them.\n\n",
    );
    for type_def in registry.all_types() {
        out.push_str(&reference_type(registry, type_def));
    }
    out.push_str("----------------\n\n## Metaparameters\n\nEvery type accepts these.\n\n");
    for (name, doc) in METAPARAMETERS {
        let _ = writeln!(out, "{name}\n: {doc}\n");
    }
    out
}

fn reference_type(registry: &Registry, type_def: &TypeDef) -> String {
    let mut out = format!(
        "----------------\n\n### {}\n\n{}\n\n",
        type_def.name, type_def.doc
    );
    let providers = registry.documented_providers(&type_def.name);
    if !type_def.features.is_empty() {
        out.push_str("#### Features\n\n");
        for feature in &type_def.features {
            let _ = writeln!(out, "- *{}*: {}", feature.name, feature.doc);
        }
        if !providers.is_empty() {
            out.push_str("\nProvider | ");
            out.push_str(
                &type_def
                    .features
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" | "),
            );
            out.push_str(" |\n--- | ");
            out.push_str(
                &type_def
                    .features
                    .iter()
                    .map(|_| "---")
                    .collect::<Vec<_>>()
                    .join(" | "),
            );
            out.push_str(" |\n");
            for provider in &providers {
                let marks: Vec<&str> = type_def
                    .features
                    .iter()
                    .map(|f| {
                        if provider.has_feature(type_def, &f.name) {
                            "*X*"
                        } else {
                            ""
                        }
                    })
                    .collect();
                let _ = writeln!(out, "{} | {} |", provider.name, marks.join(" | "));
            }
        }
        out.push('\n');
    }
    out.push_str("#### Parameters\n\n");
    for attr in sorted_attributes(type_def) {
        let mut notes = Vec::new();
        if type_def.namevar().is_some_and(|n| n.name == attr.name) {
            notes.push("*Namevar*: when not given, the title is used.".to_string());
        }
        match attr.kind {
            AttrKind::Property | AttrKind::CreateOnly => {
                notes.push("*Property*: read from the system and changed to match.".to_string())
            }
            AttrKind::ReadOnly => {
                notes.push("*Read-only property*: reported, never set.".to_string())
            }
            AttrKind::Parameter => {}
        }
        if attr.kind == AttrKind::CreateOnly {
            notes.push("Set only when the resource is created.".to_string());
        }
        notes.push(attr.doc.replace('\n', "\n  "));
        let _ = writeln!(out, "{}\n: {}\n", attr.name, notes.join("\n\n  "));
        let values = values_doc(attr);
        if !values.is_empty() {
            let _ = writeln!(out, "  {}\n", values.trim_end());
        }
        if !attr.required_features.is_empty() {
            let _ = writeln!(
                out,
                "  Requires features {}.\n",
                attr.required_features.join(", ")
            );
        }
    }
    if !providers.is_empty() {
        let _ = writeln!(
            out,
            "provider\n: Which implementation manages this `{}` resource; chosen from the facts \
             when not given. The providers:\n",
            type_def.name
        );
        for provider in providers {
            let _ = writeln!(
                out,
                "  {}\n  : {}\n",
                provider.name,
                provider.doc.replace('\n', "\n    ")
            );
            let facts = ProviderFacts::of(type_def, provider);
            let parent = provider
                .parent
                .as_ref()
                .map(|parent| format!("Extends the `{parent}` provider."));
            let lines = facts.binaries.into_iter().chain(facts.defaults);
            for line in lines.chain(facts.features).chain(parent) {
                let _ = writeln!(out, "    * {line}");
            }
            out.push('\n');
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_stop_at_the_first_sentence_and_45_characters() {
        assert_eq!(
            short_summary("Manage groups. On most platforms"),
            "Manage groups"
        );
        assert_eq!(
            short_summary("Manages files, including their content, ownership, and permissions."),
            "Manages files, including their content, owner ..."
        );
    }
}
