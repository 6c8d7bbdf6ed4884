# The node web01.example.com of the acme control repository (tests/forge/control-repos/acme),
# compiled in its environment (see args); this file only marks the case.
