/* block
   comment */
$x = /* inline */ 1
notice($x)
