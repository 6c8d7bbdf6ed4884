# Redis with the module's defaults.
include redis
