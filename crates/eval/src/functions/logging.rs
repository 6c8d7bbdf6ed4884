//! `notice`, `warning` and the other logging functions, and `fail`.
//!
//! Each joins its arguments with spaces in their plain text form and logs
//! the line at its level, naming the scope it was called from.

use std::collections::HashMap;

use marionette_values::Value;
use marionette_values::format::to_s;

use super::{Builtin, Call};
use crate::error::EvalResult;
use crate::evaluator::{Evaluator, Level};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("debug", |e, c| log(e, c, Level::Debug));
    map.insert("info", |e, c| log(e, c, Level::Info));
    map.insert("notice", |e, c| log(e, c, Level::Notice));
    map.insert("warning", |e, c| log(e, c, Level::Warning));
    map.insert("err", |e, c| log(e, c, Level::Err));
    map.insert("alert", |e, c| log(e, c, Level::Alert));
    map.insert("crit", |e, c| log(e, c, Level::Crit));
    map.insert("emerg", |e, c| log(e, c, Level::Emerg));
    map.insert("fail", fail);
}

fn message(call: &Call<'_, '_>) -> String {
    call.args.iter().map(to_s).collect::<Vec<_>>().join(" ")
}

fn log(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>, level: Level) -> EvalResult<Value> {
    call.no_lambda()?;
    let text = message(call);
    eval.log(level, text);
    Ok(Value::Undef)
}

fn fail(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.error(message(call))
}
