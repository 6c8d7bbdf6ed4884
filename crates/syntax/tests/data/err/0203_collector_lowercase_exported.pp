file <<| |>>
