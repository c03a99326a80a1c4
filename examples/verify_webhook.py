# verify_webhook.py
import hashlib
import hmac
import json
import time

TOLERANCE_SECONDS = 300


def _hmac_hex(secret, data):
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
    received (Flask: request.get_data(), Django: request.body). Raises ValueError, else returns the event."""
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
