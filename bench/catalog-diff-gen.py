#!/usr/bin/env python3
"""Writes nodes' facts as puppetserver's YAML facts cache keeps them
(NAME.yaml, with the `--- !ruby/object:Puppet::Node::Facts` header), from
the realistic Debian 12 facts of tests/forge/facts.json: each node gets its
own name, addresses, role and sizes.

    bench/catalog-diff-gen.py DIR COUNT [--json NAME...]

Roles cycle web, web, db, app, base; names are ROLE-NNNN.example.com.
Nodes named after --json are written as NAME.json (Puppet's
{"name", "values"} form) instead. Deterministic: the same COUNT gives the
same files.
"""
import copy
import json
import os
import sys

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ROLES = ["web", "web", "db", "app", "base"]


class Facts(yaml.SafeDumper):
    pass


def main():
    args = sys.argv[1:]
    as_json = set()
    if "--json" in args:
        at = args.index("--json")
        as_json = set(args[at + 1:])
        args = args[:at]
    out, count = args[0], int(args[1])
    with open(os.path.join(ROOT, "tests/forge/facts.json"), encoding="utf-8") as f:
        base = json.load(f)["values"]
    os.makedirs(out, exist_ok=True)
    for n in range(1, count + 1):
        role = ROLES[(n - 1) % len(ROLES)]
        host = f"{role}-{n:04d}"
        fqdn = f"{host}.example.com"
        ip = f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
        facts = copy.deepcopy(base)
        facts.update(
            {
                "role": role,
                "clientcert": fqdn,
                "fqdn": fqdn,
                "hostname": host,
                "ipaddress": ip,
                "ipaddress_eth0": ip,
                "processorcount": 2 + n % 7,
            }
        )
        net = facts["networking"]
        net.update({"fqdn": fqdn, "hostname": host, "ip": ip})
        if "interfaces" in net and "eth0" in net["interfaces"]:
            net["interfaces"]["eth0"]["ip"] = ip
        if fqdn in as_json:
            with open(os.path.join(out, f"{fqdn}.json"), "w", encoding="utf-8") as f:
                json.dump({"name": fqdn, "values": facts}, f, indent=2)
                f.write("\n")
            continue
        document = {
            "name": fqdn,
            "values": facts,
            "timestamp": "2026-11-28 10:00:00.000000000 +00:00",
            "expiration": "2026-11-28 10:30:00.000000000 +00:00",
        }
        text = yaml.dump(document, Dumper=Facts, default_flow_style=False, sort_keys=False)
        with open(os.path.join(out, f"{fqdn}.yaml"), "w", encoding="utf-8") as f:
            f.write("--- !ruby/object:Puppet::Node::Facts\n" + text)


main()
