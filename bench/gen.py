#!/usr/bin/env python3
"""Generates the benchmark manifests into a directory (default bench/out).

resources.pp  5,000 resources of several types across 50 classes
defines.pp    a defined type and 1,000 instances of it
nested.pp     deeply nested expressions: arithmetic, hashes, arrays, ifs
"""
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "out")
os.makedirs(out, exist_ok=True)


def resources():
    lines = []
    n = 0
    for c in range(50):
        lines.append(f"class bench::c{c} (String $owner = 'root', Integer $port = {8000 + c}) {{")
        for i in range(100):
            kind = n % 4
            if kind == 0:
                lines += [
                    f"  file {{ '/srv/bench/c{c}/file{i}.conf':",
                    "    ensure  => file,",
                    "    owner   => $owner,",
                    "    mode    => '0644',",
                    f"    content => \"port=${{port}}\\nid={n}\\n\",",
                    f"    require => Package['pkg{n - 1}'],",
                    "  }",
                ]
            elif kind == 1:
                lines += [
                    f"  package {{ 'pkg{n}':",
                    "    ensure => installed,",
                    f"    tag    => ['bench', 'c{c}'],",
                    "  }",
                ]
            elif kind == 2:
                lines += [
                    f"  exec {{ 'run{n}':",
                    f"    command => \"/bin/echo ${{owner}} {n}\",",
                    f"    unless  => '/usr/bin/test -f /tmp/run{n}',",
                    "    path    => ['/bin', '/usr/bin'],",
                    "  }",
                ]
            else:
                lines += [
                    f"  service {{ 'svc{n}':",
                    "    ensure    => running,",
                    "    enable    => true,",
                    f"    subscribe => File['/srv/bench/c{c}/file{i - 3}.conf'],",
                    "  }",
                ]
            n += 1
        lines.append("}")
    lines.append("node default {")
    lines += [f"  include bench::c{c}" for c in range(50)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def defines():
    lines = [
        "define bench::vhost (",
        "  Integer[1, 65535] $port,",
        "  String $docroot = \"/var/www/${title}\",",
        "  Array[String] $aliases = [],",
        "  Hash[String, String] $headers = {},",
        ") {",
        "  file { \"/etc/bench/${title}.conf\":",
        "    ensure  => file,",
        "    content => \"Listen ${port}\\nDocumentRoot ${docroot}\\n\",",
        "  }",
        "  if $port < 1024 { notice(\"privileged ${port}\") }",
        "}",
    ]
    for i in range(1000):
        lines += [
            f"bench::vhost {{ 'site{i}.example.com':",
            f"  port    => {1000 + i},",
            f"  aliases => ['www{i}.example.com', 'alt{i}.example.com'],",
            f"  headers => {{ 'X-Id' => '{i}', 'X-Name' => \"site{i}\" }},",
            "}",
        ]
    return "\n".join(lines) + "\n"


def nested():
    lines = []
    for i in range(300):
        depth = 40 + i % 60
        expr = "1"
        for d in range(depth):
            expr = f"({expr} + $v{d % 7} * {d + 1})"
        lines.append(f"$a{i} = {expr}")
        h = "'leaf'"
        for d in range(depth // 2):
            h = f"{{ 'k{d}' => [{h}, {d}] }}"
        lines.append(f"$h{i} = {h}")
        body = f"notice('deep {i}')"
        for d in range(depth // 4):
            body = f"if $x{d} > {d} {{ {body} }} else {{ $y{i}_{d} = {d} }}"
        lines.append(body)
    return "\n".join(lines) + "\n"


for name, text in [("resources.pp", resources()), ("defines.pp", defines()), ("nested.pp", nested())]:
    with open(os.path.join(out, name), "w") as f:
        f.write(text)
    print(f"{os.path.join(out, name)}: {len(text)} bytes")
