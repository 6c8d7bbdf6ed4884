/* outer /* inner */
notice(1)
