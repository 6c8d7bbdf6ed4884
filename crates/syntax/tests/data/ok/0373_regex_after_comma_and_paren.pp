notice(/a/, /b/)
