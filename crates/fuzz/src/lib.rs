//! Random-input testing that runs on the stable toolchain: one door,
//! [`Target`] (with [`targets`] and [`input`]).
//!
//! Each target feeds one of Marionette's readers of untrusted text: the
//! lexer, the parser (with the printer's round trip), the evaluator, the
//! catalog reader, Hiera's YAML and HOCON readers, the readers of what
//! plugins send, the server's request handling (raw HTTP after TLS) and
//! the CA's reading of certificate requests and client certificates. Inputs are corpus files (the project's own test data)
//! mutated by a small deterministic generator: input `n` of seed `s` is
//! always the same bytes, so a finding is reproduced from two numbers and
//! a run can be split across processes. The driver (`marionette-fuzz`)
//! runs inputs in child processes, so that an abort is found, not fatal.
//!
//! A target fails by panicking; anything a reader returns, error or not,
//! is a pass.

use std::path::{Path, PathBuf};

/// One reader under test.
pub struct Target {
    pub name: &'static str,
    /// Where its corpus comes from, below the repository: directories
    /// searched for files with one of `extensions`.
    corpus: &'static [&'static str],
    extensions: &'static [&'static str],
    /// Text that mutations insert, so that inputs stay close to the
    /// language the reader expects.
    dictionary: &'static [&'static str],
    run: fn(&[u8]),
}

impl Target {
    /// Feeds one input; a panic is a finding.
    pub fn run(&self, input: &[u8]) {
        (self.run)(input)
    }

    /// The corpus files' contents, in path order. Inputs kept in
    /// `regressions/` are not part of it, so that keeping one does not
    /// change what later input numbers are.
    pub fn corpus(&self) -> Vec<Vec<u8>> {
        let mut paths = Vec::new();
        for dir in self.corpus {
            files_below(&repository().join(dir), self.extensions, &mut paths);
        }
        read_all(paths)
    }

    /// The inputs that once found bugs in this target.
    pub fn regressions(&self) -> Vec<Vec<u8>> {
        let mut paths = Vec::new();
        files_below(&regressions(self.name), &[], &mut paths);
        read_all(paths)
    }
}

fn read_all(mut paths: Vec<PathBuf>) -> Vec<Vec<u8>> {
    paths.sort();
    paths
        .iter()
        .filter_map(|path| std::fs::read(path).ok())
        .filter(|bytes| bytes.len() <= MAX_INPUT)
        .collect()
}

/// The largest input: larger ones test speed, not robustness.
pub const MAX_INPUT: usize = 64 * 1024;

/// The repository's root.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where inputs that found bugs are kept, one directory per target: they
/// join the corpus and are replayed by the test suite.
pub fn regressions(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("regressions")
        .join(target)
}

fn files_below(dir: &Path, extensions: &[&str], found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_below(&path, extensions, found);
        } else if extensions.is_empty()
            || path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.contains(&e))
        {
            found.push(path);
        }
    }
}

const PUPPET_WORDS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ";",
    ":",
    "::",
    "=>",
    "->",
    "~>",
    "<-",
    "<~",
    "|",
    "$",
    "$x",
    "${",
    "\"",
    "'",
    "@(END)\n",
    "\nEND\n",
    "@(\"E\"/tL)\n",
    "<%",
    "%>",
    "<%=",
    "-%>",
    "if ",
    "else ",
    "elsif ",
    "unless ",
    "case ",
    "default",
    "class ",
    "define ",
    "node ",
    "inherits ",
    "function ",
    "type ",
    "notice(",
    "include ",
    "@@",
    "<<| |>>",
    "<| |>",
    "=~",
    " and ",
    " or ",
    "!",
    "*",
    "+",
    "-",
    "/",
    "%",
    "<<",
    ">>",
    " in ",
    "?",
    "0x",
    "1e",
    "0777",
    "Integer[",
    "String",
    "Hash",
    "Array[",
    "Optional[",
    "Variant[",
    "undef",
    "true",
    "\\",
    "\n",
    "\t",
    " ",
    "each |$x| { ",
    "}\n",
    "/re.*/",
    "#",
    "/*",
    "*/",
    "\u{feff}",
];

