notice("${1.0} ${2.5e3} ${Integer[1,2]} ${/re/}")
