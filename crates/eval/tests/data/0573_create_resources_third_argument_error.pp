create_resources('notify', {}, 'x')
