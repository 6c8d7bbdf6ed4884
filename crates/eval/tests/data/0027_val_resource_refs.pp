notice(File['/x'])
notice(Notify['hello'])
notice(Resource['file', '/y'])
notice("${File['/z']}")
