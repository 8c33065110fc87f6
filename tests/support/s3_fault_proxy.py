#!/usr/bin/env python3
"""A fault-injecting HTTP/1.1 proxy for the S3 tests (issue 12), standard library only.

It listens on a free loopback port, forwards every request (method, path and query, headers
including Authorization and Host, body) to --upstream and returns the upstream answer, except
where a rule injects a fault:

  --rule 'METHOD:SUBSTRING:FAULT:COUNT'   (repeatable)

The first COUNT requests whose method equals METHOD (`*`: any) and whose path+query contains
SUBSTRING (may be empty; may contain ':') get FAULT; COUNT `all` means every one. The first rule
that matches and has requests left decides; a request no rule takes is forwarded ("pass").

FAULTs:
  503             503 with an S3 XML error, Code SlowDown (not forwarded)
  500             500 with an S3 XML error, Code InternalError (not forwarded)
  502             502 with a plain-text body (not forwarded)
  403             403 with an S3 XML error, Code AccessDenied (not forwarded)
  garbage-xml     200 with a body that is not XML (meant for listings; not forwarded)
  reset-before    the connection is reset (RST) before any answer (not forwarded)
  reset-mid-body  forwarded; the status line, the headers with the true Content-Length and half
                  the body are sent, then the connection is reset (RST)
  short-body      forwarded; the true Content-Length, half the body, then a clean close (FIN)
  delay-MS        wait MS milliseconds, then forward
  listing-size-V  200 with a well-formed one-object ListObjectsV2 page whose <Size> is V, taken
                  as text ("-1", "1e3", "18446744073709551616"); not forwarded
  crc32c-VALUE    forwarded; the answer carries `x-amz-checksum-crc32c: VALUE` (base64, replacing
                  any the server sent), as a server that stores upstream's checksums would answer
                  a GET or HEAD with x-amz-checksum-mode: ENABLED (s3rver keeps none)

--log FILE gets one line per request, appended before the answer is sent: `METHOD path+query FAULT-or-pass STATUS`
(STATUS `-` when no status line was sent; path+query as the client sent it, percent-encoded; a
request the upstream did not answer is `upstream-error 502`). --port-file FILE receives the port once the proxy
accepts connections.
"""

import argparse
import http.client
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "expect",
}

XML_ERRORS = {
    "503": (503, "Slow Down", "SlowDown", "Please reduce your request rate."),
    "500": (500, "Internal Server Error", "InternalError",
            "We encountered an internal error. Please try again."),
    "403": (403, "Forbidden", "AccessDenied", "Access Denied"),
}
FAULTS_WITHOUT_ARGUMENT = set(XML_ERRORS) | {
    "502", "garbage-xml", "reset-before", "reset-mid-body", "short-body"}


class Rule:
    def __init__(self, text):
        method, sep, rest = text.partition(":")
        substring, sep2, count = rest.rpartition(":")
        substring, sep3, fault = substring.rpartition(":")
        if not (sep and sep2 and sep3) or not method:
            raise ValueError(f"rule {text!r}: expected METHOD:SUBSTRING:FAULT:COUNT")
        if fault not in FAULTS_WITHOUT_ARGUMENT:
            if not ((fault.startswith("delay-") and fault[len("delay-"):].isdigit())
                    or (fault.startswith("crc32c-") and len(fault) > len("crc32c-"))
                    or (fault.startswith("listing-size-") and len(fault) > len("listing-size-"))):
                raise ValueError(f"rule {text!r}: unknown fault {fault!r}")
        if count == "all":
            self.remaining = None
        elif count.isdigit():
            self.remaining = int(count)
        else:
            raise ValueError(f"rule {text!r}: COUNT must be a number or 'all'")
        self.method = method
        self.substring = substring
        self.fault = fault

    def matches(self, method, path):
        return (self.method == "*" or self.method == method) and self.substring in path


