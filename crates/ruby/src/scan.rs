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
    let mut refreshable = false;
    let mut self_refresh = false;
    let mut titled = false;
    let mut generates = false;
    let mut fills_late = false;
    let mut pre_run_checks = false;
    let mut features = Vec::new();
    let mut autorelations = Vec::new();
    let mut title_patterns = Vec::new();
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
        if line.contains("newtype(") {
            self_refresh = ["self_refresh: true", ":self_refresh => true"]
                .iter()
                .any(|option| line.contains(option));
        }
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
                } else if word("validate")
                    || word("newvalues")
                    || word("newvalue")
                    || word("aliasvalue")
                    || word("munge")
                {
                    last.checked = true;
                } else if word("array_matching") && line.contains(":all") {
                    last.array_all = true;
                } else if word("def change_to_s") || word("def should_to_s") || word("def is_to_s")
                {
                    last.describes_change = true;
                } else if word("def should=") || word("def value=") {
                    last.whole_checked = true;
                }
                // A munged value is shown munged in change messages,
                // which only its Ruby can word.
                if word("munge") {
                    last.describes_change = true;
                }
            }
            continue;
        }
        open = None;
        if line.starts_with("def self.title_patterns") {
            // The method's body, up to its `end` at the `def`'s own
            // indentation.
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| l.trim() != "end" || l.len() - l.trim_start().len() > indent)
                .collect();
            title_patterns = read_title_patterns(&body.join("\n"));
            continue;
        }
        if line == "ensurable" || line.starts_with("ensurable ") || line.starts_with("ensurable(") {
            ensurable = true;
            attributes.push(Attribute {
                name: "ensure".into(),
                property: true,
                namevar: false,
                boolean: false,
                array_all: false,
                // `defaultvalues` makes it present when the resource
                // manages a property; a block may say otherwise.
                default: true,
                checked: false,
                whole_checked: false,
                describes_change: false,
                doc: String::new(),
            });
            // Its block's lines are its own (`defaultto`, `change_to_s`,
            // values of its own).
            if line.ends_with(" do") || line.contains(" do |") {
                open = Some(indent);
            }
            continue;
        }
        if line.starts_with("validate do") || line.starts_with("validate {") {
            validates = true;
            continue;
        }
        let defines = |method: &str| {
            line.strip_prefix("def ")
                .and_then(|rest| rest.strip_prefix(method))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['(', ' ', ';']))
        };
        if defines("title")
            || line.starts_with("alias_method :title")
            || line.starts_with("alias title ")
        {
            titled = true;
            continue;
        }
        if defines("refresh") {
            refreshable = true;
            continue;
        }
        if defines("generate") || defines("eval_generate") {
            generates = true;
            fills_late |= defines("eval_generate");
            continue;
        }
        if defines("pre_run_check") {
            pre_run_checks = true;
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("feature ")
            .or_else(|| line.strip_prefix("feature("))
        {
            // A symbol's name, with Ruby's `?` or `!` at its end
            // (augeas's `:need_to_run?`).
            let rest = rest.trim_start_matches([' ', ':']);
            let word = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let end = word + usize::from(rest[word..].starts_with(['?', '!']));
            let feature = rest[..end].to_string();
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
                describes_change: false,
                // A parent class may bring checks of its own.
                checked: line.contains("parent:") || line.contains(":parent =>"),
                whole_checked: false,
                namevar: line.contains("namevar: true") || line.contains(":namevar => true"),
                boolean: line.contains("boolean: true") || line.contains(":boolean => true"),
                array_all: line.contains("array_matching: :all")
                    || line.contains(":array_matching => :all"),
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
        refreshable,
        self_refresh,
        titled,
        generates,
        fills_late,
        pre_run_checks,
        features,
        title_patterns,
        autorelations,
        api: None,
    }
}

/// Whether reading a classic type's file (`spec` is what [`scan_type`]
/// read) told everything it declares: a namevar, every attribute and
/// automatic relationship named where it is declared, and the title
/// patterns it defines. When it did not, only running the type's Ruby
/// tells.
pub fn told_whole(text: &str, spec: &TypeSpec) -> bool {
    let named = spec
        .attributes
        .iter()
        .any(|a| a.namevar || a.name == "name");
    // An attribute, or an automatic relationship's type, named by a
    // variable (corosync's `autorequire(type)` in a loop over types), or
    // on a line of its own (elasticsearch_user's `newparam(\n :password,`),
    // which the reader does not follow.
    let computed = [
        "newparam(",
        "newproperty(",
        "autorequire(",
        "autobefore(",
        "autonotify(",
        "autosubscribe(",
    ]
    .iter()
    .any(|call| {
        text.match_indices(call).any(|(at, _)| {
            !text[at + call.len()..]
                .trim_start_matches([' ', '\t'])
                .starts_with([':', '\'', '"'])
        })
    });
    let patterns_unread = defines_title_patterns(text) && spec.title_patterns.is_empty();
    named && !computed && !patterns_unread && !mixes_in(text)
}

