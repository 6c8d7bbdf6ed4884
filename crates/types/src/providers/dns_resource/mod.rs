//! Providers of `dns_resource`.
//!
//! Both read records the same way, straight from the server (one transfer
//! per zone per run, see [`crate::dns`]), and build the same RFC 2136
//! update for a record set that differs: prerequisites stating what was
//! read, so that a change someone made meanwhile is refused rather than
//! overwritten, and only the records that differ deleted and added. They
//! differ in how the update reaches the server: `rfc2136` sends it itself,
//! `nsupdate` writes it as a script for BIND's `nsupdate`.

pub mod nsupdate;
pub mod rfc2136;

use std::collections::HashMap;
use std::sync::Mutex;

use marionette_dns::{Name, RData, RType, UpdateBuilder};
use marionette_ral::attribute::value_text;
use marionette_ral::{Context, Instance, PropertyHash, PropertyProvider, ProviderError, Resource};
use marionette_values::Value;

use crate::dns::{RecordSet, Server, Zones};
use crate::types::dns_resource::{record_type, texts};

/// How an update reaches the server.
pub(crate) trait Sender: Send + Sync {
    fn send(&self, cx: &Context, server: &Server, update: &UpdateBuilder) -> Result<(), String>;
}

/// The provider both share, parameterized by the way updates are sent.
pub(crate) struct Records<S> {
    sender: S,
    run: Mutex<Run>,
}

/// What one run learned: zones, and each resource's record set as read.
#[derive(Default)]
struct Run {
    zones: Zones,
    fetched: HashMap<String, Result<Fetched, String>>,
}

#[derive(Clone)]
pub(crate) struct Fetched {
    pub(crate) server: Server,
    pub(crate) zone: Name,
    pub(crate) name: Name,
    pub(crate) rtype: RType,
    pub(crate) current: Option<RecordSet>,
}

