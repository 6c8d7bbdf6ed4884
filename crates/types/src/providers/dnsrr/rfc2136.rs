//! `rfc2136`: reads a zone once per run by transfer and changes it with
//! one signed dynamic update per zone per run.
//!
//! `prefetch` reads every managed name from its zone's transfer (through
//! [`Zones`], one transfer per zone). `flush` sends nothing: it plans the
//! resource's change with `dns_resource`'s planner (prerequisites stating
//! what was read, then only the records that differ) and appends it to
//! the zone's pending update. `post_resource_eval`, run once after every
//! resource, sends each zone's update. The server applies an update
//! whole or not at all, so when a record changed behind the run's back,
//! none of that zone's changes are made and each of its resources fails.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::Mutex;

use marionette_dns::{Name, RData, RType, UpdateBuilder};
use marionette_ral::attribute::value_text;
use marionette_ral::{
    Context, DeferredFailure, Instance, PropertyHash, PropertyProvider, ProviderDef, ProviderError,
    Resource,
};
use marionette_values::Value;

use crate::dns::{RecordSet, Server, Zones};
use crate::providers::dns_resource::{Fetched, plan};
use crate::types::dns_resource::texts;
use crate::types::dnsrr::{default_zone, dnsrr_rtypes};

/// The key attributes, taken together from one resource: mixing a key
/// name from here with a secret from there would only produce a key that
/// fails.
const KEY_ATTRIBUTES: [&str; 4] = ["keyfile", "keyname", "secret", "algorithm"];

/// A name as read: where it is, and its records of the `dnsrr` types.
#[derive(Clone)]
struct Current {
    server: Server,
    zone: Name,
    name: Name,
    sets: BTreeMap<RType, RecordSet>,
}

/// Which update a change joins: server, zone and key name.
type PendingKey = (SocketAddr, Name, Option<String>);

/// One zone's update, collected from the flushes of its resources.
struct Pending {
    server: Server,
    update: UpdateBuilder,
    /// The resources whose changes it carries, by reference.
    resources: Vec<String>,
    /// What each name holds once the update is applied.
    after: Vec<(Name, BTreeMap<RType, RecordSet>)>,
}

/// What one run learned and what it has yet to send.
#[derive(Default)]
struct Run {
    zones: Zones,
    fetched: HashMap<String, Result<Current, String>>,
    /// By server, zone and key name, in the order first flushed: resources
    /// that reach one zone with different keys are sent apart, each signed
    /// with its own. A run touches few zones, so a list is enough.
    pending: Vec<(PendingKey, Pending)>,
}

struct Records {
    run: Mutex<Run>,
}

/// The `Dnszone` of a zone in the catalog, by name (its title may differ).
fn dnszone<'a>(cx: &'a Context, zone: &Name) -> Option<&'a Resource> {
    let zone = zone.to_string();
    cx.find("dnszone", &zone).or_else(|| {
        cx.catalog
            .iter()
            .find(|r| r.type_name() == "dnszone" && r.name() == zone)
    })
}

/// The server a resource talks to: its own connection parameters, else
/// those of its zone's `Dnszone` (`rndc_server` as the server, `port`,
/// and the key when this resource gives none), else the defaults.
fn server(cx: &Context, resource: &Resource, zone: &Name) -> Result<Server, String> {
    let Some(parent) = dnszone(cx, zone) else {
        return Server::from_attributes(&|attr| resource.get(attr).cloned());
    };
    let own_key = KEY_ATTRIBUTES.iter().any(|a| resource.is_given(a));
    if !own_key
        && parent.get("keyname").is_some()
        && parent.get("secret").is_none()
        && parent.get("keyfile").is_none()
    {
        return Err(format!(
            "{} names the key {} without its secret: give this resource keyfile, or keyname and secret",
            parent.reference(),
            parent.text("keyname").unwrap_or_default()
        ));
    }
    Server::from_attributes(&|attr| {
        if resource.is_given(attr) {
            return resource.get(attr).cloned();
        }
        if KEY_ATTRIBUTES.contains(&attr) {
            return if own_key {
                resource.get(attr).cloned()
            } else {
                parent.get(attr).cloned()
            };
        }
        let from = match attr {
            "nameserver" => "rndc_server",
            "port" => "port",
            _ => return resource.get(attr).cloned(),
        };
        if parent.is_given(from) {
            parent.get(from).cloned()
        } else {
            resource.get(attr).cloned()
        }
    })
}

