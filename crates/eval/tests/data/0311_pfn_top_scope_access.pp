$top = 'T'
function peek() { "[${top}]" }
notice(peek())
