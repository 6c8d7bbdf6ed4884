//! `anchor` (puppetlabs-stdlib): a resource that does nothing, so that
//! classes declared inside another can be ordered between two anchors the
//! outer class contains. It takes refresh events and passes them on, as
//! stdlib's type does with its empty `refresh`.

use marionette_ral::{AttrDef, PropertyProvider, ProviderDef, RalError, Registry, TypeDef};

pub fn definition() -> TypeDef {
    TypeDef::new("anchor")
        .doc(
            "A resource that changes nothing, for ordering: sandwiching the classes a
            class declares between two anchors it contains (`anchor { 'ntp::begin': }
            -> Class['ntp::package']`) orders them with the outer class. Refresh
            events sent to an anchor pass on to what depends on it. Core Puppet's
            `contain` does the same more simply.",
        )
        .attr(
            AttrDef::param("name")
                .doc("The name of the anchor resource.")
                .namevar(),
        )
        // Refreshable, as stdlib's type defines `refresh`: a refresh event
        // is logged ("Triggered 'refresh'") and passed on.
        .refreshable()
}

/// Nothing to read, change or restart.
struct Inert;

impl PropertyProvider for Inert {}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("anchor", "anchor", Inert).implicit()
}

pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(implementation())
}
