//! Facts saved to a file, for compiling a catalog for another node.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::FactError;
use crate::external::parse_yaml;

/// Reads facts saved as JSON or YAML: what `facter --json` or
/// `facter --yaml` prints, or Puppet's wrapper with the facts under
/// `values` (`puppet facts show`, and the YAML facts cache of a Puppet
/// server, whose `!ruby/object:Puppet::Node::Facts` tag is ignored).
pub fn load_facts_file(path: impl AsRef<Path>) -> Result<Map<String, Value>, FactError> {
    let path = path.as_ref();
    let read_error = |message: String| FactError::FactsFileRead {
        path: path.to_path_buf(),
        message,
    };
    let parse_error = |message: String| FactError::FactsFileParse {
        path: path.to_path_buf(),
        message,
    };
    let bytes = std::fs::read(path).map_err(|error| read_error(error.to_string()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| read_error("the file is not valid UTF-8".to_string()))?;
    let is_json = path
        .extension()
        .is_some_and(|extension| extension == "json")
        || text.trim_start().starts_with('{');
    let value: Value = if is_json {
        serde_json::from_str(&text).map_err(|error| parse_error(error.to_string()))?
    } else {
        parse_yaml(&text).map_err(parse_error)?
    };
    let Value::Object(mut map) = value else {
        return Err(parse_error(
            "the file does not hold a mapping of facts".to_string(),
        ));
    };
    let wrapped = map.contains_key("name") && matches!(map.get("values"), Some(Value::Object(_)));
    if wrapped && let Some(Value::Object(values)) = map.remove("values") {
        return Ok(values);
    }
    Ok(map)
}