/// Reads a resource's name: every record set of the `dnsrr` types.
fn fetch(cx: &Context, zones: &mut Zones, resource: &Resource) -> Result<Current, String> {
    let name =
        Name::parse(&resource.text("name").unwrap_or_default()).map_err(|e| e.to_string())?;
    let zone = match resource.text("zone") {
        Some(zone) => Name::parse(&zone).map_err(|e| e.to_string())?,
        None => default_zone(&name.to_string()).ok_or("No zone defined and name is not a FQDN")?,
    };
    let server = server(cx, resource, &zone)?;
    let mut sets = BTreeMap::new();
    for rtype in dnsrr_rtypes() {
        if let Some(set) = zones.current(&server, &zone, &name, rtype)? {
            sets.insert(rtype, set);
        }
    }
    Ok(Current {
        server,
        zone,
        name,
        sets,
    })
}

/// The set that stands for the name: the one of `wanted`'s type when the
/// name has it, else the first in `dnsrr`'s order of types.
fn primary(
    sets: &BTreeMap<RType, RecordSet>,
    wanted: Option<RType>,
) -> Option<(RType, &RecordSet)> {
    if let Some(rtype) = wanted
        && let Some(set) = sets.get(&rtype)
    {
        return Some((rtype, set));
    }
    dnsrr_rtypes().find_map(|rtype| sets.get(&rtype).map(|set| (rtype, set)))
}

/// The current `type`: the one type of the name, or the list of them when
/// there are several (which is never in sync with one type).
fn type_value(sets: &BTreeMap<RType, RecordSet>) -> Value {
    let types: Vec<Value> = dnsrr_rtypes()
        .filter(|t| sets.contains_key(t))
        .map(|t| Value::String(t.to_string().into()))
        .collect();
    match types.as_slice() {
        [one] => one.clone(),
        _ => Value::Array(types.into()),
    }
}

fn values_value(set: &RecordSet) -> Value {
    Value::Array(
        set.values
            .iter()
            .map(|v| Value::String(v.to_string().into()))
            .collect::<Vec<_>>()
            .into(),
    )
}

/// A name as a property hash, for listings.
fn property_hash(name: &Name, sets: &BTreeMap<RType, RecordSet>) -> PropertyHash {
    let mut hash = PropertyHash::from([
        ("name".to_string(), Value::String(name.to_string().into())),
        ("ensure".to_string(), Value::String("present".into())),
        ("type".to_string(), type_value(sets)),
    ]);
    if let Some((_, set)) = primary(sets, None) {
        hash.insert("value".into(), values_value(set));
        hash.insert("ttl".into(), Value::Integer(i64::from(set.ttl)));
    }
    hash
}

/// What the resource wants its name to hold: `None` when nothing.
fn desired(instance: &Instance<'_>) -> Result<Option<(RType, RecordSet)>, String> {
    let removed = instance
        .property_hash
        .get("ensure")
        .is_some_and(|v| value_text(v) == "absent");
    if removed {
        return Ok(None);
    }
    let kind = instance
        .should("type")
        .map(value_text)
        .unwrap_or_else(|| "A".into());
    let rtype = RType::parse(&kind).ok_or_else(|| format!("Invalid record type {kind}"))?;
    let value = instance
        .should("value")
        .ok_or("value is required to create records")?;
    let mut values = texts(value)
        .iter()
        .map(|text| RData::parse(rtype, text))
        .collect::<Result<Vec<_>, _>>()?;
    values.sort();
    values.dedup();
    let ttl = instance
        .should("ttl")
        .and_then(crate::dns::integer)
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(86400);
    Ok(Some((rtype, RecordSet { ttl, values })))
}

