include users
