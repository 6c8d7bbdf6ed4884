//! `group`: local groups.

use marionette_ral::{AttrDef, Resource, TypeDef};
use marionette_values::{PType, Value};

/// `members` is in sync when every listed user is a member, and, with
/// `auth_membership => true`, nobody else is.
fn members_insync(resource: &Resource, current: &Value, desired: &Value) -> bool {
    let inclusive = resource.get("auth_membership") == Some(&Value::Boolean(true));
    marionette_ral::attribute::membership_insync(current, desired, inclusive)
}

pub fn definition() -> TypeDef {
    TypeDef::new("group")
        .doc(
            "Manages local groups: their existence, id and, where the provider
            can, their members.

            **Autorequires:** the users listed in `members`, when the catalog
            manages them.",
        )
        .feature("manages_members", "The provider can set the members of a group.", &[])
        .feature("system_groups", "The provider can create system groups with low ids.", &[])
        .feature("manages_aix_lam", "The provider can manage AIX loadable authentication modules.", &[])
        .feature("manages_local_users_and_groups", "The provider can force local groups where a directory service is also used.", &[])
        .ensurable()
        .attr(
            AttrDef::property("gid")
                .doc("The numeric group id. Chosen by the system when not given.")
                .constraint(PType::Variant(vec![
                    PType::Integer { min: 0, max: i64::MAX },
                    PType::Pattern(vec![marionette_values::Regex::new(r"\A\d+\z").expect("valid pattern")]),
                ])),
        )
        .attr(
            AttrDef::property("members")
                .doc("The users in the group. See `auth_membership`.")
                .array_matching(marionette_ral::ArrayMatching::All)
                .insync(members_insync)
                .requires_features(&["manages_members"]),
        )
        .attr(
            AttrDef::param("auth_membership")
                .doc("Whether `members` lists every member (`true`) or members the group must at least have (`false`, the default).")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .attr(AttrDef::param("name").doc("The group name.").namevar())
        .attr(
            AttrDef::param("allowdupe")
                .doc("Whether the gid may be shared with another group.")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .attr(
            AttrDef::param("system")
                .doc("Whether a new group is a system group, with an id from the system range.")
                .boolean()
                .default_value(Value::Boolean(false))
                .requires_features(&["system_groups"]),
        )
        .attr(AttrDef::param("ia_load_module").doc("The AIX authentication module.").requires_features(&["manages_aix_lam"]))
        .attr(AttrDef::property("attributes").doc("AIX attributes as `key=value` strings.").requires_features(&["manages_aix_lam"]))
        .attr(AttrDef::param("attribute_membership").doc("Whether `attributes` is complete or a minimum.").values(&["inclusive", "minimum"]))
        .attr(
            AttrDef::param("forcelocal")
                .doc("Whether to manage the local group even when a directory service also knows it.")
                .boolean()
                .requires_features(&["manages_local_users_and_groups"]),
        )
        .auto(marionette_ral::AutoKind::Require, "user", marionette_ral::Titles::Attribute("members".into()))
}