/// The update that gives the name exactly `wanted`: the other types'
/// records deleted first (a CNAME cannot join other data, nor they it),
/// then `wanted`'s set changed. `None` when nothing differs.
fn plan_name(current: &Current, wanted: Option<&(RType, RecordSet)>) -> Option<UpdateBuilder> {
    let mut update = UpdateBuilder::new(current.zone.clone());
    let part = |rtype: RType, desired: Option<&RecordSet>| {
        let fetched = Fetched {
            server: current.server.clone(),
            zone: current.zone.clone(),
            name: current.name.clone(),
            rtype,
            current: current.sets.get(&rtype).cloned(),
        };
        plan(&fetched, desired)
    };
    let keep = wanted.map(|(rtype, _)| *rtype);
    // Every part is planned for `current.zone`, so joining cannot fail.
    let mut join = |part: UpdateBuilder| {
        update
            .append(&part)
            .expect("the parts of one name's update share its zone");
    };
    for &rtype in current.sets.keys().filter(|t| Some(**t) != keep) {
        if let Some(part) = part(rtype, None) {
            join(part);
        }
    }
    if let Some((rtype, set)) = wanted
        && let Some(part) = part(*rtype, Some(set))
    {
        join(part);
    }
    (!update.is_empty()).then_some(update)
}

impl Records {
    fn lock(&self) -> std::sync::MutexGuard<'_, Run> {
        // A panic elsewhere cannot leave the run half-written in a way that
        // matters: at worst a name is read again.
        self.run.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The resource's name as the run knows it, read now if prefetching
    /// did not (or could not: its zone may have been created since).
    fn current(&self, cx: &Context, resource: &Resource) -> Result<Current, ProviderError> {
        let mut run = self.lock();
        let key = resource.reference();
        if !run.fetched.contains_key(&key) {
            let result = fetch(cx, &mut run.zones, resource);
            run.fetched.insert(key.clone(), result);
        }
        run.fetched[&key].clone().map_err(ProviderError)
    }
}

