//! The Forge corpora (tests/forge, tests/forge-trixie, tests/forge-github)
//! and the module trees each is compiled and applied with, checked to be
//! there and made from the corpus's own list.

use std::path::{Path, PathBuf};

/// A corpus: its cases and the module path they are compiled and applied
/// with.
pub(crate) struct Corpus {
    pub(crate) root: PathBuf,
    pub(crate) modules: String,
}

impl Corpus {
    /// `tests/forge`: Debian 12's puppet-module-* packages, installed in
    /// /usr/share/puppet/modules (`packages.txt`).
    pub(crate) fn debian12() -> Self {
        let corpus = Corpus {
            root: corpus_dir("forge"),
            modules: "/usr/share/puppet/modules".to_string(),
        };
        let missing = missing_packages(&corpus);
        assert!(
            missing.is_empty(),
            "the Forge corpus needs modules missing from {}; install them with\n  apt-get install -y {}",
            corpus.modules,
            missing.join(" ")
        );
        corpus
    }

    /// `tests/forge-trixie`: the newer releases of Debian 13's packages,
    /// unpacked (not installed) by scripts/forge-trixie-modules.
    pub(crate) fn trixie() -> Self {
        let dir = std::env::var("FORGE_TRIXIE_DIR")
            .unwrap_or_else(|_| "/var/cache/marionette-forge-trixie".to_string());
        let corpus = Corpus {
            root: corpus_dir("forge-trixie"),
            modules: format!("{dir}/modules"),
        };
        // The tree keeps the list it was made from.
        let made_from = std::fs::read(format!("{dir}/packages.txt")).unwrap_or_default();
        let list = std::fs::read(corpus.root.join("packages.txt")).expect("packages.txt");
        assert!(
            made_from == list,
            "the trixie Forge corpus needs Debian 13's modules of tests/forge-trixie/packages.txt in {dir}/modules; make them with\n  scripts/forge-trixie-modules"
        );
        corpus
    }

    /// `tests/forge-github`: Forge modules Debian does not package, made
    /// from their repositories by scripts/forge-github-vendor, before the
    /// trixie tree, which gives their dependencies.
    pub(crate) fn github() -> Self {
        let trixie = Corpus::trixie();
        let dir = std::env::var("FORGE_GITHUB_DIR")
            .unwrap_or_else(|_| "/var/cache/marionette-forge-github".to_string());
        let corpus = Corpus {
            root: corpus_dir("forge-github"),
            modules: format!("{dir}/modules:{}", trixie.modules),
        };
        let made_from = std::fs::read(format!("{dir}/sources.txt")).unwrap_or_default();
        let list = std::fs::read(corpus.root.join("sources.txt")).expect("sources.txt");
        assert!(
            made_from == list,
            "the GitHub Forge corpus needs the modules of tests/forge-github/sources.txt in {dir}/modules; make them with\n  scripts/forge-github-vendor"
        );
        corpus
    }
}

fn corpus_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(name)
        .canonicalize()
        .unwrap_or_else(|_| panic!("tests/{name} exists"))
}

/// The packages of `packages.txt` whose module is not installed.
fn missing_packages(corpus: &Corpus) -> Vec<String> {
    let list = std::fs::read_to_string(corpus.root.join("packages.txt")).expect("packages.txt");
    list.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let package = words.next()?;
            let module = words
                .next()
                .unwrap_or_else(|| panic!("packages.txt: {package} names no module"));
            // A module may hold only types (tea) or functions.
            (!Path::new(&corpus.modules).join(module).is_dir()).then(|| package.to_string())
        })
        .collect()
}
