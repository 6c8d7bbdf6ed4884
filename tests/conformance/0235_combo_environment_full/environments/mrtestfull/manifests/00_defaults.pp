File { backup => false }
