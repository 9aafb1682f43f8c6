#!/usr/bin/env python3
"""A loopback server for the http-hook scenarios in fixtures/conformance/hookmux/.

usage: hook_server.py PORT
Listens on 127.0.0.1:PORT and 127.0.0.2:PORT (both loopback; the second stands for a host that is
not on an allow-list). A POST to a path ending in /context answers PreToolUse additionalContext
HTTP-PRE-CTX; ending in /deny answers a PreToolUse deny with reason HTTP-DENY-REASON; ending in
/redirect answers 302 to http://127.0.0.2:PORT/deny; anything else answers 200 with an empty body.
A GET is answered as the POST would be, so a client that follows the 302 as a GET sees the deny.
"""
import json, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWERS = {
    "/context": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "HTTP-PRE-CTX"}},
    "/deny": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                     "permissionDecisionReason": "HTTP-DENY-REASON"}},
}


class Hook(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0) or 0))
        if self.path.endswith("/redirect"):
            self.send_response(302)
            self.send_header("location", f"http://127.0.0.2:{PORT}/deny")
            self.send_header("content-length", "0")
            self.end_headers()
            return
        name = "/" + self.path.rsplit("/", 1)[-1]
        body = json.dumps(ANSWERS[name]).encode() if name in ANSWERS else b""
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


    do_GET = do_POST


PORT = int(sys.argv[1])
other = ThreadingHTTPServer(("127.0.0.2", PORT), Hook)
threading.Thread(target=other.serve_forever, daemon=True).start()
ThreadingHTTPServer(("127.0.0.1", PORT), Hook).serve_forever()
