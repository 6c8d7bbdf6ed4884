notice(Integer.new('42'))
