#!/bin/sh
set -e
mkdir -p /tmp/mrtest-apply/tree/sub /tmp/mrtest-apply/purged/keep
echo a > /tmp/mrtest-apply/tree/a
echo c > /tmp/mrtest-apply/tree/sub/c
echo z > /tmp/mrtest-apply/tree/z
echo stray > /tmp/mrtest-apply/purged/stray
echo k > /tmp/mrtest-apply/purged/keep/k
chmod 0755 /tmp/mrtest-apply/purged