class Proxy:
    def __init__(self, upstream, rules, log_path):
        parsed = urllib.parse.urlsplit(upstream)
        if parsed.scheme != "http" or not parsed.hostname:
            raise ValueError(f"--upstream {upstream!r}: expected http://HOST:PORT")
        self.upstream_host = parsed.hostname
        self.upstream_port = parsed.port or 80
        self.rules = rules
        self.lock = threading.Lock()
        self.log_path = log_path

    def take_fault(self, method, path):
        with self.lock:
            for rule in self.rules:
                if rule.matches(method, path) and (rule.remaining is None or rule.remaining > 0):
                    if rule.remaining is not None:
                        rule.remaining -= 1
                    return rule.fault
        return None

    def log(self, method, path, what, status):
        if not self.log_path:
            return
        line = f"{method} {path} {what} {status}\n"
        with self.lock:
            with open(self.log_path, "a", encoding="utf-8") as out:
                out.write(line)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "s3-fault-proxy"
    sys_version = ""

    def log_message(self, format, *args):  # quiet: the --log file is the record
        pass

    def do_request(self):
        proxy = self.server.proxy
        method = self.command
        path = self.path
        if path.startswith("http://") or path.startswith("https://"):  # absolute-form
            parts = urllib.parse.urlsplit(path)
            path = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""

        fault = proxy.take_fault(method, path)
        what = fault or "pass"
        if fault in XML_ERRORS:
            status, reason, code, message = XML_ERRORS[fault]
            payload = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                       f"<Error><Code>{code}</Code><Message>{message}</Message>"
                       "<RequestId>fault-proxy</RequestId></Error>").encode()
            proxy.log(method, path, what, status)
            self.answer(status, reason, [("Content-Type", "application/xml")], payload)
            return
        if fault == "502":
            proxy.log(method, path, what, 502)
            self.answer(502, "Bad Gateway", [("Content-Type", "text/plain")],
                        b"502 Bad Gateway (injected by s3_fault_proxy)\n")
            return
        if fault == "garbage-xml":
            proxy.log(method, path, what, 200)
            self.answer(200, "OK", [("Content-Type", "application/xml")],
                        b"this is not XML <ListBucketResult><Contents><Key>oops")
            return
        if fault and fault.startswith("listing-size-"):
            proxy.log(method, path, what, 200)
            size = fault[len("listing-size-"):]
            body = ('<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult><KeyCount>1</KeyCount>'
                    '<IsTruncated>false</IsTruncated><Contents><Key>k</Key><Size>' + size +
                    '</Size></Contents></ListBucketResult>').encode()
            self.answer(200, "OK", [("Content-Type", "application/xml")], body)
            return
        if fault == "reset-before":
            proxy.log(method, path, what, "-")
            self.reset()
            return
        if fault and fault.startswith("delay-"):
            time.sleep(int(fault[len("delay-"):]) / 1000.0)

        connection = http.client.HTTPConnection(proxy.upstream_host, proxy.upstream_port,
                                                timeout=120)
        try:
            try:
                response = self.forward(connection, method, path, body)
            except OSError as error:
                proxy.log(method, path, "upstream-error", 502)
                self.answer(502, "Bad Gateway", [("Content-Type", "text/plain")],
                            f"upstream error: {error}\n".encode())
                return
            self.relay(response, method, path, fault, what)
        finally:
            connection.close()

    def forward(self, connection, method, path, body):
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in self.headers.items():
            if name.lower() in HOP_BY_HOP or name.lower() == "content-length":
                continue
            connection.putheader(name, value)
        if body or method in ("PUT", "POST"):
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body if body else None)
        return connection.getresponse()

    def relay(self, response, method, path, fault, what):
        """Streams the upstream answer (1 MiB at a time, so large objects cost no memory), or
        half of it for reset-mid-body and short-body."""
        proxy = self.server.proxy
        headers = [(n, v) for n, v in response.getheaders() if n.lower() not in HOP_BY_HOP]
        if fault and fault.startswith("crc32c-"):
            headers = [(n, v) for n, v in headers if n.lower() != "x-amz-checksum-crc32c"]
            headers.append(("x-amz-checksum-crc32c", fault[len("crc32c-"):]))
        declared = response.getheader("Content-Length")
        if method == "HEAD" or response.status in (204, 304):
            total = None
            payload = b""
        elif declared is not None and declared.isdigit():
            total = int(declared)
            payload = None
        else:  # chunked or close-delimited upstream: read it whole to learn the length
            payload = response.read()
            total = len(payload)
        proxy.log(method, path, what, response.status)
        self.send_response_only(response.status, response.reason)
        for name, value in headers:
            if name.lower() != "content-length" or total is None:
                self.send_header(name, value)
        if total is not None:
            self.send_header("Content-Length", str(total))
        elif not any(n.lower() == "content-length" for n, _ in headers):
            self.send_header("Content-Length", "0")
        self.end_headers()
        limit = total or 0
        if fault in ("reset-mid-body", "short-body"):
            limit //= 2
        if payload is not None:
            self.wfile.write(payload[:limit])
        else:
            sent = 0
            while sent < limit:
                chunk = response.read(min(1 << 20, limit - sent))
                if not chunk:
                    break
                self.wfile.write(chunk)
                sent += len(chunk)
            if sent < limit:  # upstream ended early: pass the short body on, as it is
                self.close_connection = True
        self.wfile.flush()
        if fault == "reset-mid-body":
            self.reset()
        elif fault == "short-body":
            self.close_cleanly()

    def send_head(self, status, reason, headers, payload):
        self.send_response_only(status, reason)
        for name, value in headers:
            if name.lower() == "content-length" and self.command != "HEAD":
                continue
            self.send_header(name, value)
        if self.command != "HEAD":
            self.send_header("Content-Length", str(len(payload)))
        elif not any(n.lower() == "content-length" for n, _ in headers):
            self.send_header("Content-Length", "0")
        self.end_headers()

    def answer(self, status, reason, headers, payload):
        self.send_head(status, reason, headers, payload)
        if self.command != "HEAD":
            self.wfile.write(payload)
        self.wfile.flush()

    def reset(self):
        # SO_LINGER on with a zero timeout: close() sends RST instead of FIN.
        self.close_connection = True
        try:
            self.wfile.flush()
        except OSError:
            pass
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()

    def close_cleanly(self):
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = do_request


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):  # a client that hangs up is not news
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upstream", required=True, help="http://HOST:PORT of the real server")
    parser.add_argument("--port-file", required=True, help="receives the port once listening")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default: free)")
    parser.add_argument("--rule", action="append", default=[],
                        help="METHOD:SUBSTRING:FAULT:COUNT (repeatable)")
    parser.add_argument("--log", help="append one line per request to this file")
    args = parser.parse_args()
    try:
        rules = [Rule(text) for text in args.rule]
        proxy = Proxy(args.upstream, rules, args.log)
    except ValueError as error:
        print(f"s3_fault_proxy: {error}", file=sys.stderr)
        return 2

    server = Server(("127.0.0.1", args.port), Handler)
    server.proxy = proxy
    temporary = f"{args.port_file}.tmp.{os.getpid()}"
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(f"{server.server_address[1]}\n")
    os.replace(temporary, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
