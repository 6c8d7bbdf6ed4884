$it = [1, 2].reverse_each
notice($it =~ Iterator)
notice($it =~ Iterable)
notice([1] =~ Iterator)
notice(Iterable[Integer])
