# An entry there before the run, listed with the catalog.
mkdir -p /tmp/mrtest-apply/purged
echo early > /tmp/mrtest-apply/purged/early
