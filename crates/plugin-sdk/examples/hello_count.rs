//! The function `hello::count`: how many words a text has.
use marionette_plugin_sdk::{Function, FunctionHandshake, HandshakeRequest, Logger, Parameter};
use serde_json::Value;

struct Count;

impl Function for Count {
    fn describe(&mut self, _request: &HandshakeRequest) -> FunctionHandshake {
        FunctionHandshake {
            doc: "Counts the words of a text.".into(),
            parameters: vec![Parameter::new("text", "String")],
            returns: "Integer[0]".into(),
            timeout: None,
        }
    }

    fn call(&mut self, args: Vec<Value>, _log: &Logger) -> Result<Value, String> {
        // The engine has checked the arguments against the parameters.
        let text = args[0].as_str().unwrap_or_default();
        Ok(text.split_whitespace().count().into())
    }
}

fn main() -> std::io::Result<()> {
    marionette_plugin_sdk::serve_function(Count)
}
