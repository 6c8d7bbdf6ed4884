//! `md5`, `sha1`, `sha256` and `digest` (SHA-256, Puppet's default).

use std::collections::HashMap;

use marionette_values::Value;
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256};

use super::{Builtin, Call};
use crate::error::EvalResult;
use crate::evaluator::Evaluator;

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("md5", hash::<Md5>);
    map.insert("sha1", hash::<Sha1>);
    map.insert("sha256", hash::<Sha256>);
    map.insert("digest", hash::<Sha256>);
}

fn hash<D: Digest>(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let Value::String(text) = &call.args[0] else {
        return call.error(format_args!(
            "no implicit conversion of {} into String",
            marionette_values::format::type_label(&call.args[0])
        ));
    };
    let digest = D::digest(text.as_bytes());
    Ok(Value::string(
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
    ))
}
