type Id = Variant[Integer, String]
notice(type(Id))
notice(Id =~ Type[Variant])
