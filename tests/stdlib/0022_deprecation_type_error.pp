deprecation(1, 'message')
