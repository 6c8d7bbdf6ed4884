notice(Any > String)
notice(Data >= Scalar)
notice(Optional[String] > String)
notice(Variant[Integer, String] > Integer)