const JSON_WORDS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\\u0000",
    "\\ud800",
    "null",
    "true",
    "false",
    "1e999",
    "-0",
    "0.5",
    "18446744073709551616",
    "\"resources\":",
    "\"edges\":",
    "\"type\":",
    "\"title\":",
    "\"parameters\":",
    "\"source\":",
    "\"target\":",
    "\"tags\":",
    "\"__ptype\":",
    "\"Sensitive\"",
    "\"__pvalue\":",
    "\"log\"",
    "\"params\":",
    "\"result\":",
    "\"id\":",
    "\"level\":",
    "\"message\":",
    "\"protocol\":",
    "\"timeout\":",
    "\"features\":",
    "\"confine\":",
    "\"defaultfor\":",
    "\"commands\":",
    "\n",
];

const YAML_WORDS: &[&str] = &[
    ":",
    "- ",
    "? ",
    "&a ",
    "*a",
    "!!str ",
    "!!binary ",
    "|",
    ">",
    "{",
    "}",
    "[",
    "]",
    "---\n",
    "...\n",
    "\n",
    "  ",
    "'",
    "\"",
    "#",
    "%{",
    "}",
    "%{lookup('x')}",
    "%{hiera('y')}",
    "%{alias('z')}",
    "ENC[PKCS7,",
    "<<: ",
    "~",
    "null",
    "yes",
    ".inf",
    "0x1F",
    "=",
    "include ",
    "${",
    "\t",
];

const HTTP_WORDS: &[&str] = &[
    "\r\n",
    "\r\n\r\n",
    "GET ",
    "PUT ",
    "POST ",
    "DELETE ",
    "HEAD ",
    " HTTP/1.1",
    " HTTP/1.0",
    "Content-Length: ",
    "Content-Length: 18446744073709551616",
    "Transfer-Encoding: chunked",
    "Connection: close",
    "Expect: 100-continue",
    "Content-Type: application/json",
    "Accept-Encoding: gzip",
    "/puppet/v3/",
    "/puppet-ca/v1/",
    "/pdb/query/v4/",
    "/status/v1/",
    "catalog/",
    "file_metadatas/",
    "file_content/",
    "modules/mrtest/",
    "plugins/",
    "pluginfacts",
    "certificate_status/",
    "certificate_statuses/",
    "certificate_request/",
    "mrtest-fuzz",
    "..",
    "%2F",
    "%2e%2e",
    "%00",
    "%FF",
    "?environment=",
    "&recurse=true",
    "&links=follow",
    "&ignore=",
    "&checksum_type=",
    "facts=",
    "{",
    "}",
    "\"",
    "0\r\n\r\n",
    "ffffffff\r\n",
];

/// Pieces of DER: tags and short lengths, so mutations reach the
/// structure (the dictionary is text, so only bytes below 0x80).
const DER_WORDS: &[&str] = &[
    "\u{30}\u{00}",
    "\u{30}\u{7f}",
    "\u{02}\u{01}\u{00}",
    "\u{02}\u{10}\u{7f}",
    "\u{03}\u{01}\u{00}",
    "\u{04}\u{00}",
    "\u{05}\u{00}",
    "\u{06}\u{03}\u{55}\u{1d}\u{11}",
    "\u{06}\u{03}\u{55}\u{1d}\u{0e}",
    "\u{0c}\u{00}",
    "\u{0c}\u{04}true",
    "\u{13}\u{01}a",
    "\u{16}\u{01}*",
    "\u{31}\u{00}",
];

