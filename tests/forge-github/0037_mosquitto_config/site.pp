# The mosquitto MQTT broker with configuration lines.
class { 'mosquitto':
  config => [
    'listener 1883 127.0.0.1',
    'allow_anonymous false',
    'password_file /etc/mosquitto/passwd',
    'persistence true',
  ],
}