impl<S: Sender> Records<S> {
    pub(crate) fn new(sender: S) -> Records<S> {
        Records {
            sender,
            run: Mutex::new(Run::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Run> {
        // A panic elsewhere cannot leave the cache half-written in a way
        // that matters: at worst a record set is read again.
        self.run.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The resource's record set as the run knows it, read now if no
    /// prefetch did.
    fn fetched(&self, resource: &Resource) -> Result<Fetched, ProviderError> {
        let mut run = self.lock();
        let key = resource.reference();
        if !run.fetched.contains_key(&key) {
            let result = fetch(&mut run.zones, resource);
            run.fetched.insert(key.clone(), result);
        }
        run.fetched[&key].clone().map_err(ProviderError)
    }
}

fn fetch(zones: &mut Zones, resource: &Resource) -> Result<Fetched, String> {
    let name =
        Name::parse(&resource.text("name").unwrap_or_default()).map_err(|e| e.to_string())?;
    let rtype = record_type(resource).ok_or("the record type is missing")?;
    let server = Server::from_attributes(&|attr| resource.get(attr).cloned())?;
    let given = match resource.text("zone") {
        Some(zone) => Some(Name::parse(&zone).map_err(|e| e.to_string())?),
        None => None,
    };
    let zone = zones.zone_of(&server, &name, given.as_ref())?;
    if !name.is_within(&zone) {
        return Err(format!("The name {name} is outside zone {zone}"));
    }
    let current = zones.current(&server, &zone, &name, rtype)?;
    Ok(Fetched {
        server,
        zone,
        name,
        rtype,
        current,
    })
}

/// A record set as a property hash.
fn property_hash(name: &Name, rtype: RType, set: &RecordSet) -> PropertyHash {
    PropertyHash::from([
        (
            "title".to_string(),
            Value::String(format!("{name}/{rtype}").into()),
        ),
        ("name".to_string(), Value::String(name.to_string().into())),
        ("ensure".to_string(), Value::String("present".into())),
        ("rdata".to_string(), rdata_value(set)),
        ("ttl".to_string(), Value::Integer(i64::from(set.ttl))),
    ])
}

fn rdata_value(set: &RecordSet) -> Value {
    Value::Array(
        set.values
            .iter()
            .map(|v| Value::String(v.to_string().into()))
            .collect::<Vec<_>>()
            .into(),
    )
}

/// The update that turns `current` into `desired` (`None`: no records),
/// or `None` when they are the same.
pub(crate) fn plan(fetched: &Fetched, desired: Option<&RecordSet>) -> Option<UpdateBuilder> {
    let (name, rtype) = (&fetched.name, fetched.rtype);
    let mut update = UpdateBuilder::new(fetched.zone.clone());
    match (&fetched.current, desired) {
        (None, None) => return None,
        (None, Some(desired)) => {
            update.require_absent(name, rtype);
            for value in &desired.values {
                update.add(name, desired.ttl, value);
            }
        }
        (Some(current), None) => {
            update.require_exactly(name, &current.values);
            update.delete_rrset(name, rtype);
        }
        (Some(current), Some(desired)) => {
            if current == desired {
                return None;
            }
            update.require_exactly(name, &current.values);
            if current.ttl != desired.ttl {
                // Every record of a set shares the TTL: the set is written
                // anew, in the same update, so nobody sees it half-changed.
                update.delete_rrset(name, rtype);
                for value in &desired.values {
                    update.add(name, desired.ttl, value);
                }
            } else {
                for value in current
                    .values
                    .iter()
                    .filter(|v| !desired.values.contains(v))
                {
                    update.delete(name, value);
                }
                for value in desired
                    .values
                    .iter()
                    .filter(|v| !current.values.contains(v))
                {
                    update.add(name, desired.ttl, value);
                }
            }
        }
    }
    Some(update)
}

impl<S: Sender> PropertyProvider for Records<S> {
    /// Lists the record sets of a zone, read by transfer. The zone and the
    /// server come from the listing's parameters:
    /// `marionette resource dns_resource zone=example.com nameserver=… keyfile=…`.
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let (zone, records) = crate::dns::transfer_listing(&cx.listing, "dns_resource")?;
        let contents = crate::dns::ZoneContents::from_records(&zone, records);
        let mut sets: Vec<_> = contents
            .sets
            .iter()
            .filter(|((_, rtype), _)| RType::MANAGED.contains(rtype))
            .collect();
        sets.sort_by(|a, b| a.0.cmp(b.0));
        Ok(sets
            .into_iter()
            .map(|((name, rtype), set)| property_hash(name, *rtype, set))
            .collect())
    }

    /// Reads every managed record set: one SOA query to find each zone
    /// not given, one transfer per zone. A resource whose server cannot be
    /// used keeps the error, and fails alone when evaluated.
    fn prefetch(&self, _cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let mut run = self.lock();
        *run = Run::default();
        for instance in instances {
            let result = fetch(&mut run.zones, instance.resource);
            if let Ok(Fetched {
                name,
                rtype,
                current: Some(set),
                ..
            }) = &result
            {
                instance.property_hash = property_hash(name, *rtype, set);
            }
            run.fetched.insert(instance.resource.reference(), result);
        }
        Ok(())
    }

    fn get(
        &self,
        _cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        let fetched = self.fetched(instance.resource)?;
        let Some(set) = &fetched.current else {
            return Ok((attr == "ensure").then(|| Value::String("absent".into())));
        };
        Ok(match attr {
            "ensure" => Some(Value::String("present".into())),
            "rdata" => Some(rdata_value(set)),
            "ttl" => Some(Value::Integer(i64::from(set.ttl))),
            _ => None,
        })
    }

    fn exists(&self, _cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        Ok(self.fetched(instance.resource)?.current.is_some())
    }

    /// Sends one update for the record set, if it differs.
    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let fetched = self.fetched(instance.resource)?;
        let hash = &instance.property_hash;
        let removed = hash
            .get("ensure")
            .is_some_and(|v| value_text(v) == "absent");
        let desired = if removed {
            None
        } else {
            // A setter recorded the properties that change; the others keep
            // their current value, or take the desired one on creation.
            let pick = |attr: &str| {
                hash.get(attr)
                    .filter(|_| fetched.current.is_some())
                    .or_else(|| instance.should(attr))
                    .cloned()
            };
            let rdata = pick("rdata")
                .ok_or_else(|| ProviderError::new("rdata is required to create a record set"))?;
            let mut values = texts(&rdata)
                .iter()
                .map(|text| RData::parse(fetched.rtype, text))
                .collect::<Result<Vec<_>, _>>()
                .map_err(ProviderError)?;
            values.sort();
            values.dedup();
            let ttl = pick("ttl")
                .and_then(|v| crate::dns::integer(&v))
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(86400);
            Some(RecordSet { ttl, values })
        };
        let Some(update) = plan(&fetched, desired.as_ref()) else {
            return Ok(());
        };
        cx.logger.debug(
            &instance.resource.reference(),
            &format!(
                "Updating {}/{} in zone {} at {}",
                fetched.name,
                fetched.rtype,
                fetched.zone,
                fetched.server.address()
            ),
        );
        self.sender
            .send(cx, &fetched.server, &update)
            .map_err(ProviderError)?;
        let mut run = self.lock();
        run.zones.record(
            &fetched.server,
            &fetched.zone,
            &fetched.name,
            fetched.rtype,
            desired.clone(),
        );
        if let Some(Ok(entry)) = run.fetched.get_mut(&instance.resource.reference()) {
            entry.current = desired;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetched(current: Option<(&[&str], u32)>) -> Fetched {
        let server = Server::from_attributes(&|attr| match attr {
            "port" => Some(Value::Integer(5300)),
            _ => None,
        })
        .unwrap();
        Fetched {
            server,
            zone: Name::parse("example.com").unwrap(),
            name: Name::parse("www.example.com").unwrap(),
            rtype: RType::A,
            current: current.map(|(values, ttl)| set(values, ttl)),
        }
    }

    /// A record set as flush builds one: values sorted.
    fn set(values: &[&str], ttl: u32) -> RecordSet {
        let mut values: Vec<RData> = values
            .iter()
            .map(|v| RData::parse(RType::A, v).unwrap())
            .collect();
        values.sort();
        RecordSet { ttl, values }
    }

    fn classes(update: &UpdateBuilder) -> (Vec<u16>, Vec<(u16, String)>) {
        (
            update.prerequisites().iter().map(|r| r.class).collect(),
            update
                .updates()
                .iter()
                .map(|r| {
                    (
                        r.class,
                        r.rdata.as_ref().map(|d| d.to_string()).unwrap_or_default(),
                    )
                })
                .collect(),
        )
    }

    #[test]
    fn plans_only_the_values_that_differ() {
        let both = fetched(Some((&["192.0.2.1", "192.0.2.2"], 300)));
        let update = plan(&both, Some(&set(&["192.0.2.2", "192.0.2.3"], 300))).unwrap();
        let (prereqs, updates) = classes(&update);
        assert_eq!(prereqs, [1, 1]);
        assert_eq!(
            updates,
            [(254, "192.0.2.1".into()), (1, "192.0.2.3".into())]
        );
        assert!(plan(&both, Some(&set(&["192.0.2.2", "192.0.2.1"], 300))).is_none());
    }

    #[test]
    fn plans_creation_deletion_and_ttl_changes() {
        let absent = fetched(None);
        let (prereqs, updates) = classes(&plan(&absent, Some(&set(&["192.0.2.1"], 60))).unwrap());
        assert_eq!(prereqs, [254]);
        assert_eq!(updates, [(1, "192.0.2.1".into())]);
        assert!(plan(&absent, None).is_none());

        let one = fetched(Some((&["192.0.2.1"], 300)));
        let (prereqs, updates) = classes(&plan(&one, None).unwrap());
        assert_eq!(prereqs, [1]);
        assert_eq!(updates, [(255, String::new())]);

        let (_, updates) = classes(&plan(&one, Some(&set(&["192.0.2.1"], 60))).unwrap());
        assert_eq!(updates, [(255, String::new()), (1, "192.0.2.1".into())]);
    }
}
