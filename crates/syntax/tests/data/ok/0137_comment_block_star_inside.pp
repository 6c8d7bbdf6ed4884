/* ** stars * inside **/
/***/
notice(1)
