notice(1 =~ NoSuchType)
