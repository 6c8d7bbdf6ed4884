notice(String('hello', '%10s'))
notice("${String('hello', '%-10s')}|")
