#!/usr/bin/env python3
"""A loopback server for the http-hook scenarios in fixtures/conformance/hookmux/.

usage: hook_server.py PORT
POST /context answers PreToolUse additionalContext HTTP-PRE-CTX; POST /deny answers a PreToolUse
deny with reason HTTP-DENY-REASON; anything else answers 200 with an empty body.
"""
import json, sys
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
        self.rfile.read(int(self.headers.get("content-length", 0)))
        body = json.dumps(ANSWERS[self.path]).encode() if self.path in ANSWERS else b""
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Hook).serve_forever()
