# verify_webhook.py: verifying the service's webhooks in Python 3.8 or later, standard library only.
#
# As a library: from verify_webhook import verify_webhook, handle_webhook.
# As a receiver for trying webhooks on your machine (prints every verified event):
#   WEBHOOK_SECRET=whsec_... python3 examples/verify_webhook.py         # listens on 127.0.0.1:4000 (PORT)
# WEBHOOK_CLOCK_OFFSET=<seconds> judges X-Timestamp against this machine's clock plus that many seconds:
# a sandbox whose clock was advanced stamps its webhooks with its own time (GET /api/admin/v1/sandbox/clock).
import hashlib
import hmac
import json
import os
import sys
import time

TOLERANCE_SECONDS = 300


def _hmac_hex(secret, data):
    # the key is the whole secret as shown, "whsec_" prefix included
    return hmac.new(secret.encode("utf-8"), data, hashlib.sha256).hexdigest()


def _same_digest(expected_hex, received):
    # constant-time; bytes on both sides so any header text is safe to compare
    return hmac.compare_digest(expected_hex.encode("ascii"), (received or "").encode("utf-8", "replace"))


def verify_signature_v1(secret, raw_body, signature):
    """v1: X-Signature = HMAC-SHA256(secret, raw body bytes)."""
    return _same_digest(_hmac_hex(secret, raw_body), signature)


def verify_signature_v2(secret, timestamp, raw_body, signature):
    """v2: X-Signature-V2 = HMAC-SHA256(secret, X-Timestamp + "." + raw body bytes)."""
    return _same_digest(_hmac_hex(secret, (timestamp or "").encode("ascii", "replace") + b"." + raw_body), signature)


def verify_webhook(secret, headers, raw_body, now=None):
    """headers: a case-insensitive mapping (Flask/Django request.headers); raw_body: the bytes as
    received (Flask: request.get_data(), Django: request.body); now: the reference time in unix seconds
    (default: this machine's clock). Raises ValueError, else returns the event."""
    ts = headers.get("X-Timestamp") or ""
    if not (ts.isascii() and ts.isdigit() and len(ts) <= 12):
        raise ValueError("missing or malformed X-Timestamp")
    if abs(int(time.time() if now is None else now) - int(ts)) > TOLERANCE_SECONDS:
        raise ValueError("X-Timestamp outside the 300 s window")
    if not verify_signature_v2(secret, ts, raw_body, headers.get("X-Signature-V2")):
        raise ValueError("bad X-Signature-V2")
    if not verify_signature_v1(secret, raw_body, headers.get("X-Signature")):
        raise ValueError("bad X-Signature")
    return json.loads(raw_body.decode("utf-8"))  # parse only after the bytes are verified


_seen_ids = set()  # use durable storage (a table with a unique key) in production


def handle_webhook(secret, headers, raw_body, process, seen=_seen_ids, now=None):
    """Returns the HTTP status to answer: 401 bad signature or timestamp, 204 handled or duplicate."""
    try:
        event = verify_webhook(secret, headers, raw_body, now=now)
    except ValueError:
        return 401
    webhook_id = headers.get("X-Webhook-Id")
    if webhook_id in seen:
        return 204  # duplicate delivery: already handled
    process(event)  # if this raises, answer 500 and the service retries
    seen.add(webhook_id)
    return 204


# --- run as a program ------------------------------------------------------------------------------

class _Headers(dict):
    """A case-insensitive view of a plain dict of headers."""

    def get(self, key, default=None):
        return dict.get(self, key.lower(), default)


def _check():
    """--check: verifies the cases of a JSON array on stdin ({secret, headers, body_hex, now})."""
    results = []
    for case in json.load(sys.stdin):
        h = _Headers({k.lower(): v for k, v in case["headers"].items()})
        raw = bytes.fromhex(case["body_hex"])
        out = {
            "v1": verify_signature_v1(case["secret"], raw, h.get("X-Signature")),
            "v2": verify_signature_v2(case["secret"], h.get("X-Timestamp"), raw, h.get("X-Signature-V2")),
            "ok": False, "event": None, "error": None,
        }
        try:
            out["event"] = verify_webhook(case["secret"], h, raw, now=case["now"])["event"]
            out["ok"] = True
        except ValueError as e:
            out["error"] = str(e)
        results.append(out)
    print(json.dumps(results))


def _serve():
    from http.server import BaseHTTPRequestHandler, HTTPServer

    secret = os.environ.get("WEBHOOK_SECRET")
    if not secret:
        sys.exit("Set WEBHOOK_SECRET to the secret the dashboard showed (whsec_...).")
    offset = int(os.environ.get("WEBHOOK_CLOCK_OFFSET", "0"))
    port = int(os.environ.get("PORT", "4000"))

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                event = verify_webhook(secret, self.headers, raw, now=time.time() + offset)
            except ValueError as e:
                print("refused: %s" % e, flush=True)
                self.send_response(401)
                self.end_headers()
                return
            webhook_id = self.headers.get("X-Webhook-Id")
            if webhook_id not in _seen_ids:  # a duplicate is acknowledged and not handled again
                _seen_ids.add(webhook_id)
                print("verified %s %s (X-Webhook-Id %s)" % (event["event"], event["order_id"] or "-", webhook_id), flush=True)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", port), Receiver)
    print("listening on http://127.0.0.1:%d/webhook" % port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    _check() if sys.argv[1:] == ["--check"] else _serve()
