#!/bin/sh
# Regenerates the eyaml test fixtures with the real hiera-eyaml (Debian package hiera-eyaml).
# Run from this directory. Keys are only regenerated if absent:
#   eyaml createkeys                                    -> keys/
#   (mkdir o && cd o && eyaml createkeys && mv keys ../keys_other)
set -e
enc() { eyaml encrypt -o string "$@"; }
enc -s 'secret' > secret.txt
enc -s "$(printf 'line one\nline two\n  indented: three')" > multiline.txt
enc -s 'héllo wörld — 日本語 🔑' > utf8.txt
enc -s '' > empty.txt
awk 'BEGIN { for (i = 1; i <= 60; i++) printf "line %03d: the quick brown fox jumps over the lazy dog\n", i }' > long_plain.txt
enc -f long_plain.txt > long.txt
printf 'postgres://%s:%s@db.example.com/app\n' "$(enc -s 'admin')" "$(enc -s 'p@ss w0rd')" > mixed.txt
eyaml encrypt -o block -s 'block secret' > block.txt
# Other content ciphers and two recipients, made with Ruby's OpenSSL directly (same call as eyaml).
ruby -ropenssl -rbase64 -e '
  a = OpenSSL::X509::Certificate.new(File.read("keys/public_key.pkcs7.pem"))
  b = OpenSSL::X509::Certificate.new(File.read("keys_other/public_key.pkcs7.pem"))
  out = lambda { |name, certs, cipher, text|
    der = OpenSSL::PKCS7.encrypt(certs, text, OpenSSL::Cipher.new(cipher), OpenSSL::PKCS7::BINARY).to_der
    File.write(name, "ENC[PKCS7," + Base64.strict_encode64(der) + "]\n")
  }
  out.call("aes128.txt", [a], "aes-128-cbc", "aes 128 secret")
  out.call("aes192.txt", [a], "aes-192-cbc", "aes 192 secret")
  out.call("des3.txt", [a], "des-ede3-cbc", "triple des secret")
  out.call("two_recipients.txt", [b, a], "aes-256-cbc", "shared secret")
  out.call("binary.txt", [a], "aes-256-cbc", "\xff\xfe not UTF-8".b)
'
# The private key as PKCS#8 (-----BEGIN PRIVATE KEY-----).
openssl pkcs8 -topk8 -nocrypt -in keys/private_key.pkcs7.pem -out private_key.pkcs8.pem
