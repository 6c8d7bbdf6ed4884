//! The paths of PuppetDB's query API (`/pdb/query/v4/...`) as an entity
//! and a query: `nodes/NAME/facts` is the facts of NAME, the root path
//! takes `["from", ENTITY, QUERY, PAGING...]` or a PQL string.

use serde_json::{Value, json};

use crate::query::{Paging, split_from};
use crate::{StoreError, pql};

/// What a query path asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    pub entity: String,
    /// The query given, with what the path adds.
    pub query: Option<Value>,
    /// The path names one thing (`nodes/NAME`, `catalogs/NAME`): the
    /// answer is that object, not a list, and when there is none,
    /// PuppetDB's 404 says this (`No information is known about node
    /// NAME`).
    pub single: Option<String>,
    /// The paging the query itself asks for (PQL's `limit`, `offset`,
    /// `order by`, the root query's paging clauses); see
    /// [`Paging::or`] to combine it with the request's.
    pub paging: Paging,
}

fn from_root(ast: Option<Value>) -> Result<(String, Option<Value>, Paging), StoreError> {
    let wrong = || {
        StoreError::Query(
            "The root endpoint takes a PQL query or a query of the form [\"from\", ENTITY, QUERY]"
                .into(),
        )
    };
    let Some(Value::Array(items)) = ast else {
        return Err(wrong());
    };
    match items.first().and_then(Value::as_str) {
        Some("from") => split_from(&items[1..]),
        _ => Err(wrong()),
    }
}

/// The endpoint of `path`, the part after `/pdb/query/v4`, asked `ast`:
/// the query's JSON AST, or a PQL string (`nodes[certname] { ... }`).
pub fn endpoint(path: &str, ast: Option<Value>) -> Result<Endpoint, StoreError> {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let ast = match ast {
        Some(Value::String(text)) if parts.is_empty() => Some(pql::parse(&text)?),
        Some(Value::String(_)) => {
            return Err(StoreError::Query(format!(
                "PQL is taken only at the root endpoint (/pdb/query/v4); at /pdb/query/v4/{}, give the query as its JSON AST",
                path.trim_matches('/')
            )));
        }
        other => other,
    };
    let and = |condition: Value, ast: Option<Value>| -> Option<Value> {
        Some(match ast {
            Some(query) => json!(["and", condition, query]),
            None => condition,
        })
    };
    let single = match parts.as_slice() {
        [kind @ ("nodes" | "catalogs" | "environments"), name] => Some(format!(
            "No information is known about {} {name}",
            kind.trim_end_matches('s')
        )),
        _ => None,
    };
    let mut paging = Paging::default();
    let (entity, query) = match parts.as_slice() {
        [] => {
            let (entity, query, from_paging) = from_root(ast)?;
            paging = from_paging;
            (entity, query)
        }
        [entity] => (entity.to_string(), ast),
        // A node is answered active or not, as PuppetDB answers it.
        ["nodes", certname] => (
            "nodes".into(),
            and(
                json!([
                    "and",
                    ["=", "certname", certname],
                    ["=", "node_state", "any"]
                ]),
                ast,
            ),
        ),
        ["catalogs", certname] => (
            "catalogs".into(),
            and(json!(["=", "certname", certname]), ast),
        ),
        ["environments", name] => ("environments".into(), and(json!(["=", "name", name]), ast)),
        ["package-inventory", certname] => (
            "package-inventory".into(),
            and(json!(["=", "certname", certname]), ast),
        ),
        ["nodes", certname, "facts"] => {
            ("facts".into(), and(json!(["=", "certname", certname]), ast))
        }
        ["nodes", certname, "facts", name] => (
            "facts".into(),
            and(
                json!(["and", ["=", "certname", certname], ["=", "name", name]]),
                ast,
            ),
        ),
        ["nodes", certname, "resources"] => (
            "resources".into(),
            and(json!(["=", "certname", certname]), ast),
        ),
        ["facts", name] => ("facts".into(), and(json!(["=", "name", name]), ast)),
        ["facts", name, value] => (
            "facts".into(),
            and(
                json!(["and", ["=", "name", name], ["=", "value", value]]),
                ast,
            ),
        ),
        ["resources", type_name] => (
            "resources".into(),
            and(json!(["=", "type", type_name]), ast),
        ),
        ["resources", type_name, title] => (
            "resources".into(),
            and(
                json!(["and", ["=", "type", type_name], ["=", "title", title]]),
                ast,
            ),
        ),
        ["environments", name, entity] => (
            entity.to_string(),
            and(json!(["=", "environment", name]), ast),
        ),
        _ => {
            return Err(StoreError::UnknownEntity(
                path.trim_matches('/').to_string(),
            ));
        }
    };
    Ok(Endpoint {
        entity,
        query,
        single,
        paging,
    })
}
