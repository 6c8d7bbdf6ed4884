# stdlib 9 keeps its old unnamespaced names as shims that warn, once per
# function, then call the namespaced one: these must warn as its Ruby does.
$merged = merge({ 'a' => 1 }, { 'b' => 2 })
$again = merge($merged, { 'c' => 3 })
$namespaced = stdlib::merge($again, { 'd' => 4 })
notice($namespaced)
notice(to_json($namespaced))
notice(type_of($namespaced))
notice(shell_escape('two words'))
notice(seeded_rand(100, 'mrtest'))
ensure_packages(['mrtest-shim-pkg'], { 'ensure' => 'absent' })
