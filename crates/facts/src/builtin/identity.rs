//! `identity`: who runs the collection, from `getuid` and the password and
//! group files (or the C library's lookup for users those files lack).

use serde_json::{Map, Value, json};

use super::{Facts, Probe};
use crate::system::UserEntry;

/// The entry for `uid` in the root's `/etc/passwd`.
fn user_from_file(probe: &Probe<'_>, uid: u32) -> Option<UserEntry> {
    let text = probe.read("/etc/passwd")?;
    text.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        if fields.len() < 4 || fields[2].parse::<u32>().ok()? != uid {
            return None;
        }
        Some(UserEntry {
            name: fields[0].to_string(),
            gid: fields[3].parse().ok()?,
        })
    })
}

/// The name of group `gid` in the root's `/etc/group`.
fn group_from_file(probe: &Probe<'_>, gid: u32) -> Option<String> {
    let text = probe.read("/etc/group")?;
    text.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.len() >= 3 && fields[2].parse::<u32>().ok()? == gid).then(|| fields[0].to_string())
    })
}

pub(crate) fn collect(probe: &Probe<'_>, facts: &mut Facts) {
    let calls = &probe.system.calls;
    let uid = calls.uid();
    let Some(user) = user_from_file(probe, uid).or_else(|| calls.user(uid)) else {
        return;
    };
    let group = group_from_file(probe, user.gid).or_else(|| calls.group_name(user.gid));
    let mut identity = Map::new();
    identity.insert("gid".into(), json!(user.gid));
    if let Some(group) = &group {
        identity.insert("group".into(), json!(group));
        facts.legacy("gid", json!(group));
    }
    identity.insert("privileged".into(), json!(uid == 0));
    identity.insert("uid".into(), json!(uid));
    identity.insert("user".into(), json!(user.name));
    facts.legacy("id", json!(user.name));
    facts.set("identity", Value::Object(identity));
}
