//! The record of a lookup that `--explain` prints: every layer, hierarchy
//! entry and file consulted, and what each answered, as a tree rendered in
//! the shape of Puppet's explanation.

use marionette_values::Value;

/// What a node of the explanation stands for.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Root,
    /// `Searching for "key"`.
    Top(String),
    InvalidKey(String),
    /// `Using merge options from "lookup_options" hash`.
    MergeSource(String),
    ModuleNotFound(String),
    ModuleProviderNotFound(String),
    Interpolate(String),
    /// A merge of several answers: the strategy's name and options.
    Merge(&'static str, Option<marionette_values::PHash>),
    /// A layer or a hierarchy entry, with its configuration file.
    DataProvider(String, Option<String>),
    /// A file (`Path`) or a URI, as resolved and as written.
    Location {
        uri: bool,
        location: String,
        original: String,
    },
    SubLookup(String),
    Segment,
    /// A labelled group (`Global Scope`, `Module "m"`).
    Scope(String),
}

#[derive(Clone, Debug, PartialEq)]
enum Event {
    None,
    Found,
    NotFound,
    LocationNotFound,
    Result,
}

#[derive(Debug)]
struct Node {
    parent: usize,
    kind: Kind,
    children: Vec<usize>,
    event: Event,
    key: String,
    value: Option<Value>,
    texts: Vec<String>,
}

/// An explanation being recorded. Values found in encrypted data are
/// shown redacted once any was met (`redact`).
#[derive(Debug)]
pub struct Explainer {
    nodes: Vec<Node>,
    current: usize,
    /// `--explain-options`: explain the search for `lookup_options` too.
    pub explain_options: bool,
    /// `--explain-options` without `--explain`.
    pub only_options: bool,
    /// Set when a decrypted value was found: values shown from then on are
    /// redacted.
    pub(crate) redact: bool,
}

impl Explainer {
    pub fn new(explain_options: bool, only_options: bool) -> Explainer {
        Explainer {
            nodes: vec![Node {
                parent: 0,
                kind: Kind::Root,
                children: Vec::new(),
                event: Event::None,
                key: String::new(),
                value: None,
                texts: Vec::new(),
            }],
            current: 0,
            explain_options,
            only_options,
            redact: false,
        }
    }

    pub(crate) fn push(&mut self, kind: Kind) {
        let id = self.nodes.len();
        self.nodes.push(Node {
            parent: self.current,
            kind,
            children: Vec::new(),
            event: Event::None,
            key: String::new(),
            value: None,
            texts: Vec::new(),
        });
        self.nodes[self.current].children.push(id);
        self.current = id;
    }

    pub(crate) fn pop(&mut self) {
        self.current = self.nodes[self.current].parent;
    }

    /// Adds a leaf that is complete at once.
    pub(crate) fn leaf(&mut self, kind: Kind) {
        self.push(kind);
        self.pop();
    }

    fn set(&mut self, event: Event, key: Option<&str>, value: Option<&Value>) {
        let redact = self.redact;
        let node = &mut self.nodes[self.current];
        node.event = event;
        if let Some(key) = key {
            node.key = key.to_string();
        }
        node.value = value.map(|v| if redact { redacted() } else { v.clone() });
    }

    pub(crate) fn found(&mut self, key: &str, value: &Value) {
        self.set(Event::Found, Some(key), Some(value));
    }

    pub(crate) fn not_found(&mut self, key: &str) {
        self.set(Event::NotFound, Some(key), None);
    }

    pub(crate) fn location_not_found(&mut self) {
        self.nodes[self.current].event = Event::LocationNotFound;
    }

    pub(crate) fn result(&mut self, value: &Value) {
        self.set(Event::Result, None, Some(value));
    }

    pub(crate) fn text(&mut self, text: String) {
        self.nodes[self.current].texts.push(text);
    }

    /// A line about the whole lookup (an error that ended it), printed
    /// after the search.
    pub fn report_text(&mut self, text: String) {
        self.nodes[0].texts.push(text);
    }

