//! Finding code and files in modules.
//!
//! A name is looked up in the module named by its first segment, in the
//! first directory of the module path that has that module:
//! - class or defined type `mod` in `mod/manifests/init.pp`, `mod::a::b` in
//!   `mod/manifests/a/b.pp`;
//! - function `mod::f` in `mod/functions/f.pp`;
//! - type alias `Mod::T` in `mod/types/t.pp`;
//! - `epp('mod/t.epp')` in `mod/templates/t.epp`, `file('mod/x')` and
//!   `find_file('mod/x')` in `mod/files/x`.
//!
//! Loaded files are parsed once and kept in an arena owned by the caller,
//! so that the evaluator can hold references into their trees for the
//! rest of the compilation. Parsed files are also kept for the life of the
//! process, by path, size and modification time: a server compiling
//! catalog after catalog parses a module's file once, and again only when
//! it changes.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use marionette_diagnostics::{SourceFile, Span};
use marionette_syntax::SourceKind;
use marionette_syntax::ast::Program;
use typed_arena::Arena;

use crate::error::{EvalError, EvalResult, Located, Stop};
use crate::evaluator::Evaluator;

/// A parsed file kept for the whole compilation.
pub struct Loaded {
    pub file: SourceFile,
    pub program: Program,
}

/// Where loaded files live; create one per compilation and lend it to
/// the evaluator.
pub type Sources = Arena<Arc<Loaded>>;

/// A file's version: its size and modification time.
type Version = (u64, Option<SystemTime>);

/// Files parsed by any compilation of this process, by path, with the
/// version parsed.
type Parsed = HashMap<PathBuf, (Version, Arc<Loaded>)>;

static PARSED: Mutex<Option<Parsed>> = Mutex::new(None);

/// What kind of name is looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Manifest,
    Function,
    Type,
}

impl Kind {
    fn directory(self) -> &'static str {
        match self {
            Kind::Manifest => "manifests",
            Kind::Function => "functions",
            Kind::Type => "types",
        }
    }
}

pub(crate) struct Loader<'p> {
    pub(crate) sources: &'p Sources,
    pub(crate) modulepath: Vec<PathBuf>,
    loaded: HashSet<PathBuf>,
}

impl<'p> Loader<'p> {
    pub(crate) fn new(sources: &'p Sources, modulepath: Vec<PathBuf>) -> Loader<'p> {
        Loader {
            sources,
            modulepath,
            loaded: HashSet::new(),
        }
    }

    /// The directory of module `name`, from the first module-path entry
    /// that has it.
    pub(crate) fn module_dir(&self, name: &str) -> Option<PathBuf> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        self.modulepath
            .iter()
            .map(|dir| dir.join(name))
            .find(|dir| dir.is_dir())
    }

    /// Every module's directory, the first of each name only, in
    /// module-path order (directories of a module-path entry sorted by
    /// name).
    pub(crate) fn module_dirs(&self) -> Vec<PathBuf> {
        let mut seen = HashSet::new();
        let mut dirs = Vec::new();
        for entry in &self.modulepath {
            let Ok(read) = std::fs::read_dir(entry) else {
                continue;
            };
            let mut names: Vec<String> = read
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect();
            names.sort();
            for name in names {
                let dir = entry.join(&name);
                if dir.is_dir() && seen.insert(name) {
                    dirs.push(dir);
                }
            }
        }
        dirs
    }

    /// `mod/rest` to the file `rest` in the module's `subdir`.
    pub(crate) fn module_file(&self, reference: &str, subdir: &str) -> Option<PathBuf> {
        let (module, rest) = reference.split_once('/')?;
        if rest.split('/').any(|part| part == "..") {
            return None;
        }
        let path = self.module_dir(module)?.join(subdir).join(rest);
        path.is_file().then_some(path)
    }

    /// Reads, parses and keeps a file; errors name the file.
    pub(crate) fn load(
        &mut self,
        path: &Path,
        kind: SourceKind,
    ) -> Result<Option<&'p Loaded>, EvalError> {
        if !self.loaded.insert(path.to_path_buf()) {
            return Ok(None);
        }
        let version = std::fs::metadata(path)
            .ok()
            .map(|m| (m.len(), m.modified().ok()));
        if let Some(version) = version {
            let parsed = PARSED.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((known, loaded)) = parsed.as_ref().and_then(|p| p.get(path))
                && *known == version
            {
                let loaded: &'p Arc<Loaded> = self.sources.alloc(loaded.clone());
                return Ok(Some(&**loaded));
            }
        }
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| {
            let mut e = EvalError::new(format!("Could not read {name}: {error}"), Span::default());
            e.unlocated = true;
            e
        })?;
        let file = SourceFile::new(name, text);
        let checked = marionette_syntax::check(file.text(), kind);
        if let Some(diagnostic) = checked.diagnostics.iter().find(|d| d.is_error()) {
            return Err(refused(&file, diagnostic));
        }
        let loaded = Arc::new(Loaded {
            file,
            program: checked.program,
        });
        if let Some(version) = version {
            PARSED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert_with(HashMap::new)
                .insert(path.to_path_buf(), (version, loaded.clone()));
        }
        let loaded: &'p Arc<Loaded> = self.sources.alloc(loaded);
        Ok(Some(&**loaded))
    }
}

