//! stdlib's `assert_private`: a class or defined type of a module may be
//! declared only by that module's own code.

use std::collections::HashMap;

use marionette_values::Value;
use marionette_values::format::to_s;

use crate::compiler::Kind;
use crate::error::EvalResult;
use crate::evaluator::Evaluator;
use crate::functions::{Builtin, Call};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("assert_private", assert_private);
}

fn assert_private(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    if call.args.len() > 1 {
        return call.error(format!(
            "assert_private(): Wrong number of arguments given ({}}}) for 0 or 1)",
            call.args.len()
        ));
    }
    let variable = |name: &str| {
        eval.scopes
            .lookup(eval.current, name)
            .map(to_s)
            .unwrap_or_default()
    };
    if variable("module_name") == variable("caller_module_name") {
        return Ok(Value::Undef);
    }
    let message = match call.args.first() {
        Some(Value::String(message)) => message.to_string(),
        _ => {
            // The class or defined type whose code calls it.
            let resource = eval
                .scopes
                .get(eval.current)
                .resource
                .map(|id| &eval.compiler.resources[id]);
            match resource {
                Some(res) if res.kind == Kind::Class => format!("Class {} is private", res.title),
                Some(res) => format!("Definition {} is private", res.type_name),
                None => "Class  is private".to_string(),
            }
        }
    };
    call.error(message)
}
