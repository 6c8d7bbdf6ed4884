//! The conversation: read a request, answer it, until told to stop.

use std::cell::RefCell;
use std::io::{self, BufRead, Write};

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::function::Function;
use crate::log::{Logger, send};
use crate::provider::{Change, Provider, Wanted};
use crate::{PROTOCOL, State};

/// What the engine says about itself in the handshake. Fields a plugin
/// of the other kind does not get are None.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HandshakeRequest {
    /// `provider` or `function`.
    pub kind: String,
    /// The type a provider is asked to manage.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// The provider's name (its file name).
    pub provider: Option<String>,
    /// The function's name as called, `module::name`.
    pub function: Option<String>,
    /// The environment of the run.
    pub environment: Option<String>,
}

/// Serves a provider on standard input and output until `shutdown` or
/// the end of input. The error is an input or output failure: the engine
/// has gone away.
pub fn serve_provider(provider: impl Provider) -> io::Result<()> {
    serve_provider_on(io::stdin().lock(), io::stdout().lock(), provider)
}

/// Serves a function on standard input and output; see
/// [`serve_provider`].
pub fn serve_function(function: impl Function) -> io::Result<()> {
    serve_function_on(io::stdin().lock(), io::stdout().lock(), function)
}

/// Serves a provider on any reader and writer: a test can script the
/// engine's side of the conversation.
pub fn serve_provider_on(
    reader: impl BufRead,
    writer: impl Write,
    provider: impl Provider,
) -> io::Result<()> {
    serve_on(reader, writer, &mut AsProvider(provider))
}

/// Serves a function on any reader and writer.
pub fn serve_function_on(
    reader: impl BufRead,
    writer: impl Write,
    function: impl Function,
) -> io::Result<()> {
    serve_on(reader, writer, &mut AsFunction(function))
}

/// What the loop needs from either kind of plugin.
trait Plugin {
    fn kind(&self) -> &'static str;

    /// The handshake's answer, without the protocol version.
    fn describe(&mut self, request: &HandshakeRequest) -> Result<Value, String>;

    /// Answers a method other than handshake and shutdown; None when the
    /// plugin does not know it.
    fn handle(
        &mut self,
        method: &str,
        params: &Map<String, Value>,
        log: &Logger<'_>,
    ) -> Option<Result<Value, String>>;
}

fn serve_on<R: BufRead, W: Write>(
    mut reader: R,
    writer: W,
    plugin: &mut dyn Plugin,
) -> io::Result<()> {
    let out = RefCell::new(writer);
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let logger = Logger::new(&out);
        let (id, answer, done) = match parse(&line) {
            Err((id, problem)) => (id, Err(format!("bad request: {problem}")), false),
            Ok(request) => {
                let done = request.method == "shutdown";
                (
                    request.id.clone(),
                    dispatch(plugin, &request, &logger),
                    done,
                )
            }
        };
        if let Some(failure) = logger.take_failure() {
            return Err(failure);
        }
        send(&out, &answer_message(id, answer))?;
        if done {
            return Ok(());
        }
    }
}

struct Request {
    id: Value,
    method: String,
    params: Map<String, Value>,
}

/// Reads one request. The error says what is wrong with the line, with
/// the id to answer it with: the request's, or null when it has none.
fn parse(line: &[u8]) -> Result<Request, (Value, String)> {
    let text = std::str::from_utf8(line).map_err(|e| (Value::Null, format!("not UTF-8: {e}")))?;
    let value: Value = serde_json::from_str(text).map_err(|e| (Value::Null, e.to_string()))?;
    let Value::Object(mut object) = value else {
        return Err((Value::Null, "not a JSON object".into()));
    };
    let id = object.remove("id").unwrap_or(Value::Null);
    let method = match object.remove("method") {
        Some(Value::String(method)) => method,
        _ => return Err((id, "no 'method'".into())),
    };
    let params = match object.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params,
        Some(_) => return Err((id, "'params' must be an object".into())),
    };
    Ok(Request { id, method, params })
}

fn dispatch(plugin: &mut dyn Plugin, request: &Request, log: &Logger<'_>) -> Result<Value, String> {
    match request.method.as_str() {
        "handshake" => handshake(plugin, &request.params),
        "shutdown" => Ok(Value::Object(Map::new())),
        method => plugin
            .handle(method, &request.params, log)
            .unwrap_or_else(|| Err(format!("unknown method '{method}'"))),
    }
}

