# Local types in signatures, and required repeated parameters.
notice(mrtest_rb::port('http', 80, 8080))
