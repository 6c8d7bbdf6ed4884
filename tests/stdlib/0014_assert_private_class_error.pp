include mrtest_private::internal
