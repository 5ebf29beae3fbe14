"""Hooks for the schemathesis run of test/openapi/schemathesis.test.ts (loaded through SCHEMATHESIS_HOOKS).

An Idempotency-Key names one request body for 24 hours: the same key with another body is refused with 422
by design. A fuzzer draws keys and bodies independently (its coverage phase sends the same boundary key with
many bodies), which a real client never does. So a generated key that is valid is made the client's way:
the drawn value plus a digest of the body, so one key still names one body (and a repeat of the same key and
body still exercises the replay). Invalid keys (too long, control characters) and negative cases are
sent as drawn.
"""
import hashlib
import json
import re

import schemathesis

_VALID = re.compile(r"^[\x21-\x7e]([\x20-\x7e]{0,253}[\x21-\x7e])?$")


# Webhook targets drawn by the fuzzer (any host name) would be resolved and called by the server under test:
# every one is pointed at a closed loopback port instead, so no traffic leaves 127.0.0.1 (the server allows
# loopback targets through LEADFINDER_WEBHOOK_ALLOW_PRIVATE, a loopback test service's setting).
_LOOPBACK_TARGET = "http://127.0.0.1:9/hook"


def _keep_webhooks_on_loopback(body):
    if not isinstance(body, dict):
        return
    if isinstance(body.get("url"), str):
        body["url"] = _LOOPBACK_TARGET
    hook = body.get("webhook")
    if isinstance(hook, dict) and isinstance(hook.get("url"), str):
        hook["url"] = _LOOPBACK_TARGET


@schemathesis.hook
def before_call(context, case, kwargs):
    # Negative cases are left alone: they are refused before the key is read (401, 422 on the body, 400 on
    # the key itself), and editing one makes schemathesis revalidate it as a positive case.
    meta = case.meta
    if meta is not None and meta.generation.mode.is_negative:
        return
    _keep_webhooks_on_loopback(case.body)
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() != "idempotency-key":
            continue
        value = headers[name]
        if isinstance(value, str) and _VALID.match(value):
            body = json.dumps(case.body, sort_keys=True, default=str).encode()
            headers[name] = f"{value[:200]}.{hashlib.sha256(body).hexdigest()[:16]}"
