realize(File['/x'])
realize File['/y'], File['/z']
