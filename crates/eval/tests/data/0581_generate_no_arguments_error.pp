notice(generate())