/// Whether the type mixes a module of the module's own into its class
/// (`extend ElasticsearchRESTResource`), whose hook may declare
/// attributes; Puppet's own helper modules declare none.
fn mixes_in(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        ["extend ", "include "].iter().any(|word| {
            line.strip_prefix(word).is_some_and(|module| {
                let module = module.trim_start();
                module.starts_with(|c: char| c.is_ascii_uppercase())
                    && !module.starts_with("Puppet::")
            })
        })
    })
}

/// Whether a classic type defines title patterns of its own, whose procs
/// are Ruby.
pub fn defines_title_patterns(text: &str) -> bool {
    text.contains("def self.title_patterns")
}

/// The patterns of a classic type's `self.title_patterns` when its body
/// is the common literal: a list of `[REGEX, [[:attr], [:attr, proc]]]`,
/// the regexes written `%r{...}` or `/.../`. Each regex comes back in
/// Ruby syntax, its flags inline; each group's attribute is the first
/// symbol of its entry (identity procs are left to the attribute's own
/// munging). A body that is not such a literal gives nothing: the type
/// then fills its namevar from the whole title, as before.
fn read_title_patterns(body: &str) -> Vec<(String, Vec<String>)> {
    let chars: Vec<char> = body.chars().collect();
    let mut patterns = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let Some((regex, after)) = regex_literal(&chars, at) else {
            at += 1;
            continue;
        };
        let Some((attributes, after)) = field_list(&chars, after) else {
            return Vec::new();
        };
        if attributes.is_empty() {
            return Vec::new();
        }
        patterns.push((regex, attributes));
        at = after;
    }
    patterns
}

/// A regex literal starting at `at` (`%r{...}` with any of Ruby's
/// bracket pairs, or `/.../` after `[`, `,` or `(`), in Ruby syntax with
/// its flags inline, and where it ends.
pub(crate) fn regex_literal(chars: &[char], at: usize) -> Option<(String, usize)> {
    let (open, close, mut i) = match chars.get(at..at + 3) {
        Some(['%', 'r', open]) => (*open, closing_delimiter(*open)?, at + 3),
        _ if chars.get(at) == Some(&'/') => {
            let before = chars[..at].iter().rev().find(|c| !c.is_whitespace());
            if !matches!(before, None | Some('[' | ',' | '(')) {
                return None;
            }
            ('/', '/', at + 1)
        }
        _ => return None,
    };
    let mut source = String::new();
    let mut depth = 0usize;
    loop {
        let c = *chars.get(i)?;
        i += 1;
        if c == '\\' {
            let next = *chars.get(i)?;
            i += 1;
            // `\/` in a `/.../` literal is a plain slash; other escapes
            // mean the same to Onigmo as to Ruby.
            if !(next == close && open == close) {
                source.push('\\');
            }
            source.push(next);
            continue;
        }
        if c == close && depth == 0 {
            break;
        }
        if open != close {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
            }
        }
        source.push(c);
    }
    let flags: String = chars[i..]
        .iter()
        .take_while(|c| matches!(c, 'm' | 'i' | 'x'))
        .collect();
    i += flags.len();
    let regex = if flags.is_empty() {
        source
    } else {
        format!("(?{flags}:{source})")
    };
    Some((regex, i))
}

/// The delimiter that closes a Ruby `%` literal opened with `open`: the
/// bracket's pair, or the same punctuation.
pub(crate) fn closing_delimiter(open: char) -> Option<char> {
    match open {
        '{' => Some('}'),
        '(' => Some(')'),
        '[' => Some(']'),
        '<' => Some('>'),
        c if c.is_ascii_punctuation() => Some(c),
        _ => None,
    }
}