/// Every target, by name.
pub fn targets() -> &'static [Target] {
    const SYNTAX: &[&str] = &["crates/syntax/tests/data", "tests/conformance", "examples"];
    static TARGETS: &[Target] = &[
        Target {
            name: "lex",
            corpus: SYNTAX,
            extensions: &["pp", "epp"],
            dictionary: PUPPET_WORDS,
            run: lex,
        },
        Target {
            name: "parse",
            corpus: SYNTAX,
            extensions: &["pp", "epp"],
            dictionary: PUPPET_WORDS,
            run: parse,
        },
        Target {
            name: "evaluate",
            corpus: SYNTAX,
            extensions: &["pp"],
            dictionary: PUPPET_WORDS,
            run: evaluate,
        },
        Target {
            name: "catalog",
            corpus: &["tests/hiera", "tests/conformance", "tests/forge"],
            extensions: &["json"],
            dictionary: JSON_WORDS,
            run: catalog,
        },
        Target {
            name: "hiera-data",
            corpus: &["tests/hiera"],
            extensions: &["yaml", "conf"],
            dictionary: YAML_WORDS,
            run: hiera_data,
        },
        Target {
            name: "plugin-protocol",
            corpus: &[
                "crates/fuzz/corpus/plugin-protocol",
                "tests/fixtures/modules",
            ],
            extensions: &["jsonl", "yaml", "json"],
            dictionary: JSON_WORDS,
            run: plugin_protocol,
        },
        Target {
            name: "server-request",
            corpus: &["crates/fuzz/corpus/server-request"],
            extensions: &["http"],
            dictionary: HTTP_WORDS,
            run: server_request,
        },
        Target {
            name: "csr",
            corpus: &["crates/fuzz/corpus/csr"],
            extensions: &["der"],
            dictionary: DER_WORDS,
            run: csr,
        },
    ];
    TARGETS
}

fn text(input: &[u8]) -> Option<&str> {
    std::str::from_utf8(input).ok()
}

fn lex(input: &[u8]) {
    if let Some(text) = text(input) {
        let _ = marionette_syntax::lexer::lex(text);
        let _ = marionette_syntax::lexer::lex_epp(text);
    }
}

/// Parsing and validating accept anything, and a tree that parsed
/// cleanly prints to text that parses again.
fn parse(input: &[u8]) {
    use marionette_syntax::{SourceKind, check, parse, printer};
    let Some(text) = text(input) else { return };
    let _ = check(text, SourceKind::Epp);
    let checked = check(text, SourceKind::Manifest);
    if checked.diagnostics.iter().any(|d| d.is_error()) {
        return;
    }
    let printed = printer::print(&checked.program);
    let reparsed = parse(&printed);
    // The printer adds parentheses, so code close to the nesting limit
    // may print past it: that is the limit, not a bug.
    if reparsed
        .diagnostics
        .iter()
        .any(|d| d.code == "NESTING_TOO_DEEP")
    {
        return;
    }
    assert!(
        reparsed.diagnostics.iter().all(|d| !d.is_error()),
        "the printed form does not parse:\n{printed}"
    );
}

/// Evaluates a manifest as `apply --noop` compiles it. Nothing is
/// applied: a noop run still runs `onlyif` and `unless` commands, which
/// random input must not get to choose. Calls that run commands while
/// compiling (`generate`) are left out for the same reason.
fn evaluate(input: &[u8]) {
    let Some(text) = text(input) else { return };
    if text.contains("generate") {
        return;
    }
    let file = marionette_diagnostics::SourceFile::new("/fuzz/site.pp", text);
    let options = marionette_eval::RunOptions {
        node_name: "fuzz.example.com".into(),
        strict_variables: false,
        verbose: false,
    };
    let _ = marionette_eval::run_manifest(&file, &options);
}

fn catalog(input: &[u8]) {
    if let Some(text) = text(input) {
        let _ = marionette_catalog::Catalog::from_json(text);
    }
}

fn hiera_data(input: &[u8]) {
    if let Some(text) = text(input) {
        let _ = marionette_hiera::yaml::parse(text);
        let _ = marionette_hiera::hocon::parse(text);
    }
}

/// The type definition the protocol inputs are read against.
const PROTOCOL_TYPE: &str = "name: fuzz_entry
doc: A type for the fuzz driver.
ensurable: true
features:
  - name: comments
attributes:
  - name: name
    namevar: true
  - name: value
    kind: property
";

fn plugin_protocol(input: &[u8]) {
    let Some(text) = text(input) else { return };
    marionette_plugin::fuzzing::read_type(text, false);
    marionette_plugin::fuzzing::read_type(text, true);
    marionette_plugin::fuzzing::read_output(PROTOCOL_TYPE, text);
}

