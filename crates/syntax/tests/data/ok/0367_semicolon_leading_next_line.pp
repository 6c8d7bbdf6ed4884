notice(1)
;notice(2)
