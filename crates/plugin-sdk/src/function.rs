//! Functions: their signature and the one method they implement.

use serde::Serialize;
use serde_json::Value;

use crate::log::Logger;
use crate::serve::HandshakeRequest;

/// What a function declares in its handshake. The loop adds the protocol
/// version.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FunctionHandshake {
    pub doc: String,
    /// The parameters in order. The engine checks arguments against them
    /// before calling, so `call` receives what they promise.
    pub parameters: Vec<Parameter>,
    /// The Puppet type of the result, which the engine checks too.
    pub returns: String,
    /// Seconds allowed for each call; None for the engine's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
}

impl Default for FunctionHandshake {
    /// No parameters, returning `Any`: the type that accepts everything,
    /// since an empty type would not parse.
    fn default() -> FunctionHandshake {
        FunctionHandshake {
            doc: String::new(),
            parameters: Vec::new(),
            returns: "Any".into(),
            timeout: None,
        }
    }
}

/// One parameter of a function.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parameter {
    pub name: String,
    /// A Puppet type, such as `String` or `Optional[Integer[1]]`. A
    /// parameter whose type accepts undef may be left out by the caller.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Whether this last parameter takes any number of arguments.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub repeated: bool,
}

impl Parameter {
    pub fn new(name: &str, type_name: &str) -> Parameter {
        Parameter {
            name: name.into(),
            type_name: type_name.into(),
            repeated: false,
        }
    }

    pub fn repeated(mut self) -> Parameter {
        self.repeated = true;
        self
    }
}

/// A function, called from Puppet code as `MODULE::NAME`.
pub trait Function {
    /// The handshake's answer. `request.function` is the name the
    /// function is called by.
    fn describe(&mut self, request: &HandshakeRequest) -> FunctionHandshake;

    /// The result of a call. Optional parameters the caller left out are
    /// missing from the end of `args`. An `Err` is an evaluation error
    /// at the call, with this message.
    fn call(&mut self, args: Vec<Value>, log: &Logger<'_>) -> Result<Value, String>;
}

impl<F: Function + ?Sized> Function for &mut F {
    fn describe(&mut self, request: &HandshakeRequest) -> FunctionHandshake {
        (**self).describe(request)
    }

    fn call(&mut self, args: Vec<Value>, log: &Logger<'_>) -> Result<Value, String> {
        (**self).call(args, log)
    }
}