fn handshake(plugin: &mut dyn Plugin, params: &Map<String, Value>) -> Result<Value, String> {
    let protocol = params.get("protocol").unwrap_or(&Value::Null);
    if protocol.as_u64() != Some(PROTOCOL) {
        return Err(format!(
            "this plugin speaks protocol {PROTOCOL}, not {protocol}"
        ));
    }
    let request: HandshakeRequest = serde_json::from_value(Value::Object(params.clone()))
        .map_err(|e| format!("bad handshake: {e}"))?;
    if !request.kind.is_empty() && request.kind != plugin.kind() {
        return Err(format!(
            "this is a {} plugin, not a {}",
            plugin.kind(),
            request.kind
        ));
    }
    let described = plugin.describe(&request)?;
    // The version comes first, so a person reading the conversation sees
    // it first; the plugin cannot override it.
    let mut answer = Map::new();
    answer.insert("protocol".into(), PROTOCOL.into());
    if let Value::Object(fields) = described {
        answer.extend(fields.into_iter().filter(|(key, _)| key != "protocol"));
    }
    Ok(Value::Object(answer))
}

fn answer_message(id: Value, answer: Result<Value, String>) -> Value {
    let mut message = Map::new();
    message.insert("id".into(), id);
    match answer {
        Ok(result) => message.insert("result".into(), result),
        Err(text) => {
            let mut error = Map::new();
            error.insert("message".into(), text.into());
            message.insert("error".into(), Value::Object(error))
        }
    };
    Value::Object(message)
}

struct AsProvider<P>(P);

impl<P: Provider> Plugin for AsProvider<P> {
    fn kind(&self) -> &'static str {
        "provider"
    }

    fn describe(&mut self, request: &HandshakeRequest) -> Result<Value, String> {
        serde_json::to_value(self.0.describe(request)).map_err(|e| e.to_string())
    }

    fn handle(
        &mut self,
        method: &str,
        params: &Map<String, Value>,
        log: &Logger<'_>,
    ) -> Option<Result<Value, String>> {
        Some(match method {
            "get" => wanted(params)
                .and_then(|wanted| self.0.get(wanted.as_deref(), log))
                .map(resources),
            "instances" => self.0.instances(log).map(resources),
            "set" => self.set(params, log),
            _ => return None,
        })
    }
}

impl<P: Provider> AsProvider<P> {
    fn set(&mut self, params: &Map<String, Value>, log: &Logger<'_>) -> Result<Value, String> {
        let changes: Vec<Change> = match params.get("changes") {
            Some(changes @ Value::Array(_)) => serde_json::from_value(changes.clone())
                .map_err(|e| format!("bad change in set: {e}"))?,
            _ => return Err("'changes' must be a list".into()),
        };
        let noop = params.get("noop").and_then(Value::as_bool).unwrap_or(false);
        let results = self.0.set(&changes, noop, log)?;
        if results.len() != changes.len() {
            return Err(format!(
                "set returned {} results for {} changes",
                results.len(),
                changes.len()
            ));
        }
        let results = results
            .into_iter()
            .map(|result| {
                let mut entry = Map::new();
                entry.insert("ok".into(), result.is_ok().into());
                if let Err(message) = result {
                    entry.insert("message".into(), message.into());
                }
                Value::Object(entry)
            })
            .collect();
        Ok(single("results", Value::Array(results)))
    }
}

/// The resources a `get` asks about: `names`, each with its entry of
/// `identities` (which engines before it was added do not send).
fn wanted(params: &Map<String, Value>) -> Result<Option<Vec<Wanted>>, String> {
    const WRONG: &str = "'names' must be null or a list of strings";
    let names = match params.get("names") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(WRONG.into()),
    };
    let identities = match params.get("identities") {
        None | Some(Value::Null) => &Vec::new(),
        Some(Value::Array(items)) if items.len() == names.len() => items,
        Some(_) => return Err("'identities' must be a list of objects, one per name".into()),
    };
    names
        .iter()
        .enumerate()
        .map(|(at, name)| {
            let name = name.as_str().ok_or(WRONG)?.to_string();
            let identity = match identities.get(at) {
                None => State::new(),
                Some(Value::Object(identity)) => identity.clone(),
                Some(_) => {
                    return Err("'identities' must be a list of objects, one per name".into());
                }
            };
            Ok(Wanted { name, identity })
        })
        .collect::<Result<Vec<_>, String>>()
        .map(Some)
}

