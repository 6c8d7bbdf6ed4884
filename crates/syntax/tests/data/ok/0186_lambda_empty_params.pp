with() || { notice('none') }