impl PropertyProvider for Records {
    /// Lists the names of a zone holding records of the `dnsrr` types,
    /// read by transfer. The zone and server come from the listing:
    /// `marionette resource dnsrr zone=example.com nameserver=… keyfile=…`.
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let (zone, records) = crate::dns::transfer_listing(&cx.listing, "dnsrr")?;
        // Names at or below a delegation belong to a child zone; their
        // addresses here are glue, not this zone's data.
        let cuts: Vec<Name> = records
            .iter()
            .filter(|r| r.rtype == RType::Ns && r.name != zone)
            .map(|r| r.name.clone())
            .collect();
        let mut names: BTreeMap<Name, BTreeMap<RType, RecordSet>> = BTreeMap::new();
        for record in records {
            let Some(rdata) = record.rdata else { continue };
            if !dnsrr_rtypes().any(|t| t == record.rtype)
                || cuts.iter().any(|cut| record.name.is_within(cut))
            {
                continue;
            }
            let set = names
                .entry(record.name)
                .or_default()
                .entry(record.rtype)
                .or_insert_with(|| RecordSet {
                    ttl: record.ttl,
                    values: Vec::new(),
                });
            set.ttl = set.ttl.min(record.ttl);
            set.values.push(rdata);
        }
        Ok(names
            .into_iter()
            .map(|(name, mut sets)| {
                for set in sets.values_mut() {
                    set.values.sort();
                    set.values.dedup();
                }
                property_hash(&name, &sets)
            })
            .collect())
    }

    /// Reads every managed name: one transfer per zone. This happens when
    /// the run's first `dnsrr` is evaluated, for all of them, so a zone
    /// that a later `Dnszone` creates does not exist yet: a name that
    /// cannot be read is read again, by a new transfer, when its own
    /// resource is evaluated, after its `Dnszone`. Changes not yet sent
    /// are kept.
    fn prefetch(&self, cx: &Context, instances: &mut [Instance<'_>]) -> Result<(), ProviderError> {
        let mut run = self.lock();
        run.zones = Zones::default();
        run.fetched.clear();
        let mut unread = Vec::new();
        for instance in instances {
            match fetch(cx, &mut run.zones, instance.resource) {
                Ok(current) => {
                    if !current.sets.is_empty() {
                        instance.property_hash = property_hash(&current.name, &current.sets);
                    }
                    run.fetched
                        .insert(instance.resource.reference(), Ok(current));
                }
                Err(_) => unread.push(instance.resource),
            }
        }
        for resource in unread {
            if let Some(zone) = resource.text("zone").and_then(|z| Name::parse(&z).ok())
                && let Ok(server) = server(cx, resource, &zone)
            {
                run.zones.forget(&server, &zone);
            }
        }
        Ok(())
    }

    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        let current = self.current(cx, instance.resource)?;
        let wanted = instance
            .should("type")
            .and_then(|t| RType::parse(&value_text(t)));
        let Some((_, set)) = primary(&current.sets, wanted) else {
            return Ok((attr == "ensure").then(|| Value::String("absent".into())));
        };
        Ok(match attr {
            "ensure" => Some(Value::String("present".into())),
            "type" => Some(type_value(&current.sets)),
            "value" => Some(values_value(set)),
            "ttl" => Some(Value::Integer(i64::from(set.ttl))),
            _ => None,
        })
    }

    fn exists(&self, cx: &Context, instance: &Instance<'_>) -> Result<bool, ProviderError> {
        Ok(!self.current(cx, instance.resource)?.sets.is_empty())
    }

    /// Adds the resource's change to its zone's pending update; nothing is
    /// sent until `post_resource_eval`.
    fn flush(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let current = self.current(cx, instance.resource)?;
        let wanted = desired(instance).map_err(ProviderError)?;
        let Some(update) = plan_name(&current, wanted.as_ref()) else {
            return Ok(());
        };
        let reference = instance.resource.reference();
        cx.logger.debug(
            &reference,
            &format!(
                "Deferring the update of {} to the end of the run (zone {} at {})",
                current.name,
                current.zone,
                current.server.address()
            ),
        );
        let after: BTreeMap<RType, RecordSet> = wanted.into_iter().collect();
        let key_name = current.server.key.as_ref().map(|k| k.name.to_string());
        let key = (current.server.address(), current.zone.clone(), key_name);
        let mut run = self.lock();
        let index = match run.pending.iter().position(|(k, _)| *k == key) {
            Some(index) => index,
            None => {
                run.pending.push((
                    key,
                    Pending {
                        server: current.server.clone(),
                        update: UpdateBuilder::new(current.zone.clone()),
                        resources: Vec::new(),
                        after: Vec::new(),
                    },
                ));
                run.pending.len() - 1
            }
        };
        let pending = &mut run.pending[index].1;
        pending.update.append(&update).map_err(ProviderError)?;
        pending.resources.push(reference);
        pending.after.push((current.name.clone(), after));
        Ok(())
    }

    /// Sends one update per zone with every change the run recorded, and
    /// keeps the run's view of the zones in step with what was sent.
    fn post_resource_eval(&self, cx: &Context) -> Result<(), Vec<DeferredFailure>> {
        let pending = std::mem::take(&mut self.lock().pending);
        let mut failures = Vec::new();
        for ((_, zone, _), batch) in pending {
            cx.logger.debug(
                &format!("Zone {zone}"),
                &format!(
                    "Sending one update of zone {zone} to {} for {} resources: {}",
                    batch.server.address(),
                    batch.resources.len(),
                    batch.update.subject()
                ),
            );
            if let Err(e) = batch.server.client.update(&batch.update) {
                failures.push(DeferredFailure {
                    resources: batch.resources,
                    message: format!(
                        "The update of zone {zone} failed, so none of this run's changes to it were made: {e}"
                    ),
                });
                continue;
            }
            let mut run = self.lock();
            for (name, sets) in &batch.after {
                for rtype in dnsrr_rtypes() {
                    run.zones
                        .record(&batch.server, &zone, name, rtype, sets.get(&rtype).cloned());
                }
            }
            for (reference, (_, sets)) in batch.resources.iter().zip(&batch.after) {
                if let Some(Ok(current)) = run.fetched.get_mut(reference) {
                    current.sets = sets.clone();
                }
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures)
        }
    }
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties(
        "dnsrr",
        "rfc2136",
        Records {
            run: Mutex::new(Run::default()),
        },
    )
    .doc(
        "Reads each zone once per run by a signed transfer (record sets one by one
        when the server refuses transfers), and sends all the changes to a zone in
        one signed RFC 2136 update at the end of the run, whose prerequisites make
        the server refuse it whole if any of its records changed since they were
        read. Needs nothing installed.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn current(sets: &[(RType, &[&str])]) -> Current {
        let server = Server::from_attributes(&|attr| match attr {
            "port" => Some(Value::Integer(5300)),
            _ => None,
        })
        .unwrap();
        Current {
            server,
            zone: Name::parse("example.com").unwrap(),
            name: Name::parse("www.example.com").unwrap(),
            sets: sets
                .iter()
                .map(|(rtype, values)| {
                    let mut values: Vec<RData> = values
                        .iter()
                        .map(|v| RData::parse(*rtype, v).unwrap())
                        .collect();
                    values.sort();
                    (*rtype, RecordSet { ttl: 300, values })
                })
                .collect(),
        }
    }

    fn wanted(rtype: RType, values: &[&str]) -> (RType, RecordSet) {
        (
            rtype,
            RecordSet {
                ttl: 300,
                values: values
                    .iter()
                    .map(|v| RData::parse(rtype, v).unwrap())
                    .collect(),
            },
        )
    }

    /// `(class, type, data)` of each change.
    fn changes(update: &UpdateBuilder) -> Vec<(u16, String, String)> {
        update
            .updates()
            .iter()
            .map(|r| {
                (
                    r.class,
                    r.rtype.to_string(),
                    r.rdata.as_ref().map(|d| d.to_string()).unwrap_or_default(),
                )
            })
            .collect()
    }

    #[test]
    fn a_new_type_replaces_the_old_in_one_update() {
        let a = current(&[(RType::A, &["192.0.2.1"])]);
        let update = plan_name(&a, Some(&wanted(RType::Cname, &["web.example.com"]))).unwrap();
        assert_eq!(
            changes(&update),
            [
                (255, "A".into(), String::new()),
                (1, "CNAME".into(), "web.example.com".into())
            ]
        );
        // Prerequisites: the A records as read, and no CNAME yet.
        assert_eq!(update.prerequisites().len(), 2);
    }

    #[test]
    fn other_types_at_the_name_go_and_equal_sets_send_nothing() {
        let both = current(&[
            (RType::A, &["192.0.2.1"]),
            (RType::Mx, &["10 mail.example.com"]),
        ]);
        let update = plan_name(&both, Some(&wanted(RType::A, &["192.0.2.1"]))).unwrap();
        assert_eq!(changes(&update), [(255, "MX".into(), String::new())]);
        let a = current(&[(RType::A, &["192.0.2.1"])]);
        assert!(plan_name(&a, Some(&wanted(RType::A, &["192.0.2.1"]))).is_none());
        let removed = plan_name(&both, None).unwrap();
        assert_eq!(removed.updates().len(), 2);
        assert!(plan_name(&current(&[]), None).is_none());
    }

    #[test]
    fn the_current_type_lists_every_type_of_the_name() {
        let both = current(&[
            (RType::Mx, &["10 mail.example.com"]),
            (RType::A, &["192.0.2.1"]),
        ]);
        assert_eq!(
            type_value(&both.sets),
            Value::Array(vec![Value::String("A".into()), Value::String("MX".into())].into())
        );
        assert_eq!(primary(&both.sets, Some(RType::Mx)).unwrap().0, RType::Mx);
        assert_eq!(primary(&both.sets, Some(RType::Txt)).unwrap().0, RType::A);
        assert_eq!(
            type_value(&current(&[(RType::Txt, &["hello"])]).sets),
            Value::String("TXT".into())
        );
    }
}
