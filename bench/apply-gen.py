#!/usr/bin/env python3
"""Generates the apply benchmark manifests into a directory.

files-N.pp   N file resources (N = 100, 1000, 5000) under /tmp/mrbench-apply/N,
             in directories of 100 files, each with content and a mode
defines.pp   a defined type of 3 resources (a directory, a file, a link)
             with 1,000 instances under /tmp/mrbench-apply/defines
Everything lives under /tmp/mrbench-apply, so the benchmark is safe to run
anywhere; bench/apply removes it between first runs.
"""
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "out")
os.makedirs(out, exist_ok=True)
ROOT = "/tmp/mrbench-apply"


def files(count):
    base = f"{ROOT}/{count}"
    lines = [f"file {{ ['{ROOT}', '{base}']: ensure => directory }}"]
    for d in range((count + 99) // 100):
        lines.append(f"file {{ '{base}/d{d}': ensure => directory }}")
        for i in range(min(100, count - d * 100) - 1):
            lines.append(
                f"file {{ '{base}/d{d}/f{i}.conf': ensure => file, mode => '0644', "
                f"content => \"directory {d} file {i}\\n\" }}"
            )
    return "\n".join(lines) + "\n"


def defines():
    base = f"{ROOT}/defines"
    lines = [
        "define mrbench::site (String $port) {",
        f"  file {{ \"{base}/${{title}}\": ensure => directory }}",
        f"  file {{ \"{base}/${{title}}/port\": ensure => file, content => \"${{port}}\\n\" }}",
        f"  file {{ \"{base}/${{title}}/current\": ensure => link, target => \"{base}/${{title}}/port\" }}",
        "}",
        f"file {{ ['{ROOT}', '{base}']: ensure => directory }}",
    ]
    for i in range(1000):
        lines.append(f"mrbench::site {{ 'site{i}': port => '{8000 + i}' }}")
    return "\n".join(lines) + "\n"


for count in (100, 1000, 5000):
    with open(os.path.join(out, f"apply-files-{count}.pp"), "w") as f:
        f.write(files(count))
with open(os.path.join(out, "apply-defines.pp"), "w") as f:
    f.write(defines())
