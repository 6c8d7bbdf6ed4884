include a, b
include apache::mod::ssl, ::foo
