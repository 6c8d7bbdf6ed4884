# generate runs a command without a shell and returns its output.
notice(generate('/bin/echo', 'hello', 'world'))
notice(generate('/bin/sh', '-c', 'echo $((1+2)); echo to-stderr >&2'))
notice(generate('/bin/echo', 1, true))