    /// The explanation as Puppet prints it.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for &child in &self.nodes[0].children {
            self.dump(&mut out, child, "", "");
        }
        for text in &self.nodes[0].texts {
            out.push_str(text);
            out.push('\n');
        }
        out
    }

    fn dump(&self, out: &mut String, id: usize, indent: &str, first: &str) {
        let node = &self.nodes[id];
        let inner = format!("{indent}  ");
        match &node.kind {
            Kind::Root => {}
            Kind::Top(key) => {
                out.push_str(&format!("{first}Searching for \"{key}\"\n"));
                for &c in &node.children {
                    self.dump(out, c, &inner, &inner);
                }
            }
            Kind::InvalidKey(key) => out.push_str(&format!("{first}Invalid key \"{key}\"\n")),
            Kind::MergeSource(source) => out.push_str(&format!(
                "{first}Using merge options from \"{source}\" hash\n"
            )),
            Kind::ModuleNotFound(name) => {
                out.push_str(&format!("{indent}Module \"{name}\" not found\n"))
            }
            Kind::ModuleProviderNotFound(name) => out.push_str(&format!(
                "{indent}Module data provider for module \"{name}\" not found\n"
            )),
            Kind::Interpolate(expr) => {
                out.push_str(&format!("{first}Interpolation on \"{expr}\"\n"));
                for &c in &node.children {
                    self.dump(out, c, &inner, &inner);
                }
            }
            Kind::Merge(name, options) => {
                match node.children.len() {
                    0 => return,
                    1 => return self.dump(out, node.children[0], indent, first),
                    _ => {}
                }
                out.push_str(&format!("{first}Merge strategy {name}\n"));
                if let Some(options) = options {
                    out.push_str(&format!("{inner}Options: "));
                    dump_value(out, &inner, &Value::hash(options.clone()));
                    out.push('\n');
                }
                for &c in &node.children {
                    self.dump(out, c, &inner, &inner);
                }
                if node.event == Event::Result
                    && let Some(value) = &node.value
                {
                    out.push_str(&format!("{inner}Merged result: "));
                    dump_value(out, &inner, value);
                    out.push('\n');
                }
            }
            Kind::DataProvider(name, config) => {
                out.push_str(&format!("{first}{name}\n"));
                if let Some(config) = config {
                    out.push_str(&format!("{inner}Using configuration \"{config}\"\n"));
                }
                for &c in &node.children {
                    self.dump(out, c, &inner, &inner);
                }
                self.outcome(out, node, &inner);
            }
            Kind::Location {
                uri,
                location,
                original,
            } => {
                let label = if *uri { "URI" } else { "Path" };
                out.push_str(&format!("{indent}{label} \"{location}\"\n"));
                out.push_str(&format!(
                    "{inner}Original {} \"{original}\"\n",
                    if *uri { "uri:" } else { "path:" }
                ));
                for &c in &node.children {
                    self.dump(out, c, &inner, &inner);
                }
                if node.event == Event::LocationNotFound {
                    out.push_str(&format!("{inner}{label} not found\n"));
                }
                self.outcome(out, node, &inner);
            }
            Kind::SubLookup(segments) => {
                out.push_str(&format!("{indent}Sub key: \"{segments}\"\n"));
                for &c in &node.children {
                    self.dump(out, c, &inner, &inner);
                }
                self.outcome(out, node, &inner);
            }
            Kind::Segment => self.outcome(out, node, indent),
            Kind::Scope(name) => {
                out.push_str(&format!("{indent}{name}\n"));
                for &c in &node.children {
                    self.dump(out, c, &inner, &inner);
                }
                self.outcome(out, node, &inner);
            }
        }
    }

    fn outcome(&self, out: &mut String, node: &Node, indent: &str) {
        match node.event {
            Event::NotFound => out.push_str(&format!("{indent}No such key: \"{}\"\n", node.key)),
            Event::Found => {
                out.push_str(&format!("{indent}Found key: \"{}\" value: ", node.key));
                if let Some(value) = &node.value {
                    dump_value(out, indent, value);
                }
                out.push('\n');
            }
            _ => {}
        }
        for text in &node.texts {
            out.push_str(indent);
            out.push_str(text);
            out.push('\n');
        }
    }
}

fn redacted() -> Value {
    Value::Sensitive(Box::new(Value::Undef))
}

/// A value as the explanation shows it: hashes and arrays one element a
/// line, scalars as Ruby's `inspect` writes them.
pub(crate) fn dump_value(out: &mut String, indent: &str, value: &Value) {
    let inner = format!("{indent}  ");
    match value {
        Value::Hash(hash) => {
            out.push('{');
            if !hash.is_empty() {
                let mut sep = "\n";
                for (k, v) in hash.iter() {
                    out.push_str(sep);
                    out.push_str(&inner);
                    dump_value(out, &inner, k);
                    out.push_str(" => ");
                    dump_value(out, &inner, v);
                    sep = ",\n";
                }
                out.push('\n');
                out.push_str(indent);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            if !items.is_empty() {
                let mut sep = "\n";
                for v in items.iter() {
                    out.push_str(sep);
                    out.push_str(&inner);
                    dump_value(out, &inner, v);
                    sep = ",\n";
                }
                out.push('\n');
                out.push_str(indent);
            }
            out.push(']');
        }
        other => out.push_str(&inspect(other)),
    }
}

/// Ruby's `inspect` of a scalar; sensitive values redacted.
pub(crate) fn inspect(value: &Value) -> String {
    match value {
        Value::Sensitive(_) => "Sensitive [value redacted]".into(),
        other => marionette_values::format::ruby_inspect(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_are_shown_as_ruby_shows_them() {
        assert_eq!(inspect(&Value::string("a\"b\n")), "\"a\\\"b\\n\"");
        assert_eq!(inspect(&Value::Float(1.0)), "1.0");
        assert_eq!(inspect(&Value::Float(1e20)), "1.0e+20");
        assert_eq!(inspect(&Value::Undef), "nil");
    }

    #[test]
    fn a_tree_renders_with_indentation() {
        let mut e = Explainer::new(false, false);
        e.push(Kind::Top("k".into()));
        e.push(Kind::DataProvider(
            "Environment Data Provider (hiera configuration version 5)".into(),
            Some("/e/hiera.yaml".into()),
        ));
        e.push(Kind::Location {
            uri: false,
            location: "/e/data/common.yaml".into(),
            original: "common.yaml".into(),
        });
        e.found("k", &Value::array(vec![Value::string("a")]));
        e.pop();
        e.pop();
        e.pop();
        assert_eq!(
            e.render(),
            "Searching for \"k\"\n  Environment Data Provider (hiera configuration version 5)\n    Using configuration \"/e/hiera.yaml\"\n    Path \"/e/data/common.yaml\"\n      Original path: \"common.yaml\"\n      Found key: \"k\" value: [\n        \"a\"\n      ]\n"
        );
    }
}
