include apache::mod::ssl
