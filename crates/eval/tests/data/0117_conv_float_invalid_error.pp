notice(Float('two'))
