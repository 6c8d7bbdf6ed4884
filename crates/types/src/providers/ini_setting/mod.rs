//! Providers of the `ini_setting` type, and the INI file both it and
//! `ini_subsetting` edit: inifile's `Puppet::Util::IniFile`, whose
//! placement rules (a new setting after its commented-out form, before the
//! blank lines that end its section, indented as the section's settings
//! are) decide what the files look like, so they are followed exactly.

pub mod ruby;

use std::path::Path;

use indexmap::IndexMap;
use marionette_ral::ProviderError;
use marionette_ral::parsedfile::stage_or_write;
use marionette_values::regex::Regex;

use crate::text::{lines, puts, ruby_io_error};

/// How an INI file is written: the separator between a new setting's
/// name and value, the brackets of section headers, and the indentation
/// of new settings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IniStyle {
    pub key_val_separator: String,
    pub section_prefix: String,
    pub section_suffix: String,
    pub indent_char: String,
    pub indent_width: Option<usize>,
}

impl Default for IniStyle {
    fn default() -> IniStyle {
        IniStyle {
            key_val_separator: " = ".into(),
            section_prefix: "[".into(),
            section_suffix: "]".into(),
            indent_char: " ".into(),
            indent_width: None,
        }
    }
}

/// One section: where its lines are (line numbers may go below zero and
/// past each other while lines are removed, as in inifile), its settings
/// read from the file and those to append.
#[derive(Clone, Debug)]
struct Section {
    name: String,
    start_line: Option<isize>,
    end_line: Option<isize>,
    existing: IndexMap<String, String>,
    additional: IndexMap<String, String>,
    indentation: Option<usize>,
}

impl Section {
    fn new_section(name: &str) -> Section {
        Section {
            name: name.to_string(),
            start_line: None,
            end_line: None,
            existing: IndexMap::new(),
            additional: IndexMap::new(),
            indentation: None,
        }
    }

    fn global(&self) -> bool {
        self.name.is_empty()
    }

    /// A section not in the file yet (the global section when the file
    /// has nothing before its first header).
    fn is_new(&self) -> bool {
        self.end_line.is_none()
    }

    fn is_empty(&self) -> bool {
        if self.global() {
            self.is_new()
        } else {
            self.start_line == self.end_line
        }
    }

    fn lines(&self) -> std::ops::RangeInclusive<isize> {
        match (self.start_line, self.end_line) {
            (Some(start), Some(end)) => start..=end,
            #[allow(clippy::reversed_empty_ranges)]
            _ => 1..=0,
        }
    }

    fn shift(&mut self, by: isize) {
        if let Some(start) = &mut self.start_line {
            *start += by;
        }
        if let Some(end) = &mut self.end_line {
            *end += by;
        }
    }
}

/// Ruby's `Regexp.escape`, for the section brackets.
fn regex_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '.' | '*' | '?' | '+' | '^' | '$' | '|' | '(' | ')' | '[' | ']' | '{' | '}' | '\\'
            | '/' | '-' | '#' | ' ' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' => escaped.push_str("\\n"),
            '\t' => escaped.push_str("\\t"),
            '\r' => escaped.push_str("\\r"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// An INI file read into lines and sections.
#[derive(Clone)]
pub struct IniFile {
    path: String,
    /// The resource that edits the file, whose change a write holds.
    resource: String,
    style: IniStyle,
    lines: Vec<String>,
    sections: Vec<Section>,
    section_regex: Regex,
    setting_regex: Regex,
    commented_setting_regex: Regex,
}

/// Compiles a pattern once per process: every resource of a file with the
/// same style uses the same three.
fn compile(pattern: &str) -> Result<Regex, ProviderError> {
    static COMPILED: std::sync::Mutex<Vec<(String, Regex)>> = std::sync::Mutex::new(Vec::new());
    let mut compiled = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, regex)) = compiled.iter().find(|(p, _)| p == pattern) {
        return Ok(regex.clone());
    }
    let regex = Regex::new(pattern).map_err(ProviderError::new)?;
    compiled.push((pattern.to_string(), regex.clone()));
    Ok(regex)
}