/// The scratch directory of a target that needs one on disk, shared by
/// the driver's children.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mrtest-fuzz-{name}"))
}

/// One client's conversation with the server's request handling.
fn server_request(input: &[u8]) {
    static HARNESS: std::sync::OnceLock<marionette_server::fuzzing::Harness> =
        std::sync::OnceLock::new();
    let harness = HARNESS.get_or_init(|| {
        marionette_server::fuzzing::Harness::new(&scratch("server"))
            .unwrap_or_else(|e| panic!("the server harness: {e}"))
    });
    let _ = harness.request(input);
}

/// A certificate request (DER, sent as PEM) submitted to a CA that signs
/// what passes its checks, and the bytes read as a client's certificate.
fn csr(input: &[u8]) {
    static CA: std::sync::OnceLock<marionette_ca::CertificateAuthority> =
        std::sync::OnceLock::new();
    let ca = CA.get_or_init(|| {
        let mut settings = marionette_ca::Settings::new("localhost");
        settings.key_length = 2048;
        settings.autosign = marionette_ca::Autosign::All;
        settings.allow_duplicate_certs = true;
        settings.allow_subject_alt_names = true;
        marionette_ca::CertificateAuthority::open_or_create(&scratch("ca"), settings)
            .unwrap_or_else(|e| panic!("the CA: {e}"))
    });
    let _ = marionette_ca::identity(input);
    let pem = pem_text("CERTIFICATE REQUEST", input);
    let _ = ca.submit_csr("mrtest-fuzz", &pem);
}

/// DER bytes as a PEM block.
fn pem_text(label: &str, der: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = format!("-----BEGIN {label}-----\n");
    for (i, chunk) in der.chunks(3).enumerate() {
        let n =
            chunk.iter().fold(0u32, |acc, b| acc << 8 | u32::from(*b)) << (8 * (3 - chunk.len()));
        for k in 0..4 {
            text.push(if k <= chunk.len() {
                char::from(ALPHABET[(n >> (18 - 6 * k) & 63) as usize])
            } else {
                '='
            });
        }
        if i % 16 == 15 {
            text.push('\n');
        }
    }
    text.push_str(&format!("\n-----END {label}-----\n"));
    text
}

/// Input `index` of `seed` for `target`: a corpus entry with up to eight
/// mutations. The same numbers always give the same bytes.
pub fn input(target: &Target, corpus: &[Vec<u8>], seed: u64, index: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut data = if corpus.is_empty() {
        Vec::new()
    } else {
        corpus[rng.below(corpus.len())].clone()
    };
    for _ in 0..=rng.below(8) {
        mutate(&mut data, target.dictionary, corpus, &mut rng);
    }
    data.truncate(MAX_INPUT);
    data
}

fn mutate(data: &mut Vec<u8>, dictionary: &[&str], corpus: &[Vec<u8>], rng: &mut Rng) {
    let at = rng.below(data.len() + 1);
    match rng.below(8) {
        0 if at < data.len() => data[at] ^= 1 << rng.below(8),
        1 if at < data.len() => data[at] = rng.next() as u8,
        2 => data.insert(at, rng.next() as u8),
        3 if at < data.len() => {
            let end = (at + 1 + rng.below(16)).min(data.len());
            data.drain(at..end);
        }
        4 if at < data.len() => {
            // A repeated slice: deep nesting and long chains come from here.
            let end = (at + 1 + rng.below(32)).min(data.len());
            let piece = data[at..end].to_vec();
            for _ in 0..=rng.below(64) {
                data.splice(at..at, piece.iter().copied());
            }
        }
        5 if !corpus.is_empty() => {
            let other = &corpus[rng.below(corpus.len())];
            let from = rng.below(other.len() + 1);
            let end = (from + rng.below(256)).min(other.len());
            data.splice(at..at, other[from..end].iter().copied());
        }
        6 => data.truncate(at),
        _ => {
            let word = dictionary[rng.below(dictionary.len())];
            data.splice(at..at, word.bytes());
        }
    }
}

/// SplitMix64: small, fast, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}