/// The attribute list that follows a regex (`, [[:a], [:b, proc]]`): the
/// first symbol of each entry, and where the list ends.
fn field_list(chars: &[char], at: usize) -> Option<(Vec<String>, usize)> {
    let skip = |mut i: usize| {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        i
    };
    let mut i = skip(at);
    if chars.get(i) != Some(&',') {
        return None;
    }
    i = skip(i + 1);
    if chars.get(i) != Some(&'[') {
        return None;
    }
    i += 1;
    let mut attributes = Vec::new();
    // Brackets, braces and parentheses open inside the list; the entry's
    // first symbol is taken at depth 1 (inside its own brackets).
    let mut depth = 0usize;
    let mut named = false;
    while let Some(&c) = chars.get(i) {
        match c {
            '[' | '{' | '(' => {
                depth += 1;
                if depth == 1 {
                    named = false;
                }
            }
            ']' | '}' | ')' if depth == 0 => return Some((attributes, i + 1)),
            ']' | '}' | ')' => depth -= 1,
            ':' if depth == 1 && !named && chars.get(i + 1) != Some(&':') => {
                let name: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .collect();
                if !name.is_empty() {
                    i += name.len();
                    attributes.push(name);
                    named = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
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

    #[test]
    fn an_attribute_with_its_own_should_sees_its_value_whole() {
        let text = "Puppet::Type.newtype(:pair) do\n  newparam(:name, namevar: true)\n  newproperty(:members, array_matching: :all) do\n    def should=(value)\n      super\n    end\n  end\n  newproperty(:plain) do\n    def should\n      super\n    end\n  end\nend\n";
        let spec = scan_type("pair", text);
        let whole: Vec<(&str, bool)> = spec
            .attributes
            .iter()
            .map(|a| (a.name.as_str(), a.whole_checked))
            .collect();
        assert_eq!(
            whole,
            [("name", false), ("members", true), ("plain", false)]
        );
    }

    #[test]
    fn title_patterns_are_read_from_their_literal() {
        let text = "Puppet::Type.newtype(:pair) do\n  def self.title_patterns\n    identity = lambda { |x| x }\n    [\n      [\n        %r{^([^:]+):(.+)$},\n        [\n          [:path, identity],\n          [:key],\n        ],\n      ],\n      [/\\A(\\w+)\\/x\\z/m, [[:key]]],\n    ]\n  end\n  newparam(:key, namevar: true)\nend\n";
        let spec = scan_type("pair", text);
        assert_eq!(
            spec.title_patterns,
            [
                (
                    "^([^:]+):(.+)$".to_string(),
                    vec!["path".to_string(), "key".to_string()]
                ),
                ("(?m:\\A(\\w+)/x\\z)".to_string(), vec!["key".to_string()]),
            ]
        );
        // The declarations after the method are read as before.
        assert_eq!(spec.attributes[0].name, "key");
        // A body that is not a literal gives no patterns.
        let spec = scan_type(
            "other",
            "def self.title_patterns\n  PATTERNS\nend\nnewparam(:name)\n",
        );
        assert!(spec.title_patterns.is_empty() && spec.attributes[0].namevar);
    }
}

/// The names of the facts a custom fact file adds, read without Ruby from
/// its `Facter.add(NAME ...)` calls, the name a symbol or a string
/// literal. `None` when one of them names its fact any other way (a
/// variable, an interpolated string): only running the file tells then.
pub fn fact_names(text: &str) -> Option<Vec<String>> {
    let mut names = Vec::new();
    for call in ["Facter.add", "Facter.define_fact"] {
        let mut rest = text;
        while let Some(at) = rest.find(call) {
            rest = &rest[at + call.len()..];
            let argument = rest.trim_start_matches(['(', ' ', '\t']);
            names.push(literal_name(argument)?);
        }
    }
    names.sort();
    names.dedup();
    Some(names)
}

/// A fact's name written `:name`, `:"name"`, `'name'` or `"name"` (without
/// interpolation) at the start of `text`.
fn literal_name(text: &str) -> Option<String> {
    let (quote, body) = match text.strip_prefix(':') {
        Some(symbol) if !symbol.starts_with(['"', '\'']) => {
            let end = symbol
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(symbol.len());
            return (end > 0).then(|| symbol[..end].to_string());
        }
        Some(quoted) => (quoted.chars().next()?, &quoted[1..]),
        None => (text.chars().next()?, text.get(1..)?),
    };
    if quote != '"' && quote != '\'' {
        return None;
    }
    let name = &body[..body.find(quote)?];
    let interpolated = quote == '"' && name.contains("#{");
    let plain = !(name.is_empty() || name.contains('\\') || interpolated);
    plain.then(|| name.to_string())
}

#[cfg(test)]
mod fact_tests {
    use super::fact_names;

    #[test]
    fn fact_names_are_read_from_literal_names_only() {
        let text = "Facter.add(:root_home) do\nend\nFacter.add('apt_updates') do\nend\n\
                    Facter.add(\"ssh_version\", type: :aggregate) do\nend\nFacter.add :bare do\nend\n\
                    Facter.add(:root_home) do\nend\n";
        assert_eq!(
            fact_names(text),
            Some(vec![
                "apt_updates".to_string(),
                "bare".to_string(),
                "root_home".to_string(),
                "ssh_version".to_string()
            ])
        );
        assert_eq!(fact_names("Facter.add(name) do\nend\n"), None);
        assert_eq!(fact_names("Facter.add(\"x_#{n}\") do\nend\n"), None);
        assert_eq!(fact_names("# nothing here\n"), Some(vec![]));
    }
}