/// A file refused by the parser or the validator: the error is located in
/// the file, not at the caller that made it load, as Puppet says it.
fn refused(file: &SourceFile, diagnostic: &marionette_diagnostics::Diagnostic) -> EvalError {
    let mut error = EvalError::new(diagnostic.message.clone(), diagnostic.span);
    error.plain = true;
    error.located = Some(Located {
        file: file.location(diagnostic.span),
        line: 0,
        column: None,
    });
    error.raw_location = true;
    error
}

impl<'p> Evaluator<'p> {
    /// Loads the file that should define `name`, if there is one, and
    /// registers what it defines.
    pub(crate) fn autoload(&mut self, name: &str, kind: Kind) -> EvalResult<()> {
        let Some(loader) = &mut self.loader else {
            return Ok(());
        };
        let name = crate::evaluator::strip_top(name).to_lowercase();
        let mut segments: Vec<&str> = name.split("::").collect();
        let module = segments.remove(0);
        let relative = match (kind, segments.is_empty()) {
            (Kind::Manifest, true) => "init".to_string(),
            (_, true) => return Ok(()),
            (_, false) => segments.join("/"),
        };
        let Some(dir) = loader.module_dir(module) else {
            return Ok(());
        };
        let path = dir.join(kind.directory()).join(format!("{relative}.pp"));
        if !path.is_file() {
            return Ok(());
        }
        let loaded = loader
            .load(&path, SourceKind::Manifest)
            .map_err(|mut error| {
                if error.located.is_none() {
                    error.located = Some(Located {
                        file: path.display().to_string(),
                        line: 1,
                        column: None,
                    });
                }
                Stop::Error(error)
            })?;
        if let Some(loaded) = loaded {
            // What the path spells: the module for its `init.pp`, else
            // the name looked up.
            let namespace = if relative == "init" { module } else { &name };
            let misplaced = marionette_syntax::validate::validate_module_file(
                &loaded.program,
                namespace,
                loaded.file.name(),
            );
            if let Some(diagnostic) = misplaced.first() {
                return Err(Stop::Error(refused(&loaded.file, diagnostic)));
            }
            self.register_definitions(&loaded.program.body, &loaded.file);
        }
        Ok(())
    }

    /// Parses an EPP template file from a module (`mod/t.epp`) or an
    /// absolute path.
    pub(crate) fn load_template(&mut self, reference: &str) -> Result<&'p Loaded, String> {
        let Some(loader) = &mut self.loader else {
            return Err(format!("Could not find template '{reference}'"));
        };
        let path = if Path::new(reference).is_absolute() {
            PathBuf::from(reference)
        } else {
            loader
                .module_file(reference, "templates")
                .ok_or_else(|| format!("Could not find template '{reference}'"))?
        };
        // A template may be rendered many times; parse it once.
        if let Some(found) = self.templates.get(&path) {
            return Ok(found);
        }
        let loaded = loader
            .load(&path, SourceKind::Epp)
            .map_err(|error| error.message)?
            .ok_or_else(|| format!("Could not load template '{reference}'"))?;
        self.templates.insert(path, loaded);
        Ok(loaded)
    }

    /// `mod/x` in a module's `files`, or an absolute path that exists.
    pub(crate) fn find_module_file(&self, reference: &str) -> Option<PathBuf> {
        self.find_module_file_in(reference, "files")
    }

    /// `mod/x` in a module's `subdir` (`files`, `templates`), or an
    /// absolute path that exists.
    pub(crate) fn find_module_file_in(&self, reference: &str, subdir: &str) -> Option<PathBuf> {
        if Path::new(reference).is_absolute() {
            return Path::new(reference)
                .exists()
                .then(|| PathBuf::from(reference));
        }
        self.loader.as_ref()?.module_file(reference, subdir)
    }

    /// The directory of module `name` in the module path.
    pub(crate) fn module_directory(&self, name: &str) -> Option<PathBuf> {
        self.loader.as_ref()?.module_dir(name)
    }
}
