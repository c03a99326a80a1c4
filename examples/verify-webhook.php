<?php
// verify-webhook.php: verifying the service's webhooks in PHP 7.4 or later (hash_hmac, hash_equals, json).
//
// As a library: require 'verify-webhook.php'; then verify_webhook($secret, getallheaders(), file_get_contents('php://input')).
// As a receiver for trying webhooks on your machine (prints every verified event):
//   WEBHOOK_SECRET=whsec_… php -S 127.0.0.1:4000 examples/verify-webhook.php
// WEBHOOK_CLOCK_OFFSET=<seconds> judges X-Timestamp against this machine's clock plus that many seconds:
// a sandbox whose clock was advanced stamps its webhooks with its own time (GET /api/admin/v1/sandbox/clock).

const WEBHOOK_TOLERANCE_SECONDS = 300;

/** v1: X-Signature = HMAC-SHA256(secret, raw body). The key is the whole secret, "whsec_" prefix included. */
function verify_signature_v1(string $secret, string $rawBody, ?string $signature): bool
{
    return is_string($signature) && hash_equals(hash_hmac('sha256', $rawBody, $secret), $signature); // constant time
}

/** v2: X-Signature-V2 = HMAC-SHA256(secret, X-Timestamp . "." . raw body). */
function verify_signature_v2(string $secret, ?string $timestamp, string $rawBody, ?string $signature): bool
{
    return is_string($signature) && hash_equals(hash_hmac('sha256', ($timestamp ?? '') . '.' . $rawBody, $secret), $signature);
}

/**
 * Checks the timestamp (300 s around the reference time $now, unix seconds, by default this machine's clock)
 * and both signatures over the raw bytes, then decodes the body. Throws UnexpectedValueException.
 * $headers: name => value in any case (getallheaders()); $rawBody: the bytes as received (php://input).
 */
function verify_webhook(string $secret, array $headers, string $rawBody, ?int $now = null): array
{
    $h = array_change_key_case($headers, CASE_LOWER);
    $ts = $h['x-timestamp'] ?? '';
    if (!is_string($ts) || !preg_match('/^\d{1,12}$/', $ts)) {
        throw new UnexpectedValueException('missing or malformed X-Timestamp');
    }
    if (abs(($now ?? time()) - (int) $ts) > WEBHOOK_TOLERANCE_SECONDS) {
        throw new UnexpectedValueException('X-Timestamp outside the 300 s window');
    }
    if (!verify_signature_v2($secret, $ts, $rawBody, $h['x-signature-v2'] ?? null)) {
        throw new UnexpectedValueException('bad X-Signature-V2');
    }
    if (!verify_signature_v1($secret, $rawBody, $h['x-signature'] ?? null)) {
        throw new UnexpectedValueException('bad X-Signature');
    }
    return json_decode($rawBody, true, 512, JSON_THROW_ON_ERROR); // decode only after the bytes are verified
}

/**
 * Records a webhook id once: false when it was seen before (a duplicate delivery to acknowledge and skip).
 * A file per id, created atomically, so the record survives the request; in production use a table with a
 * unique key on the id.
 */
function first_delivery(string $webhookId, string $dir): bool
{
    if (!preg_match('/^[0-9a-f]{24}$/', $webhookId)) {
        return false;
    }
    if (!is_dir($dir)) {
        @mkdir($dir, 0700, true);
    }
    $f = @fopen("$dir/$webhookId", 'x');
    if ($f === false) {
        return false;
    }
    fclose($f);
    return true;
}

// --- run as a program ------------------------------------------------------------------------------

if (PHP_SAPI === 'cli-server') {
    // php -S 127.0.0.1:4000 examples/verify-webhook.php: every request is a webhook
    $log = function (string $line): void {
        file_put_contents('php://stderr', "$line\n");
    };
    $secret = getenv('WEBHOOK_SECRET');
    if (!$secret) {
        $log('Set WEBHOOK_SECRET to the secret the dashboard showed (whsec_…).');
        http_response_code(500);
        return;
    }
    $now = time() + (int) (getenv('WEBHOOK_CLOCK_OFFSET') ?: 0);
    $headers = getallheaders();
    try {
        $event = verify_webhook($secret, $headers, file_get_contents('php://input'), $now);
    } catch (UnexpectedValueException | JsonException $e) {
        $log('refused: ' . $e->getMessage());
        http_response_code(401);
        return;
    }
    $id = array_change_key_case($headers, CASE_LOWER)['x-webhook-id'] ?? '';
    $seen = getenv('WEBHOOK_SEEN_DIR') ?: sys_get_temp_dir() . '/webhooks-seen';
    if (first_delivery($id, $seen)) {
        $log(sprintf('verified %s %s (X-Webhook-Id %s)', $event['event'], $event['order_id'] ?? '-', $id));
    }
    http_response_code(204);
} elseif (PHP_SAPI === 'cli' && realpath($argv[0]) === __FILE__ && ($argv[1] ?? '') === '--check') {
    // --check: verifies the cases of a JSON array on stdin ({secret, headers, body_hex, now})
    $results = [];
    foreach (json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR) as $case) {
        $h = array_change_key_case($case['headers'], CASE_LOWER);
        $raw = hex2bin($case['body_hex']);
        $out = [
            'v1' => verify_signature_v1($case['secret'], $raw, $h['x-signature'] ?? null),
            'v2' => verify_signature_v2($case['secret'], $h['x-timestamp'] ?? null, $raw, $h['x-signature-v2'] ?? null),
            'ok' => false, 'event' => null, 'error' => null,
        ];
        try {
            $out['event'] = verify_webhook($case['secret'], $h, $raw, (int) $case['now'])['event'];
            $out['ok'] = true;
        } catch (UnexpectedValueException | JsonException $e) {
            $out['error'] = $e->getMessage();
        }
        $results[] = $out;
    }
    echo json_encode($results), "\n";
}
