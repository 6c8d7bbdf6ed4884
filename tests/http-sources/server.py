#!/usr/bin/env python3
"""A web server for the http(s) file source tests (tests/http-sources).

Serves the files of DOCROOT at /MODE/NAME, with the headers MODE names:
  lm       Last-Modified (the file's mtime) only
  sha256   X-Checksum-Sha256 and Last-Modified
  sha1     X-Checksum-Sha1 only
  md5      Content-MD5 (base64, RFC 1864) only
  none     no checksum and no Last-Modified
  nohead   refuses HEAD (405); a ranged GET gets the first byte, with
           X-Checksum-Sha256
  liar     X-Checksum-Sha256 of other bytes than it sends
  redirect a 302 to /sha256/NAME
  auth     the sha256 mode behind HTTP Basic authentication (mrtest:secret)
Anything else, or a missing file, is a 404. Each request is appended to
DOCROOT/../requests.log as "METHOD PATH".

Usage: server.py DOCROOT PORTFILE [CERT KEY]. Listens on 127.0.0.1 on a
port of the system's choice, written to PORTFILE once it listens; with
CERT and KEY (PEM), speaks HTTPS.
"""
import base64
import email.utils
import hashlib
import http.server
import os
import ssl
import sys

DOCROOT, PORTFILE = sys.argv[1], sys.argv[2]
LOG = os.path.join(os.path.dirname(os.path.abspath(DOCROOT)), "requests.log")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def note(self):
        with open(LOG, "a") as log:
            log.write(f"{self.command} {self.path}\n")

    def found(self):
        parts = self.path.split("/")
        if len(parts) != 3 or parts[1] not in MODES:
            return None, None
        path = os.path.join(DOCROOT, parts[2])
        if not os.path.isfile(path):
            return parts[1], None
        return parts[1], path

    def answer(self, code, headers, body, send_body):
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def serve(self, send_body):
        self.note()
        mode, path = self.found()
        if mode == "auth":
            expected = "Basic " + base64.b64encode(b"mrtest:secret").decode()
            if self.headers.get("Authorization") != expected:
                self.answer(401, [("WWW-Authenticate", 'Basic realm="mrtest"')], b"", send_body)
                return
            mode = "sha256"
        if path is None:
            self.answer(404, [], b"not found\n", send_body)
            return
        if mode == "redirect":
            name = self.path.split("/")[2]
            self.answer(302, [("Location", f"/sha256/{name}")], b"", send_body)
            return
        if mode == "nohead" and not send_body:
            self.answer(405, [], b"", False)
            return
        with open(path, "rb") as f:
            body = f.read()
        modified = email.utils.formatdate(os.stat(path).st_mtime, usegmt=True)
        headers = []
        if mode in ("lm", "sha256"):
            headers.append(("Last-Modified", modified))
        if mode in ("sha256", "nohead"):
            headers.append(("X-Checksum-Sha256", hashlib.sha256(body).hexdigest()))
        if mode == "liar":
            headers.append(("X-Checksum-Sha256", hashlib.sha256(body + b"!").hexdigest()))
        if mode == "sha1":
            headers.append(("X-Checksum-Sha1", hashlib.sha1(body).hexdigest()))
        if mode == "md5":
            headers.append(("Content-MD5", base64.b64encode(hashlib.md5(body).digest()).decode()))
        if mode == "nohead" and self.headers.get("Range") == "bytes=0-0":
            headers.append(("Content-Range", f"bytes 0-0/{len(body)}"))
            self.answer(206, headers, body[:1], send_body)
            return
        self.answer(200, headers, body, send_body)

    def do_GET(self):
        self.serve(True)

    def do_HEAD(self):
        self.serve(False)


MODES = {"lm", "sha256", "sha1", "md5", "none", "nohead", "liar", "redirect", "auth"}

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if len(sys.argv) == 5:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[3], sys.argv[4])
    server.socket = context.wrap_socket(server.socket, server_side=True)
with open(PORTFILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
server.serve_forever()