fn resources(states: Vec<State>) -> Value {
    single(
        "resources",
        Value::Array(states.into_iter().map(Value::Object).collect()),
    )
}

fn single(key: &str, value: Value) -> Value {
    let mut object = Map::new();
    object.insert(key.into(), value);
    Value::Object(object)
}

struct AsFunction<F>(F);

impl<F: Function> Plugin for AsFunction<F> {
    fn kind(&self) -> &'static str {
        "function"
    }

    fn describe(&mut self, request: &HandshakeRequest) -> Result<Value, String> {
        serde_json::to_value(self.0.describe(request)).map_err(|e| e.to_string())
    }

    fn handle(
        &mut self,
        method: &str,
        params: &Map<String, Value>,
        log: &Logger<'_>,
    ) -> Option<Result<Value, String>> {
        if method != "call" {
            return None;
        }
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(arguments)) => arguments.clone(),
            Some(_) => return Some(Err("'arguments' must be a list".into())),
        };
        Some(
            self.0
                .call(arguments, log)
                .map(|value| single("value", value)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::Level;
    use crate::provider::Handshake;
    use crate::{FunctionHandshake, Parameter};
    use std::collections::BTreeMap;

    /// A provider of named values kept in memory.
    #[derive(Default)]
    struct Memory {
        values: BTreeMap<String, String>,
        asked: Option<HandshakeRequest>,
    }

    fn state(name: &str, value: &str) -> State {
        let mut state = State::new();
        state.insert("name".into(), name.into());
        state.insert("ensure".into(), "present".into());
        state.insert("value".into(), value.into());
        state
    }

    impl Provider for Memory {
        fn describe(&mut self, request: &HandshakeRequest) -> Handshake {
            self.asked = Some(request.clone());
            Handshake {
                doc: "Values in memory.".into(),
                features: vec!["comments".into()],
                timeout: Some(5),
                ..Handshake::default()
            }
        }

        fn get(
            &mut self,
            wanted: Option<&[Wanted]>,
            log: &Logger<'_>,
        ) -> Result<Vec<State>, String> {
            // The identity tells, the name when an engine sent none.
            let exploding = |w: &Wanted| w.attribute("name").unwrap_or(w) == "explode";
            if wanted.is_some_and(|wanted| wanted.iter().any(exploding)) {
                return Err("cannot read explode: on purpose".into());
            }
            log.debug(format!("{} values", self.values.len()));
            Ok(self.values.iter().map(|(k, v)| state(k, v)).collect())
        }

        fn create(&mut self, name: &str, should: &State, log: &Logger<'_>) -> Result<(), String> {
            let value = should.get("value").and_then(Value::as_str).unwrap_or("");
            if value == "bad" {
                return Err(format!("{name}: 'bad' is not a value"));
            }
            log.log(Level::Notice, "created", Some(name));
            self.values.insert(name.into(), value.into());
            Ok(())
        }

        fn delete(&mut self, name: &str, _is: &State, _log: &Logger<'_>) -> Result<(), String> {
            self.values.remove(name);
            Ok(())
        }
    }

    fn converse_provider(provider: &mut Memory, requests: &[&str]) -> Vec<String> {
        let input = requests.join("\n");
        let mut output = Vec::new();
        serve_provider_on(input.as_bytes(), &mut output, provider).unwrap();
        String::from_utf8(output)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    const HANDSHAKE: &str = r#"{"id":1,"method":"handshake","params":{"protocol":1,"kind":"provider","type":"kv","provider":"memory","environment":"production"}}"#;

    #[test]
    fn a_provider_conversation() {
        let mut provider = Memory::default();
        provider.values.insert("a".into(), "1".into());
        let answers = converse_provider(
            &mut provider,
            &[
                HANDSHAKE,
                r#"{"id":2,"method":"get","params":{"names":["a"]}}"#,
                r#"{"id":3,"method":"set","params":{"noop":false,"changes":[
                    {"name":"b","resource":"Kv[b]","is":{"name":"b","ensure":"absent"},"should":{"name":"b","ensure":"present","value":"2"}},
                    {"name":"c","is":{"name":"c","ensure":"absent"},"should":{"name":"c","ensure":"present","value":"bad"}},
                    {"name":"a","is":{"name":"a","ensure":"present","value":"1"},"should":{"name":"a","ensure":"present","value":"3"}},
                    {"name":"a","is":{"name":"a","ensure":"present"},"should":{"name":"a","ensure":"absent"}}]}}"#
                    .replace('\n', "")
                    .as_str(),
                r#"{"id":4,"method":"get","params":{"names":["explode"]}}"#,
                r#"{"id":41,"method":"get","params":{"names":["a title"],"identities":[{"name":"explode"}]}}"#,
                r#"{"id":5,"method":"instances"}"#,
                r#"{"id":"six","method":"frobnicate","params":{}}"#,
                "",
                "   ",
                r#"{"id":7,"method":"shutdown","params":{}}"#,
                r#"{"id":8,"method":"get","params":{}}"#,
            ],
        );
        let expected = [
            r#"{"id":1,"result":{"protocol":1,"doc":"Values in memory.","commands":{},"confine":{},"defaultfor":[],"features":["comments"],"batch":false,"supports_noop":false,"timeout":5}}"#,
            r#"{"method":"log","params":{"level":"debug","message":"1 values"}}"#,
            r#"{"id":2,"result":{"resources":[{"name":"a","ensure":"present","value":"1"}]}}"#,
            r#"{"method":"log","params":{"level":"notice","message":"created","name":"b"}}"#,
            r#"{"id":3,"result":{"results":[{"ok":true},{"ok":false,"message":"c: 'bad' is not a value"},{"ok":false,"message":"this provider cannot update a"},{"ok":true}]}}"#,
            r#"{"id":4,"error":{"message":"cannot read explode: on purpose"}}"#,
            r#"{"id":41,"error":{"message":"cannot read explode: on purpose"}}"#,
            r#"{"method":"log","params":{"level":"debug","message":"1 values"}}"#,
            r#"{"id":5,"result":{"resources":[{"name":"b","ensure":"present","value":"2"}]}}"#,
            r#"{"id":"six","error":{"message":"unknown method 'frobnicate'"}}"#,
            r#"{"id":7,"result":{}}"#,
        ];
        assert_eq!(answers, expected);
        let asked = provider.asked.unwrap();
        assert_eq!(asked.type_name.as_deref(), Some("kv"));
        assert_eq!(asked.provider.as_deref(), Some("memory"));
        assert_eq!(asked.environment.as_deref(), Some("production"));
    }

    #[test]
    fn lines_that_are_not_requests_are_answered_with_errors() {
        let answers = converse_provider(
            &mut Memory::default(),
            &[
                "this is not json",
                "[1, 2]",
                r#"{"id":3}"#,
                r#"{"id":4,"method":"get","params":[]}"#,
                r#"{"id":5,"method":"get","params":{"names":"a"}}"#,
                r#"{"id":51,"method":"get","params":{"names":["a"],"identities":[]}}"#,
                r#"{"id":6,"method":"set","params":{"changes":{}}}"#,
                r#"{"id":7,"method":"set","params":{"changes":[{"is":{}}]}}"#,
            ],
        );
        assert_eq!(
            answers,
            [
                r#"{"id":null,"error":{"message":"bad request: expected ident at line 1 column 2"}}"#,
                r#"{"id":null,"error":{"message":"bad request: not a JSON object"}}"#,
                r#"{"id":3,"error":{"message":"bad request: no 'method'"}}"#,
                r#"{"id":4,"error":{"message":"bad request: 'params' must be an object"}}"#,
                r#"{"id":5,"error":{"message":"'names' must be null or a list of strings"}}"#,
                r#"{"id":51,"error":{"message":"'identities' must be a list of objects, one per name"}}"#,
                r#"{"id":6,"error":{"message":"'changes' must be a list"}}"#,
                r#"{"id":7,"error":{"message":"bad change in set: missing field `name`"}}"#,
            ]
        );
    }

    #[test]
    fn a_handshake_for_another_version_or_kind_is_refused() {
        let answers = converse_provider(
            &mut Memory::default(),
            &[
                r#"{"id":1,"method":"handshake","params":{"protocol":2,"kind":"provider"}}"#,
                r#"{"id":2,"method":"handshake","params":{"kind":"provider"}}"#,
                r#"{"id":3,"method":"handshake","params":{"protocol":1,"kind":"function"}}"#,
            ],
        );
        assert_eq!(
            answers,
            [
                r#"{"id":1,"error":{"message":"this plugin speaks protocol 1, not 2"}}"#,
                r#"{"id":2,"error":{"message":"this plugin speaks protocol 1, not null"}}"#,
                r#"{"id":3,"error":{"message":"this is a provider plugin, not a function"}}"#,
            ]
        );
    }

    #[test]
    fn noop_changes_are_logged_not_made() {
        let mut provider = Memory::default();
        let answers = converse_provider(
            &mut provider,
            &[
                r#"{"id":1,"method":"set","params":{"noop":true,"changes":[{"name":"b","is":{},"should":{"value":"2"}}]}}"#,
            ],
        );
        assert_eq!(
            answers,
            [
                r#"{"method":"log","params":{"level":"notice","message":"would create b","name":"b"}}"#,
                r#"{"id":1,"result":{"results":[{"ok":true}]}}"#,
            ]
        );
        assert!(provider.values.is_empty());
    }

    struct Repeat;

    impl Function for Repeat {
        fn describe(&mut self, _request: &HandshakeRequest) -> FunctionHandshake {
            FunctionHandshake {
                doc: "Repeats a string.".into(),
                parameters: vec![
                    Parameter::new("text", "String"),
                    Parameter::new("times", "Integer").repeated(),
                ],
                returns: "String".into(),
                timeout: None,
            }
        }

        fn call(&mut self, args: Vec<Value>, _log: &Logger<'_>) -> Result<Value, String> {
            let text = crate::reveal(&args[0])
                .as_str()
                .ok_or("text must be a string")?;
            let times: u64 = args[1..].iter().filter_map(Value::as_u64).product();
            Ok(text.repeat(times as usize).into())
        }
    }

    #[test]
    fn a_function_conversation() {
        let input = [
            r#"{"id":1,"method":"handshake","params":{"protocol":1,"kind":"function","function":"kv::repeat","environment":"production"}}"#,
            r#"{"id":2,"method":"call","params":{"arguments":["ab",2,2]}}"#,
            r#"{"id":3,"method":"call","params":{"arguments":[{"__ptype":"Sensitive","__pvalue":"s"}]}}"#,
            r#"{"id":4,"method":"call","params":{"arguments":[1]}}"#,
            r#"{"id":5,"method":"get","params":{}}"#,
        ]
        .join("\n");
        let mut output = Vec::new();
        serve_function_on(input.as_bytes(), &mut output, Repeat).unwrap();
        assert_eq!(
            String::from_utf8(output)
                .unwrap()
                .lines()
                .collect::<Vec<_>>(),
            [
                r#"{"id":1,"result":{"protocol":1,"doc":"Repeats a string.","parameters":[{"name":"text","type":"String"},{"name":"times","type":"Integer","repeated":true}],"returns":"String"}}"#,
                r#"{"id":2,"result":{"value":"abababab"}}"#,
                r#"{"id":3,"result":{"value":"s"}}"#,
                r#"{"id":4,"error":{"message":"text must be a string"}}"#,
                r#"{"id":5,"error":{"message":"unknown method 'get'"}}"#,
            ]
        );
    }

    #[test]
    fn changes_say_what_they_do() {
        let change = |is: Value, should: Value| Change {
            is: serde_json::from_value(is).unwrap(),
            should: serde_json::from_value(should).unwrap(),
            ..Change::default()
        };
        use crate::Action::*;
        use serde_json::json;
        assert_eq!(change(json!({}), json!({"value": "1"})).action(), Create);
        assert_eq!(
            change(json!({"ensure": "absent"}), json!({"ensure": "present"})).action(),
            Create
        );
        assert_eq!(
            change(json!({"ensure": "present"}), json!({"ensure": "absent"})).action(),
            Delete
        );
        assert_eq!(
            change(json!({"value": "1"}), json!({"value": "2"})).action(),
            Update
        );
    }

    #[test]
    fn a_closed_output_ends_the_conversation_with_an_error() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let error = serve_provider_on(HANDSHAKE.as_bytes(), Closed, Memory::default()).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
