/* outer /* inner */ still outer */
notice(1)
