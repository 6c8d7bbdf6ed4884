//! The built-in types accept exactly the attributes that compilation
//! accepts (Puppet 7's), so a catalog that compiles can be applied, and the
//! other way round.

/// Types Puppet 7 no longer ships in its core, and marionette's own.
const AGENT_TYPES: &[&str] = &["host", "cron", "dns_resource", "dnsrr", "dnszone"];

#[test]
fn every_type_matches_the_compiler_table() {
    let registry = marionette_types::registry();
    for type_def in registry.types() {
        // Types Puppet 7 moved to modules are the agent's own: the
        // command line hands them to the compiler from this registry.
        if AGENT_TYPES.contains(&type_def.name.as_str()) {
            assert!(marionette_eval::core_type_attributes(&type_def.name).is_none());
            continue;
        }
        let (namevar, compiled) = marionette_eval::core_type_attributes(&type_def.name)
            .unwrap_or_else(|| panic!("{} is not a core type of the compiler", type_def.name));
        assert_eq!(
            type_def.namevar().map(|n| n.name.as_str()),
            Some(namevar),
            "namevar of {}",
            type_def.name
        );
        let mut ours: Vec<&str> = type_def
            .attributes
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        if !registry.documented_providers(&type_def.name).is_empty() {
            ours.push("provider");
        }
        ours.sort_unstable();
        let mut theirs = compiled.to_vec();
        theirs.sort_unstable();
        assert_eq!(ours, theirs, "attributes of {}", type_def.name);
    }
}
