#!/usr/bin/env python3
"""Generates the catalog-compilation benchmark manifests into a directory.

files.pp    5,000 file resources in 50 classes, with defaults and relationships
defines.pp  a defined type of 3 resources and 1,000 instances of it
classes.pp  200 classes: 100 base classes and 100 that inherit from them
"""
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "out")
os.makedirs(out, exist_ok=True)


def files():
    lines = ["File { owner => 'root', group => 'root' }"]
    for c in range(50):
        lines.append(f"class mrbench::files{c} (String $mode = '0644') {{")
        lines.append(f"  file {{ '/srv/mrbench/c{c}': ensure => directory }}")
        for i in range(99):
            lines += [
                f"  file {{ '/srv/mrbench/c{c}/f{i}.conf':",
                "    ensure  => file,",
                "    mode    => $mode,",
                f"    content => \"class {c} file {i}\\n\",",
                f"    require => File['/srv/mrbench/c{c}'],",
                "  }",
            ]
        lines.append("}")
        lines.append(f"include mrbench::files{c}")
    # 50 directories + 4,950 files = 5,000 file resources.
    return "\n".join(lines) + "\n"


def defines():
    lines = [
        "define mrbench::site (String $root = '/srv/www', Integer $port = 80) {",
        "  file { \"${root}/${title}\": ensure => directory }",
        "  file { \"${root}/${title}/index.html\":",
        "    ensure  => file,",
        "    content => \"<h1>${title}</h1>\\n\",",
        "    require => File[\"${root}/${title}\"],",
        "  }",
        "  notify { \"site ${title} on ${port}\": }",
        "}",
    ]
    for i in range(1000):
        lines.append(f"mrbench::site {{ 'site{i}': port => {8000 + i} }}")
    return "\n".join(lines) + "\n"


def classes():
    lines = []
    for i in range(100):
        lines += [
            f"class mrbench::base{i} ($name_prefix = 'b{i}') {{",
            f"  $common = \"${{name_prefix}}-common\"",
            f"  notify {{ \"base{i}\": message => $common }}",
            f"  file {{ '/srv/mrbench/base{i}': ensure => directory }}",
            "}",
            f"class mrbench::child{i} inherits mrbench::base{i} {{",
            f"  notify {{ \"child{i}\": message => \"${{common}} child\" }}",
            f"  File['/srv/mrbench/base{i}'] {{ mode => '0750' }}",
            "}",
            f"include mrbench::child{i}",
        ]
    return "\n".join(lines) + "\n"


for name, text in [("files", files()), ("defines", defines()), ("classes", classes())]:
    with open(os.path.join(out, f"compile-{name}.pp"), "w") as f:
        f.write(text)
