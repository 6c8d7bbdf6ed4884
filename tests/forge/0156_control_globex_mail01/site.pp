# The node mail01.fra.example.net of the globex control repository (tests/forge/control-repos/globex),
# compiled in its environment (see args); this file only marks the case.
