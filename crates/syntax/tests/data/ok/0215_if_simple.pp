if $facts { notice('y') }