/// What identifies one version of a file: a file replaced by renaming has
/// a new inode, one changed in place a new size or modification time.
#[derive(Clone, Copy, PartialEq, Eq)]
struct DiskIdentity {
    device: u64,
    inode: u64,
    size: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

/// The version of a file read: one staged by a resource of the session
/// (see `parsedfile::stage`), or one on disk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Identity {
    Staged(u64),
    Disk(DiskIdentity),
}

impl Identity {
    fn of(path: &str) -> Option<Identity> {
        use std::os::unix::fs::MetadataExt;
        if let Some((_, version)) = marionette_ral::parsedfile::staged(Path::new(path)) {
            return Some(Identity::Staged(version));
        }
        let meta = std::fs::metadata(path).ok()?;
        Some(Identity::Disk(DiskIdentity {
            device: meta.dev(),
            inode: meta.ino(),
            size: meta.size(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
        }))
    }
}

/// The files read during this process, parsed, by path and style, with
/// the identity of the version read. A run's resources edit the same few
/// files over and over (ten settings of a file are ten resources); a file
/// that has not changed since is not read and parsed again.
type Parsed = Vec<((String, IniStyle), Identity, IniFile)>;
static PARSED: std::sync::Mutex<Parsed> = std::sync::Mutex::new(Vec::new());

/// How many parsed files are kept: enough for the files of a run.
const PARSED_KEPT: usize = 64;

impl IniFile {
    /// Reads the file; a missing one is empty. A version already parsed
    /// is not parsed again.
    pub fn read(path: &str, style: IniStyle, resource: &str) -> Result<IniFile, ProviderError> {
        let before = Identity::of(path);
        if let Some(identity) = before {
            let parsed = PARSED.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, _, file)) = parsed
                .iter()
                .find(|((p, s), id, _)| p == path && *s == style && *id == identity)
            {
                let mut file = file.clone();
                file.resource = resource.to_string();
                return Ok(file);
            }
        }
        let file = IniFile::read_fresh(path, style.clone(), resource)?;
        // Kept only when the file did not change while it was read.
        if let Some(identity) = before
            && Identity::of(path) == before
        {
            let mut parsed = PARSED.lock().unwrap_or_else(|e| e.into_inner());
            parsed.retain(|((p, s), _, _)| !(p == path && *s == style));
            if parsed.len() >= PARSED_KEPT {
                parsed.remove(0);
            }
            parsed.push(((path.to_string(), style), identity, file.clone()));
        }
        Ok(file)
    }

    fn read_fresh(path: &str, style: IniStyle, resource: &str) -> Result<IniFile, ProviderError> {
        if let Some((bytes, _)) = marionette_ral::parsedfile::staged(Path::new(path)) {
            return IniFile::parse(path, style, resource, text_lines(&bytes));
        }
        let content = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) if Path::new(path).is_dir() => {
                let _ = e;
                Vec::new()
            }
            Err(e) => {
                return Err(ProviderError::new(ruby_io_error(
                    &e,
                    "rb_sysopen",
                    Path::new(path),
                )));
            }
        };
        IniFile::parse(path, style, resource, text_lines(&content))
    }

    fn parse(
        path: &str,
        style: IniStyle,
        resource: &str,
        lines: Vec<String>,
    ) -> Result<IniFile, ProviderError> {
        // The separator as the patterns use it: stripped, or one space when
        // it is only blanks. Like inifile, it goes into the patterns as it
        // is (a character class included).
        let separator = &style.key_val_separator;
        let kvs = if !separator.is_empty() && separator.chars().all(char::is_whitespace) {
            " ".to_string()
        } else {
            separator.trim().to_string()
        };
        let section_regex = compile(&format!(
            "^\\s*{}(.*){}\\s*$",
            regex_escape(&style.section_prefix),
            regex_escape(&style.section_suffix)
        ))?;
        let setting_regex = compile(&format!(
            "^(\\s*)([^#;\\s]|[^#;\\s].*?[^\\s{kvs}])(\\s*{kvs}[ \\t]*)(.*)\\s*$"
        ))?;
        let commented_setting_regex = compile(&format!(
            "^(\\s*)[#;]+(\\s*)(.*?[^\\s{kvs}])(\\s*{kvs}[ \\t]*)(.*)\\s*$"
        ))?;
        let mut file = IniFile {
            path: path.to_string(),
            resource: resource.to_string(),
            style,
            lines,
            sections: Vec::new(),
            section_regex,
            setting_regex,
            commented_setting_regex,
        };
        // Everything before the first header is the global section, which
        // always exists.
        let mut next = 0;
        let global = file.read_section("", 0, &mut next);
        file.sections.push(global);
        while next < file.lines.len() {
            let line_num = next;
            next += 1;
            if let Some(captures) = file.section_regex.captures(&file.lines[line_num]) {
                let name = captures.get(1).cloned().flatten().unwrap_or_default();
                let section = file.read_section(&name, line_num, &mut next);
                file.sections.push(section);
            }
        }
        Ok(file)
    }

    fn read_section(&self, name: &str, start_line: usize, next: &mut usize) -> Section {
        let mut existing = IndexMap::new();
        let mut end_line = start_line as isize;
        let mut indentation: Option<usize> = None;
        let mut empty = true;
        while let Some(line) = self.lines.get(*next) {
            if self.section_regex.is_match(line) {
                break;
            }
            if let Some(captures) = self.setting_regex.captures(line) {
                let group = |i: usize| captures.get(i).cloned().flatten().unwrap_or_default();
                existing.insert(group(2), group(4));
                let indent = group(1).chars().count();
                indentation = Some(indentation.map_or(indent, |i| i.min(indent)));
            }
            end_line = *next as isize;
            empty = false;
            *next += 1;
        }
        Section {
            name: name.to_string(),
            start_line: Some(start_line as isize),
            // An empty global section counts as new.
            end_line: (!(name.is_empty() && empty)).then_some(end_line),
            existing,
            additional: IndexMap::new(),
            indentation,
        }
    }

    fn position(&self, section: &str) -> Option<usize> {
        self.sections.iter().position(|s| s.name == section)
    }

    fn line(&self, line_num: isize) -> Option<&str> {
        usize::try_from(line_num)
            .ok()
            .and_then(|n| self.lines.get(n))
            .map(String::as_str)
    }

    /// Whether the file has the section.
    pub fn has_section(&self, section: &str) -> bool {
        self.position(section).is_some()
    }

    /// A setting's value, `None` when the section or the setting is
    /// missing.
    pub fn get_value(&self, section: &str, setting: &str) -> Option<&str> {
        let section = &self.sections[self.position(section)?];
        section
            .existing
            .get(setting)
            .or_else(|| section.additional.get(setting))
            .map(String::as_str)
    }

    fn indent(&self, section: &Section) -> String {
        self.style
            .indent_char
            .repeat(self.style.indent_width.or(section.indentation).unwrap_or(0))
    }

    /// Adds the section when it is missing (inifile's `set_value` with
    /// only a section).
    pub fn add_section(&mut self, section: &str) {
        if !self.has_section(section) {
            self.sections.push(Section::new_section(section));
        }
    }

    /// Sets a setting: its line changes in place, or it goes after its
    /// commented-out form, or at the end of its section (created when
    /// missing).
    pub fn set_value(&mut self, section: &str, setting: &str, separator: &str, value: &str) {
        self.add_section(section);
        let Some(index) = self.position(section) else {
            return;
        };
        if self.sections[index].existing.contains_key(setting) {
            for line_num in self.sections[index].lines() {
                let Some(line) = self.line(line_num) else {
                    continue;
                };
                if let Some(captures) = self.setting_regex.captures(line) {
                    let group = |i: usize| captures.get(i).cloned().flatten().unwrap_or_default();
                    if group(2) == setting {
                        let updated = format!("{}{}{}{value}", group(1), group(2), group(3));
                        self.lines[line_num as usize] = updated;
                    }
                }
            }
            self.sections[index]
                .existing
                .insert(setting.to_string(), value.to_string());
        } else if let Some(line_num) = self.find_commented_setting(index, setting) {
            let line = format!(
                "{}{setting}{separator}{value}",
                self.indent(&self.sections[index])
            );
            self.lines.insert(line_num as usize + 1, line);
            let section = &mut self.sections[index];
            section
                .existing
                .insert(setting.to_string(), value.to_string());
            if let Some(end) = &mut section.end_line {
                *end += 1;
            }
            for later in &mut self.sections[index + 1..] {
                later.shift(1);
            }
        } else {
            self.sections[index]
                .additional
                .insert(setting.to_string(), value.to_string());
        }
    }

    fn find_commented_setting(&self, index: usize, setting: &str) -> Option<isize> {
        let section = &self.sections[index];
        if section.is_new() {
            return None;
        }
        section.lines().find(|&line_num| {
            self.line(line_num)
                .and_then(|line| self.commented_setting_regex.captures(line))
                .is_some_and(|captures| {
                    captures.get(3).cloned().flatten().as_deref() == Some(setting)
                })
        })
    }

    /// Removes a setting; a section left empty goes too.
    pub fn remove_setting(&mut self, section: &str, setting: &str) {
        let Some(index) = self.position(section) else {
            return;
        };
        if !self.sections[index].existing.contains_key(setting) {
            return;
        }
        // inifile walks the section's original line numbers while it
        // deletes, so the line after a deleted one is not looked at.
        for line_num in self.sections[index].lines() {
            let Some(line) = self.line(line_num) else {
                continue;
            };
            let found = self
                .setting_regex
                .captures(line)
                .is_some_and(|c| c.get(2).cloned().flatten().as_deref() == Some(setting));
            if found {
                self.lines.remove(line_num as usize);
            }
        }
        let removed = &mut self.sections[index];
        removed.existing.shift_remove(setting);
        if let Some(end) = &mut removed.end_line {
            *end -= 1;
        }
        for later in &mut self.sections[index + 1..] {
            later.shift(-1);
        }
        if self.sections[index].is_empty() {
            if let Some(start) = self.sections[index].start_line
                && let Ok(start) = usize::try_from(start)
                && start < self.lines.len()
            {
                self.lines.remove(start);
            }
            for later in &mut self.sections[index + 1..] {
                later.shift(-1);
            }
            self.sections.remove(index);
        }
    }

    /// The file's text as inifile writes it.
    pub fn render(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let global_empty = self
            .sections
            .iter()
            .find(|s| s.global())
            .is_none_or(|s| s.is_empty() && s.additional.is_empty());
        let count = self.sections.len();
        for (index, section) in self.sections.iter().enumerate() {
            let mut blank_lines: Vec<&str> = Vec::new();
            if section.is_new() && !section.global() {
                if (index == 1 && !global_empty) || index > 1 {
                    puts(&mut out, b"");
                }
                let header = format!(
                    "{}{}{}",
                    self.style.section_prefix, section.name, self.style.section_suffix
                );
                puts(&mut out, header.as_bytes());
            }
            if !section.is_new() {
                for line_num in section.lines() {
                    let Some(line) = self.line(line_num) else {
                        continue;
                    };
                    // Blank lines at the end of a section stay after the
                    // settings added to it.
                    if line.chars().all(char::is_whitespace) {
                        blank_lines.push(line);
                    } else {
                        for blank in blank_lines.drain(..) {
                            puts(&mut out, blank.as_bytes());
                        }
                        puts(&mut out, line.as_bytes());
                    }
                }
            }
            for (key, value) in &section.additional {
                let line = format!(
                    "{}{key}{}{value}",
                    self.indent(section),
                    self.style.key_val_separator
                );
                puts(&mut out, line.as_bytes());
            }
            if !blank_lines.is_empty() {
                for blank in blank_lines {
                    puts(&mut out, blank.as_bytes());
                }
            } else if section.is_new() && !section.additional.is_empty() && index < count - 1 {
                puts(&mut out, b"");
            }
        }
        out
    }

    /// Writes the file back whole: staged for the session to write (see
    /// `parsedfile::stage`), or now when that cannot be sure to work.
    pub fn save(&self) -> Result<(), ProviderError> {
        let path = Path::new(&self.path);
        stage_or_write(path, self.render(), &self.resource)
            .map_err(|e| ProviderError::new(ruby_io_error(&e, "rb_sysopen", path)))
    }
}

