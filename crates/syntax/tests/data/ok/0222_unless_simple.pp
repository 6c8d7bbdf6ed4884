unless false { notice('y') }
