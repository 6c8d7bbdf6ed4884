@notify { 'mrtest-exists': }
realize(Notify['mrtest-missing'])
