#!/usr/bin/env python3
"""Generates a Hiera-heavy environment for bench/hiera.

OUT/environments/production holds:
  - hiera.yaml: a 6-level hierarchy (node, role, datacenter, OS release,
    OS family, common) of YAML files;
  - data/: 200 data files, six of which the benchmark node reads; each of
    those sets a share of the parameters, and hashes and arrays are merged
    deeply across the levels (lookup_options in common.yaml);
  - manifests/site.pp: includes 100 classes of 10 parameters each
    (1,000 automatic parameter lookups), each class declaring one notify
    with its parameters;
  - modules/profile/manifests/pNN.pp: the classes.
OUT/facts.json holds the node's facts (Puppet's {"name", "values"} form),
with the role and datacenter facts the hierarchy uses.
"""
import json
import os
import sys

CLASSES = 100
PARAMS = 10
NODE = "mrtest.example.com"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def yaml_scalar(value):
    return json.dumps(value)


def param_kind(j):
    # Parameters 0-5 are strings, 6-7 arrays merged unique, 8-9 hashes
    # merged deep.
    return "string" if j < 6 else ("array" if j < 8 else "hash")


def level_data(level, share):
    """The data one of the six levels the node reads sets."""
    lines = []
    for i in range(CLASSES):
        for j in range(PARAMS):
            key = f"profile::p{i:02d}::v{j}"
            kind = param_kind(j)
            # Each level sets every key with a stride so that the values come
            # from several levels; arrays and hashes are set on more levels.
            if kind == "string" and (i * PARAMS + j) % 6 != share:
                continue
            if kind != "string" and (i + j + share) % 2:
                continue
            if kind == "string":
                lines.append(f"{key}: {yaml_scalar(f'{level} value {i}.{j}')}")
            elif kind == "array":
                lines.append(f"{key}:")
                for n in range(3):
                    lines.append(f"  - {yaml_scalar(f'{level}-{n}')}")
            else:
                lines.append(f"{key}:")
                lines.append(f"  {level}_setting: {yaml_scalar(f'{i}.{j}')}")
                lines.append("  shared:")
                lines.append(f"    from: {yaml_scalar(level)}")
                lines.append(f"    {level}: true")
                lines.append("    list:")
                lines.append(f"      - {yaml_scalar(level)}")
    return "\n".join(lines) + "\n"


def main():
    out = sys.argv[1]
    env = os.path.join(out, "environments", "production")
    write(os.path.join(env, "hiera.yaml"), """---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Per node"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Per role"
    path: "roles/%{facts.role}.yaml"
  - name: "Per datacenter"
    path: "datacenters/%{facts.datacenter}.yaml"
  - name: "Per OS release"
    path: "os/%{facts.os.family}-%{facts.os.release.major}.yaml"
  - name: "Per OS family"
    path: "os/%{facts.os.family}.yaml"
  - name: "Common"
    path: "common.yaml"
""")
    data = os.path.join(env, "data")
    hit = [
        ("node", f"nodes/{NODE}.yaml"),
        ("role", "roles/web.yaml"),
        ("dc", "datacenters/par1.yaml"),
        ("release", "os/Debian-12.yaml"),
        ("family", "os/Debian.yaml"),
        ("common", "common.yaml"),
    ]
    for share, (level, path) in enumerate(hit):
        text = level_data(level, share)
        if level == "common":
            text = """lookup_options:
  '^profile::p\\d+::v[67]$':
    merge: unique
  '^profile::p\\d+::v[89]$':
    merge:
      strategy: deep
      knockout_prefix: '--'
""" + text
        write(os.path.join(data, path), text)
    # Files for other nodes, roles and datacenters: never read for this
    # node, but there, as on a real site.
    count = len(hit)
    n = 0
    while count < 200:
        kind = ["nodes/node%03d.example.com.yaml", "roles/role%03d.yaml",
                "datacenters/dc%03d.yaml"][n % 3] % n
        write(os.path.join(data, kind), level_data("other", n % 6))
        count += 1
        n += 1
    for i in range(CLASSES):
        params = ", ".join(
            {"string": f"String $v{j}", "array": f"Array $v{j}", "hash": f"Hash $v{j}"}[param_kind(j)]
            + (" = 'default'" if param_kind(j) == "string" else (" = []" if param_kind(j) == "array" else " = {}"))
            for j in range(PARAMS)
        )
        body = " ".join(f"${{v{j}}}" for j in range(PARAMS))
        write(os.path.join(env, "modules", "profile", "manifests", f"p{i:02d}.pp"),
              f"class profile::p{i:02d}({params}) {{\n  notify {{ 'p{i:02d}': message => \"{body}\" }}\n}}\n")
    write(os.path.join(env, "manifests", "site.pp"),
          "".join(f"include profile::p{i:02d}\n" for i in range(CLASSES)))
    facts = json.load(open(os.path.join(os.path.dirname(__file__), "..", "tests", "conformance", "default-facts.json")))
    facts["values"]["role"] = "web"
    facts["values"]["datacenter"] = "par1"
    facts["values"]["clientcert"] = NODE
    write(os.path.join(out, "facts.json"), json.dumps(facts, indent=1) + "\n")


main()
