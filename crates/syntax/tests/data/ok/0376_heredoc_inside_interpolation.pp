notice("value: ${@(E)}")
inner
E
