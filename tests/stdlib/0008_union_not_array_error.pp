notice(union(['a'], 'b'))
