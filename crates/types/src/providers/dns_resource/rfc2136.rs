//! `rfc2136`: sends dynamic updates itself, signed with TSIG, and checks
//! the server's answer. Needs no tool on the machine; the default.

use marionette_dns::UpdateBuilder;
use marionette_ral::{Context, ProviderDef};

use super::{Records, Sender};
use crate::dns::Server;

struct Native;

impl Sender for Native {
    fn send(&self, _cx: &Context, server: &Server, update: &UpdateBuilder) -> Result<(), String> {
        server.client.update(update).map_err(|e| e.to_string())
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("dns_resource", "rfc2136", Records::new(Native))
        .doc(
            "Reads record sets from the server with direct queries and a signed zone
            transfer, and changes them with one signed RFC 2136 update per record set,
            whose prerequisites make the server refuse it if the records changed since
            they were read. Needs nothing installed.",
        )
        .source("dns_resource")
}
