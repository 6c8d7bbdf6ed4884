notice(Class['foo'])
notice(Class[foo])
notice(Class)
notice(Resource)
