//! `puppetdb_query`: a PuppetDB query (its JSON AST, `["from", ENTITY,
//! QUERY]`, or a PQL string) answered by the storage that storeconfigs
//! names.

use std::collections::HashMap;

use marionette_values::Value;

use super::{Builtin, Call};
use crate::error::EvalResult;
use crate::evaluator::Evaluator;

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("puppetdb_query", puppetdb_query);
}

fn puppetdb_query(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let query = match &call.args[0] {
        Value::Array(items) if !items.is_empty() => marionette_catalog::to_data(&call.args[0]),
        // PQL, read by the storage.
        Value::String(text) if !text.is_empty() => serde_json::Value::String(text.to_string()),
        other => {
            return call.error(format_args!(
                "'puppetdb_query' parameter 'query' expects a value of type String or Array, got {}",
                marionette_values::PType::infer(other)
            ));
        }
    };
    let Some(store) = eval.exported_store.clone() else {
        return call.error("there is no PuppetDB to query: set storeconfigs = true");
    };
    match store.query(query) {
        Ok(answer) => Ok(marionette_catalog::from_data(&answer)),
        Err(message) => call.error(message),
    }
}