/// A file's content as lines without their endings, as inifile reads it.
fn text_lines(content: &[u8]) -> Vec<String> {
    lines(content)
        .into_iter()
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_read_again_is_parsed_again_only_when_it_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ini");
        let path_text = path.display().to_string();
        std::fs::write(&path, "[s]\nk = 1\n").unwrap();
        let value = |file: &IniFile| file.get_value("s", "k").map(str::to_string);
        let first = IniFile::read(&path_text, IniStyle::default(), "Ini_setting[x]").unwrap();
        assert_eq!(value(&first).as_deref(), Some("1"));
        // Changed in place, same size: a new modification time.
        std::thread::sleep(std::time::Duration::from_millis(5));
        std::fs::write(&path, "[s]\nk = 2\n").unwrap();
        let second = IniFile::read(&path_text, IniStyle::default(), "Ini_setting[x]").unwrap();
        assert_eq!(value(&second).as_deref(), Some("2"));
        // Replaced by renaming: a new inode.
        let mut edited = second.clone();
        edited.set_value("s", "k", " = ", "3");
        edited.save().unwrap();
        // Staged, and read back as staged, until the session writes it.
        assert_eq!(
            value(&IniFile::read(&path_text, IniStyle::default(), "Ini_setting[x]").unwrap())
                .as_deref(),
            Some("3")
        );
        assert!(std::fs::read_to_string(&path).unwrap().contains("k = 2"));
        assert!(marionette_ral::parsedfile::write_staged().is_empty());
        let third = IniFile::read(&path_text, IniStyle::default(), "Ini_setting[x]").unwrap();
        assert_eq!(value(&third).as_deref(), Some("3"));
        // Unchanged: the copy kept is the file as read, not as edited.
        let mut changed_in_memory =
            IniFile::read(&path_text, IniStyle::default(), "Ini_setting[x]").unwrap();
        changed_in_memory.set_value("s", "k", " = ", "4");
        let fourth = IniFile::read(&path_text, IniStyle::default(), "Ini_setting[x]").unwrap();
        assert_eq!(value(&fourth).as_deref(), Some("3"));
        // Another style is another parse.
        let other = IniStyle {
            key_val_separator: "=".into(),
            ..IniStyle::default()
        };
        assert_eq!(
            value(&IniFile::read(&path_text, other, "Ini_setting[x]").unwrap()).as_deref(),
            Some("3")
        );
        marionette_ral::parsedfile::sync_written();
    }

    fn edit(text: &str, change: impl FnOnce(&mut IniFile)) -> String {
        let lines = crate::text::lines(text.as_bytes())
            .into_iter()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect();
        let mut file =
            IniFile::parse("/x.ini", IniStyle::default(), "Ini_setting[x]", lines).unwrap();
        change(&mut file);
        String::from_utf8(file.render()).unwrap()
    }

    #[test]
    fn settings_are_changed_in_place_added_before_blank_lines_and_removed() {
        let text = "top = 1\n\n[a]\nx = 1\n#y = 0\n\n[b]\nz = 2\n";
        assert_eq!(
            edit(text, |f| f.set_value("a", "x", " = ", "9")),
            "top = 1\n\n[a]\nx = 9\n#y = 0\n\n[b]\nz = 2\n"
        );
        assert_eq!(
            edit(text, |f| f.set_value("a", "y", " = ", "3")),
            "top = 1\n\n[a]\nx = 1\n#y = 0\ny = 3\n\n[b]\nz = 2\n"
        );
        assert_eq!(
            edit(text, |f| f.set_value("a", "w", " = ", "3")),
            "top = 1\n\n[a]\nx = 1\n#y = 0\nw = 3\n\n[b]\nz = 2\n"
        );
        assert_eq!(
            edit(text, |f| f.remove_setting("b", "z")),
            "top = 1\n\n[a]\nx = 1\n#y = 0\n\n"
        );
        assert_eq!(
            edit(text, |f| f.set_value("c", "n", " = ", "v")),
            "top = 1\n\n[a]\nx = 1\n#y = 0\n\n[b]\nz = 2\n\n[c]\nn = v\n"
        );
        assert_eq!(edit("", |f| f.set_value("", "k", " = ", "v")), "k = v\n");
    }
}
