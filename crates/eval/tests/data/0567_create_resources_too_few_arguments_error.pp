create_resources('notify')
