//! `group` through `groupadd`, `groupmod`, `groupdel` and `gpasswd`,
//! listed from `/etc/group`.

use std::collections::BTreeSet;
use std::path::Path;

use marionette_ral::attribute::{names, value_text};
use marionette_ral::{
    CommandSpec, Context, Instance, PropertyHash, PropertyProvider, ProviderDef, ProviderError,
};
use marionette_values::Value;

use crate::system;

struct Groupadd;

fn text(value: &str) -> Value {
    Value::String(value.into())
}

impl PropertyProvider for Groupadd {
    fn instances(&self, _cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        Ok(system::groups(Path::new("/"))?
            .into_iter()
            .map(|group| {
                let mut hash = PropertyHash::from([
                    ("name".to_string(), text(&group.name)),
                    ("ensure".to_string(), text("present")),
                    ("gid".to_string(), Value::Integer(group.gid)),
                ]);
                if !group.members.is_empty() {
                    let members: Vec<Value> = group.members.iter().map(|m| text(m)).collect();
                    hash.insert("members".to_string(), Value::Array(members.into()));
                }
                hash
            })
            .collect())
    }

    fn create(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let mut argv = vec!["groupadd".to_string()];
        if let Some(gid) = resource.get("gid") {
            argv.extend(["-g".to_string(), value_text(gid)]);
            if resource.get("allowdupe") == Some(&Value::Boolean(true)) {
                argv.push("-o".into());
            }
        }
        if resource.get("system") == Some(&Value::Boolean(true)) {
            argv.push("-r".into());
        }
        argv.push(resource.name());
        cx.run(&CommandSpec::new(&argv))?;
        if let Some(members) = resource.get("members") {
            self.set(cx, instance, "members", members)?;
        }
        instance
            .property_hash
            .insert("ensure".into(), text("present"));
        Ok(())
    }

    fn destroy(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        cx.run(&CommandSpec::new(&[
            "groupdel".to_string(),
            instance.resource.name(),
        ]))?;
        instance.property_hash = PropertyHash::from([("ensure".to_string(), text("absent"))]);
        Ok(())
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        value: &Value,
    ) -> Result<(), ProviderError> {
        let name = instance.resource.name();
        match attr {
            "gid" => {
                let mut argv = vec!["groupmod".to_string(), "-g".to_string(), value_text(value)];
                if instance.resource.get("allowdupe") == Some(&Value::Boolean(true)) {
                    argv.push("-o".into());
                }
                argv.push(name);
                cx.run(&CommandSpec::new(&argv))?;
            }
            "members" => {
                let mut wanted: BTreeSet<String> = names(value).into_iter().collect();
                if instance.resource.get("auth_membership") != Some(&Value::Boolean(true))
                    && let Some(current) = instance.property_hash.get("members")
                {
                    wanted.extend(names(current));
                }
                let list = wanted.into_iter().collect::<Vec<_>>().join(",");
                cx.run(&CommandSpec::new(&[
                    "gpasswd".to_string(),
                    "-M".to_string(),
                    list,
                    name,
                ]))?;
            }
            other => {
                return Err(ProviderError::new(format!(
                    "groupadd cannot change {other}"
                )));
            }
        }
        instance
            .property_hash
            .insert(attr.to_string(), value.clone());
        Ok(())
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("group", "groupadd", Groupadd)
        .doc(
            "Manages groups with `groupadd`, `groupmod` and `groupdel`, and members
            with `gpasswd`; reads them from `/etc/group`.",
        )
        .command("groupadd", "groupadd")
        .command("groupmod", "groupmod")
        .command("groupdel", "groupdel")
        .command("gpasswd", "gpasswd")
        .confine(marionette_ral::Confine::Feature("posix".into()))
        .has_features(&["system_groups", "manages_members"])
}
